"""The game loop, written once: a state and an event in, the next state and what it banked out.

Game records (``play.record``), the step-by-step game of the adapters (``adapters.live``) and
OpenSpiel's states (``adapters.openspiel_game``) all move through ``step``; the page's core
(``web/src/core/loop.js``) holds a JavaScript copy, held to the same fixture of event sequences
(``tests/fixtures/records.json``). Only the literal simulation (``reference.simulate``) plays the
game on its own: it is the independent check.

A ``State`` is in absolute seat order (seat 0 moves first). Its ``phase`` says what comes next:

* ``start``: a turn begins; its first roll is forced (or, at a real table, the whole turn may be
  entered as the points it banked);
* ``roll``: the player chose to roll: the live dice are thrown;
* ``decide``: after a roll that neither ended the turn nor reached the target: roll or stop;
* ``nuts``: an all-squirrel roll started a Go Nuts! round of ``nuts_dice`` dice: its acorns;
* ``over``: ``winner`` reached the target.

Events are ``(kind, value)``:

* ``("roll", (what, x, live))``: a roll's outcome as ``moves.outcome`` gives it: ``bust``; ``nuts``
  with x dice in the round; ``move`` with x acorns and ``live`` dice left;
* ``("choice", "roll" | "stop")``; ``("nuts", acorns)``; ``("banked", points)``.

A turn that reaches the target wins at once, without a decision (stopping wins). Values are taken as
given (whole numbers of 0 or more): checking what a person or a file wrote is the caller's job.
Twin in the page: ``solver/site/web/src/core/loop.js``.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from solver.errors import GonutsError
from solver.game.moves import BUST, NUTS
from solver.game.rules import Rules

START, ROLL, DECIDE, NUTS_ROUND, OVER = "start", "roll", "decide", "nuts", "over"
EXPECT = {START: "a roll or a banked turn", ROLL: "a roll", DECIDE: "a choice",
          NUTS_ROUND: "the acorns of the Go Nuts! round"}
ALLOWED = {"roll": (START, ROLL), "choice": (DECIDE,), "nuts": (NUTS_ROUND,), "banked": (START,)}


class IllegalEvent(GonutsError):
    """An event that cannot happen in the state it is given (the message says what could)."""


@dataclass(frozen=True)
class State:
    scores: tuple[int, ...]       # banked scores, seat order
    dice: int                     # live dice (the turn model's sub-state: Pig has one die)
    seat: int = 0                 # the player to move
    turn: int = 0                 # the turn's points so far
    phase: str = START
    winner: int | None = None
    nuts_dice: int | None = None  # the dice of the Go Nuts! round waiting for its acorns

    def frame(self, seat: int | None = None) -> tuple[int, ...]:
        """Scores in turn order from ``seat`` (default: the player to move)."""
        seat = self.seat if seat is None else seat
        N = len(self.scores)
        return tuple(self.scores[(seat + k) % N] for k in range(N))


@dataclass(frozen=True)
class Step:
    state: State
    banked: int | None            # the points the event's turn banked, if the event ended a turn


class Follows:
    """For a game object that is moved by ``step`` and keeps the result in ``self.state``: the state's
    fields by the names the adapters use (scores as a list, seat, t, n, winner)."""
    scores = property(lambda self: list(self.state.scores))
    seat = property(lambda self: self.state.seat)
    t = property(lambda self: self.state.turn)
    n = property(lambda self: self.state.dice)
    winner = property(lambda self: self.state.winner)


def new_game(rules: Rules) -> State:
    """Every score 0, seat 0 to open its first turn."""
    return State((0,) * rules.players, rules.substates)


def check(rules: Rules, state: State, kind: str) -> None:
    """Refuse an event of this kind in this state, saying what comes next instead."""
    if state.phase == OVER:
        raise IllegalEvent(f"the game is already over (seat {state.winner} reached {rules.target})")
    if state.phase not in ALLOWED[kind]:
        if kind == "banked":
            raise IllegalEvent(f"a banked turn must replace a whole turn; expected {EXPECT[state.phase]}")
        what = {"roll": "a roll", "choice": "a choice", "nuts": "a Go Nuts! round"}[kind]
        raise IllegalEvent(f"expected {EXPECT[state.phase]}, not {what}")


def step(rules: Rules, state: State, kind: str, value: Any) -> Step:
    """The state after one event (``check``ed first), and the points banked if it ended the turn."""
    check(rules, state, kind)
    if kind == "banked":
        return _end_turn(rules, state, value)
    if kind == "choice":
        return _end_turn(rules, state, state.turn) if value == "stop" else Step(replace(state, phase=ROLL), None)
    if kind == "nuts":
        return _end_turn(rules, state, value + (0 if rules.nuts_costs_turn else state.turn))
    what, x, live = value
    if what == BUST:
        return _end_turn(rules, state, 0)
    if what == NUTS:
        return Step(replace(state, phase=NUTS_ROUND, nuts_dice=x), None)
    moved = replace(state, turn=state.turn + x, dice=live, phase=DECIDE)
    if state.scores[state.seat] + moved.turn >= rules.target:
        return _end_turn(rules, moved, moved.turn)
    return Step(moved, None)


def _end_turn(rules: Rules, state: State, gain: int) -> Step:
    scores = list(state.scores)
    scores[state.seat] += gain
    if scores[state.seat] >= rules.target:
        return Step(replace(state, scores=tuple(scores), phase=OVER, winner=state.seat, nuts_dice=None), gain)
    nxt = State(tuple(scores), rules.substates, (state.seat + 1) % rules.players)
    return Step(nxt, gain)
