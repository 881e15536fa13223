"""Sweep: solve every game the page and the command line offer and say how each equilibrium was reached.

    python bench/sweep_equilibria.py                          # the whole offered range (hours: see docs/equilibria.md)
    python bench/sweep_equilibria.py --players 4 --targets 51-60 --readings rulebook --speeds 1
    python bench/sweep_equilibria.py --write-only             # the table in docs/ again from the results kept

The offered range is 2 to 4 players, targets 10 to 100, both readings and the speeds 0.5, 1 and 2 (the other
knobs at their defaults). Each game is solved in a child process of its own (its peak memory is the child's own)
and its line is kept in ``--results`` (JSON lines) as soon as it is done, so a long sweep can be stopped and run
again: games already kept are not solved again. For each game: converged, residual, iterations, the orbits
whose decisions did not settle (solved by the equilibrium search), those with several pure equilibria, the
decisions played mixed, the spread between an orbit's equilibria (the largest difference of any seat's chance
there), seconds and peak memory. Where an orbit had several equilibria the game is solved a second time with
the other extreme picked (the smallest sum instead of the largest) and the largest difference of any seat's
chance at 0-0 is kept: what the selection rule changes at the start of the game.

It writes docs/equilibria.md from all the results kept. Heavy: not a test (CI runs a slice of it in
tests/engine/test_equilibria.py).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "equilibria.jsonl"
DOC = ROOT / "docs" / "equilibria.md"

CHILD = r"""
import json, sys, time
import numpy as np
sys.path.insert(0, sys.argv[1])
from solver.engine.solve import solve
from solver.game.rules import Rules
from solver.game.turn import turn_model
players, target, reading, speed = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], float(sys.argv[5])
measure = sys.argv[6] == "1"
rules = Rules.from_options(players=players, target=target, reading=reading, speed=speed)
model = turn_model(rules)
t0 = time.perf_counter()
res = solve(model, players, target)
seconds = time.perf_counter() - t0
out = {"converged": res.converged, "residual": res.residual, "iterations": res.iterations,
       "searched": res.searched, "several": res.several, "mixed": len(res.mixed), "spread": res.spread,
       "seconds": round(seconds, 3), "first_player_win": res.first_player_win, "start_diff": 0.0 if measure else None}
if res.several and measure:
    other = solve(model, players, target, other_extreme=True)
    out["start_diff"] = float(np.abs(other.start_win[(0,) * players] - res.start_win[(0,) * players]).max())
import resource
out["peak_mib"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)   # Linux: KiB
print(json.dumps(out))
"""


def span(text: str) -> list[int]:
    """'10-100' or '51,60' -> the targets."""
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


def run_one(players: int, target: int, reading: str, speed: float, measure: bool) -> dict[str, object]:
    """Solve one game in a child process (and again with the other extreme picked, if ``measure``); its result
    with the child's peak memory (MiB)."""
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(ROOT), str(players), str(target), reading, str(speed),
                             "1" if measure else "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONWARNINGS": "ignore"})
    out, err = proc.communicate()
    result: dict[str, object] = {"players": players, "target": target, "reading": reading, "speed": speed}
    if proc.returncode != 0 or not out.strip():
        result["error"] = (err.strip().splitlines() or ["no output"])[-1]
        return result
    result.update(json.loads(out.strip().splitlines()[-1]))
    return result


def key(r: dict[str, object]) -> tuple[int, int, str, float]:
    return int(r["players"]), int(r["target"]), str(r["reading"]), float(r["speed"])  # type: ignore[arg-type]


def load(path: Path) -> dict[tuple[int, int, str, float], dict[str, object]]:
    done: dict[tuple[int, int, str, float], dict[str, object]] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                r = json.loads(line)
                done[key(r)] = r
    return done


def write_doc(done: dict[tuple[int, int, str, float], dict[str, object]], path: Path) -> None:
    """docs/equilibria.md: a summary per (players, reading, speed) and a line for every game that needed the
    equilibrium search."""
    rows = sorted(done.values(), key=key)
    groups: dict[tuple[int, str, float], list[dict[str, object]]] = {}
    for r in rows:
        groups.setdefault((int(r["players"]), str(r["reading"]), float(r["speed"])), []).append(r)  # type: ignore[arg-type]
    lines = ["# Equilibria of every game offered", "",
             "Written by `python bench/sweep_equilibria.py` (docs/model.md says what the equilibrium search is and",
             "which equilibrium it picks). Each game was solved on its own, one thread per core, on the machine named",
             "below the tables. *Searched*: orbits whose decisions did not settle under policy iteration, solved by",
             "the equilibrium search; *several*: of them, those with more than one pure equilibrium (one picked by",
             "the rule); *mixed*: decisions played mixed (orbits with no pure equilibrium). *Spread*: the largest",
             "difference, between an orbit's equilibria, of any seat's chance at that orbit; *at 0-0*: the largest",
             "difference of any seat's chance at the start of the game between the game solved with the rule's pick",
             "and with the other extreme (measured up to the target `--measure-up-to` says; `-` beyond).", "",
             "## By game family", "",
             "| players | reading | speed | targets | converged | largest residual | searched | several | mixed "
             "| largest spread | largest at 0-0 | seconds (max) | peak MiB (max) |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for (n, reading, speed), rs in sorted(groups.items()):
        ok = [r for r in rs if "error" not in r]
        targets = sorted(int(r["target"]) for r in rs)  # type: ignore[arg-type]
        tspan = f"{targets[0]}-{targets[-1]} ({len(targets)})" if targets else "-"
        lines.append(
            f"| {n} | {reading} | {speed:g} | {tspan} | {sum(bool(r['converged']) for r in ok)}/{len(rs)} "
            f"| {max((float(r['residual']) for r in ok), default=0):.1e} "  # type: ignore[arg-type]
            f"| {sum(int(r['searched']) for r in ok)} | {sum(int(r['several']) for r in ok)} "  # type: ignore[arg-type]
            f"| {sum(int(r['mixed']) for r in ok)} "  # type: ignore[arg-type]
            f"| {max((float(r['spread']) for r in ok), default=0):.2g} "  # type: ignore[arg-type]
            f"| {max((float(r['start_diff'] or 0) for r in ok), default=0):.2g} "  # type: ignore[arg-type]
            f"| {max((float(r['seconds']) for r in ok), default=0):.1f} "  # type: ignore[arg-type]
            f"| {max((float(r.get('peak_mib', 0)) for r in ok), default=0):.0f} |")  # type: ignore[arg-type]
    lines += ["", "## Every game that needed the equilibrium search", "",
              "| players | target | reading | speed | converged | residual | searched | several | mixed | spread "
              "| at 0-0 | seconds | peak MiB |", "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if "error" in r or int(r["searched"]) == 0:  # type: ignore[arg-type]
            continue
        lines.append(f"| {r['players']} | {r['target']} | {r['reading']} | {float(r['speed']):g} "  # type: ignore[arg-type]
                     f"| {r['converged']} | {float(r['residual']):.1e} | {r['searched']} | {r['several']} "  # type: ignore[arg-type]
                     f"| {r['mixed']} | {float(r['spread']):.2g} "  # type: ignore[arg-type]
                     f"| {'-' if r['start_diff'] is None else format(float(r['start_diff']), '.2g')} "  # type: ignore[arg-type]
                     f"| {float(r['seconds']):.1f} | {float(r.get('peak_mib', 0)):.0f} |")  # type: ignore[arg-type]
    errors = [r for r in rows if "error" in r]
    if errors:
        lines += ["", "## Games that failed", ""] + [f"- {key(r)}: {r['error']}" for r in errors]
    offered = [(n, g, reading, speed) for n in (2, 3, 4) for g in range(10, 101)
               for reading in ("rulebook", "summary") for speed in (0.5, 1.0, 2.0)]
    missing: dict[tuple[int, str, float], list[int]] = {}
    for n, g, reading, speed in offered:
        if (n, g, reading, speed) not in done:
            missing.setdefault((n, reading, speed), []).append(g)
    if missing:
        lines += ["", "## Not swept yet", "",
                  "Run `python bench/sweep_equilibria.py` again to go on (games kept are not solved again):", ""]
        lines += [f"- {n} players, {reading}, speed {speed:g}: targets {gs[0]}-{gs[-1]} ({len(gs)} games)"
                  for (n, reading, speed), gs in sorted(missing.items())]
    machine = sorted({str(r.get("machine", "")) for r in rows} - {""})
    lines += ["", f"Machine: {'; '.join(machine) or 'unknown'}. Games kept: {len(rows)}; solving time in all "
              f"{sum(float(r.get('seconds', 0)) for r in rows) / 3600:.2f} h.", ""]  # type: ignore[arg-type]
    path.write_text("\n".join(lines))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--targets", default="10-100")
    ap.add_argument("--readings", default="rulebook,summary")
    ap.add_argument("--speeds", default="1,0.5,2")
    ap.add_argument("--results", type=Path, default=RESULTS)
    ap.add_argument("--doc", type=Path, default=DOC)
    ap.add_argument("--write-only", action="store_true", help="only write the doc from the results kept")
    ap.add_argument("--measure-up-to", type=int, default=70,
                    help="solve a second time, with the other extreme picked, only games up to this target (it "
                         "doubles the time of the games with several equilibria)")
    args = ap.parse_args()
    done = load(args.results)
    if not args.write_only:
        args.results.parent.mkdir(parents=True, exist_ok=True)
        machine = f"{platform.machine()}, {os.cpu_count()} cores, {platform.processor() or platform.platform()}"
        games = [(n, g, reading, float(speed)) for speed in args.speeds.split(",")
                 for reading in args.readings.split(",") for n in span(args.players) for g in span(args.targets)]
        for n, g, reading, speed in games:
            if (n, g, reading, speed) in done:
                continue
            t0 = time.perf_counter()
            r = run_one(n, g, reading, speed, g <= args.measure_up_to)
            r["machine"] = machine
            done[key(r)] = r
            with args.results.open("a") as fh:
                fh.write(json.dumps(r) + "\n")
            print(f"{n}p t{g} {reading} x{speed:g}: {'error ' + str(r['error']) if 'error' in r else ''}"
                  f"{'' if 'error' in r else ('converged' if r['converged'] else 'NOT CONVERGED')} "
                  f"searched {r.get('searched')} several {r.get('several')} mixed {r.get('mixed')} "
                  f"({time.perf_counter() - t0:.1f} s)", flush=True)
    write_doc(done, args.doc)
    print(f"wrote {args.doc}")


if __name__ == "__main__":
    main()
