"""One event of a game record, read: a roll's faces, a choice, a Go Nuts! round's acorns or a banked total, each
checked as a record holds it (JSON numbers: 2 and 2.0 alike, exact as the page's numbers are) and made into the
value ``game.loop.step`` takes. ``record.replay`` reads each event through here.
Twin in the page: ``solver/site/web/src/core/events.js``.
"""
from __future__ import annotations

from typing import Any

from solver.errors import show
from solver.game.loop import IllegalEvent, State
from solver.game.moves import outcome
from solver.game.rules import Rules


def is_whole(value: object, lo: int = 0) -> bool:
    """A whole number, written 2 or 2.0 alike (JSON has one kind of number; the page cannot tell them apart),
    at most 2^53 - 1 (the page's numbers are exact only that far); never a boolean."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2 ** 63:
        value = int(value)
    return isinstance(value, int) and not isinstance(value, bool) and lo <= value <= SAFE


SAFE = 2 ** 53 - 1      # the largest whole number the page (a JavaScript number) holds exactly


# What an event that cannot be read is told, once for both sides: the page gets these as data
# (``data.record.refusals``, read by ``core/events.js``), each {name} filled in the same way.
REFUSALS = {
    "not_object": "must be an object, not {value}",
    "fields": "needs \"seat\" and exactly one of roll, choice, nuts, banked (got {got})",
    "not_mover": "seat {seat} is not the player to move (seat {mover} is)",
    "own_turn_banked": "your own turns are entered roll by roll, not as a banked total",
    "banked": "banked points must be a whole number of 0 or more, not {value}",
    "roll": "a roll is [acorns, squirrels, cars], three whole numbers of 0 or more, not {value}",
    "dice": "{a}+{s}+{c} = {total} dice, but {n} {live} live",
    "choice": "a choice is \"roll\" or \"stop\", not {value}",
    "nuts": "the acorns of a Go Nuts! round are a whole number of 0 or more, not {value}",
}


def refusal(name: str, **params: object) -> str:
    """One of ``REFUSALS``, its {names} filled in (as ``core/events.js`` fills them)."""
    return REFUSALS[name].format(**params)


def as_whole(value: Any) -> Any:
    """A whole number written as a float (3.0) as the int it is; anything else as it was."""
    return int(value) if isinstance(value, float) else value


def event_value(rules: Rules, state: State, kind: str, value: object, own_turn: bool) -> Any:
    """An event's value as ``loop.step`` takes it, or an ``IllegalEvent`` saying what is wrong with it (a record's
    replay says which event: ``record.replay``)."""
    if kind == "banked":
        if own_turn:
            raise IllegalEvent(refusal("own_turn_banked"))
        if not is_whole(value):
            raise IllegalEvent(refusal("banked", value=show(value)))
        return as_whole(value)
    if kind == "roll":
        if not (isinstance(value, list) and len(value) == 3 and all(is_whole(x) for x in value)):
            raise IllegalEvent(refusal("roll", value=show(value)))
        a, s, c = (as_whole(x) for x in value)
        n = state.dice
        if a + s + c != n:
            live = "die is" if n == 1 else "dice are"
            raise IllegalEvent(refusal("dice", a=a, s=s, c=c, total=a + s + c, n=n, live=live))
        return outcome(rules, n, a, s, c)
    if kind == "choice":
        if value not in ("roll", "stop"):
            raise IllegalEvent(refusal("choice", value=show(value)))
        return value
    if not is_whole(value):
        raise IllegalEvent(refusal("nuts", value=show(value)))
    return as_whole(value)
