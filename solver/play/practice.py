"""Practice: decisions drawn from seeded games of optimal play, the same in the page and here.

The draw (``draw``) plays whole games with literal dice (the page's seeded dice, ``Mulberry32``: its
faces one ``next()`` each, a Go Nuts! round tick by tick with the dog dice) and optimal play, and picks
decisions on the way: half close calls (the two actions within ``close_for(rules)`` of win probability),
the rest clear ones, never the same state twice, never two from one turn, never a coin flip (within
``SKIP``: no answer is right; a decision the equilibrium plays mixed is one, both actions giving the mover the
same chance), never a forced roll, never a state where stopping reaches the target (a
roll that reaches it wins at once). Where a Go Nuts! round adds to the turn's points (the summary),
optimal play's decisions are clearer: under 2 points apart about once in ten 2-player games, and almost
never with 3 or 4 players; there a close call is one within 5 points. Every close call met is taken; when
``FILL_AFTER`` games have not given enough, clear ones fill their places, and ``close_count`` says how
many of a set are close. ``web/src/core/practice.js`` ``draw`` is the same draw, step for step and number for
number: both read the page's values (``page_values``), so their games, and so their picks, are the same.

An exact tie in the games' own play stops (as the tables' convention); a difference below ``TIE`` counts as
one, so that the last bit of a sum, which two languages may round apart, never changes a game.
Twin in the page: ``solver/site/web/src/core/practice.js``.
"""
from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from solver.errors import UsageError, show
from solver.game.loop import DECIDE, NUTS_ROUND, OVER, START, new_game, step
from solver.game.moves import outcome
from solver.game.rules import Rules
from solver.play.backup import Payouts
from solver.play.dice import Mulberry32, nuts_round, roll_dice
from solver.play.luck import Values

CLOSE = 0.02          # a close call: the two actions within 2 points of win probability
CLOSE_ROUND_ADDS = 0.05   # ... within 5 points where a Go Nuts! round adds to the turn's points (the summary)
SKIP = 0.0005         # closer than 0.05 points: a coin flip, never asked
P_CLOSE, P_CLEAR = 1.0, 0.2     # the chance that an eligible close or clear decision is picked
TIE = 1e-12
MAX_GAMES = 500
FILL_AFTER = 100      # after this many games, a decision of either kind fills the other kind's places (a small
                      # game may have few close calls)
MAX_COUNT = 100
DAILY_COUNT, DAILY_PLAYERS, DAILY_READING = 10, 2, "rulebook"
def page_values(rules: Rules, start_win: Any, payouts: Payouts) -> Values:
    """The values the page plays and advises with: its start-of-turn values, the backup's own choice."""
    return Values(rules, start_win, payouts)


@dataclass(frozen=True)
class Pick:
    scores: tuple[int, ...]
    turn: int
    dice: int
    roll: tuple[float, ...]   # every seat's win probability if rolling, turn order from the mover
    stop: tuple[float, ...]
    close: bool
    game: int = 0         # which of the draw's games it came from, and which turn of that game
    turn_of_game: int = 0

    def to_dict(self, rules: Rules) -> dict[str, object]:
        """The keys of ``advise --json`` (and whether it is a close call)."""
        return {"scores": list(self.scores), "turn": self.turn, "dice": self.dice,
                "action": "roll" if self.roll[0] > self.stop[0] else "stop", "reason": "optimal",
                "win_if_roll": self.roll[0], "win_if_stop": self.stop[0], "players_if_roll": list(self.roll),
                "players_if_stop": list(self.stop), "rules": rules.to_dict(), "close": self.close}


def close_for(rules: Rules) -> float:
    """How near the two actions of a close call are, under these rules."""
    return CLOSE if rules.nuts_costs_turn else CLOSE_ROUND_ADDS


def close_count(picks: Iterable[Pick]) -> int:
    """How many of the picks are close calls."""
    return sum(p.close for p in picks)


def constants() -> dict[str, object]:
    """What the page's draw needs to draw the same decisions (``web/src/core/practice.js`` ``draw``)."""
    return {"close": CLOSE, "close_round_adds": CLOSE_ROUND_ADDS, "skip": SKIP, "p_close": P_CLOSE, "p_clear": P_CLEAR,
            "tie": TIE, "max_games": MAX_GAMES,
            "fill_after": FILL_AFTER, "max_count": MAX_COUNT,
            "daily": {"count": DAILY_COUNT, "players": DAILY_PLAYERS, "reading": DAILY_READING}}


def check_count(count: int) -> int:
    if not (isinstance(count, int) and 1 <= count <= MAX_COUNT):
        raise UsageError(f"count must be from 1 to {MAX_COUNT}, not {count}")
    return count


def draw(values: Values, seed: int, count: int) -> list[Pick]:
    """``count`` Picks from the seeded games (see the module's docstring), in a seeded order."""
    check_count(count)
    rules = values.rules
    N = rules.players
    need = {True: count // 2, False: count - count // 2}
    r = Mulberry32(seed)
    picked: list[Pick] = []
    seen: set[Any] = set()
    near = close_for(rules)
    for games in range(MAX_GAMES):
        state = new_game(rules)
        turns = taken = 0                 # this game's turns begun; the turn of the last pick (0: none)
        while state.phase != OVER and len(picked) < count:
            if state.phase == START:
                turns += 1
            if state.phase == NUTS_ROUND:
                state = step(rules, state, "nuts", nuts_round(r, rules, int(state.nuts_dice or 0), N - 1)).state
            elif state.phase != DECIDE:
                n = state.dice
                state = step(rules, state, "roll", outcome(rules, n, *roll_dice(r, rules, n))).state
            else:
                frame = state.frame()
                roll, stop, _ = values.turn(frame)[0][(state.turn, state.dice)]
                gap = abs(roll[0] - stop[0])
                key = (frame, state.turn, state.dice)
                if gap >= SKIP and key not in seen and taken != turns:
                    u = r.next()
                    close = gap < near
                    if u < (P_CLOSE if close else P_CLEAR):
                        other = (not close) if games >= FILL_AFTER and need[not close] else None
                        slot = close if need[close] else other
                        if slot is not None:
                            need[slot] -= 1
                            seen.add(key)
                            taken = turns
                            picked.append(Pick(frame, state.turn, state.dice, tuple(roll), tuple(stop), close, games,
                                               turns))
                state = step(rules, state, "choice", "roll" if roll[0] > stop[0] + TIE else "stop").state
        if len(picked) == count:
            break
    else:
        raise UsageError(f"{MAX_GAMES} games of {rules.describe()} gave only {len(picked)} different decisions "
                         f"of the {count} asked for: ask for fewer")
    for i in range(len(picked) - 1, 0, -1):          # Fisher-Yates, as the page shuffles
        j = int(r.next() * (i + 1))
        picked[i], picked[j] = picked[j], picked[i]
    return picked


def daily_seed(day: _dt.date) -> int:
    """The daily set's seed: the date as the number YYYYMMDD (the same everywhere, offline)."""
    return day.year * 10000 + day.month * 100 + day.day


def read_date(text: str) -> _dt.date:
    try:
        if not (len(text) == 10 and text[4] == text[7] == "-" and (text[:4] + text[5:7] + text[8:]).isascii()
                and (text[:4] + text[5:7] + text[8:]).isdigit()):
            raise ValueError                       # YYYY-MM-DD only: no week date (2026-W49-3), no other digits
        return _dt.date.fromisoformat(text)
    except ValueError:
        raise UsageError(f"a date is written YYYY-MM-DD, such as 2026-12-01, not {show(text)}") from None


@dataclass
class Score:
    """A session's answers: the number right and the mean loss per decision, in points."""
    losses: list[float]

    def add(self, pick: Pick, answer: str) -> float:
        best = max(pick.roll[0], pick.stop[0])
        took = pick.roll[0] if answer == "roll" else pick.stop[0]
        self.losses.append(100.0 * (best - took))
        return self.losses[-1]

    @property
    def right(self) -> int:
        return sum(x == 0 for x in self.losses)

    @property
    def mean(self) -> float:
        return sum(self.losses) / len(self.losses) if self.losses else 0.0


def symbol(loss: float) -> str:
    """One square per decision in the share line: right, a small slip (under a point), a mistake."""
    return "\U0001F7E9" if loss == 0 else "\U0001F7E8" if loss < 1 else "\U0001F7E5"


def share_line(day: _dt.date, score: Score) -> str:
    """The daily set's result without spoilers (no state, no answer)."""
    return (f"Go Nuts! practice {day.isoformat()} \u00b7 {score.right}/{len(score.losses)} \u00b7 "
            f"{score.mean:.1f} points " + "".join(symbol(x) for x in score.losses))
