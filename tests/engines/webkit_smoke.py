"""The page in WebKit, Safari's engine (Debian's WebKitGTK: WebKitWebDriver and its MiniBrowser, driven by
selenium's WebKitGTK driver, under xvfb-run): run by tests/site/test_engines.py.

    xvfb-run -a python tests/engines/webkit_smoke.py PAGE.html SITE_URL EXPECTED.json

The same checks as firefox_smoke.js: the single file's advise against the CLI's, practice's draw and the luck
split against the CLI's (practice.json beside EXPECTED.json), a practice decision answered, a short Table game,
and the site offline once the server is stopped ("stop" on stdin). One line per check; exit 1 on a failure."""
from __future__ import annotations

import json
import sys
import time

from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from selenium.webdriver.webkitgtk.options import Options
from selenium.webdriver.webkitgtk.service import Service

MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
failed = 0
at = ["the start"]
# The page ignores the second tap of a double tap: within 350 ms of the redraw that the first caused, where the
# first landed (solver/site/web/src/page/taps.js). Taps here are that far apart.
TAP_GAP = 0.4
last_tap = [0.0]


def check(ok, what):
    global failed
    print(f"{'ok' if ok else 'FAIL'} {what}", flush=True)
    failed += not ok


def step(what):
    """Name what is being done, for the error line if it fails."""
    at[0] = what


def until(drv, script, seconds=20):
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds:
        try:
            if drv.execute_script(f"return !!({script})"):
                return True
        except Exception:                                   # the page is still loading
            pass
        time.sleep(0.1)
    return False


def wait(drv, script, seconds=20):
    """until(), or an error naming what did not come."""
    if not until(drv, script, seconds):
        raise TimeoutError(f"not within {seconds} s: {script}")


def entries(n):
    return f"window.gonuts.record('table').events.length === {n}"


def painted(drv):
    """Wait for the page's next two frames. A player taps only what the screen shows: a frame has drawn what the
    last tap changed, and the page's observers have seen where it is scrolled (a driver taps at once)."""
    drv.execute_async_script("const done = arguments[arguments.length - 1];"
                             "requestAnimationFrame(() => requestAnimationFrame(() => done(true)));")


def tap(drv, css, then=None):
    """Tap css once it is shown and painted, as far after the last tap as a player's two taps are; then wait
    for the page to show the tap's effect (a script that becomes true)."""
    wait(drv, f"(e => e && e.getClientRects().length)(document.querySelector({json.dumps(css)}))")
    painted(drv)
    time.sleep(max(0.0, last_tap[0] + TAP_GAP - time.monotonic()))
    drv.find_element(By.CSS_SELECTOR, css).click()
    last_tap[0] = time.monotonic()
    if then:
        wait(drv, then)


def main(page_file, site_url, expected):
    opts = Options()
    opts.binary_location = MINIBROWSER
    opts.add_argument("--automation")
    drv = webdriver.WebKitGTK(options=opts, service=Service(executable_path="/usr/bin/WebKitWebDriver"))
    drv.set_script_timeout(20)
    try:
        drv.set_window_size(390, 844)
        drv.get(f"file://{page_file}")
        check(until(drv, "window.gonuts"), "the single file starts")
        for c in json.loads(open(expected).read()):
            got = drv.execute_script("return Promise.resolve(window.gonuts.advise(arguments[0]))", c["query"])
            near = all((got[k] is None and c["want"][k] is None) or abs(got[k] - c["want"][k]) <= c["tol"]
                       for k in ("win_if_roll", "win_if_stop"))
            check(near and got["action"] == c["want"]["action"], f"advise {json.dumps(c['query'])}")
        extra = json.loads(open(expected.replace("expected.json", "practice.json")).read())
        drawn = drv.execute_script("return Promise.resolve(window.gonuts.practice(arguments[0]))", extra["practice"]["query"])
        want = extra["practice"]["want"]
        check([(d["scores"], d["turn"], d["dice"], d["action"]) for d in drawn] ==
              [(d["scores"], d["turn"], d["dice"], d["action"]) for d in want] and
              all(abs(d["win_if_roll"] - w["win_if_roll"]) <= 1e-12 for d, w in zip(drawn, want)),
              "practice draws the command's decisions")
        split = drv.execute_script("return Promise.resolve(window.gonuts.luck(arguments[0]))", extra["luck"]["record"])
        check(all(abs(s[f] - w[f]) <= 1e-9 for s, w in zip(split, extra["luck"]["want"])
                  for f in ("start", "end", "luck", "own_decisions", "others_decisions", "banked_turns")),
              "the luck split is review's")
        step("a practice decision")
        tap(drv, "#tab-practice")
        tap(drv, "#prac-daily")
        wait(drv, "!document.getElementById('prac-quiz').hidden")
        tap(drv, "#prac-roll")
        check(until(drv, "document.getElementById('prac-judged')"), "a practice decision answered and judged")
        tap(drv, "#prac-quit")
        step("a short table game")
        tap(drv, "#tab-table")
        # before any game: a guest about to join is told at once when this browser cannot
        webrtc = drv.execute_script("return typeof RTCPeerConnection === 'function'")
        joining = drv.execute_script("return document.getElementById('join-none').hidden")
        check(joining == webrtc, f"Join a table, with no game yet, says whether it can pair (WebRTC: {webrtc})")
        Select(drv.find_element(By.ID, "table-players")).select_by_value("2")
        for i, name in enumerate(("Ann", "Bo")):
            box = drv.find_element(By.ID, f"table-name-{i}")
            box.clear()
            box.send_keys(name)
        tap(drv, "#table-setup button[type=submit]")
        tap(drv, "[data-roll='2-2-1']", entries(1))
        tap(drv, "#table-stop", entries(2))
        tap(drv, "[data-roll='1-1-3']", entries(3))
        events = drv.execute_script("return window.gonuts.record('table').events")
        check(len(events) == 3 and events[1].get("choice") == "stop", f"a short table game ({len(events)} entries)")
        step("what this browser cannot do, said at once")
        webrtc = drv.execute_script("return typeof RTCPeerConnection === 'function'")
        said = drv.execute_script("return ['table-link-none', 'join-none'].map((id) => { const e = "
                                  "document.getElementById(id); return e.hidden ? '' : e.textContent; })")
        offered = drv.execute_script("return ['table-link-seats', 'join-actions', 'join-form'].map((id) => "
                                     "!document.getElementById(id).hidden)")
        line = "This browser cannot connect phones (it has no WebRTC)."
        check(said == (["", ""] if webrtc else [line, line]) and offered == [webrtc] * 3,
              f"pairing {'offered' if webrtc else 'refused in one line, nothing offered'} (WebRTC: {webrtc}; {said})")
        step("a past entry changed")
        drv.execute_script("document.getElementById('table-log-box').open = true")
        tap(drv, "#table-log button.change[data-i='0']")
        tap(drv, "#table-change-options [data-pick='3-1-1']",
            "JSON.stringify(window.gonuts.record('table').events[0].roll) === '[3,1,1]'")
        events = drv.execute_script("return window.gonuts.record('table').events")
        check(events[0].get("roll") == [3, 1, 1] and len(events) == 3, "a past entry changed (the game replayed from it)")
        step("the game played to its end, and again")
        tap(drv, "#table-stop", entries(4))
        box = drv.find_element(By.ID, "table-bank-n")
        box.clear()
        box.send_keys("47")
        tap(drv, "#table-bank button[type=submit]", "document.getElementById('table-again')")
        tap(drv, "#table-again", entries(0))
        names = drv.execute_script("return window.gonuts.record('table').names")
        check(names == ["Bo", "Ann"], f"Play again: the same players, the next first ({names})")
        width, inner = drv.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        check(width <= inner, f"nothing widens the page ({width} px in a window of {inner})")

        step("the site")
        drv.get(site_url)
        until(drv, "window.gonuts")
        drv.execute_script("return navigator.serviceWorker.ready.then(() => true)")
        drv.refresh()
        check(until(drv, "navigator.serviceWorker.controller"), "the site's worker takes control")
        print("ready", flush=True)
        sys.stdin.readline()                                  # the test has stopped the server
        drv.refresh()
        ok = until(drv, "window.gonuts && window.gonuts.games.length")
        check(ok, "the site offline after its server stopped")
        # the site solves a game of its own offline: its kernel and worker come from the worker's cache
        solved = drv.execute_script("return Promise.resolve(window.gonuts.advise({scores: [5, 9], turn: 2, dice: 4, "
                                    "target: 15, speed: 2}))")
        check(0 < solved["win_if_roll"] < 1, f"the site offline solves a game to 15 ({solved['win_if_roll']})")
    except Exception as exc:                                   # one line, never a traceback
        check(False, f"error at {at[0]}: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")
    finally:
        drv.quit()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
