"""Go Nuts! (and Pig) as a single-agent Gymnasium environment, ``GoNuts-v0``.

The agent plays one seat; the other seats follow any of this package's policies
(default: optimal). Modelled on Gymnasium's ``toy_text/blackjack.py``: spaces
defined once, ``reset(seed=...)`` seeds ``self.np_random``, ``step`` returns the
five-tuple.

* Actions ``Discrete(2)``: **0 = stop**, **1 = roll**. The agent sees only its
  real decisions (its forced first roll, and stopping when that reaches the
  target, are played for it; the opponents play between its decisions).
* Observation: int64 ``[own score, the next players' scores in turn order...,
  turn points, live dice]`` (a final score of the target or more shows as the
  target).
* Reward at the end: +1 if the agent wins, -1/(N-1) if it loses.
* ``info``: ``win_probability``, ``win_if_roll``, ``win_if_stop`` under optimal
  play by everyone; ``best_response_win_probability``, ``best_response_if_roll``,
  ``best_response_if_stop``: the same when the agent plays the exact best
  response to its actual opponents; and ``regret``: what the last action gave up
  against optimal play, in percentage points of win probability.
* A game that ends before the agent's first decision is replayed inside
  ``reset`` (an opponent can win in its first turn only through a Go Nuts! round
  worth the whole target).

An out-of-range action raises ``ValueError``; unknown parameters are refused at
construction, naming the parameter.

    import gymnasium, solver.adapters.gymnasium_env
    env = gymnasium.make("GoNuts-v0", players=3, opponents="optimal,hold:20")
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from solver.adapters.live import (
    ROLL,
    STOP,
    LiveGame,
    Values,
    game_rules,
    observation_space,
    observe,
    optimal_table,
    optimal_values,
)
from solver.engine.respond import respond
from solver.errors import GonutsError
from solver.game.turn import game_model
from solver.lab.strategy import resolve

__all__ = ["GoNutsEnv", "STOP", "ROLL"]


class GoNutsEnv(gym.Env):
    """One seat against fixed opponents, as a Gymnasium environment (module docstring)."""
    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, players: int = 2, target: int = 50, reading: str | None = None, game: str = "gonuts",
                 seat: int = 0, opponents: str | Sequence[str] = "optimal", render_mode: str | None = None,
                 rules: str | None = None) -> None:
        self.game_rules = game_rules(players, target, reading, game, rules)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ValueError(f"seat must be a seat from 0 to {players - 1}, not {seat!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        specs = [s.strip() for s in opponents.split(",")] if isinstance(opponents, str) else list(opponents)
        if len(specs) == 1:
            specs = specs * (players - 1)
        if len(specs) != players - 1:
            raise ValueError(f"opponents must name 1 or {players - 1} policies, not {len(specs)}")
        self.seat, self.render_mode = seat, render_mode
        table = optimal_table(self.game_rules)
        try:
            seat_specs = specs[:seat] + ["optimal"] + specs[seat:]     # the agent's entry is a placeholder
            pols = resolve(seat_specs, self.game_rules, lambda: table, table=table)
        except GonutsError as exc:
            raise ValueError(f"opponents: {exc}") from None
        G, N, D = self.game_rules.target, players, self.game_rules.substates
        self._bits = [p.bits(G, N, D) for p in pols]              # seat -> packed decisions
        self._mixed = [p.mixed(G, N, D) for p in pols]            # ... and where each mixes (a table's), or None
        self._W1 = D + 1
        self._optimal = optimal_values(table)
        br = respond(game_model(self.game_rules, table), N, G, [None if a == seat else self._bits[a]
                                                                 for a in range(N)], [seat],
                     seat_mixed=self._mixed)
        self.best_response_report = br.report()
        shape = (G,) * N + (N,)
        values = [br.values[a].reshape(shape) for a in range(N)]
        self._best = Values(self.game_rules, table.arrays.get("nuts_payout"),
                            lambda s: values[(s + 1) % N])
        self._game = LiveGame(self.game_rules, game_model(self.game_rules, table))
        self.observation_space = observation_space(self.game_rules)
        self.action_space = spaces.Discrete(2)
        self.opponents = specs

    def _roll_at(self, seat: int) -> bool:
        g = self._game
        q = g.t * self._W1 + g.n
        idx = int(np.ravel_multi_index(g.frame(seat), (g.G,) * g.N))
        mixed = self._mixed[seat]
        if mixed is not None:                   # a mixed decision of the equilibrium: the env's own seeded coin
            hit = np.flatnonzero((mixed.state == idx) & (mixed.decision == q))
            if len(hit):
                return bool(self.np_random.random() < mixed.roll[hit[0]])
        return bool(self._bits[seat][idx, q >> 3] & (128 >> (q & 7)))

    def _opponents(self) -> None:
        g = self._game
        while not g.done and g.seat != self.seat:
            g.act(self._roll_at(g.seat), self.np_random)

    def _info(self) -> dict[str, Any]:
        g = self._game
        if g.done:
            return {"regret": self._regret, "winner": g.winner}
        frame = g.frame()
        roll, stop = self._optimal.own(g.seat, frame, g.t, g.n)
        broll, bstop = self._best.own(g.seat, frame, g.t, g.n)
        return {"win_probability": max(roll, stop), "win_if_roll": roll, "win_if_stop": stop,
                "best_response_win_probability": max(broll, bstop), "best_response_if_roll": broll,
                "best_response_if_stop": bstop, "regret": self._regret}

    def reset(self, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game, played by the opponents to the agent's first decision."""
        super().reset(seed=seed)
        self._regret = 0.0
        for _ in range(1000):
            self._game.reset(self.np_random)
            self._opponents()
            if not self._game.done:
                break
        else:                                             # pragma: no cover - needs 1000 jackpots in a row
            raise RuntimeError("the opponents won every game before the agent's first decision")
        self._last = self._info()
        return observe(self._game, self.seat), self._last

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The agent's action (0 = stop, 1 = roll); the opponents then play to its next decision or the end."""
        if not self.action_space.contains(action):
            raise ValueError(f"action {action!r} is out of range: 0 = stop, 1 = roll")
        g = self._game
        if g.done:
            raise RuntimeError("the game is over: call reset()")
        taken = self._last["win_if_roll"] if action == ROLL else self._last["win_if_stop"]
        self._regret = 100.0 * (self._last["win_probability"] - taken)
        g.act(int(action) == ROLL, self.np_random)
        self._opponents()
        self._last = self._info()
        reward = 0.0
        if g.done:
            reward = 1.0 if g.winner == self.seat else -1.0 / (g.N - 1)
        return observe(g, self.seat), reward, g.done, False, self._last

    def render(self) -> str | None:
        """The state in one line (ansi), or nothing."""
        if self.render_mode != "ansi":
            return None
        g = self._game
        return f"scores {g.scores}; " + (f"seat {g.winner} won" if g.done else f"{g.t} turn points, {g.n} live")


gym.register(id="GoNuts-v0", entry_point="solver.adapters.gymnasium_env:GoNutsEnv")
