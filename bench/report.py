"""Regenerate the README's results tables, exactly, in one run.

    python bench/report.py                  # every table (several minutes: 4-player tables included)
    python bench/report.py --only exploit   # one section: exploit, fair, rules, pig
    python bench/report.py --quick          # 2 and 3 players only

Each section prints a Markdown table and the command that regenerates it. Every number is an
exact evaluation (no sampling) from the solver's tables and the engine.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver import tables  # noqa: E402
from solver.build import build  # noqa: E402
from solver.locate import cache_dir, find_table, table_name  # noqa: E402
from solver.rules import preset  # noqa: E402


def table_for(rules):
    """The shipped or cached table of these rules, built into the cache if there is none."""
    path = find_table(rules)
    if path is None:
        cache_dir().mkdir(parents=True, exist_ok=True)
        path = cache_dir() / table_name(rules)
        print(f"  (building {rules.describe()} into {path.parent})", file=sys.stderr)
        build(rules, path)
    return tables.load(path, expect=rules)


def pct(x):
    return f"{100 * x:.2f}%"


SIMPLE = {2: ["hold:10", "hold:11/1", "dice:5-7-15-27-37", "maxpoints"],
          3: ["hold:12", "dice:7-9-20-34-43", "maxpoints"]}


def exploit(players=(2, 3)):
    """Each simple rule against optimal opponents and against opponents who exploit it exactly."""
    from solver.strategy import evaluate_policies, resolve
    print("\n### Simple rules against optimal play and against their best response (rulebook, target 50)\n")
    print("Command: `python bench/report.py --only exploit`. One seat plays the rule, every other seat plays "
          "optimally (max-n) or plays the exact best response to it (the max-n solution among the "
          "responding seats); averaged over who moves first.\n")
    print("| players | rule | wins against optimal play | wins against its best response | exploitable by |")
    print("| --- | --- | --- | --- | --- |")
    for N in players:
        rules = preset("rulebook", players=N)
        table = table_for(rules)
        for rule in SIMPLE[N]:
            pols_opt = resolve([rule] + ["optimal"] * (N - 1), rules, lambda: table, table=table)
            w_opt = evaluate_policies(rules, pols_opt, table=table).win_both_orders[0]
            pols_best = resolve([rule] + ["best"] * (N - 1), rules, lambda: table, table=table)
            report = pols_best[1].report
            assert report["converged"], report
            w_best = evaluate_policies(rules, pols_best, table=table).win_both_orders[0]
            print(f"| {N} | `{rule}` | {pct(w_opt)} | {pct(w_best)} | {100 * (w_opt - w_best):.2f} points |")


SECTIONS = {"exploit": exploit}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", choices=sorted(SECTIONS), action="append")
    ap.add_argument("--quick", action="store_true", help="2 and 3 players only")
    args = ap.parse_args()
    os.environ.setdefault("GONUTS_SOLVE_CACHE", str(cache_dir()))
    for name in args.only or list(SECTIONS):
        t0 = time.perf_counter()
        fn = SECTIONS[name]
        fn(quick=args.quick) if "quick" in fn.__code__.co_varnames else fn()
        print(f"\n({name}: {time.perf_counter() - t0:.0f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
