"""Four players in the page, and the installable site, in Chromium.

A small 4-player page (target 12, both readings) is compared with `advise --json` on random states;
the site (`web --site`, 2 to 4 players at target 12) is served from 127.0.0.1 by `python -m
http.server`, its service worker takes control, and offline a reload still runs all four tabs for
2, 3 and 4 players. No request may leave 127.0.0.1. Screenshots land in build/screenshots."""
from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from taps import clicker

pytestmark = pytest.mark.browser
pytest.importorskip("playwright", reason="the page's browser tests need playwright (pip install \".[test]\")")
ROOT = Path(__file__).resolve().parent.parent.parent
SHOTS = Path(os.environ.get("GONUTS_SCREENSHOTS", ROOT / "build" / "screenshots"))
G = 12
BOUND, TIE = 1e-5, 2e-5        # the stated 4-player precision, and the gap under which the actions may differ


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("site-cache")


def web(cache, *args):
    env = {**os.environ, "GONUTS_SOLVE_CACHE": str(cache)}
    p = subprocess.run([sys.executable, "-m", "cli", "web", "--target", str(G), *args], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stderr
    return p


@pytest.fixture(scope="module")
def site(tmp_path_factory, cache):
    folder = tmp_path_factory.mktemp("site") / "app"
    web(cache, "--site", str(folder))
    return folder


def serve(folder):
    """``python -m http.server`` of ``folder`` on a free port of 127.0.0.1, once it answers: (process, URL)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory",
                             str(folder)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    return proc, f"http://127.0.0.1:{port}/"


@pytest.fixture(scope="module")
def server(site):
    proc, url = serve(site)
    yield url
    proc.terminate()
    proc.wait(timeout=10)


class Context:
    """A browser context that records its requests and errors, and refuses any request off 127.0.0.1."""

    def __init__(self, browser, viewport=(390, 844)):
        self.ctx = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
        self.requests, self.errors = [], []
        self.ctx.on("request", lambda r: self.requests.append(r.url))
        self.ctx.route("**/*", lambda route: route.continue_() if route.request.url.startswith(
            ("http://127.0.0.1:", "file://", "blob:", "data:")) else route.abort())
        self.page = self.ctx.new_page()
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def close(self):
        off = [u for u in self.requests if not u.startswith(("http://127.0.0.1:", "file://", "blob:", "data:"))]
        self.ctx.close()
        assert off == [], f"requests off 127.0.0.1: {off}"
        assert self.errors == [], self.errors


def _states(count, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        scores = [rng.randrange(G) for _ in range(4)]
        turn, dice = (0, 5) if rng.random() < 0.1 else (rng.randrange(0, G), rng.randrange(1, 6))
        out.append((scores, turn, dice, rng.choice(("rulebook", "summary"))))
    return out


def test_four_players_in_the_page_equal_advise_json(browser, cache, tmp_path, monkeypatch):
    from click.testing import CliRunner

    import cli
    out = tmp_path / "four.html"
    web(cache, "--players", "4", "--out", str(out))
    monkeypatch.setenv("GONUTS_SOLVE_CACHE", str(cache))
    c = Context(browser)
    c.page.goto(out.as_uri())
    c.page.wait_for_function("() => window.gonuts !== undefined")
    states = _states(200, seed=17)
    got = c.page.evaluate("""async (qs) => {
      await window.gonuts.load(4, "rulebook"); await window.gonuts.load(4, "summary");
      return qs.map(([scores, turn, dice, rules]) => window.gonuts.advise({scores, turn, dice, rules}));
    }""", [list(s) for s in states])
    runner, worst = CliRunner(), 0.0
    for (scores, turn, dice, reading), js in zip(states, got):
        res = runner.invoke(cli.cli, ["advise", "--scores", ",".join(map(str, scores)), "--turn", str(turn), "--dice",
                                      str(dice), "--rules", reading, "--target", str(G), "--json"])
        py = json.loads(res.output)
        assert js["reason"] == py["reason"] and js["rules"] == py["rules"]
        for key in ("players_if_roll", "players_if_stop"):
            if py[key] is not None:
                worst = max(worst, max(abs(a - b) for a, b in zip(js[key], py[key])))
        if py["reason"] == "optimal" and abs(py["win_if_roll"] - py["win_if_stop"]) > TIE:
            assert js["action"] == py["action"], (scores, turn, dice, reading)
    assert 0 < worst <= BOUND, worst
    # without load(): the first call for a 4-player game is a Promise of the same answer
    c.page.reload()
    c.page.wait_for_function("() => window.gonuts !== undefined")
    first = c.page.evaluate("""() => { const a = window.gonuts.advise({scores: [3, 5, 7, 1], turn: 4, dice: 3});
                                       return a instanceof Promise ? a.then((x) => ({promise: true, x})) : {x: a}; }""")
    assert first["promise"] and first["x"]["action"] in ("roll", "stop")
    stated = c.page.evaluate("document.getElementById('precision').textContent")
    assert "4 players: within 7.6e-6" in stated, stated                 # as webpage.py wrote it
    if c.page.is_visible("#welcome"):                                   # a first visit's guide covers the foot
        c.page.click("#welcome-done")
    c.page.select_option("#lang", "de")                                 # drawn in the language when opened
    c.page.click("#about summary")
    stated = c.page.inner_text("#precision")
    assert stated == "Zahlen wie gespeichert: 4 Mitspieler: auf 7,6e-6 genau.", stated
    c.close()


def test_the_site_installs_and_works_offline_for_every_player_count(browser, server, site):
    manifest = json.loads((site / "manifest.webmanifest").read_text())
    assert {"name", "short_name", "icons", "theme_color", "display", "start_url"} <= set(manifest)
    assert manifest["display"] == "standalone"
    assert {i["sizes"] for i in manifest["icons"]} == {"192x192", "512x512"}
    assert (site / "apple-touch-icon.png").read_bytes()[16:24] == (180).to_bytes(4, "big") * 2
    c = Context(browser)
    page = c.page
    page.goto(server)
    page.wait_for_function("() => window.gonuts !== undefined")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    c.ctx.set_offline(True)
    page.reload()
    page.wait_for_function("() => window.gonuts !== undefined")
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    SHOTS.mkdir(parents=True, exist_ok=True)
    for n in (2, 3, 4):
        page.click("#tab-advise")
        page.select_option("#adv-players", str(n))
        page.select_option("#adv-rules", "summary")
        page.fill("#adv-score-0", "5")
        page.fill("#adv-turn", "3")
        page.select_option("#adv-dice", "2")
        page.click("#adv-go")
        page.wait_for_selector("#adv-out:not([hidden]) .verdict")
        assert page.is_hidden("#adv-error"), page.inner_text("#adv-error")
        page.evaluate(f"location.hash = '#play&seed={n}&players={n}&rules=rulebook&seat=0&opp=optimal&fast=1'")
        # CSS waits: the site's CSP forbids the eval that a polled wait_for_function needs
        page.wait_for_selector(f"#play-board .seat:nth-child({n}):last-child")
        page.wait_for_selector("#play-roll:enabled, #play-over:not([hidden])")
        if n == 4:
            page.screenshot(path=str(SHOTS / "390x844-play-4-players-offline.png"), full_page=True)
        page.click("#tab-coach")
        if not page.evaluate("document.getElementById('coach-new').open"):
            page.click("#coach-new > summary")
        page.select_option("#coach-players", str(n))
        page.click("#coach-setup button[type=submit]")
        page.wait_for_selector(f"#coach-board .seat:nth-child({n}):last-child")
        if n == 4:
            page.screenshot(path=str(SHOTS / "390x844-coach-4-players-offline.png"), full_page=True)
        page.click("#tab-review")
        page.select_option("#rev-source", "play")
        page.wait_for_selector("#rev-out p")
        assert page.is_hidden("#rev-error"), page.inner_text("#rev-error")
    c.close()


def test_a_damaged_data_file_names_its_game_and_the_others_still_work(browser, tmp_path, cache):
    folder = tmp_path / "app"
    web(cache, "--site", str(folder), "--players", "2,4", "--rules", "rulebook")
    data = next((folder / "data").glob("4-rulebook-*.bin"))
    data.write_bytes(data.read_bytes()[:-10] + b"0123456789")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory",
                             str(folder)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(0.5)
        c = Context(browser)
        c.page.goto(f"http://127.0.0.1:{port}/")
        c.page.wait_for_function("() => window.gonuts !== undefined")
        err = c.page.evaluate("window.gonuts.load(4, 'rulebook').then(() => null, (e) => e.message)")
        assert err.startswith("the 4-player rulebook data (data/4-rulebook-") and "is damaged" in err, err
        c.page.select_option("#adv-players", "4")
        c.page.click("#adv-go")
        c.page.wait_for_selector("#adv-error:not([hidden])")
        assert "4-player rulebook data" in c.page.inner_text("#adv-error")
        c.page.select_option("#adv-players", "2")
        c.page.click("#adv-go")
        c.page.wait_for_selector("#adv-out:not([hidden]) .verdict")
        c.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_site_refuses_a_folder_with_other_files_and_replaces_its_own(tmp_path, cache):
    folder = tmp_path / "app"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    env = {**os.environ, "GONUTS_SOLVE_CACHE": str(cache)}
    p = subprocess.run([sys.executable, "-m", "cli", "web", "--target", str(G), "--players", "2", "--site", str(folder)],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 1 and p.stderr.strip().splitlines()[-1].startswith(
        f"gonuts-solve: error: --site {folder} holds other files (notes.txt)")
    web(cache, "--players", "2", "--site", str(folder), "--force")
    first = json.loads((folder / "gonuts-site.json").read_text())
    web(cache, "--players", "3", "--site", str(folder), "--force")     # notes.txt stays; the old data, one version
    second = json.loads((folder / "gonuts-site.json").read_text())
    assert first["cache"] != second["cache"]
    # the old data and the old script (a tab still open on that version may ask for them), one version more
    assert second["previous"] == sorted(n for n in first["files"] if n.startswith(("data/2-", "data/page-")))
    assert list((folder / "data").glob("2-*.bin")) and list((folder / "data").glob("3-*.bin"))
    assert len(list((folder / "data").glob("page-*.js"))) == 2
    web(cache, "--players", "3", "--site", str(folder), "--force")     # and then the old site's files go
    assert not list((folder / "data").glob("2-*.bin")) and list((folder / "data").glob("3-*.bin"))
    assert len(list((folder / "data").glob("page-*.js"))) == 1
    assert (folder / "notes.txt").read_text() == "mine"
    own = tmp_path / "own"
    web(cache, "--players", "2", "--site", str(own))
    web(cache, "--players", "3", "--site", str(own))                   # a site's own folder: no --force needed
    assert [p.name[:2] for p in sorted((own / "data").glob("*.bin"))] == ["2-", "2-", "3-", "3-"]


def test_the_pages_workflow_builds_the_site_with_the_projects_own_command(tmp_path, cache):
    """.github/workflows/pages.yml cannot run here: its build step runs here instead, on a small game
    (the same command with --players 2,3,4 --target 12; bench/bench_page.py builds the full default), and the
    API reference beside the app, under docs/."""
    text = (ROOT / ".github" / "workflows" / "pages.yml").read_text()
    step = text.split("- name: Build the site", 1)[1].split("- uses:", 1)[0]
    commands = [line.split("#", 1)[0].strip() for line in step.split("run: |", 1)[1].splitlines() if line.strip()]
    assert commands == ['pip install ".[docs]"', "gonuts-solve web --site _site",
                        "python -m sphinx -W -b html docs _site/docs"]
    artifact = text.split("upload-pages-artifact", 1)[1].split("path:", 1)[1].split()[0]
    assert artifact == "_site"
    env = {**os.environ, "GONUTS_SOLVE_CACHE": str(cache)}
    args = commands[1].split()[1:]
    p = subprocess.run([sys.executable, "-m", "cli", *args, "--players", "2,3,4", "--target", str(G)], cwd=tmp_path,
                       env={**env, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    docs = commands[2].split()[1:-2] + [str(ROOT / "docs"), str(tmp_path / artifact / "docs")]
    p = subprocess.run([sys.executable, *docs], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0 and (tmp_path / artifact / "docs" / "api.html").is_file(), p.stderr[-3000:]
    listed = json.loads((tmp_path / artifact / "gonuts-site.json").read_text())["files"]
    assert {"index.html", "sw.js", "manifest.webmanifest", "icon-192.png", "icon-512.png",
            "apple-touch-icon.png"} <= set(listed)
    assert all((tmp_path / artifact / name).is_file() for name in listed)


def _table_game(page, players, seed, hidden_seat):
    """Play a whole table game through the UI: one tap per roll (the result's button), one per decision; a
    few undos along the way; one seat's advice switched off. Returns (taps per kind, the record)."""
    rng = random.Random(seed)
    click = clicker(page)
    page.click("#tab-table")
    if not page.evaluate("document.getElementById('table-new').open"):
        page.click("#table-new > summary")
    page.select_option("#table-players", str(players))
    for i in range(players):
        page.fill(f"#table-name-{i}", f"P{i + 1}")
    page.click("#table-setup button[type=submit]")
    page.click(f"#table-hint-toggle-{hidden_seat}")
    taps = {"roll": 0, "decision": 0, "nuts": 0, "undo": 0}
    for step in range(2000):
        state = page.evaluate("(() => { const r = window.gonuts.record('table'); const st = window.gonuts.replay(r); "
                              "return {phase: st.phase, seat: st.seat, n: st.n, t: st.t}; })()")
        if state["phase"] == "over":
            break
        if state["phase"] in ("start", "roll"):
            n = state["n"]
            a = rng.choices(range(n + 1), weights=[2 ** k for k in range(n + 1)])[0]
            s = rng.randrange(n - a + 1) if rng.random() < 0.85 else n - a
            click(f"[data-roll='{a}-{s}-{n - a - s}']")
            taps["roll"] += 1
        elif state["phase"] == "decide":
            assert page.is_hidden("#table-advice") == (state["seat"] == hidden_seat)
            click("#table-stop" if state["t"] >= rng.choice((4, 6, 9)) else "#table-roll")
            taps["decision"] += 1
        else:
            for _ in range(rng.randrange(3)):
                click("#table-nuts-plus")
                taps["nuts"] += 1
            click("#table-nuts-done")
            taps["nuts"] += 1
        if step in (3, 11):                     # take back two steps, then go on
            click("#table-undo")
            click("#table-undo")
            taps["undo"] += 2
    else:
        raise AssertionError("the game did not end")
    return taps, page.evaluate("window.gonuts.record('table')")


@pytest.mark.parametrize("players", [3, 4])
def test_a_table_game_on_one_phone_reviews_every_seat_like_the_cli(browser, cache, tmp_path, players):
    out = tmp_path / "table.html"
    web(cache, "--players", str(players), "--out", str(out))
    c = Context(browser, (390, 844))
    c.page.goto(out.as_uri())
    c.page.wait_for_function("() => window.gonuts !== undefined")
    taps, record = _table_game(c.page, players, seed=players, hidden_seat=1)
    events = record["events"]
    rolls = sum("roll" in e for e in events)
    choices = sum("choice" in e for e in events)
    print(f"\n{players} players: {rolls} rolls in {taps['roll']} taps, {choices} decisions in {taps['decision']} taps, "
          f"{taps['nuts']} taps for Go Nuts! rounds, {taps['undo']} undos")
    assert taps["roll"] - 2 <= rolls <= taps["roll"] and choices <= taps["decision"] <= choices + 2   # undone steps
    assert record["mode"] == "table" and c.page.is_visible("#table-over")
    SHOTS.mkdir(parents=True, exist_ok=True)
    c.page.screenshot(path=str(SHOTS / f"390x844-table-{players}-players-over.png"), full_page=True)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    env = {**os.environ, "GONUTS_SOLVE_CACHE": str(cache)}
    p = subprocess.run([sys.executable, "-m", "cli", "review", str(path), "--all-seats", "--json"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    cli_seats = json.loads(p.stdout)["seats"]
    bound = 1e-9 if players < 4 else 2 * 100 * BOUND
    for k in range(players):
        js = c.page.evaluate("([r, k]) => window.gonuts.core.review(r, k)", [record, k])
        py = cli_seats[k]
        one = subprocess.run([sys.executable, "-m", "cli", "review", str(path), "--seat", str(k + 1), "--json"], cwd=ROOT,
                             env=env, capture_output=True, text=True, timeout=300)
        assert json.loads(one.stdout) == py
        assert [d["event"] for d in js["decisions"]] == [d["event"] for d in py["decisions"]]
        assert abs(js["total_loss_points"] - py["total_loss_points"]) <= bound * max(1, len(py["decisions"]))
        assert js["seat"] == py["seat"] == k
    c.page.click("#table-to-review")
    c.page.select_option("#rev-seat", "2")
    c.page.wait_for_selector("#rev-total")
    shown = float(c.page.get_attribute("#rev-total", "data-value"))
    assert abs(shown - cli_seats[2]["total_loss_points"]) <= bound * max(1, len(cli_seats[2]["decisions"]))
    c.close()


def test_the_score_pad_fits_a_phone_and_a_desktop(browser, cache, tmp_path):
    out = tmp_path / "pad.html"
    web(cache, "--players", "4", "--out", str(out))
    for viewport in ((390, 844), (1280, 800)):
        c = Context(browser, viewport)
        c.page.goto(out.as_uri())
        c.page.wait_for_function("() => window.gonuts !== undefined")
        c.page.click("#tab-table")
        c.page.select_option("#table-players", "4")
        for i, name in enumerate(("Ana", "Ben", "Cleo", "Dev")):
            c.page.fill(f"#table-name-{i}", name)
        c.page.click("#table-setup button[type=submit]")
        c.page.click("[data-roll='2-2-1']")
        width = c.page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport[0]
        pad = c.page.evaluate("document.getElementById('table-pad').getBoundingClientRect().bottom")
        assert pad <= viewport[1] * 0.8, pad            # the whole pad is on the first screen
        c.page.screenshot(path=str(SHOTS / f"{viewport[0]}x{viewport[1]}-table-score-pad.png"))
        c.close()


def test_table_names_are_checked(browser, cache, tmp_path):
    out = tmp_path / "names.html"
    web(cache, "--players", "3", "--out", str(out))
    c = Context(browser)
    c.page.goto(out.as_uri())
    c.page.wait_for_function("() => window.gonuts !== undefined")
    c.page.click("#tab-table")
    # the fields start empty, each with its default name as a placeholder (typing never appends to a name)
    assert [c.page.input_value(f"#table-name-{i}") for i in range(3)] == ["", "", ""]
    assert c.page.get_attribute("#table-name-1", "placeholder") == "Player 2"
    for name, message in (("\u200b ", "Player 2 needs a name"), ("x" * 21, "Player 2's name is longer than 20 characters"),
                          ("Player 1", "Two players are called Player 1: give each a name of their own")):
        c.page.fill("#table-name-1", name)
        c.page.click("#table-setup button[type=submit]")
        assert c.page.inner_text("#table-setup-error") == message
        assert c.page.is_hidden("#table-game")
    c.page.fill("#table-name-1", "")                                  # an empty field: its placeholder's name
    c.page.click("#table-setup button[type=submit]")
    c.page.wait_for_selector("#table-game:not([hidden])")
    assert c.page.evaluate("window.gonuts.record('table').names") == ["Player 1", "Player 2", "Player 3"]
    c.close()


def test_a_new_site_keeps_the_data_files_of_the_version_before_it_one_version_long(tmp_path, cache):
    """An open tab of the old version may still load a game's data: those files stay until the next version."""
    folder = tmp_path / "site"

    def data():
        return sorted(p.name for p in (folder / "data").iterdir())
    web(cache, "--players", "2", "--rules", "rulebook", "--site", str(folder))
    v1 = data()
    web(cache, "--players", "2", "--rules", "summary", "--site", str(folder))
    listing = json.loads((folder / "gonuts-site.json").read_text())
    # the solver's kernel and worker, and the QR reader, are the same files in both versions: they are the new
    # one's, not kept over
    now = {n.split("/", 1)[1] for n in listing["files"] if n.startswith("data/")}
    shared = set(v1) & now
    assert {n.split("-", 1)[0] for n in shared} == {"kernels", "solve", "scanner"}
    assert listing["previous"] == [f"data/{n}" for n in v1 if n not in shared] and set(v1) < set(data())
    v2 = sorted(set(data()) - set(v1))
    web(cache, "--players", "3", "--rules", "summary", "--site", str(folder))     # v1's go now; v2's stay
    assert not (set(v1) - shared) & set(data()) and set(v2) <= set(data())


def test_the_site_page_paints_whole_before_its_script_arrives(browser, site, server):
    """The site's index.html is the page without its data and code (a sixth of their size): they come in one
    file (data/page-CRC.js, deferred from the head, precached by the worker), so a slow network paints the
    page first. Its one inline script (an address without its last slash goes on to the folder) is named in
    the CSP. With script off, every [data-t] word and the Advise tab's reading read as the script leaves them
    in English (the page needs no pass over its words in English)."""
    import hashlib
    import re
    from base64 import b64encode
    text = (site / "index.html").read_text(encoding="utf-8")
    assert len(text.encode()) < 64_000 and "gonuts-data" not in text
    head = text.split("</head>", 1)[0]
    script = re.findall(r'<script src="(data/page-[0-9a-f]{8}\.js)" defer></script>', head)
    assert len(script) == 1 and text.count("<script") == 2, text.count("<script")
    inline = re.search(r"<script>(.*?)</script>", head).group(1)
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', head).group(1)
    assert f"'sha256-{b64encode(hashlib.sha256(inline.encode()).digest()).decode()}'" in csp
    assert "'unsafe-inline'" not in csp
    assert script[0] in json.loads((site / "gonuts-site.json").read_text())["files"]
    assert f'"{script[0]}"' in (site / "sw.js").read_text()
    first = (site / script[0]).read_text(encoding="utf-8").split("\n", 1)[0]
    data = json.loads(json.loads(re.fullmatch(r"self\.gonutsData = JSON\.parse\((.*)\);", first).group(1)))
    assert sorted(data["games"]) == [f"{n}-{r}" for n in (2, 3, 4) for r in ("rulebook", "summary")]
    words = ("[...document.querySelectorAll('[data-t], #adv-reading')].map((e) => [...e.childNodes]"     # own text
             ".filter((n) => n.nodeType === 3).map((n) => n.textContent).join('').replace(/\\s+/g, ' ').trim())")
    shown = {}
    for js in (False, True):
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=js, locale="en-US")
        page = ctx.new_page()
        page.goto(server)
        if js:
            page.wait_for_function("() => window.gonuts !== undefined")
        shown[js] = page.evaluate(words)
        ctx.close()
    assert shown[False] == shown[True] and len(shown[True]) > 100
    assert "{" not in " ".join(shown[False]) and "Rulebook reading:" in " ".join(shown[False])
