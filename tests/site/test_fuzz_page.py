"""Hostile input against the page and the CLI, seeded: random address fragments, random stored
values under every key the page uses, and random game records. Nothing may stop start-up or leave
window.gonuts undefined, nothing stored may be lost without a message, and the page and the CLI must give
the same verdict on every record. Runs in well under a minute."""
from __future__ import annotations

import json
import random
import string
import subprocess
import sys
from pathlib import Path

import pytest

from solver.play.record import RecordError, replay

ROOT = Path(__file__).resolve().parent.parent.parent
KEYS = ("gonuts.play.v1", "gonuts.coach.v1", "gonuts.table.v1")
MODE = {"gonuts.play.v1": "play", "gonuts.coach.v1": "coach", "gonuts.table.v1": "table"}


def legal_record(rng, players=None):
    """A record of a legal game (or its beginning), played with random dice and choices."""
    N = players or rng.choice((2, 3))
    reading = rng.choice(("rulebook", "summary"))
    rec = {"format": "gonuts-game", "version": 1, "reading": reading, "players": N, "target": 50,
           "you": rng.randrange(N), "mode": rng.choice(("play", "coach", "table")), "events": []}
    for _ in range(rng.randrange(60)):
        st = replay(rec)
        if st.phase == "over":
            break
        if st.phase in ("start", "roll"):
            if st.phase == "start" and (st.seat != rec["you"] or rec["mode"] == "table") and rng.random() < 0.3:
                rec["events"].append({"seat": st.seat, "banked": rng.randrange(12)})
                continue
            n = st.dice
            a = rng.randrange(n + 1)
            s = rng.randrange(n - a + 1)
            rec["events"].append({"seat": st.seat, "roll": [a, s, n - a - s]})
        elif st.phase == "decide":
            rec["events"].append({"seat": st.seat, "choice": rng.choice(("roll", "stop"))})
        else:
            rec["events"].append({"seat": st.seat, "nuts": rng.randrange(8)})
    return rec


ODD = [None, True, False, -1, 0, 2.0, 2.5, 1e300, "", "2", "x" * 200, [], {}, [1, 2, 3], {"a": 1}, 10 ** 30]


def mutate(rng, rec):
    """A record with one to three random faults: a value replaced by an odd one, a key dropped or added,
    events swapped, a roll's counts changed."""
    rec = json.loads(json.dumps(rec))
    for _ in range(rng.randrange(1, 4)):
        kind = rng.randrange(6)
        if kind == 0:
            rec[rng.choice(list(rec))] = rng.choice(ODD)
        elif kind == 1 and rec:
            rec.pop(rng.choice(list(rec)))
        elif kind == 2:
            rec[rng.choice(("seed", "extra", "names"))] = rng.choice(ODD)
        elif isinstance(rec.get("events"), list) and rec["events"]:
            i = rng.randrange(len(rec["events"]))
            ev = rec["events"][i]
            if kind == 3 and isinstance(ev, dict) and ev:
                ev[rng.choice(list(ev) + ["seat", "roll", "choice"])] = rng.choice(ODD)
            elif kind == 4:
                j = rng.randrange(len(rec["events"]))
                rec["events"][i], rec["events"][j] = rec["events"][j], rec["events"][i]
            elif isinstance(ev, dict) and isinstance(ev.get("roll"), list) and ev["roll"]:
                ev["roll"][rng.randrange(len(ev["roll"]))] += rng.choice((-1, 1, 3))
    return rec


def python_verdict(rec):
    try:
        return {"state": replay(rec).state()}
    except RecordError as exc:
        return {"error": str(exc)}


@pytest.fixture(scope="module")
def page(browser, tmp_path_factory):
    out = tmp_path_factory.mktemp("fuzz") / "page.html"
    p = subprocess.run([sys.executable, "-m", "cli", "web", "--players", "2,3", "--out", str(out)], cwd=ROOT,
                       capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stderr
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    pg = ctx.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.goto(out.as_uri())
    pg.wait_for_function("() => window.gonuts !== undefined")
    yield pg, out.as_uri(), errors
    ctx.close()


@pytest.mark.browser
def test_the_page_and_the_cli_judge_random_records_alike(page):
    pg, _, errors = page
    rng = random.Random(19)
    records = []
    for _ in range(400):
        rec = legal_record(rng)
        records.append(rec if rng.random() < 0.2 else mutate(rng, rec))
    records += [None, [], "garbage", 5, {"format": "gonuts-game"}]
    got = pg.evaluate("""(rs) => rs.map((r) => {
      try { return {state: window.gonuts.core.replayState(r)}; }
      catch (e) { return e instanceof window.gonuts.core.GonutsInputError ? {error: e.message} : {crash: String(e)}; }
    })""", records)
    for rec, js in zip(records, got):
        assert js == python_verdict(rec), json.dumps(rec)[:400]
        if "error" in js:
            assert len(js["error"]) < 400
    assert errors == []


def _fragment(rng):
    keys = ["seed", "players", "rules", "seat", "opp", "fast", "%ZZ", "x"]
    vals = ["42", "2", "3", "0x2", "2.0", "%202", "-1", "", "rulebook", "house", "optimal,hold:51", "%E0%A4%A",
            "99999999999999", "hold:20", "\u00e9"]
    parts = [rng.choice(["play", "coach", "table", "review", "advise", "", "%", "nonsense"])]
    for _ in range(rng.randrange(5)):
        parts.append(f"{rng.choice(keys)}={rng.choice(vals)}" if rng.random() < 0.9 else rng.choice(keys))
    return "&".join(parts)


@pytest.mark.browser
def test_no_address_stops_start_up(page):
    pg, url, errors = page
    rng = random.Random(20)
    for _ in range(30):
        pg.goto(url + "#" + _fragment(rng))
        pg.wait_for_function("() => window.gonuts !== undefined")
        pg.evaluate("location.hash = " + json.dumps("#" + _fragment(rng)))      # and as a hashchange
    assert errors == []


@pytest.mark.browser
def test_no_stored_value_stops_start_up_or_is_lost_without_a_word(page):
    pg, url, errors = page
    rng = random.Random(21)
    junk = ["garbage", "{}", "null", "[]", "1", '"x"', "{\"record\": 5}", '{"record": {"format": "gonuts-game"}}']
    for _round in range(16):
        stored = {}
        for key in KEYS:
            choice = rng.random()
            if choice < 0.4:
                stored[key] = rng.choice(junk)
            elif choice < 0.7:
                rec = mutate(rng, legal_record(rng))
                stored[key] = json.dumps({"record": rec, "rng": 7} if key == "gonuts.play.v1" else rec)
            elif choice < 0.8:
                stored[key] = "".join(rng.choice(string.printable) for _ in range(rng.randrange(1, 40)))
        aside = {f"{key}.damaged": rng.choice(junk) for key in KEYS if rng.random() < 0.3}   # the page's other keys
        pg.evaluate("(s) => { localStorage.clear(); for (const [k, v] of Object.entries(s)) localStorage.setItem(k, v); }",
                    {**stored, **aside})
        pg.reload()
        pg.wait_for_function("() => window.gonuts !== undefined")
        pg.wait_for_timeout(50)
        for bare, text in stored.items():
            # a game saved under the bare key (an older version's) moves to this page's own, scoped key
            key = pg.evaluate("(k) => `${k}@${new URL('.', location.href).pathname}`", bare)
            assert pg.evaluate("(k) => localStorage.getItem(k)", bare) is None, bare
            kept = pg.evaluate("(k) => Object.keys(localStorage).filter((x) => x.startsWith(k + '.damaged') && "
                               "!x.endsWith('.why')).map((x) => localStorage.getItem(x))", key)
            now = pg.evaluate("(k) => localStorage.getItem(k)", key)
            assert text == now or text in kept, (key, text)                  # never thrown away
            if text in kept:
                shown = pg.evaluate("(m) => !document.getElementById(m + '-kept').hidden", MODE[bare])
                assert shown, (key, text)                                   # and never without a word
        for key, text in aside.items():
            assert pg.evaluate("(k) => localStorage.getItem(k)", key) == text      # a kept game stays kept
    assert errors == []


@pytest.mark.browser
def test_no_guest_mark_stops_start_up_and_only_a_matching_one_makes_a_guest(page):
    """A table game kept with the mark of a guest's copy (players' own phones: whose seat, which game): junk,
    a mark of another game or of nobody's name is no guest; the mark of this game and a player in it makes the
    page a guest that is not connected; the game itself is never touched."""
    pg, url, errors = page
    rng = random.Random(48)
    started = "2026-12-06T10:00:00.000Z"
    game = {"format": "gonuts-game", "version": 1, "reading": "rulebook", "players": 3, "target": 50, "you": 0,
            "mode": "table", "events": [{"seat": 0, "banked": 4}], "names": ["Ann", "Ben", "Cy"],
            "hints": [True, False, True], "started": started}
    junk = ["garbage", "{}", "null", "[]", "1", '"x"', '{"name": 5}', '{"name": "Ben"}', json.dumps({"started": started})]
    for _round in range(12):
        choice = rng.random()
        if choice < 0.4:
            mark, guest = rng.choice(junk), False
        elif choice < 0.6:
            mark, guest = json.dumps({"name": rng.choice(["Dora", "ben", "", "Ben "]), "started": started}), False
        elif choice < 0.7:
            mark, guest = json.dumps({"name": "Ben", "started": "2026-12-05T10:00:00.000Z"}), False
        else:
            mark, guest = json.dumps({"name": rng.choice(game["names"]), "started": started}), True
        text = json.dumps(game)
        key = pg.evaluate("() => `gonuts.table.v1@${new URL('.', location.href).pathname}`")
        pg.evaluate("([k, g, m]) => { localStorage.clear(); localStorage.setItem(k, g); localStorage.setItem(k + '.joined', m); }",
                    [key, text, mark])
        pg.reload()
        pg.wait_for_function("() => window.gonuts !== undefined && !document.getElementById('table-game').hidden")
        assert pg.evaluate("() => !document.getElementById('table-joined').hidden") == guest, mark
        assert pg.evaluate("() => document.getElementById('table-joined').classList.contains('kept')") == guest
        assert pg.evaluate("(k) => localStorage.getItem(k)", key) == text          # the game as it was
        assert pg.evaluate("() => window.gonuts.record('table').events.length") == 1
    assert errors == []


@pytest.mark.parametrize("seed", range(3))
def test_the_cli_review_never_fails_internally_on_random_records(seed, tmp_path):
    """Exit 0 or 1 with one line, never 3 (an internal error), on mutated records written to files."""
    sys.path.insert(0, str(ROOT))
    from tests.commands.test_cli import run_here
    rng = random.Random(100 + seed)
    for i in range(40):
        rec = mutate(rng, legal_record(rng, players=2))
        path = tmp_path / f"r{i}.json"
        path.write_text(json.dumps(rec))
        p = run_here("review", path, "--json")
        assert p.returncode in (0, 1), (p.returncode, p.stderr, json.dumps(rec)[:300])
        if p.returncode:
            assert len(p.stderr.strip().splitlines()) == 1 and p.stderr.startswith("gonuts-solve: error:")


@pytest.mark.browser
def test_a_legal_record_of_100000_events_is_reviewed_in_the_page_like_the_cli(page, tmp_path):
    """Every turn a bust: legal, long, and cheap to check (bench/bench_page.py times it)."""
    pg, _, errors = page
    events = [{"seat": i % 2, "roll": [0, 0, 5]} for i in range(99_998)] + [{"seat": 0, "roll": [2, 2, 1]},
                                                                           {"seat": 0, "choice": "stop"}]
    rec = {"format": "gonuts-game", "version": 1, "reading": "rulebook", "players": 2, "you": 0, "events": events}
    text = json.dumps(rec)                   # a string crosses to the page in a blink; 100,000 objects take 16 s
    js = pg.evaluate("(t) => window.gonuts.review(JSON.parse(t))", text)
    path = tmp_path / "long.json"
    path.write_text(json.dumps(rec))
    sys.path.insert(0, str(ROOT))
    from tests.commands.test_cli import run_here
    py = json.loads(run_here("review", path, "--json").stdout)
    assert js["events"] == py["events"] == 100_000
    assert [d["event"] for d in js["decisions"]] == [d["event"] for d in py["decisions"]] == [99_999]
    assert abs(js["total_loss_points"] - py["total_loss_points"]) < 1e-9
    err = pg.evaluate("""(t) => {                     // one event too many, made in the page
        const r = JSON.parse(t), big = Object.assign({}, r, {events: r.events.concat(Array(100001).fill({seat: 1, banked: 0}))});
        try { window.gonuts.review(big); } catch (e) { return e.message; } }""", text)
    assert err == "a game record holds at most 200,000 events, not 200,001"
    assert errors == []
