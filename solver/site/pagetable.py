"""A table's interface over the page's values: what ``advise`` and ``review`` answer from where the exact
table is not here and cannot be built (no compiler) or not quickly (``review``'s limit).

The values are those the page plays with (``pagevalues.page_game``: the shipped page data of 4 players at
target 50, quantised within the precision it states), and the optimal action is the backup's own greedy
choice, as the page advises. So the numbers equal the page's, not the exact table's: a command that
answers from them says so, with the precision and the command that builds the exact table.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from solver.game.rules import Rules
from solver.play.luck import Values
from solver.site import pagevalues


class PageTable:
    """``start_win`` (``pagedata.Shares``), ``nuts_payout`` and ``roll_at`` as a ``tables.Table`` offers
    them, from the page's values."""

    def __init__(self, rules: Rules, start_win: Any, payouts: Sequence[Sequence[float]] | None,
                 precision: float) -> None:
        self.rules, self.precision = rules, precision
        self.arrays = {"start_win": start_win}
        if payouts is not None:
            self.arrays["nuts_payout"] = np.asarray(payouts, dtype=np.float64)
        self.values = Values(rules, start_win, payouts)

    players = property(lambda self: self.rules.players)
    target = property(lambda self: self.rules.target)
    substates = property(lambda self: self.rules.substates)

    def roll_at(self, scores: Sequence[int], t: int, n: int) -> bool:
        """The page's decision at one state; never a roll where stopping already wins (as a table stores it)."""
        if int(scores[0]) + t >= self.rules.target:
            return False
        both, _ = self.values.turn(tuple(int(s) for s in scores))
        return bool(both[(t, n)][2])


def page_table(rules: Rules, on_decode: Callable[[], object] | None = None) -> PageTable | None:
    """The page's values of ``rules`` where the page data is shipped (4 players at target 50), else None."""
    reading = rules.reading_name()
    if rules.game != "gonuts" or reading is None:
        return None
    shipped = pagevalues.shipped_game(rules.players, reading, rules.target)
    if shipped is None or Rules.from_dict(shipped[0]["rules"]) != rules:
        return None
    page_rules, start_win, payouts = pagevalues.page_game(shipped, on_decode)
    return PageTable(page_rules, start_win, payouts, float(shipped[0]["start_win"]["precision"]))
