"""One question from the table: at these scores, turn points and live dice, roll or stop?"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import StateError
from .tables import Table


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


def check_state(table: Table, scores, turn: int, dice: int):
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


def advise(table: Table, scores, turn: int, dice: int) -> Advice:
    """The optimal action and its consequences, read from the table."""
    scores = check_state(table, scores, turn, dice)
    N, G, D = table.players, table.target, table.substates
    win = np.zeros(N)
    win[0] = 1.0
    if scores[0] + turn >= G:
        return Advice(scores, turn, dice, "stop", "reaches_target", None, 1.0, None, tuple(win))
    forced = turn == 0 and dice == D
    if N == 2:
        rw = float(table.arrays["roll_win"][scores + (turn, dice)])
        sw = float(table.arrays["stop_win"][scores + (turn, dice)])
        r_all, s_all = (rw, 1.0 - rw), (sw, 1.0 - sw)
    else:
        from .bellman import bellman
        state = np.ravel_multi_index(scores, (G,) * N)
        b = bellman(table.rules, table.arrays.get("nuts_payout"), table.arrays["start_win"], [state],
                    keep_vectors=True)
        r_all = tuple(float(x) for x in b.roll_vec[0, turn, dice])
        s_all = tuple(float(x) for x in b.stop_vec[0, turn, dice])
        rw, sw = r_all[0], s_all[0]
    if forced:
        return Advice(scores, turn, dice, "roll", "forced", rw, None, r_all, None)
    action = "roll" if table.roll_at(scores, turn, dice) else "stop"
    return Advice(scores, turn, dice, action, "optimal", rw, sw, r_all, s_all)
