"""Turn models: one player's turn as data the engine can solve without knowing the game.

A turn model describes the decision states of one turn, (t, n): t turn points
(0 <= t < room, where room = target - banked score) and a sub-state
n in 1..D (for Go Nuts! the live dice). Rolling at (t, n) has chance outcomes:

* **moves** ``(n, p, da, n2)``: with probability p go on to the decision state
  (t + da, n2); reaching t + da >= room is a win for the active player.
  A move with da == 0 must go to a smaller sub-state (n2 < n), so that the
  states of one turn form a DAG solved by t descending, n ascending.
* **endings** ``(n, p, j, rel)``: with probability p the turn ends with a gain
  drawn from distribution ``dists[j]`` (pmf over 0..target, the last bin lumping
  everything >= target); if ``rel`` the gain is added to t, otherwise it
  replaces it. ``tails[j][h]`` is P(gain >= h), h = 0..target, given on its own
  (exact, rounded once: ``payout.nuts_tail_table``) rather than summed from the
  bins, since a sum from the target down would make the values depend on the
  target and not only on the distance to it (docs/model.md, "The corner").

Stopping at (t, n) ends the turn with gain t. The turn opens at (0, start)
with a forced roll.
The page builds the same model in ``solver/site/web/src/core/solve.js`` (``kernelData``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from solver.errors import RulesError
from solver.game.moves import BUST, NUTS, roll_table
from solver.game.payout import nuts_payout_table, nuts_tail_table
from solver.game.rules import N_DICE, Rules


@dataclass(frozen=True)
class TurnModel:
    name: str
    substates: int          # D: sub-states are 1..D; column 0 of tables is unused
    start: int
    moves: np.ndarray       # structured: src, p, da, dst
    endings: np.ndarray     # structured: src, p, dist, rel
    dists: np.ndarray       # (n_dists, target + 1)
    tails: np.ndarray       # (n_dists, target + 1): P(gain >= h)

    def __post_init__(self) -> None:
        self.check()

    def check(self) -> None:
        """Refuse a model the engine cannot solve exactly, naming the offending entry."""
        D = self.substates
        if not 1 <= self.start <= D:
            raise RulesError(f"turn model {self.name}: start sub-state {self.start} outside 1..{D}")
        for m in self.moves:
            if not (1 <= m["src"] <= D and 1 <= m["dst"] <= D) or m["da"] < 0:
                raise RulesError(f"turn model {self.name}: bad move {m}")
            if m["da"] == 0 and m["dst"] >= m["src"]:
                raise RulesError(f"turn model {self.name}: move {m} gains nothing and does not shrink the "
                                 "sub-state, so the turn is not a DAG")
        for e in self.endings:
            if not 1 <= e["src"] <= D or not 0 <= e["dist"] < len(self.dists):
                raise RulesError(f"turn model {self.name}: bad ending {e}")
        if np.any(self.dists < 0) or not np.allclose(self.dists.sum(axis=1), 1.0, rtol=0, atol=1e-12):
            raise RulesError(f"turn model {self.name}: a gain distribution is not a pmf")
        tails = self.tails
        if (tails.shape != self.dists.shape or np.any(tails[:, 0] != 1.0) or np.any(tails[:, -1] != self.dists[:, -1])
                or np.any(np.diff(tails, axis=1) > 0)
                or not np.allclose(tails[:, :-1] - tails[:, 1:], self.dists[:, :-1], rtol=0, atol=1e-12)):
            raise RulesError(f"turn model {self.name}: the tails are not those of the gain distributions")
        for n in range(1, D + 1):
            total = self.moves["p"][self.moves["src"] == n].sum() + self.endings["p"][self.endings["src"] == n].sum()
            if abs(total - 1.0) > 1e-12:
                raise RulesError(f"turn model {self.name}: roll outcomes from sub-state {n} sum to {total!r}, not 1")


MOVE = np.dtype([("src", np.int64), ("p", np.float64), ("da", np.int64), ("dst", np.int64)])
ENDING = np.dtype([("src", np.int64), ("p", np.float64), ("dist", np.int64), ("rel", np.bool_)])


def gonuts_turn(rules: Rules, payouts: np.ndarray) -> TurnModel:
    """The Go Nuts! turn: sub-state n = live dice. ``payouts`` is ``nuts_payout_table(rules)``."""
    cap = rules.target
    bust = np.zeros(cap + 1)
    bust[0] = 1.0
    dists = [bust] + [payouts[n] for n in range(1, N_DICE + 1)]
    tails = nuts_tail_table(rules)
    tails[0, 0] = 1.0
    moves, endings = [], []
    for n, rolls in roll_table(rules)[1].items():
        for kind, p, x, live in rolls:
            if kind == BUST:
                endings.append((n, p, 0, False))
            elif kind == NUTS:
                endings.append((n, p, x, not rules.nuts_costs_turn))
            else:
                moves.append((n, p, x, live))
    return TurnModel("gonuts", N_DICE, N_DICE, np.array(moves, MOVE), np.array(endings, ENDING),
                     np.array(dists), tails)


def pig_turn(rules: Rules) -> TurnModel:
    """Pig: one die; a 1 ends the turn with nothing, 2..6 add to the turn total."""
    bust = np.zeros(rules.target + 1)
    bust[0] = 1.0
    moves = [(1, 1 / 6, k, 1) for k in range(2, 7)]
    return TurnModel("pig", 1, 1, np.array(moves, MOVE), np.array([(1, 1 / 6, 0, False)], ENDING),
                     bust[None, :], bust[None, :].copy())


def game_model(rules: Rules, table: Any = None) -> TurnModel:
    """The turn model, taking the exact payouts from a table of the same rules when there is one."""
    if rules.game == "gonuts" and table is not None and table.rules == rules:
        return gonuts_turn(rules, table.arrays["nuts_payout"])
    return turn_model(rules)


def turn_model(rules: Rules) -> TurnModel:
    """The turn model of the game the rules name (computes Go Nuts! payouts exactly)."""
    if rules.game == "pig":
        return pig_turn(rules)
    return gonuts_turn(rules, nuts_payout_table(rules))
