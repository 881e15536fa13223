"""Sweep: every game the page and the command line offer, and how each equilibrium was reached, in 18 solves.

    python bench/sweep_equilibria.py                          # every game offered: one solve per family
    python bench/sweep_equilibria.py --players 4 --readings rulebook --speeds 0.5
    python bench/sweep_equilibria.py --per-target --players 4 --targets 51-53 --speeds 1   # the cross-check
    python bench/sweep_equilibria.py --write-only             # the table in docs/ again from the results kept

The offered range is 2 to 4 players, targets 10 to 100, both readings and the speeds 0.5, 1 and 2 (the other
knobs at their defaults): 1,638 games in 18 families (players, reading, speed). A game to target T is the exact
corner of the same game to any larger target (docs/model.md, "The corner"), so each family is solved once, at
its largest target, and every smaller target's line is read off that solve (``engine.solve.corner_report``:
converged, residual, iterations, the orbits whose decisions did not settle, those with several pure equilibria,
the decisions played mixed, the spread between an orbit's equilibria, the first player's chance at 0-0). Where
an orbit had several equilibria the family is solved a second time with the other extreme picked (the smallest
sum instead of the largest): each target's largest difference of any seat's chance at 0-0 is what the selection
rule changes at the start of that game. ``--per-target`` solves each game from scratch instead (the cross-check:
its lines equal the corner's). The family's mixed decisions are kept with it (state, decision, probability).

Each solve runs in a child process of its own, in its own process group (its peak memory is the child's own);
its lines are kept in ``--results`` (JSON lines) as soon as it is done, so a long sweep can be stopped and run
again: games already kept are not solved again, a game that failed is tried again (up to three times in all), a
line cut short is named and set aside. SIGINT or SIGTERM ends the child too; a second sweep on the same results
file is refused (a lock). It writes
docs/equilibria.md from all the results kept. Heavy: not a test (CI holds the same properties on
small games of the same shape in tests/engine/test_equilibria.py); a 4-player family at target 100 takes about 10 minutes and 12 GiB here.
"""
from __future__ import annotations

import argparse
import fcntl
import json
import os
import platform
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "equilibria.jsonl"
# Games solved each on its own (the sweep before it read games off their families, and --per-target since): the
# cross-check of the corner rows
PER_TARGET = ROOT / "bench" / "results" / "equilibria-per-target.jsonl"
DOC = ROOT / "docs" / "equilibria.md"

CHILD = r"""
import json, sys, time
import numpy as np
sys.path.insert(0, sys.argv[1])
from solver.engine.solve import corner_report, solve
from solver.game.rules import Rules
from solver.game.turn import turn_model
players, target, reading, speed = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], float(sys.argv[5])
measure, targets = sys.argv[6] == "1", [int(x) for x in sys.argv[7].split(",")]
rules = Rules.from_options(players=players, target=target, reading=reading, speed=speed)
model = turn_model(rules)
t0 = time.perf_counter()
res = solve(model, players, target, keep_orbits=True)
seconds = time.perf_counter() - t0
rows = corner_report(res, targets)
mixed = [[[int(x) for x in np.unravel_index(s, (target,) * players)], int(d), float(p)]
         for s, d, p in zip(res.mixed.state, res.mixed.decision, res.mixed.roll)]
starts = {T: res.start_win[(target - T,) * players].copy() for T in rows}
del res                          # a 4-player game to 100: 11 GB, let go before solving again with the other pick
for T, row in rows.items():
    row["start_diff"] = 0.0 if measure else None
if measure and any(row["several"] for row in rows.values()):
    other = solve(model, players, target, other_extreme=True)
    for T, row in rows.items():
        row["start_diff"] = float(np.abs(other.start_win[(target - T,) * players] - starts[T]).max())
import resource
peak = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)   # Linux: KiB
print(json.dumps({"rows": {str(T): row for T, row in rows.items()}, "seconds": round(seconds, 3), "peak_mib": peak,
                  "mixed_decisions": mixed}))
"""

PROVE = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[1])
from solver.engine.respond import deviate
from solver.engine.solve import solve
from solver.game.rules import Rules
from solver.game.turn import turn_model
players, target, reading, speed = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], float(sys.argv[5])
model = turn_model(Rules.from_options(players=players, target=target, reading=reading, speed=speed))
t0 = time.perf_counter()
res = solve(model, players, target)
solved = time.perf_counter() - t0
res.check(f"{players} players to {target}")
t0 = time.perf_counter()
dev = deviate(model, players, target, res.roll_bits, res.mixed, values=res.start_win)
proved = time.perf_counter() - t0
peak = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
print(json.dumps({"gain": dev.gain, "where": [dev.where[0], list(dev.where[1])] if dev.where else None,
                  "baseline": dev.baseline, "converged": dev.converged, "residual": dev.residual,
                  "iterations": dev.iterations, "solve_seconds": round(solved, 3), "seconds": round(proved, 3),
                  "mixed": len(res.mixed), "peak_mib": peak}))
"""
# A proof holds when no seat gains more than this by deviating anywhere (rounding: the values are sums of
# thousands of terms, each right to half an ulp)
PROOF_TOLERANCE = 1e-12


def span(text: str) -> list[int]:
    """'10-100' or '51,60' -> the targets."""
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


_child: subprocess.Popen[str] | None = None       # the solve under way (ended with the sweep: see stop)


def stop(signum: int, frame: object) -> None:
    """SIGINT or SIGTERM: end the child's process group (a 4-player solve: minutes and gigabytes), then the sweep;
    what is kept stays whole (each family's lines are written at once, after its child ends)."""
    if _child is not None and _child.poll() is None:
        os.killpg(_child.pid, signal.SIGTERM)
        try:
            _child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(_child.pid, signal.SIGKILL)
    raise SystemExit(128 + signum)


def run_family(players: int, reading: str, speed: float, targets: list[int], measure: bool,
               solve_at: int) -> tuple[dict[int, dict[str, object]], dict[str, object]]:
    """Solve the family once at ``solve_at`` in a child process and read each of ``targets`` off its corner (and
    solve it again with the other extreme picked, if ``measure``): ({target: result}, the solve's own facts)."""
    global _child
    _child = proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(ROOT), str(players), str(solve_at), reading, str(speed),
         "1" if measure else "0", ",".join(map(str, targets))],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        env={**os.environ, "PYTHONWARNINGS": "ignore"})
    out, err = proc.communicate()
    _child = None
    base: dict[str, object] = {"players": players, "reading": reading, "speed": speed}
    if proc.returncode != 0 or not out.strip():
        error = (err.strip().splitlines() or ["no output"])[-1]
        return {T: {**base, "target": T, "error": error} for T in targets}, {"error": error}
    got = json.loads(out.strip().splitlines()[-1])
    rows = {int(T): {**base, "target": int(T), **row, "seconds": got["seconds"], "peak_mib": got["peak_mib"],
                     "corner_of": solve_at if int(T) != solve_at else None}
            for T, row in got["rows"].items()}
    return rows, {"solved_at": solve_at, "seconds": got["seconds"], "peak_mib": got["peak_mib"],
                  "mixed_decisions": got["mixed_decisions"]}


def run_proof(players: int, reading: str, speed: float, target: int) -> dict[str, object]:
    """Solve the game and the best response of one seat to the rest playing the solve's table (``deviate``), in a
    child process: the proof's facts, or {"error": ...}."""
    global _child
    _child = proc = subprocess.Popen(
        [sys.executable, "-c", PROVE, str(ROOT), str(players), str(target), reading, str(speed)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        env={**os.environ, "PYTHONWARNINGS": "ignore"})
    out, err = proc.communicate()
    _child = None
    base: dict[str, object] = {"proof": True, "players": players, "reading": reading, "speed": speed,
                               "target": target}
    if proc.returncode != 0 or not out.strip():
        return {**base, "error": (err.strip().splitlines() or ["no output"])[-1]}
    return {**base, **json.loads(out.strip().splitlines()[-1])}


def kept(path: Path, kind: str) -> list[dict[str, object]]:
    """The whole lines of the results that say ``kind`` ("family", "proof"), in order (load names the others)."""
    out: list[dict[str, object]] = []
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                r = json.loads(line)
            except ValueError:
                continue
            if isinstance(r, dict) and r.get(kind):
                out.append(r)
    return out


def proofs(path: Path) -> dict[tuple[int, str, float], dict[str, object]]:
    """The proofs kept, the largest target of each family (a proof at target T holds for every smaller one)."""
    out: dict[tuple[int, str, float], dict[str, object]] = {}
    for r in kept(path, "proof"):
        if "error" in r:
            continue
        k = (int(r["players"]), str(r["reading"]), float(r["speed"]))  # type: ignore[call-overload]
        if k not in out or int(out[k]["target"]) < int(r["target"]):  # type: ignore[call-overload]
            out[k] = r
    return out


def append(path: Path, lines: list[str]) -> None:
    """Add ``lines`` to the results at once, whole, and never glued onto a line cut short."""
    with path.open("a+b") as fh:
        fh.seek(0, os.SEEK_END)
        if fh.tell() > 0:
            fh.seek(-1, os.SEEK_END)
            if fh.read(1) != b"\n":
                fh.write(b"\n")
        fh.write("".join(line + "\n" for line in lines).encode())
        fh.flush()
        os.fsync(fh.fileno())


def key(r: dict[str, object]) -> tuple[int, int, str, float]:
    return int(r["players"]), int(r["target"]), str(r["reading"]), float(r["speed"])  # type: ignore[arg-type]


TRIES = 3          # a game whose solve failed this often is not tried again (its error stays in the doc)


def load(path: Path, failures: dict[tuple[int, int, str, float], int] | None = None,
         ) -> dict[tuple[int, int, str, float], dict[str, object]]:
    """The results kept; a line cut short (a crash, a full disk) is named and set aside, its game solved again. A
    game that failed is solved again on resume, up to ``TRIES`` times in all (``failures`` receives the counts);
    after that its error is what is kept."""
    done: dict[tuple[int, int, str, float], dict[str, object]] = {}
    failures = {} if failures is None else failures
    if path.exists():
        for i, line in enumerate(path.read_text().splitlines(), 1):
            if not line.strip():
                continue
            try:
                r = json.loads(line)
                if isinstance(r, dict) and ("family" in r or "proof" in r):
                    continue
                k = key(r)
            except (ValueError, KeyError, TypeError):
                print(f"{path}:{i}: not a whole result (cut short?); set aside, that game is solved again",
                      file=sys.stderr)
                continue
            if "error" in r:
                failures[k] = failures.get(k, 0) + 1
                if failures[k] < TRIES:
                    done.pop(k, None)         # tried again
                else:
                    done[k] = r               # given up on: the doc names it among the games that failed
                continue
            done[k] = r
    return done


def families(path: Path) -> dict[tuple[int, str, float], dict[str, object]]:
    """The facts of each family's solve kept (its target, seconds, peak memory and mixed decisions)."""
    return {(int(r["players"]), str(r["reading"]), float(r["speed"])): r  # type: ignore[call-overload]
            for r in kept(path, "family")}


def cross_check(done: dict[tuple[int, int, str, float], dict[str, object]],
                alone: dict[tuple[int, int, str, float], dict[str, object]]) -> list[str]:
    """The doc's lines comparing the games read off their family with the same games solved on their own."""
    both = [(done[k], alone[k]) for k in sorted(set(done) & set(alone)) if done[k].get("corner_of") is not None]
    if not both:
        return []
    counts = ("converged", "searched", "several", "mixed")
    same = sum(all(a[c] == b[c] for c in counts) for a, b in both)
    first = max(abs(float(a["first_player_win"]) - float(b["first_player_win"])) for a, b in both)  # type: ignore[arg-type]
    resid = max(abs(float(a["residual"]) - float(b["residual"])) for a, b in both)  # type: ignore[arg-type]
    return ["", "## Cross-check: the same games solved on their own", "",
            f"{len(both)} games were also solved each on its own (`--per-target`, or the sweep before it read games",
            "off their families; those before the tails became exact, which moved values by at most 6.7e-16): in",
            f"{same} of them the corner row says the same of convergence, orbits searched, orbits with several",
            f"equilibria and mixed decisions; the first player's chance at 0-0 differs by at most {first:.1e}",
            f"and the residual by at most {resid:.1e}."]


def write_doc(done: dict[tuple[int, int, str, float], dict[str, object]], path: Path,
              fams: dict[tuple[int, str, float], dict[str, object]] | None = None,
              alone: dict[tuple[int, int, str, float], dict[str, object]] | None = None,
              proven: dict[tuple[int, str, float], dict[str, object]] | None = None) -> None:
    """docs/equilibria.md: a summary per (players, reading, speed), a line for every game that needed the
    equilibrium search, each family's solve with its mixed decisions, and the cross-check."""
    fams = fams or {}
    rows = sorted(done.values(), key=key)
    groups: dict[tuple[int, str, float], list[dict[str, object]]] = {}
    for r in rows:
        groups.setdefault((int(r["players"]), str(r["reading"]), float(r["speed"])), []).append(r)  # type: ignore[arg-type]
    lines = ["# Equilibria of every game offered", "",
             "Written by `python bench/sweep_equilibria.py` (docs/model.md says what the equilibrium search is and",
             "which equilibrium it picks). A game to target T is the exact corner of the same game to any larger",
             "target (docs/model.md, \"The corner\"), so each family (players, reading, speed) was solved once, at",
             "target 100, and every game's line read off that solve's orbits within distance T of the target; a few",
             "games solved on their own check it (`--per-target`, below). Machine named below the tables.",
             "*Searched*: orbits whose decisions did not settle under policy iteration, solved by",
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
    if fams:
        lines += ["", "## The solves", "",
                  "| players | reading | speed | solved at target | seconds | peak MiB | mixed decisions |",
                  "|---|---|---|---|---|---|---|"]
        for (n, reading, speed), f in sorted(fams.items()):
            lines.append(f"| {n} | {reading} | {speed:g} | {f['solved_at']} | {float(f['seconds']):.0f} "  # type: ignore[arg-type]
                         f"| {float(f['peak_mib']):.0f} | {len(f['mixed_decisions'])} |")  # type: ignore[arg-type]
        mixed = [(k, m) for k, f in sorted(fams.items()) for m in f["mixed_decisions"]]  # type: ignore[attr-defined]
        if mixed:
            lines += ["", "## The mixed decisions", "",
                      "Each decision played mixed in a family's solve: the scores in turn order (the mover first) as",
                      "distances to target 100, the turn points and dice, the probability of rolling, and how far from",
                      "pure (the smaller of p and 1 - p). A game to target T plays those whose distances are all at",
                      "most T.", "",
                      "| players | reading | speed | distances | turn, dice | rolls with | from pure |",
                      "|---|---|---|---|---|---|---|"]
            for (n, reading, speed), (scores, q, p) in mixed:
                solved_at = int(fams[(n, reading, speed)]["solved_at"])  # type: ignore[call-overload]
                dist = ", ".join(str(solved_at - x) for x in scores)
                lines.append(f"| {n} | {reading} | {speed:g} | {dist} | {q // 6}, {q % 6} | {p:.6f} "
                             f"| {min(p, 1 - p):.3g} |")
    if proven:
        lines += ["", "## No seat gains by deviating", "",
                  "The proof by best response (`--prove`): each family's game solved at the target named, then the",
                  "exact best response of one seat to the other seats all playing that table (`engine.respond.deviate`,",
                  "policy iteration to convergence, every state and every seat to move; by the rotation symmetry one",
                  "seat stands for all). *Gain*: the largest rise of the deviator's chance over its chance in the table,",
                  "anywhere; the proof holds where it is rounding (at most "
                  f"{PROOF_TOLERANCE:g}). A proof at target T holds for every smaller target",
                  "of its family: the game to a smaller target is the corner of this one, best response and all.", "",
                  "| players | reading | speed | target | mixed decisions | converged | residual | largest gain "
                  "| holds | solve s | best response s | ratio | peak MiB |",
                  "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for (n, reading, speed), r in sorted(proven.items()):
            holds = bool(r["converged"]) and float(r["gain"]) <= PROOF_TOLERANCE  # type: ignore[arg-type]
            lines.append(f"| {n} | {reading} | {speed:g} | {r['target']} | {r['mixed']} | {r['converged']} "
                         f"| {float(r['residual']):.1e} | {float(r['gain']):.1e} | {'yes' if holds else 'NO'} "  # type: ignore[arg-type]
                         f"| {float(r['solve_seconds']):.1f} | {float(r['seconds']):.1f} "  # type: ignore[arg-type]
                         f"| {float(r['seconds']) / max(float(r['solve_seconds']), 1e-9):.2f} "  # type: ignore[arg-type]
                         f"| {float(r['peak_mib']):.0f} |")  # type: ignore[arg-type]
        unproven = sorted({(n, rd, sp) for n, _, rd, sp in done} - set(proven))
        if unproven:
            lines += ["", "Not proven by best response yet: " + "; ".join(
                f"{n} players, {rd}, speed {sp:g}" for n, rd, sp in unproven) + "."]
    lines += cross_check(done, alone or {})
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
    # a family's rows each carry its one solve's seconds: count them once
    solves = {(int(r["players"]), str(r["reading"]), float(r["speed"]), r.get("corner_of") or r["target"]):  # type: ignore[arg-type]
              float(r.get("seconds", 0)) for r in rows}  # type: ignore[arg-type]
    lines += ["", f"Machine: {'; '.join(machine) or 'unknown'}. Games kept: {len(rows)}, from {len(solves)} solves; "
              f"solving time in all {sum(solves.values()) / 3600:.2f} h.", ""]
    path.write_text("\n".join(lines))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--targets", default="10-100")
    ap.add_argument("--readings", default="rulebook,summary")
    ap.add_argument("--speeds", default="1,0.5,2")
    ap.add_argument("--results", type=Path, default=None,
                    help=f"the results kept (default: {RESULTS.relative_to(ROOT)}, or with --per-target "
                         f"{PER_TARGET.relative_to(ROOT)})")
    ap.add_argument("--doc", type=Path, default=DOC)
    ap.add_argument("--write-only", action="store_true", help="only write the doc from the results kept")
    ap.add_argument("--per-target", action="store_true",
                    help="solve each game from scratch instead of reading it off its family's largest target")
    ap.add_argument("--prove", action="store_true",
                    help="prove each family's game at its largest target an equilibrium by best response instead "
                         "(solve, then one seat against the rest; about three solves' time)")
    ap.add_argument("--measure-up-to", type=int, default=100,
                    help="solve a second time, with the other extreme picked, only solves up to this target (it "
                         "doubles the time of the games with several equilibria)")
    args = ap.parse_args()
    if args.results is None:
        args.results = PER_TARGET if args.per_target else RESULTS
    failures: dict[tuple[int, int, str, float], int] = {}
    done = load(args.results, failures)
    given_up = sorted(k for k, r in done.items() if "error" in r)
    if given_up and not args.write_only:
        print(f"{len(given_up)} game(s) failed {TRIES} times and are not tried again (first: {given_up[0]}); "
              f"remove their lines from {args.results} to try them once more", file=sys.stderr)
    if not args.write_only:
        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        args.results.parent.mkdir(parents=True, exist_ok=True)
        lock = args.results.open("a")            # the results file itself: no lock file is left behind
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            sys.exit(f"another sweep is writing {args.results}; wait for it, or give this one --results elsewhere")
        machine = f"{platform.machine()}, {os.cpu_count()} cores, {platform.processor() or platform.platform()}"
        targets = span(args.targets)
        if args.prove:
            kept = proofs(args.results)
            for speed in map(float, args.speeds.split(",")):
                for reading in args.readings.split(","):
                    for n in span(args.players):
                        have = kept.get((n, reading, speed))
                        if have is not None and int(have["target"]) >= max(targets):  # type: ignore[call-overload]
                            continue
                        t0 = time.perf_counter()
                        r = run_proof(n, reading, speed, max(targets))
                        append(args.results, [json.dumps({**r, "machine": machine})])
                        said = r.get("error") or (f"gain {float(r['gain']):.2g}, converged {r['converged']}")  # type: ignore[arg-type]
                        print(f"{n}p {reading} x{speed:g} proved at {max(targets)}: {said} "
                              f"({time.perf_counter() - t0:.1f} s)", flush=True)
            targets = []                            # nothing more to solve
        for speed in map(float, args.speeds.split(",")):
            for reading in args.readings.split(","):
                for n in span(args.players):
                    want = [g for g in targets if (n, g, reading, speed) not in done]
                    if not want:
                        continue
                    for solve_at, asked in ([(g, [g]) for g in want] if args.per_target else [(max(targets), want)]):
                        t0 = time.perf_counter()
                        rows, family = run_family(n, reading, speed, asked, solve_at <= args.measure_up_to, solve_at)
                        lines = [json.dumps({**r, "machine": machine}) for r in rows.values()]
                        if not args.per_target and "error" not in family:
                            lines.append(json.dumps({"family": True, "players": n, "reading": reading, "speed": speed,
                                                     **family, "machine": machine}))
                        append(args.results, lines)
                        for g, r in rows.items():
                            if "error" not in r:
                                done[(n, g, reading, speed)] = r
                        bad = [g for g, r in rows.items() if "error" in r or not r["converged"]]
                        print(f"{n}p {reading} x{speed:g} solved at {solve_at}: {len(rows)} games, "
                              f"{'error ' + str(family['error']) if 'error' in family else 'all converged' if not bad else 'NOT CONVERGED: ' + str(bad)} "
                              f"({time.perf_counter() - t0:.1f} s)", flush=True)
    write_doc(done, args.doc, families(args.results), load(PER_TARGET) if args.results != PER_TARGET else {},
              proofs(args.results))
    print(f"wrote {args.doc}")


if __name__ == "__main__":
    main()
