"""Go Nuts! (and Pig) as a PettingZoo AEC environment, ``gonuts_v0``, with the exact optimum in ``info``.

Follows PettingZoo's classic environments: ``raw_env`` and an ``env()`` that wraps
it; spaces made once per agent; every observation a dict with ``observation``
and ``action_mask``.

* Agents ``player_0`` .. ``player_{N-1}`` in turn order; ``player_0`` moves first.
* Actions ``Discrete(2)``: **0 = stop** (bank the turn's points), **1 = roll**.
  Agents see only real decisions: the first roll of a turn is forced and a
  state where stopping reaches the target wins, so both are played for them.
  The agent to act has mask ``[1, 1]``; the others ``[0, 0]``.
* ``observation``: int64 ``[own score, the next players' scores in turn order...,
  turn points, live dice]``; turn points and dice are those of the agent's own
  decision (0 for the others); a final score of the target or more shows as the
  target. For Pig the last entry is always 1.
* Rewards at the end only: +1 for the winner, -1/(N-1) for each other player,
  so the game is zero-sum.
* ``infos[agent]`` of the agent to act: ``win_probability`` (its chance under
  optimal play by everyone from here), ``win_if_roll``, ``win_if_stop``, and
  ``regret``: what its last action gave up against the better one, in
  percentage points of win probability (0 when it was optimal).

A masked or out-of-range action raises ``ValueError`` naming it (the wrapper of
``env()`` asserts the range first).
"""
from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector, wrappers

from solver.adapters.live import (
    ROLL,
    STOP,
    LiveGame,
    game_rules,
    observation_space,
    observe,
    optimal_table,
    optimal_values,
)
from solver.game.turn import game_model


def env(**kwargs: Any) -> Any:
    """The wrapped environment, as PettingZoo's classic environments are made."""
    e = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv):
    """The game as PettingZoo's AEC environment (module docstring); ``env()`` wraps it as PettingZoo's own are."""
    metadata = {"render_modes": ["human", "ansi"], "name": "gonuts_v0", "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, players: int = 2, target: int = 50, reading: str | None = None, game: str = "gonuts",
                 render_mode: str | None = None, rules: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, "human", "ansi"):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        self.game_rules = game_rules(players, target, reading, game, rules)
        self.render_mode = render_mode
        table = optimal_table(self.game_rules)
        self._values = optimal_values(table)
        self._game = LiveGame(self.game_rules, game_model(self.game_rules, table))
        self.possible_agents = [f"player_{i}" for i in range(players)]
        obs = observation_space(self.game_rules)
        self.observation_spaces = {a: spaces.Dict({"observation": obs, "action_mask": spaces.Box(
            low=0, high=1, shape=(2,), dtype=np.int8)}) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(2) for a in self.possible_agents}
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str) -> Any:
        """The agent's observation and action mask (``live.observation_space``)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        """Two actions: 0 = stop, 1 = roll."""
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, npt.NDArray[np.generic]]:
        """The agent's observation, with the mask of the actions it may take now."""
        seat = self.possible_agents.index(agent)
        live = seat == self._game.seat and not self._game.done
        return {"observation": observe(self._game, seat),
                "action_mask": np.array([1, 1] if live else [0, 0], dtype=np.int8)}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game, played to its first decision."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._regret = {a: 0.0 for a in self.agents}
        self._game.reset(self._rng)
        self._agent_selector = AgentSelector(self.agents)
        self._after_chance()
        self._accumulate_rewards()          # a forced first roll can win at once (a Go Nuts! jackpot)

    def _after_chance(self) -> None:
        g = self._game
        if g.done:
            N = g.N
            for i, a in enumerate(self.agents):
                self.rewards[a] = 1.0 if i == g.winner else -1.0 / (N - 1)
                self.terminations[a] = True
            self.agent_selection = self.agents[g.winner]
            return
        self.agent_selection = self.agents[g.seat]
        a = self.agent_selection
        roll, stop = self._values.own(g.seat, g.frame(), g.t, g.n)
        self.infos[a] = {"win_probability": max(roll, stop), "win_if_roll": roll, "win_if_stop": stop,
                         "regret": self._regret[a]}

    def step(self, action: int | None) -> None:
        """The deciding agent's action (0 = stop, 1 = roll); chance is then played to the next decision."""
        a = self.agent_selection
        if self.terminations[a] or self.truncations[a]:
            self._was_dead_step(action)
            return
        if action not in (STOP, ROLL):
            raise ValueError(f"{a}: action {action!r} is out of range: 0 = stop, 1 = roll")
        g = self._game
        if self.possible_agents.index(a) != g.seat:           # the mask of observe(): only the decider acts
            raise ValueError(f"{a}: action {action} is masked: it is not {a}'s turn to decide")
        info = self.infos[a]
        taken = info["win_if_roll"] if action == ROLL else info["win_if_stop"]
        self._regret[a] = 100.0 * (info["win_probability"] - taken)
        self._cumulative_rewards[a] = 0.0
        for b in self.agents:
            self.rewards[b] = 0.0
        g.act(action == ROLL, self._rng)
        self._after_chance()
        self.infos[a] = dict(self.infos[a], regret=self._regret[a]) if a == self.agent_selection \
            else {"regret": self._regret[a]}
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The state in one line: printed (human), returned (ansi), or nothing."""
        if self.render_mode is None:
            return None
        g = self._game
        text = (f"scores {g.scores}; " + (f"seat {g.winner} won" if g.done else
                                           f"seat {g.seat} to decide: {g.t} turn points, {g.n} live"))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""
        pass
