"""Go Nuts! as an OpenSpiel Python game, ``python_gonuts``, with explicit chance nodes.

Laid out like OpenSpiel's ``python/games/kuhn_poker.py``: ``GameType`` and
``GameInfo``, ``Game`` and ``State`` classes, chance outcomes as (outcome,
probability) lists, ``pyspiel.register_game`` at the bottom.

    import pyspiel, solver.adapters.openspiel_game
    game = pyspiel.load_game("python_gonuts(players=2,target=10,reading=summary)")

Parameters: ``players`` (2-4), ``target`` (1-200), ``reading`` (``rulebook``, the default, or
``summary``; ``rules`` is its older name, still taken), ``game`` (``gonuts`` or ``pig``).

* Actions of a player: **0 = stop**, **1 = roll**. A turn opens with a node of
  the player whose only legal action is roll (the first roll is forced); after
  each roll that neither ends the turn nor reaches the target (which wins at
  once), both actions are legal. The forced node matters to OpenSpiel's state
  enumeration, which leaves chance nodes out: without it a run of busts would be
  a cycle of chance nodes only, and the enumeration would never end.
* A chance node is one roll of the live dice: its outcomes are the turn model's
  (``turn.py``) from that many dice, each with its exact probability, and a
  roll that starts a Go Nuts! round is expanded over the round's exact payout
  distribution, so one chance node covers the roll and the round.
* Returns: +1 for the winner and -1/(N-1) for the others (zero-sum).
* ``str(state)`` names the position (scores, player to move, turn points, live
  dice), so that OpenSpiel's value iteration can treat the game's cycles.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from solver.adapters.live import ROLL, STOP, game_rules, roll_outcomes
from solver.game import loop
from solver.game.moves import BUST, MOVE, NUTS
from solver.game.rules import Rules
from solver.game.turn import turn_model

_MAX_PLAYERS = 4
# (players, target, reading, game) -> (start sub-state, outcomes per sub-state)
_OUTCOMES: dict[tuple[Any, ...], tuple[int, dict[int, list[tuple[Any, ...]]]]] = {}
_RULES: dict[tuple[Any, ...], Rules] = {}           # the same key -> its Rules
_GAME_TYPE = pyspiel.GameType(
    short_name="python_gonuts",
    long_name="Python Go Nuts!",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=_MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    # reading: "" is the default, rulebook; rules: the reading's older name, "" when not given
    parameter_specification={"players": 2, "target": 50, "reading": "", "game": "gonuts", "rules": ""})


class GoNutsGame(pyspiel.Game):
    """The game for one set of parameters: its rules, and every roll's chance outcomes."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        unknown = set(params) - set(_GAME_TYPE.parameter_specification)
        if unknown:
            raise ValueError(f"python_gonuts: unknown parameter(s) {', '.join(sorted(unknown))}")
        spec = {**_GAME_TYPE.parameter_specification, **params}
        self.rules = game_rules(spec["players"], spec["target"], spec["reading"] or None, spec["game"],
                                spec["rules"] or None)
        N, G = self.rules.players, self.rules.target
        # States keep this key, not the game: OpenSpiel copies states without their game's attributes.
        self.key = (N, G, self.rules.reading_name(), spec["game"])
        if self.key not in _OUTCOMES:
            model = turn_model(self.rules)
            # outcomes[n]: (probability, kind, value, flag); "move" adds value to the turn and goes to
            # sub-state flag; "end" ends the turn with gain value (plus the turn's points when flag).
            outcomes: dict[int, list[tuple[Any, ...]]] = {}
            for n in range(1, model.substates + 1):
                rows: list[tuple[Any, ...]] = []
                for kind, p, x, y in roll_outcomes(model, n):
                    if kind == "move":
                        rows.append((p, "move", x, y))
                    else:                                  # one outcome per gain of the ending's distribution
                        rows += [(p * float(q), "end", gain, y, x) for gain, q in enumerate(model.dists[x]) if q > 0]
                outcomes[n] = rows
            _OUTCOMES[self.key] = (model.start, outcomes)
            _RULES[self.key] = self.rules
        outcomes = _OUTCOMES[self.key][1]
        info = pyspiel.GameInfo(
            num_distinct_actions=2,
            max_chance_outcomes=max(len(r) for r in outcomes.values()),
            num_players=N,
            min_utility=-1.0 / (N - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=1_000_000)
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> GoNutsState:
        """A new game: the first seat to make its forced opening roll."""
        return GoNutsState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> Any:
        """The observer (perfect information: the whole position)."""
        return _Observer(params)


class GoNutsState(pyspiel.State, loop.Follows):
    """A position of the one game loop (``game.loop``): scores (seat order), the seat to move, its turn
    points and live dice; a decision node, or a chance node once the roll is chosen."""

    def __init__(self, game: GoNutsGame) -> None:
        super().__init__(game)
        self._key = game.key
        self.N, self.G = game.key[0], game.key[1]
        self.state = loop.new_game(_RULES[self._key])
        self.opened = False                  # the turn's forced first roll is chosen: its dice come next

    @property
    def phase(self) -> str:
        """open (the forced roll to choose), roll (chance: the dice) or decide."""
        if self.state.phase == loop.START:
            return "roll" if self.opened else "open"
        return "roll" if self.state.phase == loop.ROLL else "decide"

    def current_player(self) -> int:
        """The seat to decide, chance while the dice fall, or terminal."""
        if self.winner is not None:
            terminal: int = pyspiel.PlayerId.TERMINAL
            return terminal
        chance: int = pyspiel.PlayerId.CHANCE
        return chance if self.phase == "roll" else self.seat

    def _legal_actions(self, player: int) -> list[int]:
        assert player >= 0
        return [ROLL] if self.phase == "open" else [STOP, ROLL]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every outcome of the roll (a Go Nuts! round's acorns included) with its exact probability."""
        assert self.is_chance_node()
        return [(i, p) for i, (p, *_) in enumerate(_OUTCOMES[self._key][1][self.n])]

    def _apply_action(self, action: int) -> None:
        rules = _RULES[self._key]
        if self.is_chance_node():
            _, kind, value, nxt, *dist = _OUTCOMES[self._key][1][self.n][action]
            self.opened = False
            if kind == "move":
                self.state = loop.step(rules, self.state, "roll", (MOVE, value, nxt)).state
            elif dist[0] == 0:                               # distribution 0 is the bust's (turn.gonuts_turn)
                self.state = loop.step(rules, self.state, "roll", (BUST, 0, 0)).state
            else:                                            # the roll and its Go Nuts! round, in one outcome
                self.state = loop.step(rules, self.state, "roll", (NUTS, dist[0], 0)).state
                self.state = loop.step(rules, self.state, "nuts", value).state
        elif self.phase == "open":
            self.opened = True
        else:
            self.state = loop.step(rules, self.state, "choice", "roll" if action == ROLL else "stop").state

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            row = _OUTCOMES[self._key][1][self.n][action]
            if row[1] == "move":
                return f"#{action}: +{row[2]} points, {row[3]} live"
            if row[4] == 0:
                return f"#{action}: the turn is lost"
            return f"#{action}: Go Nuts! round with {row[4]} dice, {row[2]} acorns"
        return "roll" if action == ROLL else "stop"

    def is_terminal(self) -> bool:
        """Whether someone has won."""
        return self.winner is not None

    def returns(self) -> list[float]:
        """1 to the winner, -1/(N-1) to the others (a zero-sum game), 0 each before the end."""
        if self.winner is None:
            return [0.0] * self.N
        return [1.0 if a == self.winner else -1.0 / (self.N - 1) for a in range(self.N)]

    def __str__(self) -> str:
        what = "over" if self.winner is not None else self.phase
        return f"scores={self.scores} seat={self.seat} t={self.t} n={self.n} {what}"


class _Observer:
    """Perfect information: every player observes the whole position."""

    def __init__(self, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, npt.NDArray[np.generic]] = {}

    def set_from(self, state: GoNutsState, player: int) -> None:
        pass

    def string_from(self, state: GoNutsState, player: int) -> str:
        return str(state)


pyspiel.register_game(_GAME_TYPE, GoNutsGame)
