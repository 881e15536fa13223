"""Any house rule at the table: the page solves a game at another target or Go Nuts! speed itself, in a worker,
with its WebAssembly kernel, in Chromium, from the single file opened from disk. Its values are the bytes of
``gonuts-solve build``; its advice is ``advise --json``'s; the setup says the estimate, shows a bar and a Cancel
that leaves the page as it was; a game that will not fit is refused; the values are kept in this browser for the
next game, offline, and a damaged or foreign kept entry is solved again; past the budget the least recently used
game goes, said in one line; a game's record says its target, reading and speed, and ``review`` reads it. A
worker that dies without a word is noticed (by its lock, or by its silence), a game the browser cannot keep is
played all the same, a game is kept in parts, two solves each have their own line, and every game says its house
rule.
Firefox and WebKit solve 2-player games to 30 in tests/site/test_engines.py; the site solves offline there too."""
from __future__ import annotations

import base64
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.browser
pytest.importorskip("playwright", reason="the page's browser tests need playwright (pip install \".[test]\")")
sys.path.insert(0, str(Path(__file__).parent.parent))
from test_table_app import Phone  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent
# Counts the workers the page starts (a solve starts one; a kept game none), before the page's own script runs.
COUNT_WORKERS = """(() => { const W = window.Worker; window.__workers = 0;
  window.Worker = function (...a) { window.__workers++; return new W(...a); }; })();"""


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A 2-player page (its own target 50) and a cache for the command line's tables."""
    folder = tmp_path_factory.mktemp("solves")
    env = {**os.environ, "GONUTS_SOLVE_CACHE": str(folder / "cache")}
    out = folder / "gonuts.html"
    p = subprocess.run([sys.executable, "-m", "cli", "web", "--players", "2", "--out", str(out)], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    return {"page": out, "env": env, "folder": folder}


def cli(made, *args):
    p = subprocess.run([sys.executable, "-m", "cli", *map(str, args)], cwd=ROOT, env=made["env"], capture_output=True,
                       text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    return p.stdout


def built_start_win(made, players, reading, target, speed=1):
    """The start-of-turn values of ``gonuts-solve build``'s table for this game, as the page lays them out."""
    out = made["folder"] / f"{players}-{reading}-{target}-{speed}.npz"
    if not out.exists():
        args = ["build", "--players", players, "--rules", reading, "--target", target, "--out", out]
        cli(made, *(args + (["--speed", speed] if speed != 1 else [])))
    with np.load(out) as z:
        return np.ascontiguousarray(z["start_win"], dtype="<f8")


def page_values(page, players, reading, target, speed=1):
    """A solved game's start-of-turn values from the page, as bytes."""
    text = page.evaluate("""([p, r, g, v]) => { const w = window.gonuts.core.game(p, r, g, v).values;
        const b = new Uint8Array(w.buffer, w.byteOffset, w.byteLength); let s = '';
        for (let i = 0; i < b.length; i += 8192) s += String.fromCharCode(...b.subarray(i, i + 8192));
        return btoa(s); }""", [players, reading, target, speed])
    return base64.b64decode(text)


def open_phone(browser, made, size=(390, 844)):
    phone = Phone(browser, size)
    phone.page.add_init_script(COUNT_WORKERS)
    phone.page.goto(made["page"].as_uri())
    phone.page.wait_for_function("() => window.gonuts !== undefined")
    return phone


def setup_table(page, players, reading, target, speed=None):
    page.locator("#tab-table").click()
    if not page.evaluate("document.getElementById('table-new').open"):
        page.locator("#table-new > summary").click()
    page.select_option("#table-players", str(players))
    page.select_option("#table-rules", reading)
    page.fill("#table-target", str(target))
    if speed is not None:
        page.locator("#table-more summary").click()
        page.select_option("#table-speed", str(speed))


def solving(page, players, reading, target, speed=None):
    """Start a Table game the page must solve; once its bar moves, its line in the solving panel."""
    setup_table(page, players, reading, target, speed)
    page.locator("#table-setup button[type=submit]").click()
    wait_until(page, "() => (document.querySelector('#solving progress') || {}).value > 0.02")
    return page.text_content("#solving .solving-line")


def wait_until(page, script, timeout=120):
    end = time.monotonic() + timeout
    while not page.evaluate(script):
        assert time.monotonic() < end, f"still not: {script}"
        time.sleep(0.05)


def test_a_table_game_to_20_is_solved_on_the_phone_with_the_bits_of_build(browser, made):
    phone = open_phone(browser, made)
    page = phone.page
    try:
        setup_table(page, 3, "summary", 20)
        page.locator("#table-setup button[type=submit]").click()
        page.wait_for_selector("#table-game:not([hidden])", timeout=120000)
        assert page.evaluate("window.__workers") == 2           # the calibration, then the game
        record = page.evaluate("window.gonuts.record('table')")
        assert (record["target"], record["reading"], record["speed"], record["players"]) == (20, "summary", 1, 3)
        want = built_start_win(made, 3, "summary", 20)
        got = page_values(page, 3, "summary", 20)
        assert hashlib.sha256(got).hexdigest() == hashlib.sha256(want.tobytes()).hexdigest()
        for scores, turn, dice in [((5, 3, 7), 4, 3), ((0, 0, 0), 0, 5), ((19, 12, 18), 0, 5), ((10, 2, 15), 8, 1)]:
            q = {"scores": list(scores), "turn": turn, "dice": dice, "reading": "summary", "target": 20}
            a = page.evaluate("(q) => window.gonuts.advise(q)", q)
            b = json.loads(cli(made, "advise", "--scores", ",".join(map(str, scores)), "--turn", turn, "--dice", dice,
                               "--rules", "summary", "--target", 20, "--json"))
            assert a["action"] == b["action"] and a["reason"] == b["reason"], (q, a, b)
            for key in ("win_if_roll", "win_if_stop"):
                assert (a[key] is None) == (b[key] is None) and (a[key] is None or abs(a[key] - b[key]) <= 1e-12), (q, key)
        # the table plays it: a roll, a choice; review on the command line reads the record's target and reading
        for selector in ("[data-roll='2-3-0']", "#table-roll", "all acorns", "#table-stop"):
            if selector == "all acorns":
                selector = f"[data-roll='{phone.state()['n']}-0-0']"
            phone.tap(selector)                  # as a person taps: a quicker tap on the same spot is a double tap
        record = page.evaluate("window.gonuts.record('table')")
        assert len(record["events"]) == 4
        path = made["folder"] / "table-20.json"
        path.write_text(json.dumps(record))
        by_cli = json.loads(cli(made, "review", path, "--all-seats", "--json"))
        by_page = page.evaluate("(r) => window.gonuts.review(r, 0)", record)
        seat0 = by_cli["seats"][0]
        assert seat0["target"] == 20 and seat0["reading"] == "summary"
        assert [d["event"] for d in seat0["decisions"]] == [d["event"] for d in by_page["decisions"]] == [1, 3]
        assert abs(seat0["total_loss_points"] - by_page["total_loss_points"]) <= 1e-9
        assert phone.errors == []
    finally:
        phone.ctx.close()


def test_a_house_rule_below_a_game_the_page_holds_starts_at_once_from_its_corner(browser, made):
    """A Table game to 30 (the page's own 2-player game is to 50) and, once a 3-player game to 20 is solved and
    kept, a game to 14 of it: each starts at once (no worker, no solving panel) with `advise --json`'s numbers;
    after a reload, offline, the game to 14 is read off the kept game to 20 again."""
    phone = open_phone(browser, made)
    page, ctx = phone.page, phone.ctx

    def same_as_cli(players, reading, target, scores, turn, dice):
        q = {"scores": list(scores), "turn": turn, "dice": dice, "reading": reading, "target": target}
        a = page.evaluate("(q) => window.gonuts.advise(q)", q)
        b = json.loads(cli(made, "advise", "--scores", ",".join(map(str, scores)), "--turn", turn, "--dice", dice,
                           "--rules", reading, "--target", target, "--json"))
        assert a["action"] == b["action"] and a["reason"] == b["reason"], (q, a, b)
        for key in ("win_if_roll", "win_if_stop"):
            assert (a[key] is None) == (b[key] is None) and (a[key] is None or abs(a[key] - b[key]) <= 1e-12), (q, key)
        return a
    try:
        setup_table(page, 2, "summary", 30)
        page.locator("#table-setup button[type=submit]").click()
        page.wait_for_selector("#table-game:not([hidden])", timeout=30000)
        assert page.evaluate("window.__workers") == 0 and page.evaluate("document.getElementById('solving').hidden")
        record = page.evaluate("window.gonuts.record('table')")
        assert (record["players"], record["reading"], record["target"], record["speed"]) == (2, "summary", 30, 1)
        for scores, turn, dice in [((0, 0), 0, 5), ((12, 27), 9, 2), ((29, 3), 0, 5)]:
            same_as_cli(2, "summary", 30, scores, turn, dice)
        page.evaluate("window.gonuts.solve({players: 3, reading: 'rulebook', target: 20})")
        solved = page.evaluate("window.__workers")
        assert solved == 2                                      # the calibration and the game to 20
        want = same_as_cli(3, "rulebook", 14, (3, 9, 1), 4, 3)
        assert page.evaluate("window.__workers") == solved     # the game to 14: read off it, not solved
        assert [k["key"] for k in page.evaluate("window.gonuts.kept()")] == ["3-rulebook-20-1"]
        ctx.set_offline(True)
        page.reload()
        page.wait_for_function("() => window.gonuts !== undefined")
        got = page.evaluate("window.gonuts.advise({scores: [3, 9, 1], turn: 4, dice: 3, target: 14})")
        assert got == want and page.evaluate("window.__workers") == 0
        assert phone.errors == []
    finally:
        ctx.close()


def test_a_game_at_another_speed_is_build_s_too(browser, made):
    """The Go Nuts! round at twice the printed speed, chosen under More: the values are build's --speed 2 bytes."""
    phone = open_phone(browser, made)
    page = phone.page
    try:
        setup_table(page, 2, "rulebook", 35, speed=2)
        page.locator("#table-setup button[type=submit]").click()
        page.wait_for_selector("#table-game:not([hidden])", timeout=120000)
        assert page.evaluate("window.gonuts.record('table').speed") == 2
        want = built_start_win(made, 2, "rulebook", 35, 2)
        assert page_values(page, 2, "rulebook", 35, 2) == want.tobytes()
        assert page_values(page, 2, "rulebook", 35, 2) != built_start_win(made, 2, "rulebook", 35).tobytes()
    finally:
        phone.ctx.close()


def test_the_setup_says_the_estimate_and_cancel_leaves_the_page_as_it_was(browser, made):
    phone = open_phone(browser, made, size=(320, 568))
    page = phone.page
    try:
        line = solving(page, 4, "rulebook", 30)
        assert line.startswith("Solving the 4-player rulebook game to 30: about ") and "\u00a0MB on this device." in line
        seconds = float(line.split("about ")[1].split("\u00a0s")[0])
        assert 0.1 < seconds < 600
        assert page.locator("#solving .solving-cancel").is_visible()
        box = page.locator("#solving").bounding_box()
        assert box["y"] + box["height"] <= 568 and box["x"] >= 0 and box["x"] + box["width"] <= 320   # in sight
        start = page.locator("#table-setup button[type=submit]").bounding_box()     # and the Start button above it
        assert start["y"] + start["height"] <= box["y"] and start["y"] >= 0, (start, box)
        page.locator("#solving .solving-cancel").click()
        wait_until(page, "() => document.getElementById('solving').hidden")
        assert page.text_content("#table-setup-error") == "Solving cancelled: nothing changed."
        assert page.evaluate("window.gonuts.record('table')") is None
        assert page.evaluate("document.getElementById('table-game').hidden")
        assert page.evaluate("document.getElementById('table-new').open")
        assert page.input_value("#table-target") == "30"
        assert page.evaluate("window.gonuts.kept()") == []
        assert not page.evaluate("window.gonuts.core.loaded(4, 'rulebook', 30, 1)")
        # a game that will not fit is refused before anything starts
        workers = page.evaluate("window.__workers")
        page.fill("#table-target", "100")
        page.locator("#table-setup button[type=submit]").click()
        wait_until(page, "() => !document.getElementById('table-setup-error').hidden && "
                         "document.getElementById('table-setup-error').textContent.includes('100')")
        said = page.text_content("#table-setup-error")
        assert said.startswith("The 4-player rulebook game to 100 needs about ") and "fewer players" in said
        assert page.evaluate("window.__workers") == workers and page.evaluate("window.gonuts.record('table')") is None
        # out of the range: said, nothing started
        page.fill("#table-target", "101")
        page.locator("#table-setup button[type=submit]").click()
        assert page.text_content("#table-setup-error") == "The target is a whole number from 10 to 100."
        assert phone.errors == []
    finally:
        phone.ctx.close()


def test_a_solved_game_is_kept_for_the_next_visit_offline_and_a_damaged_one_is_solved_again(browser, made):
    phone = open_phone(browser, made)
    page, ctx = phone.page, phone.ctx
    try:
        seen = page.evaluate("""async () => { const seen = [];
            await window.gonuts.solve({players: 2, reading: 'rulebook', target: 25, speed: 2}, (p) => seen.push([p.done, p.total]));
            return seen; }""")
        assert seen and seen[-1][0] == seen[-1][1] and all(a[0] <= b[0] for a, b in zip(seen, seen[1:]))
        want = page.evaluate("window.gonuts.advise({scores: [3, 4], turn: 6, dice: 2, target: 25, speed: 2})")
        kept = page.evaluate("window.gonuts.kept()")
        assert [k["key"] for k in kept] == ["2-rulebook-25-2"] and kept[0]["bytes"] == 25 ** 2 * 2 * 8
        ctx.set_offline(True)
        page.reload()
        page.wait_for_function("() => window.gonuts !== undefined")
        assert not page.evaluate("window.gonuts.core.loaded(2, 'rulebook', 25, 2)")
        assert page.evaluate("window.gonuts.advise({scores: [3, 4], turn: 6, dice: 2, target: 25, speed: 2})") == want
        assert page.evaluate("window.__workers") == 0           # read from this browser's kept games, not solved
        # a damaged entry (a value changed, its checksum not): dropped and solved again, with the same answer
        page.evaluate("""() => new Promise((ok) => { const req = indexedDB.open('gonuts-solved');
            req.onsuccess = () => { const s = req.result.transaction('games', 'readwrite').objectStore('games');
              const get = s.get('2-rulebook-25-2#0000'); get.onsuccess = () => { const e = get.result;
                const v = new Float64Array(e.values); v[7] = 0.5; s.put(e).onsuccess = () => ok(true); }; }; })""")
        page.reload()
        page.wait_for_function("() => window.gonuts !== undefined")
        assert page.evaluate("window.gonuts.advise({scores: [3, 4], turn: 6, dice: 2, target: 25, speed: 2})") == want
        assert page.evaluate("window.__workers") == 2           # the calibration and the game
        # a foreign entry (kept under this game's key, but of another game): ignored, solved again
        page.evaluate("""() => new Promise((ok) => { const req = indexedDB.open('gonuts-solved');
            req.onsuccess = () => { const s = req.result.transaction('games', 'readwrite').objectStore('games');
              const get = s.get('2-rulebook-25-2'); get.onsuccess = () => { const e = get.result;
                e.spec = {...e.spec, target: 26}; s.put(e).onsuccess = () => ok(true); }; }; })""")
        page.reload()
        page.wait_for_function("() => window.gonuts !== undefined")
        assert page.evaluate("window.gonuts.advise({scores: [3, 4], turn: 6, dice: 2, target: 25, speed: 2})") == want
        assert page.evaluate("window.__workers") == 2
        assert phone.errors == []
    finally:
        ctx.close()


def test_past_the_budget_the_least_recently_used_game_goes_and_the_page_says_so(browser, made, tmp_path):
    """The budget made small (the page's data says it): three 2-player games of 19.6, 25.6 and 57.6 kB in 80 kB (the
    first two at speed 2: at speed 1 they are the corner of the page's own game to 50, and nothing is kept)."""
    text = made["page"].read_text(encoding="utf-8")
    assert text.count('"budget":268435456') == 1
    small = tmp_path / "small-budget.html"
    small.write_text(text.replace('"budget":268435456', '"budget":80000'), encoding="utf-8")
    phone = Phone(browser, (390, 844))
    page = phone.page
    try:
        page.goto(small.as_uri())
        page.wait_for_function("() => window.gonuts !== undefined")
        for target in (35, 40):
            page.evaluate("(g) => window.gonuts.solve({players: 2, target: g, speed: 2})", target)
        page.evaluate("window.gonuts.advise({scores: [1, 2], target: 35, speed: 2})")          # 35 used last: 40 goes first
        page.reload()
        page.wait_for_function("() => window.gonuts !== undefined")
        page.evaluate("window.gonuts.advise({scores: [1, 2], target: 35, speed: 2})")
        setup_table(page, 2, "rulebook", 60)
        page.locator("#table-setup button[type=submit]").click()
        page.wait_for_selector("#table-game:not([hidden])", timeout=120000)
        assert sorted(k["key"] for k in page.evaluate("window.gonuts.kept()")) == ["2-rulebook-35-2", "2-rulebook-60-1"]
        assert page.text_content("#solving-note") == \
            "To make room, this browser no longer keeps the 2-player rulebook game to 40 at Go Nuts! speed 2."
        assert phone.errors == []
    finally:
        phone.ctx.close()


def test_advise_play_coach_and_practice_each_ask_the_target_and_play_to_it(browser, made):
    """The other setups: a game to 15 asked in each, read off the page's own game to 50 (its corner: no solve, no
    panel), played to 15, its record saying so, its advice `advise --json`'s; Play's link carries the target, and
    opens that game again."""
    phone = open_phone(browser, made)
    page = phone.page
    try:
        page.locator("#tab-advise").click()
        page.fill("#adv-target", "15")
        page.fill("#adv-score-0", "12")
        page.fill("#adv-score-1", "14")
        page.fill("#adv-turn", "2")
        page.select_option("#adv-dice", "3")
        page.press("#adv-turn", "Enter")
        page.wait_for_selector("#adv-out:not([hidden])", timeout=120000)
        api = page.evaluate("window.gonuts.advise({scores: [12, 14], turn: 2, dice: 3, target: 15})")
        assert float(page.locator("#adv-out .num[data-key=win_if_roll]").get_attribute("data-value")) == api["win_if_roll"]
        assert api["win_if_roll"] != page.evaluate("window.gonuts.advise({scores: [12, 14], turn: 2, dice: 3})")["win_if_roll"]
        page.fill("#adv-score-0", "15")                       # a score at the target is no question at 15
        page.press("#adv-turn", "Enter")
        wait_until(page, "() => !document.getElementById('adv-error').hidden")
        assert "15" in page.text_content("#adv-error")

        page.locator("#tab-play").click()
        page.fill("#play-target", "15")
        page.fill("#play-seed", "7")
        page.click("#play-setup button[type=submit]")
        page.wait_for_selector("#play-game:not([hidden])")
        played = page.evaluate("window.gonuts.record('play')")
        assert (played["target"], played["speed"], played["seed"]) == (15, 1, 7)
        assert "target=15" in page.evaluate("location.hash") and "target 15" in page.text_content("#play-reading")

        page.locator("#tab-coach").click()
        page.fill("#coach-target", "15")
        page.click("#coach-setup button[type=submit]")
        wait_until(page, "() => !!window.gonuts.record('coach')")
        assert page.evaluate("window.gonuts.record('coach').target") == 15

        page.locator("#tab-practice").click()
        page.fill("#prac-target", "15")
        page.fill("#prac-count", "4")
        page.click("#prac-go")
        page.wait_for_selector("#prac-quiz:not([hidden])")
        drawn = page.evaluate("window.gonuts.practice({seed: 3, count: 4, target: 15})")
        assert all(max(d["scores"]) < 15 for d in drawn)
        assert page.evaluate("window.__workers") == 0            # the corner of the game to 50: nothing solved
        assert page.evaluate("window.gonuts.kept()") == [] and page.evaluate("document.getElementById('solving').hidden")
        b = json.loads(cli(made, "advise", "--scores", "12,14", "--turn", 2, "--dice", 3, "--target", 15, "--json"))
        assert api["action"] == b["action"] and abs(api["win_if_roll"] - b["win_if_roll"]) <= 1e-12
        # the play link opens its game to 15 in a new tab of the same browser
        link = page.evaluate("location.href.split('#')[0]") + "#" + played_hash(page, played)
        other = phone.ctx.new_page()
        other.goto(link)
        other.wait_for_function("() => window.gonuts !== undefined")
        wait_until(other, "() => !!window.gonuts.record('play')")
        assert other.evaluate("window.gonuts.record('play').target") == 15
        assert phone.errors == []
    finally:
        phone.ctx.close()


def played_hash(page, record):
    return (f"play&seed={record['seed']}&players={record['players']}&reading={record['reading']}&seat={record['you']}"
            f"&opp=optimal&target={record['target']}")


# A worker that goes away without a word, as a browser ends one out of memory (no message, no error event): the
# page's worker is ended from outside after its first report of progress, once window.__kill is set.
KILL_WORKERS = """(() => { const W = window.Worker; window.__kill = false;
  window.Worker = class extends W { constructor(...a) { super(...a); this.addEventListener('message', (e) => {
    if (window.__kill && e.data && e.data.progress) { window.__kill = false; this.terminate(); } }); } }; })();"""
NO_LOCKS = "Object.defineProperty(Navigator.prototype, 'locks', {get: () => undefined, configurable: true});"
DIED = ("The solver stopped before the end, perhaps for lack of memory on this device: nothing was kept. "
        "Try again, or choose a lower target.")


def start_table(page, players, reading, target, speed=None):
    setup_table(page, players, reading, target, speed)
    page.locator("#table-setup button[type=submit]").click()


@pytest.mark.parametrize("locks", [True, False], ids=["noticed-by-its-lock", "noticed-by-its-silence"])
def test_a_worker_that_dies_is_noticed_nothing_is_kept_and_the_next_try_solves(browser, made, tmp_path, locks):
    """With Web Locks the page hears at once that the worker is gone; without them, by its silence beyond the
    estimate (the patience made 1 s here, where the page's data says it)."""
    text = made["page"].read_text(encoding="utf-8")
    assert text.count('"patience":20') == 1
    impatient = tmp_path / "impatient.html"
    impatient.write_text(text.replace('"patience":20', '"patience":1'), encoding="utf-8")
    phone = Phone(browser, (390, 844))
    page = phone.page
    try:
        page.add_init_script(KILL_WORKERS)
        if not locks:
            page.add_init_script(NO_LOCKS)
        page.goto(impatient.as_uri())
        page.wait_for_function("() => window.gonuts !== undefined")
        assert page.evaluate("!!navigator.locks") == locks
        page.evaluate("window.gonuts.solve({players: 3, target: 12})")          # the calibration, before the kill
        page.evaluate("window.__kill = true")
        began = time.monotonic()
        start_table(page, 3, "rulebook", 40)
        wait_until(page, "() => !document.getElementById('table-setup-error').hidden", timeout=60)
        assert page.text_content("#table-setup-error") == DIED
        assert time.monotonic() - began < 30
        assert page.evaluate("document.getElementById('solving').hidden")
        assert page.evaluate("window.gonuts.record('table')") is None
        assert not page.evaluate("window.gonuts.core.loaded(3, 'rulebook', 40, 1)")
        assert [k["key"] for k in page.evaluate("window.gonuts.kept()")] == ["3-rulebook-12-1"]
        # the same again: solved, the game on screen, the refusal gone
        page.locator("#table-setup button[type=submit]").click()
        page.wait_for_selector("#table-game:not([hidden])", timeout=120000)
        assert page.evaluate("document.getElementById('table-setup-error').hidden")
        assert page.evaluate("window.gonuts.core.loaded(3, 'rulebook', 40, 1)")
        assert phone.errors == []
    finally:
        phone.ctx.close()


def test_a_game_this_browser_cannot_keep_is_played_all_the_same(browser, made):
    """Keeping fails as Chromium fails a value too large (the transaction aborts; the request says nothing): the
    solve still ends, the game is played, nothing half kept stays."""
    phone = open_phone(browser, made)
    page = phone.page
    try:
        page.evaluate("""() => { const put = IDBObjectStore.prototype.put;
            IDBObjectStore.prototype.put = function (v, ...rest) {
              if (v && v.values instanceof ArrayBuffer) { const tx = this.transaction; setTimeout(() => tx.abort(), 0); }
              return put.call(this, v, ...rest); }; }""")
        assert page.evaluate("window.gonuts.solve({players: 2, target: 22, speed: 2}).then(() => true)") is True
        assert page.evaluate("window.gonuts.advise({scores: [3, 4], target: 22, speed: 2}).action") in ("roll", "stop")
        assert page.evaluate("window.gonuts.kept()") == []
        assert phone.errors == []
    finally:
        phone.ctx.close()


def test_a_game_is_kept_in_parts_and_read_back_whole(browser, made, tmp_path):
    """Chromium keeps no value over 127 MB (the 4-player game to 50 has 216 MB): a game is kept in parts. The part
    made 4 kB here (the page's data says it), so that a 2-player game to 25 at speed 2 (10,000 bytes) has three."""
    text = made["page"].read_text(encoding="utf-8")
    assert text.count(f'"part":{32 * 2 ** 20}') == 1
    small = tmp_path / "small-parts.html"
    small.write_text(text.replace(f'"part":{32 * 2 ** 20}', '"part":4096'), encoding="utf-8")
    phone = Phone(browser, (390, 844))
    page = phone.page
    try:
        page.add_init_script(COUNT_WORKERS)
        page.goto(small.as_uri())
        page.wait_for_function("() => window.gonuts !== undefined")
        page.evaluate("window.gonuts.solve({players: 2, target: 25, speed: 2})")
        want = page.evaluate("window.gonuts.advise({scores: [3, 4], turn: 6, dice: 2, target: 25, speed: 2})")
        parts = page.evaluate("""() => new Promise((ok) => { const req = indexedDB.open('gonuts-solved');
            req.onsuccess = () => { const all = req.result.transaction('games').objectStore('games').getAllKeys();
              all.onsuccess = () => ok(all.result); }; })""")
        assert parts == ["2-rulebook-25-2", "2-rulebook-25-2#0000", "2-rulebook-25-2#0001", "2-rulebook-25-2#0002"]
        page.reload()
        page.wait_for_function("() => window.gonuts !== undefined")
        assert page.evaluate("window.gonuts.advise({scores: [3, 4], turn: 6, dice: 2, target: 25, speed: 2})") == want
        assert page.evaluate("window.__workers") == 0
        # a part missing: the game is solved again, with the same answer
        page.evaluate("""() => new Promise((ok) => { const req = indexedDB.open('gonuts-solved');
            req.onsuccess = () => { req.result.transaction('games', 'readwrite').objectStore('games')
              .delete('2-rulebook-25-2#0001').onsuccess = () => ok(true); }; })""")
        page.reload()
        page.wait_for_function("() => window.gonuts !== undefined")
        assert page.evaluate("window.gonuts.advise({scores: [3, 4], turn: 6, dice: 2, target: 25, speed: 2})") == want
        assert page.evaluate("window.__workers") == 2
        assert phone.errors == []
    finally:
        phone.ctx.close()


def test_a_newer_page_opening_the_kept_games_is_not_kept_waiting(browser, made):
    """When another tab (an update of the page) opens the kept games' database at a newer version, this tab closes
    its connection at once, instead of blocking the other for the whole visit."""
    phone = open_phone(browser, made)
    try:
        phone.page.evaluate("window.gonuts.kept()")                  # this tab holds the database open
        other = phone.ctx.new_page()
        other.goto(made["page"].as_uri())
        got = other.evaluate("""() => new Promise((ok) => { const req = indexedDB.open('gonuts-solved', 3);
            let blocked = false; req.onblocked = () => { blocked = true; };
            req.onsuccess = () => { req.result.close(); ok(blocked ? 'blocked, then opened' : 'opened'); };
            req.onerror = () => ok('error'); setTimeout(() => ok('still blocked'), 5000); })""")
        assert got in ("opened", "blocked, then opened")
        assert got == "opened" or phone.page.evaluate("window.gonuts.kept().then(() => true)")
    finally:
        phone.ctx.close()


def test_two_solves_each_have_their_own_line_bar_and_cancel(browser, made):
    """A slow Table solve and a fast Advise solve at once: each its own line naming its game; the fast one ending
    leaves the slow one's line and Cancel; its Cancel ends only its own solve."""
    phone = open_phone(browser, made)
    page = phone.page
    try:
        page.evaluate("window.gonuts.solve({players: 3, target: 12})")          # the calibration
        start_table(page, 4, "rulebook", 36)
        wait_until(page, "() => document.querySelectorAll('#solving .solving-row').length === 1 && "
                         "document.querySelector('#solving .solving-line').textContent.startsWith('Solving')")
        page.locator("#tab-advise").click()
        page.fill("#adv-target", "16")
        page.locator("#adv-more summary").click()
        page.select_option("#adv-speed", "2")            # at speed 1 the page's own game answers at once (its corner)
        page.press("#adv-turn", "Enter")
        page.wait_for_selector("#adv-out:not([hidden])", timeout=120000)
        lines = page.eval_on_selector_all("#solving .solving-line", "(ps) => ps.map((p) => p.textContent)")
        assert len(lines) == 1 and lines[0].startswith("Solving the 4-player rulebook game to 36: about "), lines
        assert page.locator("#solving .solving-cancel").is_visible()
        page.locator("#solving .solving-cancel").click()
        wait_until(page, "() => document.getElementById('solving').hidden")
        page.locator("#tab-table").click()
        assert page.text_content("#table-setup-error") == "Solving cancelled: nothing changed."
        assert page.evaluate("window.gonuts.core.loaded(2, 'rulebook', 16, 2)")
        assert not page.evaluate("window.gonuts.core.loaded(4, 'rulebook', 36, 1)")
        # the next try says nothing of the cancel while it solves, and names the speed of a game at speed 2
        setup_table(page, 2, "summary", 33, speed=2)
        page.locator("#table-setup button[type=submit]").click()
        page.wait_for_selector("#table-game:not([hidden])", timeout=120000)
        assert page.evaluate("document.getElementById('table-setup-error').hidden")
        assert page.text_content("#table-rule") == "2 players, summary reading, target 33, Go Nuts! speed 2"
        assert phone.errors == []
    finally:
        phone.ctx.close()


def test_the_solving_line_names_the_speed_and_follows_a_change_of_language(browser, made):
    phone = open_phone(browser, made, size=(320, 568))
    page = phone.page
    try:
        page.evaluate("window.gonuts.solve({players: 3, target: 12})")          # the calibration
        line = solving(page, 4, "summary", 44, speed=0.5)
        assert line.startswith("Solving the 4-player summary game to 44 at Go Nuts! speed 0.5: about "), line
        page.select_option("#lang", "de")
        wait_until(page, "() => document.querySelector('#solving .solving-line').textContent.startsWith('Die Partie')")
        line = page.text_content("#solving .solving-line")
        assert "mit Go-Nuts!-Tempo 0,5 wird gelöst: etwa " in line, line
        assert page.text_content("#solving .solving-cancel") == "Abbrechen"
        page.locator("#solving .solving-cancel").click()
        wait_until(page, "() => document.getElementById('solving').hidden")
        assert page.evaluate("document.body.style.paddingBottom") == ""         # the room it took, given back
    finally:
        phone.ctx.close()


def test_the_page_s_script_face_takes_a_target_left_out_and_names_what_it_refuses(browser, made):
    phone = open_phone(browser, made)
    page = phone.page
    try:
        # a target left out is the page's own (50), at speed 2 too: solved once, then answered
        got = page.evaluate("async () => await window.gonuts.advise({scores: [0, 0], speed: 2})")
        assert got == page.evaluate("window.gonuts.advise({scores: [0, 0], speed: 2, target: 50})")
        assert got["action"] == "roll" and page.evaluate("window.gonuts.core.loaded(2, 'rulebook', 50, 2)")
        def said(script):
            return page.evaluate(f"async () => {{ try {{ await {script}; return 'answered'; }} "
                                 "catch (e) { return e.message; } }")
        assert said("window.gonuts.solve(null)") == "solve takes one object: {players, reading, target, speed}, not null"
        assert said("window.gonuts.advise({scores: [0, NaN]})") == "scores must be whole numbers, not NaN"
        assert said("window.gonuts.advise({scores: [0, 0], turn: Infinity})") == \
            "turn points must be a whole number, not Infinity"
        record = {"format": "gonuts-game", "version": 1, "reading": "rulebook", "players": 2, "target": 50, "speed": 3,
                  "you": 0, "mode": "play", "events": []}
        assert said(f"window.gonuts.review({json.dumps(record)})").endswith(
            "this page has no table for 2 players, rulebook, target 50, Go Nuts! speed 3")
        assert phone.errors == []
    finally:
        phone.ctx.close()


@pytest.mark.parametrize("link, why", [
    ("speed=0x2", "This page solves games to 10 to 100 points, at Go Nuts! speeds 0.5, 1, 2; not this one."),
    ("speed=%202", "This page solves games to 10 to 100 points, at Go Nuts! speeds 0.5, 1, 2; not this one."),
    ("speed=2e0", "This page solves games to 10 to 100 points, at Go Nuts! speeds 0.5, 1, 2; not this one."),
    ("reading=summary&rules=rulebook", "give the reading once: reading (or its older name, rules), not both"),
])
def test_a_play_link_says_its_game_as_the_page_writes_it(browser, made, link, why):
    phone = Phone(browser, (390, 844))
    page = phone.page
    try:
        page.goto(made["page"].as_uri() + f"#play&seed=7&players=2&seat=0&opp=optimal&{link}")
        page.wait_for_function("() => window.gonuts !== undefined")
        wait_until(page, "() => !document.getElementById('play-error').hidden")
        assert why in page.text_content("#play-error")
        assert page.evaluate("window.gonuts.record('play')") is None
    finally:
        phone.ctx.close()


def test_a_play_link_at_speed_2_plays_and_its_game_says_its_house_rule(browser, made):
    phone = Phone(browser, (390, 844))
    page = phone.page
    try:
        page.goto(made["page"].as_uri() + "#play&seed=7&players=2&seat=0&opp=optimal&target=18&speed=2")
        page.wait_for_function("() => window.gonuts !== undefined")
        page.wait_for_selector("#play-game:not([hidden])", timeout=120000)
        assert page.text_content("#play-reading").startswith(
            "2 players, rulebook reading, target 18, Go Nuts! speed 2, seed 7.")
        page.locator("#tab-review").click()
        wait_until(page, "() => document.getElementById('rev-out').textContent.includes('target 18')")
        assert "2 players, rulebook reading, target 18, Go Nuts! speed 2" in page.text_content("#rev-out")
        with page.expect_download() as got:
            page.locator("#rev-export").click()
        assert got.value.suggested_filename == "gonuts-play-2p-rulebook-t18-speed2-7.json"
    finally:
        phone.ctx.close()
