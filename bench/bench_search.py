"""The rule searches (issue 11): whole processes, and one rule's exact evaluation two ways.

  1. `gonuts-solve simple-rules --players N`, whole process: under 20 minutes for 4 players
     (goal), with its peak memory;
  2. the score-aware race search from the best per-dice rule, whole process: under 20 minutes
     for 4 players (goal);
  3. inner loop: one rule against optimal opponents, averaged over the seats, by the plain
     evaluation (`evaluate`, every turn's decision states) and by `Versus` (gain distributions,
     many rules per pass, here 20), and the ratio.

    python bench/bench_search.py            # 2, 3 and 4 players (about 40 minutes, 6 GiB)
    python bench/bench_search.py --quick    # 2 and 3 players

Uses the shipped tables and builds or reuses the 4-player ones in the cache.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

RACE = """
import sys; sys.path.insert(0, {root!r})
from solver.store.library import Tables
from solver.game.rules import Rules
from solver.lab.strategy import race_rules
rules = Rules.from_options(reading="rulebook", players={players})
res = race_rules(rules, Tables().get(rules), {start!r})
print(res.best.name, res.best.gives_up, res.evaluations)
"""
START = {2: (5, 7, 15, 27, 37), 3: (7, 9, 20, 34, 43), 4: (9, 11, 24, 39, 46)}

from bench_process import run  # noqa: E402  (bench/ is on the path when this script runs)


def inner(players):
    """Seconds per rule: evaluate against Versus (20 rules per pass), same rules, same numbers."""
    import numpy as np

    from solver.game.rules import Rules
    from solver.lab.policies import TablePolicy, parse
    from solver.lab.strategy import evaluate_policies
    from solver.lab.versus import Versus
    from solver.store.library import Tables
    rules = Rules.from_options(reading="rulebook", players=players)
    table = Tables().get(rules)
    specs = [f"hold:{k}" for k in range(5, 25)]
    pols = [parse(s, rules, 5) for s in specs]
    t0 = time.perf_counter()
    ev = evaluate_policies(rules, [pols[0]] + [TablePolicy(table)] * (players - 1), table=table)
    plain = time.perf_counter() - t0
    t0 = time.perf_counter()
    vs = Versus(rules, table)
    setup = time.perf_counter() - t0
    t0 = time.perf_counter()
    wins = vs.win(pols).mean(axis=1)
    per = (time.perf_counter() - t0) / len(pols)
    vs.close()
    assert np.isclose(wins[0], ev.win_both_orders[0], rtol=0, atol=1e-12)
    print(f"   one rule, {players} players: evaluate {plain:.3f} s; Versus {per:.3f} s per rule "
          f"(+ {setup:.1f} s once for the optimal players' distributions): {plain / per:.0f}x faster; "
          f"they agree to {abs(wins[0] - ev.win_both_orders[0]):.1e}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2 and 3 players only")
    args = ap.parse_args()
    counts = (2, 3) if args.quick else (2, 3, 4)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores")
    print("3. inner loop:")
    for n in counts:
        inner(n)
    print("1. simple-rules, whole process:")
    for n in counts:
        wall, peak, _ = run([sys.executable, "-m", "cli", "simple-rules", "--players", str(n), "--json"])
        goal = f" (goal < 1200 s: {'PASS' if wall < 1200 else 'MISS'})" if n == 4 else ""
        print(f"   {n} players: {wall:.1f} s, {peak / 2**30:.2f} GiB peak{goal}")
    print("2. race search from the best per-dice rule, whole process:")
    for n in counts:
        out = []
        wall, peak, _ = run([sys.executable, "-c", RACE.format(root=str(ROOT), players=n, start=START[n])], out=out)
        name, gives_up, evals = out[0].split()
        goal = f" (goal < 1200 s: {'PASS' if wall < 1200 else 'MISS'})" if n == 4 else ""
        print(f"   {n} players: {wall:.1f} s, {peak / 2**30:.2f} GiB peak, {evals} rules: {name} gives up "
              f"{100 * float(gives_up):.2f} points{goal}")


if __name__ == "__main__":
    main()
