"""Every engine a phone uses (issue 26): the page's smoke test in Firefox (firefox-esr, puppeteer-core over
WebDriver BiDi) and in WebKit, Safari's engine (WebKitGTK's WebKitWebDriver and MiniBrowser, selenium, under
xvfb-run), all from Debian's packages: the single file's advise for 2-4 players against the CLI, a short
Table game, and the site offline after its server is stopped. Chromium runs the full suite (test_web.py,
test_site.py, test_table_app.py). The checks themselves are in tests/engines/."""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parent.parent
ENGINES = Path(__file__).parent / "engines"
FIREFOX = os.environ.get("GONUTS_FIREFOX", "/usr/bin/firefox-esr")
WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
STATES = [((23, 31), 7, 3), ((0, 0), 0, 5), ((45, 10), 6, 2), ((10, 20, 30), 4, 2), ((5, 40, 12), 0, 5),
          ((3, 10, 20, 30), 2, 3), ((40, 0, 44, 12), 9, 1)]


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
        want = json.loads(cli("advise", "--scores", ",".join(map(str, scores)), "--turn", turn, "--dice", dice, "--json"))
        cases.append({"query": {"scores": list(scores), "turn": turn, "dice": dice, "rules": "rulebook"}, "want": want,
                      "tol": 1e-5 if len(scores) == 4 else 1e-12})
    (folder / "expected.json").write_text(json.dumps(cases))
    return folder


def serve(folder):
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


def smoke(command, made):
    """Run one engine's checks: the server is stopped when the checks say they are ready for it."""
    server, url = serve(made / "site")
    p = subprocess.Popen([*command, str(made / "gonuts.html"), url, str(made / "expected.json")], cwd=ROOT,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = []
    try:
        for line in p.stdout:
            lines.append(line.strip())
            if line.strip() == "ready":
                server.terminate()
                server.wait(timeout=10)
                p.stdin.write("stop\n")
                p.stdin.flush()
        p.wait(timeout=240)
    finally:
        server.kill()
        if p.poll() is None:
            p.kill()
    err = p.stderr.read()
    fails = [line for line in lines if not line.startswith(("ok", "ready"))]
    assert p.returncode == 0 and fails == [], "\n".join(lines) + "\n" + err[-2000:]
    assert sum(line.startswith("ok advise") for line in lines) == len(STATES)
    assert "ok the site offline after its server stopped" in " ".join(lines)
    return lines


def test_firefox_runs_the_page(made):
    if not Path(FIREFOX).exists() or not (ROOT / "node_modules" / "puppeteer-core").is_dir():
        pytest.skip("Firefox's smoke test needs firefox-esr (apt-get install firefox-esr) and npm ci")
    smoke(["node", str(ENGINES / "firefox_smoke.js")], made)


def test_webkit_runs_the_page(made):
    if not Path(WEBKIT_DRIVER).exists() or shutil.which("xvfb-run") is None:
        pytest.skip("WebKit's smoke test needs webkit2gtk-driver and xvfb (apt-get install webkit2gtk-driver xvfb)")
    pytest.importorskip("selenium", reason="WebKit's smoke test needs selenium (pip install \".[test]\")")
    smoke(["xvfb-run", "-a", sys.executable, str(ENGINES / "webkit_smoke.py")], made)
