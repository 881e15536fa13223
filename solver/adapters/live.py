"""One game played step by step, and the exact values of its decisions: what the game-AI adapters share.

``LiveGame`` moves through the one game loop (``game.loop``) and samples chance
from the game's own turn model (``turn.py``): a roll of n live dice is one of the
model's outcomes from sub-state n, drawn with its exact probability; a Go Nuts!
round is one draw from its exact payout distribution. So the adapters play the
rules exactly as the solver solves them, and re-implement nothing. The first roll of a turn is forced and a state where
stopping reaches the target is a win, so both are played automatically: after
``reset`` and after every ``act`` the game is over or waiting for a real
decision.

``Values`` answers, at a decision, the win probability of each action under
optimal play by everyone (from the table: stored for 2 players, recomputed by
one Bellman backup of the state for 3-4), and optionally under a best response
of the deciding seat to fixed opponents.
"""
from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from itertools import accumulate
from typing import Any

import numpy as np

from solver.errors import GonutsError
from solver.game import loop
from solver.game.moves import BUST, MOVE, NUTS
from solver.game.rules import Rules
from solver.game.turn import TurnModel
from solver.reference.bellman import bellman
from solver.store.library import Tables
from solver.store.tables import Table

STOP, ROLL = 0, 1             # the adapters' actions


Outcome = tuple[str, float, int, Any]
"""A roll's outcome as ``roll_outcomes`` lists it."""


def roll_outcomes(model: TurnModel, n: int) -> list[Outcome]:
    """A roll from sub-state n, as the turn model lists it: ("move", p, points, next sub-state) and
    ("end", p, gain distribution, gain adds to the turn's points)."""
    rows: list[Outcome] = [("move", float(m["p"]), int(m["da"]), int(m["dst"])) for m in model.moves if m["src"] == n]
    return rows + [("end", float(e["p"]), int(e["dist"]), bool(e["rel"])) for e in model.endings if e["src"] == n]


class LiveGame(loop.Follows):
    """A game moved by ``game.loop``: scores in absolute seat order (seat 0 moves first); ``seat`` is the
    seat to decide. Chance is drawn from the turn model's outcomes with their exact probabilities."""

    def __init__(self, rules: Rules, model: TurnModel) -> None:
        self.rules, self.model = rules, model
        self.N, self.G, self.D, self.start = rules.players, rules.target, model.substates, model.start
        self.outcomes: dict[int, tuple[list[Outcome], list[float]]] = {}
        for n in range(1, self.D + 1):
            rows = roll_outcomes(model, n)
            cum = list(accumulate(r[1] for r in rows))
            self.outcomes[n] = (rows, cum)
        self.gain_cum = [list(accumulate(float(x) for x in row)) for row in model.dists]
        self.reset_state()

    def reset_state(self) -> None:
        """A new game, before its first roll."""
        self.state = loop.new_game(self.rules)
        self.turns = 1

    @property
    def done(self) -> bool:
        return self.state.winner is not None

    def frame(self, seat: int | None = None) -> tuple[int, ...]:
        """Scores in turn order from ``seat`` (default: the seat to decide)."""
        return self.state.frame(seat)

    def reset(self, rng: np.random.Generator) -> None:
        """A new game, played to its first decision."""
        self.reset_state()
        self._play_chance(rng)

    def act(self, roll: bool, rng: np.random.Generator) -> None:
        """Apply the deciding seat's choice, then play chance until the next decision or the end."""
        if self.done:
            raise GonutsError("the game is over")
        self._event("choice", "roll" if roll else "stop")
        self._play_chance(rng)

    def _event(self, kind: str, value: object) -> None:
        moved = loop.step(self.rules, self.state, kind, value)
        self.state = moved.state
        if moved.banked is not None and not self.done:
            self.turns += 1

    def _play_chance(self, rng: np.random.Generator) -> None:
        """Throw the dice (and play a Go Nuts! round) until a decision or the end of the game: the first
        roll of a turn is forced, and a turn that reaches the target wins at once."""
        while self.state.phase in (loop.START, loop.ROLL):
            rows, cum = self.outcomes[self.state.dice]
            kind, _, x, y = rows[min(bisect_right(cum, rng.random() * cum[-1]), len(rows) - 1)]
            if kind == "move":
                self._event("roll", (MOVE, x, y))
                continue
            gc = self.gain_cum[x]                         # an ending: its gain is drawn (a bust's is 0)
            gain = min(bisect_right(gc, rng.random() * gc[-1]), len(gc) - 1)
            if x == 0:                                    # distribution 0 is the bust's (turn.gonuts_turn)
                self._event("roll", (BUST, 0, 0))
            else:
                self._event("roll", (NUTS, x, 0))
                self._event("nuts", gain)


class Values:
    """Win probabilities of both actions at a decision state (turn order from the decider), exact.

    ``W`` gives the start-of-turn values of the seat that moves next: the table's
    ``start_win`` for optimal play by all, or a best response's values of the next
    seat. For small games every state is backed up at once; otherwise each start
    state is backed up when first asked for and remembered.
    """

    def __init__(self, rules: Rules, payouts: np.ndarray | None, W_next: Callable[[int], np.ndarray],
                 stored: tuple[np.ndarray, np.ndarray] | None = None, eager_limit: int = 2_000_000) -> None:
        self.rules, self.payouts = rules, payouts
        self.N, self.G = rules.players, rules.target
        self.W_next = W_next                      # callable: deciding seat -> (G,)*N + (N,) array
        self.stored = stored                      # (roll_win, stop_win) arrays for 2 players, or None
        self.cache: dict[tuple[int, tuple[int, ...] | None], Any] = {}
        S = self.G ** self.N
        D = rules.substates
        self.eager = stored is None and S * self.G * (D + 1) <= eager_limit

    def own(self, seat: int, frame: tuple[int, ...], t: int, n: int) -> tuple[float, float]:
        """(win if roll, win if stop) of the deciding player."""
        if self.stored is not None:
            rw, sw = self.stored
            return float(rw[frame + (t, n)]), float(sw[frame + (t, n)])
        key = (seat, frame)
        hit = self.cache.get(key)
        if hit is None:
            if self.eager and (seat, None) not in self.cache:
                self._all(seat)
                hit = self.cache[key]
            else:
                state = int(np.ravel_multi_index(frame, (self.G,) * self.N))
                b = bellman(self.rules, self.payouts, self.W_next(seat), [state])
                hit = self.cache[key] = (b.roll_own[0], b.stop_own[0])
        return float(hit[0][t, n]), float(hit[1][t, n])

    def _all(self, seat: int) -> None:
        S = self.G ** self.N
        b = bellman(self.rules, self.payouts, self.W_next(seat), np.arange(S))
        for s in range(S):
            frame = tuple(int(x) for x in np.unravel_index(s, (self.G,) * self.N))
            self.cache[(seat, frame)] = (b.roll_own[s], b.stop_own[s])
        self.cache[(seat, None)] = True


def optimal_values(table: Table) -> Values:
    """Both actions' values under optimal play by everyone, from an optimal table."""
    stored = (table.arrays["roll_win"], table.arrays["stop_win"]) if table.players == 2 else None
    sw = table.arrays["start_win"]
    return Values(table.rules, table.arrays.get("nuts_payout"), lambda seat: sw, stored)


def game_rules(players: int = 2, target: int = 50, reading: str | None = None, game: str = "gonuts",
               rules: str | None = None) -> Rules:
    """Rules from the environments' parameters (``Rules.from_options``): ``reading`` is "rulebook" (the default) or
    "summary", and ``rules`` its older name, still taken (not both). A bad one is refused by name as the
    frameworks expect: a ``ValueError``."""
    if reading is not None and rules is not None:
        raise ValueError("give the reading once: reading (or its older name, rules), not both")
    chosen = reading if reading is not None else rules if rules is not None else "rulebook"
    try:
        return Rules.from_options(game=game, players=players, target=target, reading=chosen)
    except GonutsError as exc:
        raise ValueError(str(exc)) from None


def optimal_table(rules: Rules) -> Table:
    """The optimal table of these rules: shipped, cached, or built once (``store.library.Tables``)."""
    table: Table = Tables().get(rules)
    return table


def observation_space(rules: Rules) -> Any:
    """The adapters' observation: own score, the others' in turn order, turn points, live dice (int64)."""
    from gymnasium import spaces  # deferred: optional (the rl extra); OpenSpiel uses live without it
    G, N, D = rules.target, rules.players, rules.substates
    high = np.array([G] * N + [G - 1, D], dtype=np.int64)
    return spaces.Box(low=0, high=high, shape=(N + 2,), dtype=np.int64)


def observe(game: LiveGame, seat: int) -> np.ndarray:
    """What ``seat`` sees (``observation_space``): the scores in turn order from it, and the turn's points and
    live dice when it is the one deciding."""
    mine = seat == game.seat and not game.done
    scores = [min(s, game.G) for s in game.frame(seat)]     # a score of G or more has won
    return np.array(scores + [game.t if mine else 0, game.n if mine else 0], dtype=np.int64)
