"""Luck against skill: a game's change in each seat's win probability, split exactly by what moved it.

Let W_k(s) be seat k's win probability at state s under optimal play, as the table defines it:

* at the start of a turn, the table's ``start_win``;
* after a roll, at a decision: the value of the table's optimal action (``roll_at``), recomputed by
  one Bellman backup of the turn from ``start_win`` (``backup.turn_values``, as ``advise`` does);
* after choosing to roll, before the dice: the value of rolling;
* in a Go Nuts! round, before its acorns are known: the round's expectation over its exact payout;
* at the end: 1 for the winner, 0 for the others.

Every event of a record moves the game from one state to the next, and W_k(end) - W_k(start) is the
sum of the events' W_k(after) - W_k(before), each counted in one of four parts:

* ``luck``: the chance events (each roll of the dice, each Go Nuts! round's acorns): at every one its
  expectation over the dice is 0;
* ``own_decisions``: seat k's choices, W_k(chosen) - W_k(optimal), which is 0 or less: minus the
  losses ``review`` reports;
* ``others_decisions``: the other seats' choices as seen by seat k (another's mistake can help or hurt);
* ``banked_turns``: turns entered as a banked total (no dice known).

The parts are sums of the same differences, so they add up to end - start up to rounding. The page's
core (``web/src/core/luck.js`` ``split``) computes the same split from its embedded values.
Twin in the page: ``solver/site/web/src/core/luck.js``.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from solver.game.loop import DECIDE, NUTS_ROUND, OVER, ROLL, START, State, new_game, step
from solver.game.rules import Rules
from solver.play.backup import Payouts, after_turn, turn_values

if TYPE_CHECKING:                # annotations only: this path stays numpy-free (pyproject's import contracts)
    from solver.store.tables import TableView

PARTS = ("luck", "own_decisions", "others_decisions", "banked_turns")
CHANCE = {"roll": "luck", "nuts": "luck", "banked": "banked_turns"}


@dataclass(frozen=True)
class Split:
    """One seat's change in win probability, in probabilities (0 to 1)."""
    seat: int
    start: float
    end: float
    luck: float
    own_decisions: float
    others_decisions: float
    banked_turns: float

    def to_dict(self) -> dict[str, float]:
        return {"start": self.start, "end": self.end, "luck": self.luck, "own_decisions": self.own_decisions,
                "others_decisions": self.others_decisions, "banked_turns": self.banked_turns}


class Values:
    """W(state) for every seat, in seat order, from a game's start-of-turn values ``start_win`` ((G,)*N + (N,),
    a table's or the page's) and Go Nuts! payouts (one backup per turn, remembered). At a decision the
    optimal action is ``roll_at(frame, t, n)`` (a table's stored policy) or, without it, the backup's own
    greedy choice (what the page does)."""

    def __init__(self, rules: Rules, start_win: Any, payouts: Payouts,
                 roll_at: Callable[[Sequence[int], int, int], bool] | None = None) -> None:
        self.rules, self.W, self.payouts, self.roll_at = rules, start_win, payouts, roll_at
        self.turns: dict[tuple[int, ...], Any] = {}

    @classmethod
    def of_table(cls, table: TableView) -> Values:
        """A table's Values: its own where it carries them (``pagetable.PageTable``, whose optimal action is
        already these values' greedy choice: one backup per turn serves both), else new ones."""
        values = getattr(table, "values", None)
        if isinstance(values, cls):
            return values
        pay = table.arrays.get("nuts_payout")
        return cls(table.rules, table.arrays["start_win"], None if pay is None else pay.tolist(), table.roll_at)

    def _absolute(self, vec: Sequence[float], seat: int) -> tuple[float, ...]:
        N = self.rules.players
        return tuple(vec[(k - seat) % N] for k in range(N))

    def turn(self, frame: tuple[int, ...]) -> Any:
        """``backup.turn_values`` of the turn from these scores (turn order from the player to move)."""
        if frame not in self.turns:
            if len(self.turns) > 64:
                self.turns.clear()
            W = self.W
            self.turns[frame] = turn_values(self.rules, self.payouts,
                                            after_turn(W, frame), frame[0])
        return self.turns[frame]

    def of(self, state: State) -> tuple[float, ...]:
        """Every seat's win probability (absolute seat order) at a state of the game loop."""
        N = self.rules.players
        if state.phase == OVER:
            return tuple(1.0 if k == state.winner else 0.0 for k in range(N))
        frame = state.frame()
        if state.phase == START:
            return self._absolute(self.W[frame].tolist(), state.seat)
        both, nuts = self.turn(frame)
        if state.phase == NUTS_ROUND:
            return self._absolute(nuts(state.nuts_dice, state.turn), state.seat)
        roll, stop, greedy = both[(state.turn, state.dice)]
        if state.phase == ROLL:
            return self._absolute(roll, state.seat)
        assert state.phase == DECIDE
        best = self.roll_at(frame, state.turn, state.dice) if self.roll_at else greedy
        return self._absolute(roll if best else stop, state.seat)


class Replayed(Protocol):
    """What ``split`` reads of a replayed record (``record.Replay``): its rules and its trace of events."""

    @property
    def rules(self) -> Rules: ...

    @property
    def trace(self) -> tuple[tuple[int, Any, str, Any], ...]: ...


def split(rep: Replayed, table: TableView | Values) -> tuple[Split, ...]:
    """Every seat's Split of a replayed record (``record.replay``), valued from ``table`` (or ``Values``)."""
    rules = rep.rules
    N = rules.players
    values = table if isinstance(table, Values) else Values.of_table(table)
    parts = [dict.fromkeys(PARTS, 0.0) for _ in range(N)]
    if not rep.trace:
        first = last = values.of(new_game(rules))
    else:
        first = before = values.of(rep.trace[0][1])
        for _, state, kind, value in rep.trace:
            after = values.of(step(rules, state, kind, value).state)
            for k in range(N):
                part = CHANCE.get(kind) or ("own_decisions" if k == state.seat else "others_decisions")
                parts[k][part] += after[k] - before[k]
            before = after
        last = before
    return tuple(Split(k, first[k], last[k], **parts[k]) for k in range(N))
