"""Practice and reviews as a user waits for them (issue 27), whole processes against a baseline in the same run,
interleaved, best of several:

  1. `practice --seed S --json` for 2, 3 and 4 players: at most 2x `info` of the shipped 2-player table
     (numpy imported and a table loaded, which practice needs too; the draw then plays a few games of
     optimal play, one backup per turn); 4 players from the page data decoded once into the cache (the
     first run pays the decoding, printed apart); `advise` (numpy-free) printed beside it
  2. `review --all-seats` of a whole 2-player table game (docs/example-table-game.json, 89 events; the luck
     split makes one backup per turn): at most 2x `info` of the same table (which loads it with numpy)

    python bench/bench_practice.py
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = 5


def best(argv, env, runs=RUNS) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        p = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True)
        times.append(time.perf_counter() - t0)
        assert p.returncode == 0, p.stderr
    return min(times)


def pair(a, b, env) -> tuple[float, float]:
    """Best of RUNS for each, run in turn (A B A B ...): the ratio survives a machine that drifts."""
    ta, tb = [], []
    for _ in range(RUNS):
        ta.append(best(a, env, 1))
        tb.append(best(b, env, 1))
    return min(ta), min(tb)


def main() -> int:
    cli = [sys.executable, "-m", "cli"]
    misses = 0
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "GONUTS_SOLVE_CACHE": cache}
        for players in (2, 3, 4):
            scores = ",".join(["10"] * players)
            warm = time.perf_counter()
            subprocess.run(cli + ["practice", "--seed", "1", "--players", str(players), "--json"], cwd=ROOT, env=env,
                           capture_output=True, check=True)
            first = time.perf_counter() - warm
            subprocess.run(cli + ["advise", "--scores", scores], cwd=ROOT, env=env, capture_output=True, check=True)
            a, b = pair(cli + ["practice", "--seed", "7", "--players", str(players), "--json"],
                        cli + ["info", str(ROOT / "tables" / "gonuts-2p-t50-rulebook.npz")], env)
            adv = best(cli + ["advise", "--scores", scores, "--turn", "3", "--dice", "2", "--json"], env)
            ok = a <= 2 * b
            misses += not ok
            print(f"practice, {players} players: {a:.2f} s (first run, tables and caches made: {first:.1f} s); "
                  f"info {b:.2f} s; ratio {a / b:.2f} (goal <= 2): {'PASS' if ok else 'MISS'}; advise {adv:.2f} s")
        record = ROOT / "docs" / "example-table-game.json"
        a, b = pair(cli + ["review", str(record), "--all-seats"],
                    cli + ["info", str(ROOT / "tables" / "gonuts-2p-t50-rulebook.npz")], env)
        ok = a <= 2 * b
        misses += not ok
        print(f"review --all-seats of an 89-event table game (luck split included): {a:.2f} s; info {b:.2f} s; "
              f"ratio {a / b:.2f} (goal <= 2): {'PASS' if ok else 'MISS'}")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
