"""Why: the numbers behind one piece of advice (``advise --explain``; the page shows the same).

For the mover at banked score s0 with t turn points and n live dice (h = target - s0):

* ``stop_at``: the smallest turn total t' >= t at which optimal play with these scores and n live
  dice stops; at most h, where stopping wins.
* ``p_all_cars``, ``p_all_squirrels``, ``p_one_die_refill``: the next roll of the n dice loses the
  turn, starts a Go Nuts! round, or brings all five dice back (the one-die rule); from
  ``game.moves``. ``nuts_mean``: the expected acorns of that round (exact, uncapped).
* ``turn_gain_if_roll``: if the mover rolls now and then plays optimally, P(this turn adds exactly g
  points), g = 0 .. h - 1, and a last entry for reaching the target. It sums to 1.
  ``turn_gain_mean_if_roll``: its mean, the last entry counted as h points.

The decisions are those of ``backup.turn_decisions``: one backward pass over the turn from the
table's start-of-turn values, as ``advise`` makes for 3 and 4 players.
Twin in the page: ``solver/site/web/src/core/explain.js``.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from solver.files import StrPath
from solver.game.moves import BUST, MOVE, NUTS, faces_table, roll_table
from solver.game.payout import nuts_gain_mean
from solver.game.rules import N_DICE, Rules
from solver.game.states import check_state
from solver.play.advise import check_explainable, turn_inputs
from solver.play.backup import After, Payouts, turn_decisions
from solver.store.checked import open_table


def nuts_means(rules: Rules) -> dict[int, float]:
    """{dice: expected acorns of a Go Nuts! round with that many dice}, exact, for 1..5 dice."""
    return {x: nuts_gain_mean(x, rules.players - 1, rules.dog_chance, rules.acorn_chance, rules.speed_fraction)
            for x in range(1, N_DICE + 1)}


def explain(rules: Rules, payouts: Payouts, after: After, s0: int, turn: int, dice: int) -> dict[str, Any]:
    """The explain object (module docstring); ``payouts`` and ``after`` as ``backup.backup_state`` takes them."""
    check_explainable(rules)
    h = rules.target - s0
    decide = turn_decisions(rules, payouts, after, s0)
    stop_at = turn
    while stop_at < h and decide[(stop_at, dice)]:
        stop_at += 1
    nxt = faces_table(rules)[dice]
    p = {kind: sum(r[3] for r in nxt if r[4] == kind) for kind in (BUST, NUTS)}
    refill = sum((r[3] for r in nxt if r[4] == MOVE and r[6] == N_DICE and dice - r[2] != N_DICE), 0.0)
    nuts_dice = next(r[5] for r in nxt if r[4] == NUTS)
    gain = turn_gain(rules, payouts, decide, s0, turn, dice)
    return {"stop_at": stop_at, "p_all_cars": p[BUST], "p_all_squirrels": p[NUTS], "p_one_die_refill": refill,
            "nuts_mean": nuts_means(rules)[nuts_dice], "turn_gain_if_roll": gain,
            "turn_gain_mean_if_roll": sum(g * q for g, q in enumerate(gain))}


def explain_path(path: StrPath, scores: Sequence[int], turn: int, dice: int,
                 expect: Rules | None = None) -> dict[str, Any]:
    """``explain`` for one state, straight from a table file (checked as ``advise.advise_path`` checks it)."""
    with open_table(path, expect) as tab:
        rules = tab.rules
        scores = check_state(rules, scores, turn, dice)
        run, payouts = turn_inputs(tab, scores)
        N = rules.players
        return explain(rules, payouts, lambda g: run[g * N:(g + 1) * N], scores[0], turn, dice)


def turn_gain(rules: Rules, payouts: Payouts, decide: dict[tuple[int, int], bool], s0: int, turn: int,
              dice: int) -> list[float]:
    """P(the turn adds g points), g = 0 .. h - 1, then P(it reaches the target): rolling now at (turn, dice),
    then following ``decide``. Forward over the turn's decision states, t ascending and n descending (a
    roll either adds acorns or removes dice, so this visits every state after all that lead to it)."""
    h = rules.target - s0
    _, rolls = roll_table(rules)
    P = [0.0] * (h + 1)
    mass: dict[tuple[int, int], float] = {}
    pay: Sequence[Sequence[float]] = payouts if payouts is not None else ()      # Pig has no Go Nuts! round

    def roll(t: int, n: int, m: float) -> None:
        for kind, p, x, live in rolls[n]:
            q = m * p
            if kind == BUST:
                P[0] += q
            elif kind == NUTS:
                base = 0 if rules.nuts_costs_turn else t
                for g, pg in enumerate(pay[x]):
                    if pg:
                        P[min(base + g, h)] += q * pg
            elif t + x >= h:
                P[h] += q
            else:
                mass[(t + x, live)] = mass.get((t + x, live), 0.0) + q
    roll(turn, dice, 1.0)                 # the roll asked about (at or past the target too: it risks the win)
    for t in range(turn, h):
        for n in range(N_DICE, 0, -1):
            m = mass.pop((t, n), 0.0)
            if not m:
                continue
            if not decide[(t, n)]:
                P[t] += m
            else:
                roll(t, n, m)
    return P
