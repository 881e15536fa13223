"""Every engine a phone uses: the page's smoke test in Firefox (firefox-esr, puppeteer-core over
WebDriver BiDi) and in WebKit, Safari's engine (WebKitGTK's WebKitWebDriver and MiniBrowser, selenium, under
xvfb-run), all from Debian's packages: the single file's advise for 2-4 players against the CLI, practice's
draw and the luck split against the CLI, a practice decision answered, a short Table game, games at target 30
that the page solves itself (its WebAssembly kernel in a worker) against the CLI, and the site offline after its
server is stopped. Chromium runs the full suite (test_webpage.py,
test_website.py, test_table_app.py). The checks themselves are in tests/engines/."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent))
from test_website import serve  # noqa: E402

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parent.parent.parent
ENGINES = Path(__file__).parent.parent / "engines"
FIREFOX = os.environ.get("GONUTS_FIREFOX", "/usr/bin/firefox-esr")
WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
STATES = [((23, 31), 7, 3), ((0, 0), 0, 5), ((45, 10), 6, 2), ((10, 20, 30), 4, 2), ((5, 40, 12), 0, 5),
          ((3, 10, 20, 30), 2, 3), ((40, 0, 44, 12), 9, 1)]
# Games the page solves itself in each engine (its WebAssembly kernel in a worker): 2 players at target 30, Go Nuts!
# speed 2 (at speed 1 a game to 30 is the corner of the page's own game to 50, read at once with no solve).
SOLVED = [((12, 20), 3, 4, "rulebook"), ((25, 5), 0, 5, "summary"), ((0, 29), 9, 2, "summary")]


def shipped_advice(scores, turn, dice):
    """What advise computes for 3-4 players (play.backup from start_win), on the shipped 4-player page data
    that the page carries: the numbers the page must give to the last bit of float64."""
    from solver.game.rules import Rules
    from solver.play.backup import backup_state
    from solver.site import pagedata, pagevalues
    rules = Rules.from_options(reading="rulebook", players=4, target=50)
    d, blob = pagevalues.shipped_game(4, "rulebook", 50)
    W = pagedata.decode(d["start_win"], blob, (50,) * 4 + (4,))
    rolled, stopped = backup_state(rules, d["nuts_payout"], lambda g: W[scores[1:] + (scores[0] + g,)].tolist(),
                                   scores[0], turn, dice)
    return {"win_if_roll": rolled[0], "win_if_stop": stopped[0], "action": "roll" if rolled[0] > stopped[0] else "stop"}


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """The single file (2-4 players, rulebook, target 50), a small site, and the CLI's answers."""
    folder = tmp_path_factory.mktemp("engines")
    env = {**os.environ, "GONUTS_SOLVE_CACHE": str(folder / "cache")}

    def cli(*args):
        p = subprocess.run([sys.executable, "-m", "cli", *map(str, args)], cwd=ROOT, env=env, capture_output=True,
                           text=True, timeout=600)
        assert p.returncode == 0, p.stderr
        return p.stdout
    cli("web", "--players", "2,3,4", "--rules", "rulebook", "--out", folder / "gonuts.html")
    cli("web", "--players", "2", "--rules", "rulebook", "--site", folder / "site")
    cases = []
    for scores, turn, dice in STATES:
        query = {"scores": list(scores), "turn": turn, "dice": dice, "reading": "rulebook"}
        if len(scores) < 4:
            want = json.loads(cli("advise", "--scores", ",".join(map(str, scores)), "--turn", turn, "--dice", dice,
                                  "--json"))
        else:                 # the 4-player table is not shipped: advise's own backup on the page's shipped data
            want = shipped_advice(scores, turn, dice)
        cases.append({"query": query, "want": want, "tol": 1e-12})
    for scores, turn, dice, reading in SOLVED:
        query = {"scores": list(scores), "turn": turn, "dice": dice, "reading": reading, "target": 30, "speed": 2}
        want = json.loads(cli("advise", "--scores", ",".join(map(str, scores)), "--turn", turn, "--dice", dice,
                              "--rules", reading, "--target", 30, "--speed", 2, "--json"))
        cases.append({"query": query, "want": want, "tol": 1e-12})
    (folder / "expected.json").write_text(json.dumps(cases))
    # practice and luck: the command's draw for a seed, and review's split of a seeded table game
    from test_luck import literal_game

    from solver.store import tables
    record = literal_game(tables.load(ROOT / "tables" / "gonuts-2p-t50-rulebook.npz"), 5, "table")[0]
    (folder / "game.json").write_text(json.dumps(record))
    (folder / "practice.json").write_text(json.dumps({
        "practice": {"query": {"seed": 5, "count": 6, "players": 3, "reading": "rulebook"},
                     "want": json.loads(cli("practice", "--seed", 5, "--count", 6, "--players", 3, "--json"))["decisions"]},
        "luck": {"record": record, "want": json.loads(cli("review", folder / "game.json", "--all-seats", "--json"))["seats"]}}))
    return folder


class Smoke:
    """One engine's checks, started at once (the engines run side by side): the server is stopped when the
    checks say they are ready for it."""

    def __init__(self, command, made):
        self.server, url = serve(made / "site")
        self.proc = subprocess.Popen([*command, str(made / "gonuts.html"), url, str(made / "expected.json")], cwd=ROOT,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def result(self):
        p, lines = self.proc, []
        try:
            for line in p.stdout:
                lines.append(line.strip())
                if line.strip() == "ready":
                    self.server.terminate()
                    self.server.wait(timeout=10)
                    p.stdin.write("stop\n")
                    p.stdin.flush()
            p.wait(timeout=240)
        finally:
            self.server.kill()
            if p.poll() is None:
                p.kill()
        err = p.stderr.read()
        fails = [line for line in lines if not line.startswith(("ok", "ready"))]
        assert p.returncode == 0 and fails == [], "\n".join(lines) + "\n" + err[-2000:]
        assert sum(line.startswith("ok advise") for line in lines) == len(STATES) + len(SOLVED)
        assert sum('"target":30' in line.replace(" ", "") for line in lines if line.startswith("ok advise")) == len(SOLVED)
        assert "ok practice draws the command's decisions" in lines and "ok the luck split is review's" in lines
        assert "ok a practice decision answered and judged" in lines
        assert "ok the site offline after its server stopped" in " ".join(lines)
        assert "ok the site offline solves a game to 15" in " ".join(lines)
        return lines


@pytest.fixture(scope="module")
def engines(made):
    """Both engines' checks, running side by side (each waits for its browser most of the time)."""
    have_firefox = Path(FIREFOX).exists() and (ROOT / "node_modules" / "puppeteer-core").is_dir()
    have_webkit = Path(WEBKIT_DRIVER).exists() and shutil.which("xvfb-run") is not None
    return {"firefox": Smoke(["node", str(ENGINES / "firefox_smoke.js")], made) if have_firefox else None,
            "webkit": Smoke(["xvfb-run", "-a", sys.executable, str(ENGINES / "webkit_smoke.py")], made)
            if have_webkit else None}


def test_firefox_runs_the_page(engines):
    if engines["firefox"] is None:
        pytest.skip("Firefox's smoke test needs firefox-esr (apt-get install firefox-esr) and npm ci")
    engines["firefox"].result()


def test_webkit_runs_the_page(engines):
    if engines["webkit"] is None:
        pytest.skip("WebKit's smoke test needs webkit2gtk-driver and xvfb (apt-get install webkit2gtk-driver xvfb)")
    pytest.importorskip("selenium", reason="WebKit's smoke test needs selenium (pip install \".[test]\")")
    engines["webkit"].result()
