"""Policies as values: each is a callable ``(scores, turn, dice) -> bool array`` (True = roll).

``scores`` is an (M, N) integer array of banked scores in turn order from the
player to move, ``turn`` and ``dice`` are (M,) arrays. Simulation and exact
evaluation both take policies in this form.
"""
from __future__ import annotations

import numpy as np

from .tables import Table


class TablePolicy:
    """Optimal play read from a table's ``roll`` (or ``roll_bits``)."""

    def __init__(self, table: Table):
        self.table = table
        self.G = table.target
        self.D = table.substates
        self.roll = table.arrays.get("roll")
        self.bits = table.arrays.get("roll_bits")
        self.name = "optimal"

    def __call__(self, scores, turn, dice):
        scores = np.asarray(scores)
        turn = np.asarray(turn)
        dice = np.asarray(dice)
        inside = scores[:, 0] + turn < self.G
        out = np.zeros(len(turn), dtype=bool)
        idx = tuple(scores[inside].T)
        tt, nn = turn[inside], dice[inside]
        if self.roll is not None:
            out[inside] = self.roll[idx + (tt, nn)]
        else:
            q = tt * (self.D + 1) + nn
            out[inside] = (self.bits[idx + (q >> 3,)] & (128 >> (q & 7))) != 0
        return out


class HoldPolicy:
    """``hold:K`` (stop at K turn points) or ``hold:K/D`` (also stop with D or fewer live dice)."""

    def __init__(self, k: int, target: int, dice: int | None = None):
        self.k, self.target, self.dice = k, target, dice
        self.name = f"hold:{k}" + (f"/{dice}" if dice is not None else "")

    def __call__(self, scores, turn, dice):
        scores, turn, dice = np.asarray(scores), np.asarray(turn), np.asarray(dice)
        roll = (turn < self.k) & (scores[:, 0] + turn < self.target)
        if self.dice is not None:
            roll &= dice > self.dice
        return roll
