"""A game to a smaller target read off the table of the same game to a larger one: its corner.

The values depend on the scores only through each player's distance to the target (docs/model.md, "The
corner"), so the table to T is, bit for bit, the part of the table to L > T where every score is at least
L - T, with the turn axis cut at T: the same ``start_win``, decisions, values and mixed decisions a solve of T
writes, and so the same checksum. Only the Go Nuts! payouts' last bin, P(gain >= T), is not in the larger
table: it is the exact value rounded once (``game.payout``), computed here, and the bins below it are checked
against the larger table's. A corner is read in seconds where a solve takes minutes: ``library.Tables`` answers
a smaller target from a larger table it holds, and says so.

    >>> from solver.store.locate import shipped_dir
    >>> from solver.store import tables
    >>> big = tables.load(shipped_dir() / "gonuts-2p-t50-rulebook.npz")
    >>> small = corner(big, 30)
    >>> small.target, small.arrays["start_win"].shape, small.meta["solver"]["corner_of"]["target"]
    (30, (30, 30, 2), 50)
"""
from __future__ import annotations

import operator
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from solver.engine.solve import SELECTION
from solver.errors import TableError
from solver.files import StrPath
from solver.game.payout import nuts_payout_table
from solver.game.rules import Rules
from solver.store.contract import Meta
from solver.store.tables import Table, save, table_meta


def corner_rules(rules: Rules, target: int) -> Rules:
    """The same game to another target."""
    return Rules.from_dict({**rules.to_dict(), "target": target})


def check_corner(table: Table, target: object) -> int:
    """The target of a corner of ``table``, or one line saying why there is none: ``target`` is a whole number from
    1 to the table's own target, or the ``Rules`` of the same game to such a target."""
    if isinstance(target, Rules):
        if corner_rules(target, table.target) != table.rules:
            raise TableError(f"{target.describe()} is another game than the table's ({table.rules.describe()}): a "
                             "corner is the same game to a smaller target")
        target = target.target
    try:
        if isinstance(target, bool):
            raise TypeError
        t = operator.index(target)          # type: ignore[arg-type]
    except TypeError:
        raise TableError(f"a corner's target is a whole number from 1 to {table.target} (the table's target), "
                         f"not {target!r}") from None
    if not 1 <= t <= table.target:
        raise TableError(f"target {t} is not a corner of the table to {table.target}: a corner's target is from 1 "
                         f"to {table.target}")
    return t


def corner_arrays(table: Table, target: int | Rules) -> dict[str, npt.NDArray[np.generic]]:
    """The arrays of the game to ``target``, from the table of the same game to a larger (or the same) one."""
    N, L, D = table.players, table.target, table.substates
    T = check_corner(table, target)
    o = L - T
    box = (slice(o, None),) * N
    a = table.arrays
    out: dict[str, npt.NDArray[np.generic]] = {"start_win": np.ascontiguousarray(a["start_win"][box])}
    if "roll" in a:
        out["roll"] = np.ascontiguousarray(a["roll"][box][..., :T, :])
    if "roll_bits" in a:
        # the decisions are packed along the flattened (t, n) axis, t first: the first T (D + 1) bits of a state's
        # row are the smaller game's, so its bytes are a prefix, the last one cut to its bits (no unpacking)
        bits, width = T * (D + 1), -(-T * (D + 1) // 8)
        packed = np.array(a["roll_bits"][box][..., :width], order="C")      # a copy: its last byte is cut
        if bits % 8:
            packed[..., -1] &= np.uint8((0xFF << (8 - bits % 8)) & 0xFF)
        out["roll_bits"] = packed
    for name in ("roll_win", "stop_win"):
        if name in a:
            out[name] = np.ascontiguousarray(a[name][box][..., :T, :])
    if "nuts_payout" in a:
        payouts = nuts_payout_table(corner_rules(table.rules, T))
        if payouts[:, :T].tobytes() != np.ascontiguousarray(a["nuts_payout"][:, :T]).tobytes():
            raise TableError(f"{table.path or 'the table'}: its Go Nuts! payouts are not those of its rules; no "
                             "corner is read from it")
        out["nuts_payout"] = payouts
    if "mixed_at" in a:
        at, p = np.asarray(a["mixed_at"], dtype=np.int64), np.asarray(a["mixed_roll"], dtype=np.float64)
        keep = np.all(at[:, :N] >= o, axis=1)
        if keep.any():
            rows = at[keep].copy()
            rows[:, :N] -= o
            out["mixed_at"] = np.ascontiguousarray(rows, dtype=np.int64)
            out["mixed_roll"] = np.ascontiguousarray(p[keep], dtype=np.float64)
    return out


def _solver_meta(table: Table, arrays: dict[str, npt.NDArray[np.generic]]) -> dict[str, Any]:
    """What a corner's meta says of its solve: the larger table's tolerance and residual (the corner's orbits
    are some of its orbits, so its residual bounds theirs), and where it was read from."""
    s = table.meta["solver"]
    N = table.players
    return {"method": f"the corner of the table to {table.target} ({s.get('method', 'solved')})",
            "tolerance": s["tolerance"], "residual": s["residual"], "iterations": s["iterations"],
            "converged": s["converged"], "first_player_win": float(arrays["start_win"][(0,) * N + (0,)]),
            "corner_of": {"target": table.target, "checksum": table.meta["checksum"]}}


def _equilibrium(table: Table, arrays: dict[str, npt.NDArray[np.generic]]) -> dict[str, Any]:
    """The larger table's equilibrium meta (its counts of orbits are the larger game's: bounds for the corner's)
    with the corner's own mixed decisions."""
    eq = dict(table.equilibrium)
    if eq.get("selection") is None:                     # a schema-1 table: nothing was searched
        eq["selection"] = SELECTION
    eq["mixed_decisions"] = len(arrays["mixed_at"]) if "mixed_at" in arrays else 0
    return eq


def corner(table: Table, target: int | Rules) -> Table:
    """The table of the same game to ``target`` (1 to ``table.target``, or those rules), made in memory from
    ``table``: every array equal to the bit to what a solve of that game writes (``path`` is None)."""
    T = check_corner(table, target)
    rules = corner_rules(table.rules, T)
    arrays = corner_arrays(table, T)
    meta = table_meta(rules, arrays, _solver_meta(table, arrays), table.substates, _equilibrium(table, arrays),
                      "the corner")
    return Table(meta, rules, arrays, None)


def write_corner(table: Table, target: int | Rules, out: StrPath) -> Meta:
    """Write the table of the same game to ``target``, read off ``table``, to ``out`` (atomically, checked as
    every table is): the file a solve of that game writes, but for the solve's own numbers in its meta."""
    T = check_corner(table, target)
    arrays = corner_arrays(table, T)
    return save(Path(out), corner_rules(table.rules, T), arrays, _solver_meta(table, arrays), table.substates,
                _equilibrium(table, arrays))
