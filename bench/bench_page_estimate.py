"""The page's time estimate, measured: for each game, in a fresh Chromium context (nothing kept, nothing warm),
``await gonuts.solve(...)`` is run and its whole time taken (a new worker, the kernel's compile, the turn model, the
solve, the values back and kept: what follows the page's "about N s"), with the calibration game's warm solve
on that page (the device's speed). Prints each game's median whole time and its ratio to the median calibration
of the whole run (the table RATIOS of web/src/page/solving.js is made from these: a game and its calibration are
not timed in one state of a shared machine, whose speed varies by half from minute to minute, so each is the
median of its own runs), and the page's estimate against the time taken, per run and their median (the goal:
within 1.5x for games that take a second or more; the page says "about 1 s" below that).

    python bench/bench_page_estimate.py [--runs 3] [--games 2:10,2:30,...] [--page FILE] [--rate 1]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_page_solve import fresh, page_file  # noqa: E402

GAMES = "2:10,2:30,2:60,2:100,3:10,3:20,3:30,3:45,3:60,3:80,3:100,4:10,4:15,4:20,4:30,4:40,4:50"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--games", default=GAMES, help="players:target, comma-separated")
    ap.add_argument("--page", type=Path, help="a single file made by `gonuts-solve web --players 2`")
    ap.add_argument("--rate", type=float, default=1.0, help="Chromium's CPU throttle of the page's main thread")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright
    games = [tuple(map(int, g.split(":"))) for g in args.games.split(",")]
    calibrations: list[float] = []
    rows = []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        page = args.page or page_file(Path(tmp))
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium")
        print(f"{'game':>7} {'whole (s), median':>18} {'said/took per run':>26} {'median':>7}")
        for players, target in games:
            wholes, said = [], []
            for _ in range(args.runs):
                ctx, tab = fresh(browser, page, args.rate)
                time.sleep(2)           # the browser's own start over, as when a player taps Start
                try:
                    tab.evaluate("(q) => window.gonuts.solve(q)", {"players": players, "target": target, "reading": "summary"})
                    last = tab.evaluate("window.gonuts.lastSolve()")
                finally:
                    ctx.close()
                wholes.append(last["wall"])
                calibrations.append(last["estimate"]["calibration"]["seconds"])
                said.append(last["estimate"]["seconds"] / last["wall"])
            rows.append((players, target, statistics.median(wholes)))
            runs = " ".join(f"{x:.2f}" for x in said)
            print(f"{players}p/{target:<4} {statistics.median(wholes):>18.2f} {runs:>26} {statistics.median(said):>6.2f}x",
                  flush=True)
        browser.close()
    cal = statistics.median(calibrations)
    print(f"calibration (warm, in its worker): median {cal:.3f} s, from {min(calibrations):.3f} to {max(calibrations):.3f}")
    print("RATIOS (whole / median calibration):")
    for n in (2, 3, 4):
        pts = ", ".join(f"[{g}, {w / cal:.3g}]" for p, g, w in rows if p == n)
        if pts:
            print(f"  {n}: [{pts}],")


if __name__ == "__main__":
    main()
