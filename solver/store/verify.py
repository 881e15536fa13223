"""Check a table from its rules alone, by a code path independent of the build.

The Go Nuts! payouts are recomputed from the rules and compared with the
table's; then the plain Bellman operator of ``bellman.py`` (its own dice
enumeration and turn logic; nothing from ``engine``, ``kernels`` or ``turn``)
is applied to every state of the table's ``start_win``. Reported:

* ``value_error``: max |T(W) - W| over every state and seat (the Bellman residual);
* ``action_error`` (2 players): max error of ``roll_win`` and ``stop_win``;
* ``payout_error``: max difference of the recomputed payouts;
* ``disagreements``: decision states where the table's action differs from
  the greedy one by more than ``tie`` in the active player's win probability;
  ``ties``: differing decisions within ``tie`` (both actions are optimal then).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solver.engine.solve import Progress, unpack_roll
from solver.game.payout import nuts_payout_table
from solver.reference.bellman import bellman
from solver.store.tables import Table

TIE = 1e-9


@dataclass(frozen=True)
class VerifyReport:
    states: int
    value_error: float
    action_error: float | None
    payout_error: float | None
    disagreements: int
    ties: int
    tolerance: float

    @property
    def ok(self) -> bool:
        errs = [self.value_error, self.action_error or 0.0, self.payout_error or 0.0]
        return max(errs) <= self.tolerance and self.disagreements == 0

    def to_dict(self) -> dict[str, object]:
        return {"ok": self.ok, "states": self.states, "value_error": self.value_error,
                "action_error": self.action_error, "payout_error": self.payout_error,
                "disagreements": self.disagreements, "ties": self.ties, "tolerance": self.tolerance}


def verify(table: Table, tolerance: float | None = None, tie: float = TIE, chunk: int = 20_000,
           progress: Progress | None = None) -> VerifyReport:
    rules = table.rules
    N, G = rules.players, rules.target
    if tolerance is None:
        tolerance = max(float(table.meta.get("tolerance") or 1e-12), 1e-12)
    payouts, payout_error = None, None
    if rules.game == "gonuts":
        payouts = nuts_payout_table(rules)
        payout_error = float(np.abs(payouts - table.arrays["nuts_payout"]).max())
    W = table.arrays["start_win"]
    Wf = W.reshape(-1, N)
    S = G ** N
    value_error, action_error = 0.0, (0.0 if "roll_win" in table.arrays else None)
    disagreements = ties = 0
    rw = table.arrays.get("roll_win")
    sw = table.arrays.get("stop_win")
    for lo in range(0, S, chunk):
        idx = np.arange(lo, min(S, lo + chunk))
        b = bellman(rules, payouts, W, idx)
        value_error = max(value_error, float(np.abs(b.value - Wf[idx]).max()))
        stored = _roll_rows(table, idx)
        differ = stored != b.roll
        if differ.any():
            gap = np.abs(b.roll_own - b.stop_own)[differ]
            ties += int((gap <= tie).sum())
            disagreements += int((gap > tie).sum())
        if rw is not None and sw is not None and action_error is not None:
            D1 = b.roll_own.shape[-1]
            r = rw.reshape(-1, G, D1)[idx][..., 1:]
            s = sw.reshape(-1, G, D1)[idx][..., 1:]
            action_error = max(action_error, float(np.abs(r - b.roll_own[..., 1:]).max()),
                               float(np.abs(s - b.stop_own[..., 1:]).max()))
        if progress is not None:
            progress(min(S, lo + chunk), S)
    return VerifyReport(S, value_error, action_error, payout_error, disagreements, ties, tolerance)


def _roll_rows(table: Table, idx: np.ndarray) -> np.ndarray:
    G, D = table.target, table.substates
    if "roll" in table.arrays:
        return np.asarray(table.arrays["roll"].reshape(-1, G, D + 1)[idx])
    bits = table.arrays["roll_bits"].reshape(G ** table.players, -1)[idx]
    return unpack_roll(bits, G, D)
