"""Regenerate the results tables of docs/results.md (and the README's), exactly, in one run.

    python bench/report.py                  # every table (about 25 minutes, 6 GiB; builds the 4-player tables once)
    python bench/report.py --only fair      # one section: who, simple, exploit, fair, rules, pig
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

from solver.files import cache_dir  # noqa: E402
from solver.game.rules import Rules  # noqa: E402
from solver.store.library import Tables  # noqa: E402


def pct(x):
    return f"{100 * x:.2f}%"


def points(x):
    """Points of win probability: two decimals, or two significant digits below 0.1."""
    p = 100 * x
    return f"{p:.2f}" if abs(p) >= 0.1 else f"{p:.2g}"


def games(quick=False):
    """(players, reading, rules, table) for every player count (2 and 3 with ``quick``) and reading."""
    for N in ((2, 3) if quick else (2, 3, 4)):
        for reading in ("rulebook", "summary"):
            rules = Rules.from_options(reading=reading, players=N)
            yield N, reading, rules, Tables().get(rules)


SIMPLE = {2: ["hold:10", "hold:11/1", "dice:5-7-15-27-37", "maxpoints"],
          3: ["hold:12", "dice:7-9-20-34-43", "maxpoints"]}


def exploit(players=(2, 3)):
    """Each simple rule against optimal opponents and against opponents who exploit it exactly."""
    from solver.lab.strategy import evaluate_policies, resolve
    print("\n### Simple rules against optimal play and against their best response (rulebook, target 50)\n")
    print("Command: `python bench/report.py --only exploit`. One seat plays the rule, every other seat plays "
          "optimally (max-n) or plays the exact best response to it (the max-n solution among the "
          "responding seats); averaged over who moves first.\n")
    print("| players | rule | wins against optimal play | wins against its best response | exploitable by |")
    print("| --- | --- | --- | --- | --- |")
    for N in players:
        rules = Rules.from_options(reading="rulebook", players=N)
        table = Tables().get(rules)
        for rule in SIMPLE[N]:
            pols_opt = resolve([rule] + ["optimal"] * (N - 1), rules, lambda table=table: table, table=table)
            w_opt = evaluate_policies(rules, pols_opt, table=table).win_both_orders[0]
            pols_best = resolve([rule] + ["best"] * (N - 1), rules, lambda table=table: table, table=table)
            report = pols_best[1].report
            assert report["converged"], report
            w_best = evaluate_policies(rules, pols_best, table=table).win_both_orders[0]
            print(f"| {N} | `{rule}` | {pct(w_opt)} | {pct(w_best)} | {100 * (w_opt - w_best):.2f} points |")


def fair(quick=False):
    """The fairest integer head starts, every player count and reading (exact, from the tables)."""
    from solver.lab.fair import fair_start
    print("\n### Fair head starts (target 50, optimal play by everyone)\n")
    print("Command: `python bench/report.py --only fair`, or one row: `gonuts-solve fair --players N --rules R`. "
          "Seat 1 moves first and starts at 0; each later seat starts with the points shown.\n")
    print("| players | rules | head starts | win probability from 0 | with the head starts | largest deviation |")
    print("| --- | --- | --- | --- | --- | --- |")
    for N, reading, _, table in games(quick):
        res = fair_start(table)
        heads = ", ".join(map(str, (0,) + res.head_starts))
        fmt = lambda ps: " / ".join(f"{100 * p:.1f}" for p in ps)  # noqa: E731
        before = max(abs(p - 1 / N) for p in res.before)
        print(f"| {N} | {reading} | {heads} | {fmt(res.before)} | {fmt(res.after)} | "
              f"{100 * res.deviation:.2f} points (from {100 * before:.2f}) |")


RACE_START = {("rulebook", 2): (5, 7, 15, 27, 37), ("summary", 2): (43, 50, 50, 50, 50),
              ("rulebook", 3): (7, 9, 20, 34, 43), ("summary", 3): (43, 50, 50, 50, 50),
              ("rulebook", 4): (9, 11, 24, 39, 46), ("summary", 4): (50, 50, 50, 50, 50)}


def rules_(quick=False):
    """Score-aware "keep pace, end race" rules: exact search against optimal opponents."""
    from solver.lab.strategy import race_rules
    print("\n### Score-aware rules against optimal play (target 50)\n")
    print("Command: `python bench/report.py --only rules` (2 and 3 players: seconds each; 4 players: minutes). "
          "`race:K1-K2-K3-K4-K5/P/E`: once anyone is within E points of the target, roll until you can win; "
          "otherwise stop at K_n + round((best opponent - you) / P) with n dice live. Points of win probability "
          "given up below the fair share, averaged over who moves first.\n")
    print("| players | rules | started from (per-dice thresholds) | gives up | best race rule found | gives up | "
          "share of the per-dice loss | exact evaluations | seconds |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for N, reading, rules, table in games(quick):
        t0 = time.perf_counter()
        res = race_rules(rules, table, RACE_START[(reading, N)])
        sec = time.perf_counter() - t0
        share = res.best.gives_up / res.start.gives_up if res.start.gives_up > 0 else float("nan")
        print(f"| {N} | {reading} | `{res.start.name}` | {points(res.start.gives_up)} | `{res.best.name}` | "
              f"**{points(res.best.gives_up)}** | {100 * share:.0f}% | {res.evaluations:,} | {sec:.0f} |")


def pig(quick=False):
    """Pig's practical rules (Neller and Presser 2010) evaluated exactly against optimal play."""
    from solver.game.rules import Rules
    from solver.lab.strategy import evaluate_policies, race_rules, resolve
    from solver.lab.versus import scoring_turns
    rules = Rules(game="pig", target=100)
    table = Tables().get(rules)
    print("\n### Pig (target 100): practical rules against optimal play\n")
    print("Command: `python bench/report.py --only pig`. Exact, averaged over who moves first.\n")
    print("| rule | as a policy here | wins against optimal play |")
    print("| --- | --- | --- |")
    rows = [("hold at 20", "hold:20"), ("hold at 25 or goal", "hold:25"),
            ("keep pace and end race: roll to win once anyone has 71; otherwise hold at 21 + round((opponent "
             "- you) / 8)", "race:21/8/29")]
    for label, spec in rows:
        w = evaluate_policies(rules, resolve([spec, "optimal"], rules, lambda: table, table=table),
                              table=table).win_both_orders[0]
        print(f"| {label} | `{spec}` | {pct(w)} |")
    first, second = scoring_turns(rules, table, turns=4)
    print("| 4 scoring turns, as we read it: after k turns that scored, hold at (100 - score) / (4 - k) or "
          "more; after 3, roll to the goal | (remembers k: `versus.scoring_turns`) | "
          f"{pct((first + second) / 2)} |")
    res = race_rules(rules, table, (25,))
    print(f"| the best rule of that family, by exact search ({res.evaluations} evaluations) | `{res.best.name}` | "
          f"{pct(res.best.win)} |")


def who(quick=False):
    """Each seat's win probability under optimal play (start_win at 0-0-...)."""
    print("\n### Who wins under optimal play (target 50)\n")
    print("Command: `python bench/report.py --only who`, or one row: `gonuts-solve advise --scores 0,0[,0[,0]] "
          "[--rules summary] --json` (`players_if_roll`).\n")
    print("| players | rules | seat 1 | seat 2 | seat 3 | seat 4 |")
    print("| --- | --- | --- | --- | --- | --- |")
    for N, reading, _, table in games(quick):
        sw = table.arrays["start_win"][(0,) * N]
        cells = [f"{p:.4f}" for p in sw] + [""] * (4 - N)
        print(f"| {N} | {reading} | " + " | ".join(cells) + " |")


def simple(quick=False):
    """The best simple rules against optimal opponents (gonuts-solve simple-rules)."""
    from solver.lab.strategy import simple_rules
    print("\n### The best simple rules against optimal play (target 50)\n")
    print("Command: `python bench/report.py --only simple`, or one row: `gonuts-solve simple-rules [--players N] "
          "[--rules summary]`. Points given up below the fair share, averaged over who moves first.\n")
    print("| game | best `hold:K` | best `hold:K/D` | best per-dice thresholds | `maxpoints` | exact evaluations | "
          "seconds |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for N, reading, rules, table in games(quick):
        t0 = time.perf_counter()
        r = simple_rules(rules, table)
        sec = time.perf_counter() - t0
        kd = f"`{r.hold_dice.name}`: {points(r.hold_dice.gives_up)}" if r.hold_dice.name != r.hold.name \
            else "(none better)"
        print(f"| {N} players, {reading} | `{r.hold.name}`: {points(r.hold.gives_up)} | {kd} | "
              f"`{r.per_dice.name}`: {points(r.per_dice.gives_up)} | {points(r.maxpoints.gives_up)} | "
              f"{r.evaluations:,} | {sec:.0f} |")


SECTIONS = {"who": who, "simple": simple, "exploit": exploit, "fair": fair, "rules": rules_, "pig": pig}


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
