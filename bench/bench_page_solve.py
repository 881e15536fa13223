"""The page solving games itself, as a mid-range phone would: Chromium (Debian's, through playwright) with its CPU
slowed 4x (the DevTools protocol's Emulation.setCPUThrottlingRate), the single file opened from disk. For each
game, in a fresh browser context (nothing kept), ``await gonuts.solve(...)`` is timed whole (the worker, the
kernel's compile, the turn model, the solve, the values back) with the kernel's peak memory. The throttle slows
the page's main thread but not its dedicated worker (Chromium applies it to the page's target only), so the
time held to the goals (2 players at target 100 within 2 s, 3 players at 50 within 15 s, 4 players at 30 within
60 s) is the whole time with the worker's part counted four times over; the estimate the page said before it
began is printed beside it. Then the main thread: a Table tap's Event Timing duration during a solve (4 players
to 50) against the same taps without one, in the same run, as a ratio.

    python bench/bench_page_solve.py [--rate 4] [--taps 15] [--page FILE]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = [(2, 100, 2.0), (3, 50, 15.0), (4, 30, 60.0)]      # players, target, goal in seconds

# Event Timing: every tap's duration (input to the next paint), kept for the bench to read.
OBSERVE = """(() => { window.__taps = []; new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (e.name === 'pointerup' || e.name === 'click') window.__taps.push(e.duration);
}).observe({type: 'event', durationThreshold: 16, buffered: true}); })();"""


def page_file(folder: Path) -> Path:
    out = folder / "gonuts.html"
    env = {**os.environ, "GONUTS_SOLVE_CACHE": str(folder / "cache")}
    p = subprocess.run([sys.executable, "-m", "cli", "web", "--players", "2", "--out", str(out)], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=600)
    if p.returncode:
        sys.exit(p.stderr.strip().splitlines()[-1])
    return out


def fresh(browser, page: Path, rate: float):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    tab = ctx.new_page()
    cdp = ctx.new_cdp_session(tab)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    tab.goto(page.as_uri())
    tab.wait_for_function("window.gonuts !== undefined")
    return ctx, tab


def solve_times(browser, page: Path, rate: float) -> list:
    rows = []
    for players, target, goal in GAMES:
        ctx, tab = fresh(browser, page, rate)
        t0 = time.perf_counter()
        tab.evaluate("(q) => window.gonuts.solve(q)", {"players": players, "target": target})
        seconds = time.perf_counter() - t0
        last = tab.evaluate("window.gonuts.lastSolve()")
        rows.append((players, target, goal, seconds, last))
        ctx.close()
    return rows


def tap_durations(browser, page: Path, rate: float, taps: int, during: bool) -> list:
    """Durations of Table taps (entering rolls of a 2-player game at the page's own target), while a 4-player game
    to 50 solves in the worker, or not."""
    ctx, tab = fresh(browser, page, rate)
    tab.add_init_script(OBSERVE)
    tab.reload()
    tab.wait_for_function("window.gonuts !== undefined")
    tab.locator("#tab-table").tap()
    tab.locator("#table-setup button[type=submit]").tap()
    tab.wait_for_selector("#table-game:not([hidden])")
    if during:
        tab.evaluate("() => { window.__solving = window.gonuts.solve({players: 4, target: 50}); }")
        time.sleep(1.5)                                 # the calibration is over: the game's own solve runs
    for _ in range(taps):
        tab.locator(".rolls:not([hidden]) [data-roll]").first.tap()     # the first roll of each grid: a legal entry
        time.sleep(0.4)
        if tab.evaluate("window.gonuts.record('table') && window.gonuts.replay(window.gonuts.record('table')).phase") \
                == "decide":
            tab.locator("#table-stop").tap()
            time.sleep(0.4)
    still = tab.evaluate("() => !window.gonuts.core.loaded(4, 'rulebook', 50, 1)") if during else None
    got = tab.evaluate("window.__taps")
    ctx.close()
    return got, still


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rate", type=float, default=4.0, help="CPU slowdown (4: a mid-range phone)")
    ap.add_argument("--taps", type=int, default=15)
    ap.add_argument("--page", type=Path, default=None, help="a page file (default: a 2-player page built now)")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        page = args.page or page_file(Path(tmp))
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium")
        print(f"Chromium, CPU slowed {args.rate:g}x, the single file from disk; each game in a fresh context")
        print(f"{'game':>10} {'whole (s)':>10} {'worker (s)':>11} {'at 4x (s)':>10} {'goal (s)':>9} {'ratio':>6} "
              f"{'said (s)':>9} {'kernel MB':>10} {'said MB':>8}")
        for players, target, goal, seconds, last in solve_times(browser, page, args.rate):
            slowed = seconds + (args.rate - 1) * last["seconds"]
            print(f"{players}p/{target:<6} {seconds:>10.2f} {last['seconds']:>11.2f} {slowed:>10.2f} {goal:>9.0f} "
                  f"{slowed / goal:>6.2f} {last['estimate']['seconds']:>9.2f} {last['memory'] / 2 ** 20:>10.0f} "
                  f"{last['estimate']['bytes'] / 2 ** 20:>8.0f}")
        calm, _ = tap_durations(browser, page, args.rate, args.taps, during=False)
        busy, still = tap_durations(browser, page, args.rate, args.taps, during=True)
        m0 = statistics.median(calm) if calm else 0.0
        m1 = statistics.median(busy) if busy else 0.0
        print(f"Table taps (Event Timing, input to paint, ms): without a solve median {m0:.0f} (n={len(calm)}), "
              f"during a 4-player solve to 50 median {m1:.0f} (n={len(busy)}; solve still running at the end: {still}); "
              f"ratio {m1 / m0 if m0 else float('nan'):.2f}")
        browser.close()


if __name__ == "__main__":
    main()
