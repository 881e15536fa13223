"""The sentences both the command line and the page say: the why of an advice (``explain``), a chance as "1 in
N" (``one_in``) and a probability as signed percentage points (``points``). The command line's other words are
``commands.text``'s.
Twin in the page: ``solver/site/web/src/core/words.js`` (which says them in four languages).
"""
from __future__ import annotations

from typing import Any, Protocol

from solver.game.rules import Rules


def points(x: float) -> str:
    """A probability as signed percentage points, one decimal (never -0.0)."""
    x = round(100 * x, 1)
    return f"{x + 0.0:+.1f}"


def one_in(p: float) -> str:
    return "never" if p <= 0 else f"1 in {1 / p:,.0f}" if p < 0.5 else f"{100 * p:.0f}%"


class Asked(Protocol):
    """The state a question was about: an ``Advice``, or a practice question's pick."""
    @property
    def scores(self) -> tuple[int, ...]: ...

    @property
    def turn(self) -> int: ...

    @property
    def dice(self) -> int: ...


def explain(rules: Rules, a: Asked, e: dict[str, Any]) -> str:
    """The explain object in words: where optimal play stops, the next roll's risks, the turn's gain. Where the
    equilibrium mixes (an advice whose ``roll_probability`` is set), no action is better: it says so instead of
    where play stops."""
    h = rules.target - a.scores[0]
    dice = f"{a.dice} {'die' if a.dice == 1 else 'dice'}"
    mix = getattr(a, "roll_probability", None)
    stop = ("stopping now reaches the target: you win" if a.turn >= h
            else f"rolling and stopping give you the same chance (the equilibrium rolls with probability {mix:.4f})"
            if mix is not None
            else f"optimal play stops at {e['stop_at']}" if e["stop_at"] < h
            else f"optimal play rolls on until it reaches the target ({h} points)")
    loses = f"the turn's {a.turn} points lost" if a.turn else "nothing banked"
    nuts = "replacing the turn's points" if rules.nuts_costs_turn else "added to the turn's points"
    lines = [f"why: with {dice} here, {stop}.",
             f"  the next roll: {one_in(e['p_all_cars'])} all cars ({loses}); {one_in(e['p_all_squirrels'])} a "
             f"Go Nuts! round ({e['nuts_mean']:.2f} acorns on average, {nuts})"
             + (f"; {one_in(e['p_one_die_refill'])} all five dice back" if e["p_one_die_refill"] else "") + ".",
             f"  rolling now, this turn adds {e['turn_gain_mean_if_roll']:.2f} points on average "
             f"({100 * e['turn_gain_if_roll'][0]:.1f}% nothing, {100 * e['turn_gain_if_roll'][-1]:.1f}% reaching "
             f"the target); stopping adds {a.turn}."]
    return "\n".join(lines)
