"""Every command's output: its words, and the object it prints with ``--json``. Pure functions of results.
The sentences the page says too (the why, one in N, signed points) are ``play.words``'s.
"""
from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from solver.game.rules import Rules
from solver.play.words import points

if TYPE_CHECKING:                # annotations only: loading them costs start-up time every command pays
    from solver.engine.evaluate import EvalResult
    from solver.lab.fair import FairStart
    from solver.lab.strategy import SimpleRulesReport, SimReport
    from solver.play.advise import Advice
    from solver.play.record import Review, ReviewedDecision
    from solver.store.build import BuildReport
    from solver.store.tables import Table
    from solver.store.verify import VerifyReport


def pct(x: float | None) -> str:
    """A probability as a percentage with two decimals."""
    return "   -   " if x is None else f"{100 * x:6.2f}%"


def seconds(s: float) -> str:
    """A duration as a person reads it: two decimals, or two significant digits below a tenth (never "0.00 s")."""
    return f"{s:.2f} s" if s >= 0.1 else f"{s:.2g} s"


def build(rep: BuildReport) -> str:
    flag = "converged" if rep.converged else "NOT CONVERGED"
    how = f"from the table to {rep.corner_of}, with no solve" if rep.corner_of is not None else \
        f"solved in {seconds(rep.seconds)}, {rep.iterations} iteration{'' if rep.iterations == 1 else 's'}"
    line = f"{rep.path}: {how}, residual {rep.residual:.1e} ({flag}); first player wins {rep.first_player_win:.4%}"
    eq = rep.equilibrium
    if eq["orbits_searched"]:
        several, mixed = eq["orbits_with_several"], eq["mixed_decisions"]
        line += (f"\n{eq['orbits_searched']} orbit{'s' if eq['orbits_searched'] != 1 else ''} had decisions that did "
                 f"not settle: {several} with several equilibria (the table holds the one with the {eq['selection']})"
                 + (f", {mixed} decision{'s' if mixed != 1 else ''} played mixed" if mixed else "")
                 + "; docs/model.md")
    return line


def advice(rules: Rules, a: Advice) -> str:
    N = rules.players
    who = ", ".join(f"{s}" + (" (you)" if i == 0 else "") for i, s in enumerate(a.scores))
    dice = f"{a.dice} {'die' if a.dice == 1 else 'dice'} live" if rules.game == "gonuts" else ""
    head = f"{rules.describe()}\nscores {who}; {a.turn} turn points" + (f"; {dice}" if dice else "")
    if a.reason == "reaches_target":
        return (f"{head}\nSTOP: banking {a.turn} points brings you to {a.scores[0] + a.turn} "
                f"(target {rules.target}): you win.")
    if a.reason == "forced":
        assert a.win_if_roll is not None                  # a forced roll has its chance
        line = ("ROLL: the first roll of a turn is forced. Your chance of winning from here: "
                f"{pct(a.win_if_roll).strip()}")
    elif a.reason == "mixed":
        assert a.win_if_roll is not None and a.win_if_stop is not None and a.roll_probability is not None
        line = (f"EITHER: rolling and stopping both give you {pct(a.win_if_roll).strip()}; the equilibrium rolls "
                f"with probability {a.roll_probability:.4f} here (docs/model.md), which is what the others' "
                "chances below assume")
    else:
        assert a.win_if_roll is not None and a.win_if_stop is not None    # a decision: both actions exist
        line = (f"{a.action.upper()}: win {pct(a.win_if_roll).strip()} if you roll, "
                f"{pct(a.win_if_stop).strip()} if you stop")
    lines = [head, line]
    if N > 2 or a.reason == "mixed":
        lines.append("every player's chance, you and then the players after you in turn order:")
        lines.append("          " + "".join(f"{'you' if k == 0 else '+' + str(k):>10}" for k in range(N)))
        for label, vec in (("if roll", a.players_if_roll), ("if stop", a.players_if_stop)):
            if vec is not None:
                lines.append(f"{label:>10}" + "".join(f"{pct(x):>10}" for x in vec))
    return "\n".join(lines)


def build_json(rules: Rules, rep: BuildReport) -> dict[str, Any]:
    return {"path": str(rep.path), "rules": rules.to_dict(), "seconds": round(rep.seconds, 4),
            "iterations": rep.iterations, "residual": rep.residual, "converged": rep.converged,
            "first_player_win": rep.first_player_win, "equilibrium": rep.equilibrium, "corner_of": rep.corner_of}


def start_win(t: Table) -> list[float]:
    return [float(x) for x in t.arrays["start_win"][(0,) * t.players]]


def info_json(path: str, t: Table) -> dict[str, Any]:
    return {"path": str(path), "describe": t.rules.describe(), "rules": t.rules.to_dict(),
            "schema": t.meta["schema"], "package_version": t.meta["package_version"], "solver": t.meta["solver"],
            "equilibrium": t.equilibrium,
            "checksum": t.meta["checksum"], "start_win_at_zero": start_win(t), "arrays": t.meta["arrays"],
            "size_bytes": os.path.getsize(path)}


def equilibria(eq: dict[str, Any]) -> str:
    """What a table's ``equilibrium`` meta says, in one line."""
    if eq["selection"] is None:
        return "not recorded (a schema-1 table, built before equilibria were searched)"
    if not eq["orbits_searched"]:
        return "every orbit's decisions settled (one equilibrium found each)"
    return (f"{eq['orbits_searched']} orbits searched, {eq['orbits_with_several']} with several equilibria (kept: the "
            f"{eq['selection']}), {eq['mixed_decisions']} decisions mixed")


def _how_made(s: dict[str, Any]) -> str:
    """A table's solve in a few words: its seconds, or the table it was read off (a corner: no solve)."""
    corner_of = s.get("corner_of")
    if isinstance(corner_of, dict) and isinstance(corner_of.get("target"), int):
        return f"read off the table to {corner_of['target']} (no solve)"
    seconds = s.get("seconds")
    timed = isinstance(seconds, (int, float)) and not isinstance(seconds, bool)
    return f"{seconds:.2f} s" if timed else "time not said"


def info(path: str, t: Table) -> str:
    s, start = t.meta["solver"], start_win(t)
    return "\n".join([
        f"{path}: {t.rules.describe()}",
        f"  rules      {json.dumps(t.rules.to_dict())}",
        f"  solver     {s['method']}: residual {s['residual']:.1e} (tolerance {s['tolerance']:.0e}), "
        f"{s['iterations']} iterations, {'converged' if s['converged'] else 'NOT converged'}, {_how_made(s)}",
        "  at 0-0     " + ", ".join(f"seat {k + 1}: {p:.4%}" for k, p in enumerate(start)),
        "  equilibria " + equilibria(t.equilibrium),
        "  arrays     " + ", ".join(f"{k} {v['dtype']}{tuple(v['shape'])}" for k, v in t.meta["arrays"].items()),
        f"  integrity  schema {t.meta['schema']}, {t.meta['checksum'][:23]}... verified"])


def verify(path: str, rep: VerifyReport) -> str:
    extra = ""
    if rep.action_error is not None:
        extra += f", roll_win/stop_win error {rep.action_error:.1e}"
    if rep.payout_error is not None:
        extra += f", payout error {rep.payout_error:.1e}"
    return (f"{path}: {rep.states:,} states; largest Bellman error {rep.value_error:.1e}{extra}; "
            f"{rep.disagreements} policy disagreements beyond ties ({rep.ties} ties); tolerance "
            f"{rep.tolerance:.0e}: {'OK' if rep.ok else 'FAILED'}")


def best_line(r: dict[str, Any]) -> str:
    """A best response's convergence report in one line."""
    return (f"best response: exact, residual {r['residual']:.1e} (tolerance {r['tolerance']:.0e}), "
            f"{r['iterations']} iterations, {'converged' if r['converged'] else 'NOT converged'}, "
            f"{r['seconds']:.2f} s")


def evaluate_json(rules: Rules, specs: Sequence[str], ev: EvalResult, both_orders: bool,
                  report: dict[str, Any] | None) -> dict[str, Any]:
    out = {"policies": specs, "rules": rules.to_dict(), "win": [float(x) for x in ev.win],
           "expected_turns": ev.expected_turns}
    if both_orders:
        out.update(win_both_orders=[float(x) for x in ev.win_both_orders],
                   expected_turns_both_orders=ev.expected_turns_both_orders)
    if report is not None:
        out["best_response"] = report
    return out


def evaluate(rules: Rules, specs: Sequence[str], ev: EvalResult, both_orders: bool,
             report: dict[str, Any] | None) -> str:
    win = ev.win_both_orders if both_orders else ev.win
    turns = ev.expected_turns_both_orders if both_orders else ev.expected_turns
    how = "averaged over who moves first" if both_orders else "seat 1 moves first"
    lines = [f"{rules.describe()}; exact, {how}:"]
    lines += [f"  seat {i + 1}  {spec:<24} wins {100 * w:7.3f}%" for i, (spec, w) in enumerate(zip(specs, win))]
    lines.append(f"  expected game length: {turns:.2f} turns")
    if report is not None:
        lines.append("  " + best_line(report))
    return "\n".join(lines)


def simulate_json(rules: Rules, specs: Sequence[str], games: int, seed: int, rep: SimReport,
                  report: dict[str, Any] | None) -> dict[str, Any]:
    out = {"policies": specs, "rules": rules.to_dict(), "games": games, "seed": seed,
           "win": [float(x) for x in rep.win], "stderr": [float(x) for x in rep.stderr],
           "mean_turns": rep.turns, "seconds": rep.seconds}
    if report is not None:
        out["best_response"] = report
    return out


def simulate(rules: Rules, specs: Sequence[str], games: int, seed: int, rep: SimReport,
             report: dict[str, Any] | None) -> str:
    lines = [f"{rules.describe()}; {games:,} games, seed {seed}, seat 1 moves first:"]
    for i, (spec, w, se) in enumerate(zip(specs, rep.win, rep.stderr)):
        lines.append(f"  seat {i + 1}  {spec:<24} wins {100 * w:7.3f}%  "
                     f"(95% interval {100 * (w - 1.96 * se):.3f}% to {100 * (w + 1.96 * se):.3f}%)")
    lines.append(f"  mean game length {rep.turns:.2f} turns; {games / rep.seconds:,.0f} games/s")
    if report is not None:
        lines.append("  " + best_line(report))
    return "\n".join(lines)


SIMPLE_ROWS = (("hold", "best hold:K"), ("hold_dice", "best hold:K/D"), ("per_dice", "best per-dice thresholds"),
               ("maxpoints", "maxpoints"))


def simple_rules_json(rules: Rules, rep: SimpleRulesReport) -> dict[str, Any]:
    return {"rules": rules.to_dict(), "fair_share": 1 / rep.players, "evaluations": rep.evaluations,
            **{key: {"policy": getattr(rep, key).name, "win": getattr(rep, key).win,
                     "gives_up": getattr(rep, key).gives_up} for key, _ in SIMPLE_ROWS},
            "hold_curve": [[k, w] for k, w in rep.hold_curve]}


def simple_rules(rules: Rules, rep: SimpleRulesReport) -> str:
    lines = [f"{rules.describe()}: one simple player against {rep.players - 1} optimal "
             f"player{'s' if rep.players > 2 else ''}, averaged over seats (fair share {100 / rep.players:.2f}%):"]
    for key, label in SIMPLE_ROWS:
        r = getattr(rep, key)
        lines.append(f"  {label:<26} {r.name:<24} wins {100 * r.win:6.2f}%, gives up {100 * r.gives_up:5.2f} "
                     "points of win probability")
    return "\n".join(lines)


def fair(rules: Rules, res: FairStart, given: Sequence[int] | None) -> str:
    N = rules.players
    what = "given" if given else "fairest"
    return "\n".join([
        f"{rules.describe()}; exact, optimal play by everyone, seat 1 moves first:",
        f"  {what} head starts: " + ", ".join(f"seat {k + 1}: {h}" for k, h in enumerate((0,) + res.head_starts)),
        "           " + "".join(f"{'seat ' + str(k + 1):>10}" for k in range(N)),
        "  from 0   " + "".join(f"{100 * p:9.2f}%" for p in res.before),
        "  with it  " + "".join(f"{100 * p:9.2f}%" for p in res.after),
        f"  largest deviation from the fair {100 / N:.2f}%: {100 * res.deviation:.2f} points "
        f"(from {100 * max(abs(p - 1 / N) for p in res.before):.2f} without head starts)"])


def dice_words(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def mixed_line(d: ReviewedDecision, who: str) -> str:
    """A mixed decision of a review: no cost either way for the mover, and what each action does to the others."""
    def others(chances: tuple[float, ...] | None) -> str:
        return ", ".join(f"{100 * x:.2f}%" for x in (chances or ())[1:])
    return (f"entry {d.event + 1} is a mixed decision: rolling and stopping give {who} the same chance "
            f"({100 * d.win_if_roll:.2f}%), so neither costs anything; the equilibrium rolls with probability "
            f"{d.roll_probability:.4f}. The others (in turn order) get {others(d.players_if_roll)} if {who} "
            f"roll{'' if who == 'you' else 's'}, {others(d.players_if_stop)} if {who} "
            f"stop{'' if who == 'you' else 's'}.")


def luck_line(rv: Review) -> str:
    """The seat's change in win probability in one sentence: the dice, its decisions, the others'."""
    r, sp = rv.replay, rv.split
    you = rv.seat == r.you and r.mode != "table"
    name = "You" if you else r.names[rv.seat] if r.names else f"Seat {rv.seat + 1}"
    whose = "your" if you else f"{name}'s" if r.names else f"seat {rv.seat + 1}'s"
    cost = round(-100 * sp.own_decisions, 1) + 0.0
    banked = any(kind == "banked" for _, _, kind, _ in r.trace)
    return (f"{name}: {100 * sp.start:.1f}% to {100 * sp.end:.1f}% ({points(sp.end - sp.start)} points of win "
            f"probability): the dice gave {points(sp.luck)}, {whose} decisions cost {cost:.1f}, the others' "
            f"decisions gave {points(sp.others_decisions)}"
            + (f", turns entered as banked totals {points(sp.banked_turns)}" if banked else "") + ".")


def review(rv: Review) -> str:
    r = rv.replay
    who = "you" if rv.seat == r.you and r.mode != "table" else f"seat {rv.seat + 1}"
    if not rv.decisions:
        return (f"{r.rules.describe()}; {who}: no decisions to review in this record (its turns were entered as "
                "banked totals, or it has not chosen yet)\n" + luck_line(rv))
    status = (f"seat {r.winner + 1} won" if r.winner != rv.seat else f"{who} won") if r.winner is not None \
        else "game in progress"
    whose = f"you at seat {r.you + 1}" if who == "you" else f"{who} reviewed"
    lines = [f"{r.rules.describe()}; {whose}; {status}, {' - '.join(map(str, r.scores))}",
             f"{'entry':>5}  {'scores (yours first)':<22}{'turn':>5}{'dice':>5}  {'you':<5} {'optimal':<8}"
             f"{'win if roll':>12}{'if stop':>10}{'loss':>8}"]
    for d in rv.decisions:
        # entries counted from 1, as the page's log counts them (--json keeps "event", the index into "events")
        lines.append(f"{d.event + 1:>5}  {'-'.join(map(str, d.scores)):<22}{d.turn:>5}{d.dice:>5}  {d.taken:<5} "
                     f"{d.optimal:<8}{pct(d.win_if_roll):>12}{pct(d.win_if_stop):>10}{d.loss_points:>8.2f}")
    lines.append(f"{len(rv.decisions)} decisions; total given up: {rv.total_loss_points:.2f} points of win "
                 "probability")
    worst = rv.costliest()
    if worst:
        lines.append("costliest: " + "; ".join(f"entry {d.event + 1} ({d.taken} at {'-'.join(map(str, d.scores))}, "
                                                f"{d.turn} points, {dice_words(d.dice)}: {d.loss_points:.2f})"
                                                for d in worst))
    for d in rv.decisions:
        if d.mixed:
            lines.append(mixed_line(d, who))
    lines.append(luck_line(rv))
    return "\n".join(lines)


def web(done: dict[str, Any], site: str | None) -> str:
    where = f"{site}/ ({done['files']} files)" if site else done["path"]
    then = "serve it from any static host; it installs as an app" if site else "open it in a browser, offline"
    return (f"wrote {where}: {done['bytes'] / 1e6:.1f} MB, {', '.join(done['games'])} (target {done['target']}); "
            f"{then}")
