"""Benchmark: our layered solver against plain global value iteration, timed in the same run.

    python bench/bench_solve.py                 # 2 players (the issue's goal: < 0.1 s, >= 20x)
    python bench/bench_solve.py --players 2,3   # 3 players adds about a minute of plain iteration
    python bench/bench_solve.py --players 4     # 4 players: ours only (plain VI cannot hold its arrays)
    python bench/bench_solve.py --advise        # advise latency, Python start-up included
    python bench/bench_solve.py --players 2,3,4 --before   # against the solver before issue 20, same run

Machines here are shared and noisy: read the ratios, not the seconds. Ours is the
best of several runs after a warm-up (the numba kernel compiles once and is cached).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.engine.solve import solve  # noqa: E402
from solver.game.payout import nuts_payout_table  # noqa: E402
from solver.game.rules import Rules  # noqa: E402
from solver.game.turn import gonuts_turn  # noqa: E402
from solver.reference.bellman import plain_value_iteration  # noqa: E402


def time_ours(rules, repeats):
    model = gonuts_turn(rules, nuts_payout_table(rules))
    times, res = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        res = solve(model, rules.players, rules.target)
        times.append(time.perf_counter() - t0)
    return min(times), res


def bench_players(N, target, reading_name, repeats, plain):
    rules = Rules.from_options(reading=reading_name, players=N, target=target)
    ours, res = time_ours(rules, repeats)
    states = target ** N
    row = {"players": N, "target": target, "rules": reading_name, "ours_s": ours,
           "ours_states_per_s": states / ours, "residual": res.residual, "iterations": res.iterations,
           "converged": res.converged, "first_player_win": res.first_player_win}
    print(f"{N} players, target {target}, {reading_name}: ours {ours:.4f} s "
          f"({states / ours:,.0f} start states/s), residual {res.residual:.1e}, converged {res.converged}")
    if plain:
        t0 = time.perf_counter()
        W, _, sweeps, resid = plain_value_iteration(rules, tol=1e-12)
        tp = time.perf_counter() - t0
        diff = float(abs(W - res.start_win).max())
        row.update(plain_s=tp, plain_sweeps=sweeps, ratio=tp / ours, max_diff=diff)
        print(f"  plain global value iteration: {tp:.3f} s ({sweeps} sweeps, residual {resid:.1e}); "
              f"ratio {tp / ours:.1f}x; largest difference {diff:.1e}")
    return row


def bench_four(target, reading_name):
    """Run in a child process so that its peak memory is its own."""
    code = (f"import sys, time, json, resource; sys.path.insert(0, {str(ROOT)!r})\n"
            "from bench.bench_solve import time_ours\nfrom solver.game.rules import Rules\n"
            f"r = Rules.from_options(reading={reading_name!r}, players=4, target={target})\n"
            "time_ours(Rules.from_options(reading='rulebook', players=4, target=4), 1)\n"
            "s, res = time_ours(r, 1)\n"
            "print(json.dumps({'s': s, 'res': res.residual, 'conv': res.converged, 'fpw': res.first_player_win,"
            " 'rss': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    d = json.loads(out.stdout.strip().splitlines()[-1])
    states = target ** 4
    plain_bytes = states * (2 * target + 1) * 4 * 8
    print(f"4 players, target {target}, {reading_name}: ours {d['s']:.1f} s ({states / d['s']:,.0f} start "
          f"states/s), peak memory {d['rss'] / 2**30:.2f} GiB, residual {d['res']:.1e}, converged {d['conv']}")
    print(f"  plain global value iteration would hold a {plain_bytes / 2**30:.0f} GiB continuation array "
          "per sweep (unchunked): not run")
    return {"players": 4, "target": target, "rules": reading_name, "ours_s": d["s"], "peak_bytes": d["rss"],
            "ours_states_per_s": states / d["s"], "residual": d["res"], "converged": d["conv"],
            "first_player_win": d["fpw"]}


CHILD = """
import hashlib, json, resource, sys, time
sys.path.insert(0, {root!r})
from solver.engine.solve import solve
from solver.game.rules import Rules
from solver.game.turn import turn_model
warm = Rules.from_options(reading="rulebook", players={N}, target=5)
solve(turn_model(warm), {N}, 5)
model = turn_model(Rules.from_options(reading={rules!r}, players={N}, target={G}))
t0 = time.perf_counter()
res = solve(model, {N}, {G})
s = time.perf_counter() - t0
digest = hashlib.sha256(res.start_win.tobytes() + res.roll_bits.tobytes()).hexdigest()
print(json.dumps({{"s": s, "digest": digest, "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}}))
"""


def bench_before(players, target, rules, repeats):
    """Issue 20: the solve alone, ours against the solver before it (``bench/baseline.py``), each in a child
    process of its own checkout, interleaved, best of ``repeats``; the two must give the same bits."""
    from bench.baseline import BEFORE_ISSUE_20, checkout
    rows = []
    with checkout(BEFORE_ISSUE_20) as old:
        if old is None:
            print(f"skipped: revision {BEFORE_ISSUE_20} is not in this clone")
            return rows
        env = {**os.environ, "GONUTS_SOLVE_CACHE": str(old / ".cache")}
        for N in players:
            best = {}
            for _ in range(repeats):
                for who, root, e in (("ours", ROOT, None), ("before", old, env)):
                    code = CHILD.format(root=str(root), N=N, G=target, rules=rules)
                    p = subprocess.run([sys.executable, "-c", code], cwd=root, env=e, capture_output=True, text=True)
                    if p.returncode != 0:
                        raise SystemExit(f"{who}: {p.stderr.strip()[-500:]}")
                    d = json.loads(p.stdout.strip().splitlines()[-1])
                    if who not in best or d["s"] < best[who]["s"]:
                        best[who] = d
            ours, before = best["ours"], best["before"]
            same = ours["digest"] == before["digest"]
            print(f"{N} players, target {target}, {rules}: solve ours {ours['s']:.3f} s, before issue 20 "
                  f"{before['s']:.3f} s: ratio {ours['s'] / before['s']:.2f}; same bits: {same}")
            rows.append({"players": N, "target": target, "rules": rules, "ours_s": ours["s"],
                         "before_s": before["s"], "ratio": ours["s"] / before["s"], "same_bits": same})
    return rows


def bench_advise(repeats=7):
    cmd = [sys.executable, "-m", "cli", "advise", "--scores", "23,31", "--turn", "7", "--dice", "3"]
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True)
        times.append(time.perf_counter() - t0)
    t0 = time.perf_counter()
    for _ in range(repeats):
        subprocess.run([sys.executable, "-c", "pass"], check=True)
    bare = (time.perf_counter() - t0) / repeats
    print(f"advise (2 players, shipped table), whole process: median {statistics.median(times):.3f} s, "
          f"best {min(times):.3f} s; bare Python start-up {bare:.3f} s")
    return {"advise_median_s": statistics.median(times), "advise_best_s": min(times), "python_s": bare}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", default="2", help="comma-separated player counts (2, 3, 4)")
    ap.add_argument("--target", type=int, default=50)
    ap.add_argument("--rules", default="rulebook", choices=["rulebook", "summary"])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--no-plain", action="store_true", help="skip the plain value iteration")
    ap.add_argument("--advise", action="store_true", help="also time advise as a user runs it")
    ap.add_argument("--before", action="store_true",
                    help="time the solver before issue 20 against ours instead (same run, best of --repeats)")
    ap.add_argument("--json", help="write the rows to this file")
    args = ap.parse_args()
    if args.before:
        rows = bench_before([int(x) for x in args.players.split(",")], args.target, args.rules, args.repeats)
        if args.json:
            Path(args.json).write_text(json.dumps(rows, indent=1))
        return
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores; warming up the compiled kernel ...")
    time_ours(Rules.from_options(target=5), 1)
    rows = []
    for N in [int(x) for x in args.players.split(",")]:
        if N == 4:
            rows.append(bench_four(args.target, args.rules))
        else:
            rows.append(bench_players(N, args.target, args.rules, args.repeats, not args.no_plain))
    if args.advise:
        rows.append(bench_advise())
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    print(f"peak memory of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20:.2f} GiB")


if __name__ == "__main__":
    main()
