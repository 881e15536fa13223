"""The proof by best response against the solve it checks: one seat against the rest playing the table.

For each game: the solve (``engine.solve.solve``), then the best response of one seat to the others all playing
the solve's table two ways, ``engine.respond.deviate`` (one component per state and seat to move: the proof
the sweep runs) and ``engine.respond.respond`` (the general max-n kernel, N components: what ``evaluate
--policies best,optimal,...`` took before), each timed in this process, printed as ratios to the solve, with the
largest gain any seat has by deviating and the largest difference between the two. Peak memory is the process's.

    python bench/bench_respond.py                      # 4 players, targets 30 and 45 (about 3 minutes)
    python bench/bench_respond.py --targets 30,45,60   # and larger (respond's memory: N times deviate's)
    python bench/bench_respond.py --no-respond --targets 71

Goal (issue: the proof at the size of the games offered): deviate in about the solve's time, far below respond.
"""
from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.engine.respond import deviate, respond  # noqa: E402
from solver.engine.solve import solve  # noqa: E402
from solver.game.rules import Rules  # noqa: E402
from solver.game.turn import turn_model  # noqa: E402


def peak_gib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2 ** 20


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--targets", default="30,45")
    ap.add_argument("--reading", default="rulebook")
    ap.add_argument("--speed", type=float, default=1.0)
    ap.add_argument("--no-respond", action="store_true", help="time deviate only")
    args = ap.parse_args()
    N = args.players
    print(f"{N} players, {args.reading}, speed {args.speed:g}: seconds, and ratios to the solve")
    for G in (int(x) for x in args.targets.split(",")):
        model = turn_model(Rules.from_options(players=N, target=G, reading=args.reading, speed=args.speed))
        t0 = time.perf_counter()
        opt = solve(model, N, G)
        ts = time.perf_counter() - t0
        t0 = time.perf_counter()
        dev = deviate(model, N, G, opt.roll_bits, opt.mixed, values=opt.start_win)
        td = time.perf_counter() - t0
        line = (f"  target {G}: solve {ts:.2f} s; deviate {td:.2f} s ({td / ts:.2f}x), converged {dev.converged}, "
                f"largest gain {dev.gain:.1e}")
        if not args.no_respond:
            t0 = time.perf_counter()
            gen = respond(model, N, G, [None] + [opt.roll_bits.reshape(G ** N, -1)] * (N - 1), [0],
                          seat_mixed=[None] + [opt.mixed] * (N - 1))
            tr = time.perf_counter() - t0
            diff = max(float(np.abs(gen.values[a, :, (N - a) % N] - dev.values[a]).max()) for a in range(N))
            line += f"; respond {tr:.2f} s ({tr / ts:.2f}x, {tr / td:.2f}x deviate), the two within {diff:.1e}"
            del gen
        print(line + f"; peak {peak_gib():.2f} GiB", flush=True)
        del opt, dev


if __name__ == "__main__":
    main()
