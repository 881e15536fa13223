"""One question from the table: at these scores, turn points and live dice, roll or stop?

``advise`` answers from a loaded ``Table``. ``advise_path`` answers straight
from a table file: the file is checked as ``tables.load`` checks it (contract,
headers, sizes, checksum) but, with 2 players, read without numpy, which a
user would otherwise wait for at every question.
"""
from __future__ import annotations

import math
import struct
from dataclasses import dataclass

from .contract import Archive
from .errors import StateError, TableError


@dataclass(frozen=True)
class Advice:
    scores: tuple
    turn: int
    dice: int
    action: str                  # "roll" or "stop"
    reason: str                  # "optimal", "reaches_target" or "forced"
    win_if_roll: float | None    # the active player's win probability
    win_if_stop: float | None
    all_if_roll: tuple | None    # every seat's win probability, seat order from the active player
    all_if_stop: tuple | None

    def to_dict(self) -> dict:
        return {
            "scores": list(self.scores), "turn": self.turn, "dice": self.dice,
            "action": self.action, "reason": self.reason,
            "win_if_roll": self.win_if_roll, "win_if_stop": self.win_if_stop,
            "players_if_roll": None if self.all_if_roll is None else list(self.all_if_roll),
            "players_if_stop": None if self.all_if_stop is None else list(self.all_if_stop),
        }


def check_state(table, scores, turn: int, dice: int):
    """The scores as a tuple, or a StateError naming what does not exist in ``table``'s game."""
    N, G, D = table.players, table.target, table.substates
    scores = tuple(scores)
    if len(scores) != N:
        raise StateError(f"expected {N} scores (one per player, the player to move first), got {len(scores)}")
    for s in scores:
        if not 0 <= s < G:
            raise StateError(f"score {s} is outside 0..{G - 1}: a banked score of {G} or more has already won")
    if turn < 0:
        raise StateError(f"turn points must be 0 or more, not {turn}")
    if not 1 <= dice <= D:
        what = "live dice" if D == 5 else "the sub-state"
        raise StateError(f"{what} must be from 1 to {D}, not {dice}")
    return scores


def _answer(table, scores, turn, dice, both, roll_at) -> Advice:
    """The answer given ``both()`` -> (every seat if roll, every seat if stop) and ``roll_at()`` -> bool."""
    scores = check_state(table, scores, turn, dice)
    N, G, D = table.players, table.target, table.substates
    if scores[0] + turn >= G:
        win = (1.0,) + (0.0,) * (N - 1)
        return Advice(scores, turn, dice, "stop", "reaches_target", None, 1.0, None, win)
    r_all, s_all = both(scores)
    if turn == 0 and dice == D:
        return Advice(scores, turn, dice, "roll", "forced", r_all[0], None, r_all, None)
    action = "roll" if roll_at(scores) else "stop"
    return Advice(scores, turn, dice, action, "optimal", r_all[0], s_all[0], r_all, s_all)


def advise(table, scores, turn: int, dice: int) -> Advice:
    """The optimal action and its consequences, read from a loaded table (3-4 players: recomputed
    exactly from ``start_win`` by one Bellman backup of the state)."""
    def both(scores):
        N, G = table.players, table.target
        if N == 2:
            rw = float(table.arrays["roll_win"][scores + (turn, dice)])
            sw = float(table.arrays["stop_win"][scores + (turn, dice)])
            return (rw, 1.0 - rw), (sw, 1.0 - sw)
        import numpy as np

        from .bellman import bellman
        state = np.ravel_multi_index(scores, (G,) * N)
        b = bellman(table.rules, table.arrays.get("nuts_payout"), table.arrays["start_win"], [state],
                    keep_vectors=True)
        return (tuple(float(x) for x in b.roll_vec[0, turn, dice]),
                tuple(float(x) for x in b.stop_vec[0, turn, dice]))
    return _answer(table, scores, turn, dice, both, lambda scores: table.roll_at(scores, turn, dice))


@dataclass(frozen=True)
class _Shape:
    players: int
    target: int
    substates: int


def advise_path(path, scores, turn: int, dice: int, expect=None):
    """(Advice, rules) straight from a table file, checked like ``tables.load`` checks it.

    With 2 players the answer is read from the checked bytes without numpy; with
    3-4 players the table is loaded as a ``Table`` and ``advise`` recomputes it.
    """
    with Archive(path) as z:
        meta, rules, raw = z.read_table(expect)
    if rules.players != 2:
        from .tables import from_raw
        return advise(from_raw(meta, rules, raw, str(path)), scores, turn, dice), rules
    G, D = rules.target, rules.substates
    shape = _Shape(2, G, D)

    def at(scores):
        return ((scores[0] * G + scores[1]) * G + turn) * (D + 1) + dice

    def value(name, scores):
        x = struct.unpack_from("<d", raw[name][2], 8 * at(scores))[0]
        if not (math.isfinite(x) and 0.0 <= x <= 1.0):
            raise TableError(f"{path}: {name} holds {x!r} at {scores}, {turn} points, {dice} dice: not a "
                             "probability")
        return x

    def both(scores):
        rw, sw = value("roll_win", scores), value("stop_win", scores)
        return (rw, 1.0 - rw), (sw, 1.0 - sw)
    return _answer(shape, scores, turn, dice, both, lambda scores: raw["roll"][2][at(scores)] != 0), rules
