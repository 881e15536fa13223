"""A game's states as a question names them (the scores in turn order from the player to move, the turn's
points, the live dice): checked against the game's shape, a table's or the rules' own, before anything is read.
Every way into the tables asks here: ``play.advise``, ``play.explain``, the command line, the front door's
``Table`` and its policy."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Protocol

from solver.errors import StateError

Action = Literal["roll", "stop"]     # what the player to move does at a decision state


class GameShape(Protocol):
    """What a state is checked against (``check_state``): the players, the target and the turn's
    sub-states, of a table or of the rules themselves."""

    @property
    def players(self) -> int: ...

    @property
    def target(self) -> int: ...

    @property
    def substates(self) -> int: ...



def whole(value: object, what: str) -> int:
    """``value`` as an int if it is a whole number (an int or numpy integer, not a bool, a float or a string), else
    a StateError naming ``what``."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise StateError(f"{what} must be a whole number, not {value!r}")
    return int(value.__index__())


def check_scores(table: GameShape, scores: object) -> tuple[int, ...]:
    """The scores as a tuple of whole numbers from 0 to target - 1, one per player, or a StateError."""
    N, G = table.players, table.target
    if isinstance(scores, (str, bytes)) or not hasattr(scores, "__iter__"):
        raise StateError(f"scores must be a list of {N} banked scores, the player to move first, not {scores!r}")
    out = tuple(whole(s, "a score") for s in scores)
    if len(out) != N:
        raise StateError(f"expected {N} scores (one per player, the player to move first), got {len(out)}")
    for s in out:
        if not 0 <= s < G:
            raise StateError(f"score {s} is outside 0..{G - 1}: a banked score of {G} or more has already won")
    return out


def check_state(table: GameShape, scores: Sequence[int], turn: int, dice: int) -> tuple[int, ...]:
    """The scores as a tuple, or a StateError naming what does not exist in ``table``'s game."""
    D = table.substates
    turn, dice = whole(turn, "turn points"), whole(dice, "live dice")
    scores = check_scores(table, scores)
    if turn < 0:
        raise StateError(f"turn points must be 0 or more, not {turn}")
    check_dice(D, dice)
    return scores


def check_dice(D: int, dice: int) -> None:
    """Refuse a count of live dice the game does not have (D: 5 for Go Nuts!, Pig's one die)."""
    if not 1 <= dice <= D:
        if D == 1:
            raise StateError(f"Pig is played with one die: dice must be 1, not {dice}")
        raise StateError(f"live dice must be from 1 to {D}, not {dice}")
