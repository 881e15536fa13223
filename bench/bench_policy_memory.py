"""What reading a table's policy costs in memory: the process's peak resident memory after loading the table, then
after each read (one decision, a plane of the first two scores, the thresholds), each read in a process of its
own, against the table alone; and, as the baseline, what the whole decision array would take (the policy before
``lab.decisions``: ``t.policy.roll`` built it, and more, at every access).

    python bench/bench_policy_memory.py [--games 3:50,4:40,4:71] [--cache DIR]

Each game's table is built into the cache first if it is not there (4 players to 71: about 2 minutes and 2.5
GiB). Figures go to docs/performance.md.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

READS = {
    "table only": "pass",
    "one decision": "p.roll[(1,) * N + (7, 2)]",
    "a plane (score 0, score 1)": "p.roll[(slice(None), slice(None)) + (0,) * (N - 2)]",
    "thresholds()": "p.thresholds()",
}

CHILD = """
import json, resource, sys
import solver
t = solver.table(players={players}, target={target})
N = t.players
loaded = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
p = t.policy
{read}
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({{"loaded": loaded, "peak": peak, "whole": p.roll.nbytes}}))
"""


def measure(players: int, target: int, read: str, env: dict[str, str]) -> dict[str, int]:
    code = CHILD.format(players=players, target=target, read=read)
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="3:50,4:40,4:71", help="players:target, comma-separated")
    ap.add_argument("--cache", default=None, help="the table cache (default: the user's)")
    args = ap.parse_args()
    env = dict(os.environ)
    if args.cache:
        env["GONUTS_SOLVE_CACHE"] = args.cache
    gib = 2 ** 30
    print("| game | read | peak after loading | peak after the read | the read's own | whole array (baseline) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for game in args.games.split(","):
        players, target = map(int, game.split(":"))
        subprocess.run([sys.executable, "-c", f"import solver; solver.table(players={players}, target={target})"],
                       cwd=ROOT, env=env, check=True, capture_output=True)      # built into the cache once
        for name, read in READS.items():
            m = measure(players, target, read, env)
            print(f"| {players}p/{target} | {name} | {m['loaded'] / gib:.2f} GiB | {m['peak'] / gib:.2f} GiB | "
                  f"{(m['peak'] - m['loaded']) / 2**20:.0f} MiB | {m['whole'] / gib:.2f} GiB |", flush=True)


if __name__ == "__main__":
    main()
