"""The page's memory while it solves a game itself: Chromium (Debian's, through playwright), the single file
opened from disk, one fresh browser per game. The resident memory of all the browser's processes is sampled every
50 ms from /proc while ``await gonuts.solve(...)`` runs; printed: the peak above the page at rest, the kernel's own
memory (``lastSolve().memory``), and the page's estimate (``memoryOf`` in web/src/page/solving.js), which the page
holds to its limit before it starts. Linux only.

    python bench/bench_page_memory.py [--games 4:30,4:50,4:60] [--page FILE]
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_page_solve import page_file  # noqa: E402


def tree_rss(root: int) -> int:
    """The resident bytes of a process and all its descendants."""
    kids: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                ppid = int(Path(f"/proc/{d}/stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            kids.setdefault(ppid, []).append(int(d))
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        todo.extend(kids.get(pid, []))
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            pass
    return total


def watch(root: int, peak: list[int], done: threading.Event) -> None:
    """Keep the largest resident memory of the process tree in ``peak[0]`` until ``done``."""
    while not done.is_set():
        peak[0] = max(peak[0], tree_rss(root))
        time.sleep(0.05)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default="4:30,4:50,4:60", help="players:target, comma-separated")
    ap.add_argument("--page", type=Path, help="a single file made by `gonuts-solve web --players 2`")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright
    mib = 2 ** 20
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        page = args.page or page_file(Path(tmp))
        print(f"{'game':>6} {'seconds':>8} {'peak above rest (MiB)':>22} {'kernel (MiB)':>13} {'page estimate (MiB)':>20}")
        for game in args.games.split(","):
            players, target = map(int, game.split(":"))
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium")
            root = os.getpid()
            tab = browser.new_page()
            tab.goto(page.as_uri())
            tab.wait_for_function("window.gonuts !== undefined")
            time.sleep(1)
            rest = tree_rss(root)
            peak, done = [rest], threading.Event()
            t = threading.Thread(target=watch, args=(root, peak, done))
            t.start()
            began = time.perf_counter()
            try:
                tab.evaluate("(q) => window.gonuts.solve(q)", {"players": players, "target": target})
            finally:
                done.set()
                t.join()
            seconds = time.perf_counter() - began
            last = tab.evaluate("window.gonuts.lastSolve()")
            print(f"{players}p/{target:<3} {seconds:>8.1f} {(peak[0] - rest) / mib:>22.0f} {last['memory'] / mib:>13.0f} "
                  f"{last['estimate']['bytes'] / mib:>20.0f}", flush=True)
            browser.close()


if __name__ == "__main__":
    main()
