"""The PettingZoo environment (solver/adapters/pettingzoo_env.py): PettingZoo's own API and seed tests, games of
optimal agents that win as the table says, the info that is the table's, regret, and refusals."""
import math
import warnings

import numpy as np
import pytest

pytestmark = [pytest.mark.rl, pytest.mark.usefixtures("rl_cache")]
pytest.importorskip("pettingzoo", reason="the adapters' tests need the rl extra (pip install \".[rl]\")")

from solver.adapters import pettingzoo_env  # noqa: E402
from solver.engine.solve import solve  # noqa: E402
from solver.game.rules import Rules  # noqa: E402
from solver.game.turn import turn_model  # noqa: E402


@pytest.mark.parametrize("kwargs", [{}, {"players": 3, "target": 20, "reading": "summary"},
                                    {"players": 4, "target": 8, "game": "pig"}])
@pytest.mark.slow
def test_pettingzoo_api_and_seed_tests(kwargs):
    from pettingzoo.test import api_test, seed_test
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(pettingzoo_env.env(**kwargs), num_cycles=1000)
        seed_test(lambda: pettingzoo_env.env(**kwargs), num_cycles=300)


def _play_pz(env, seed, games):
    """Every agent plays the action the info says is optimal; returns wins per seat and the rewards seen."""
    wins = np.zeros(len(env.possible_agents))
    env.reset(seed=seed)
    for _ in range(games):
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                if reward == 1.0:
                    wins[env.possible_agents.index(agent)] += 1
                env.step(None)
                continue
            env.step(1 if info["win_if_roll"] > info["win_if_stop"] else 0)
        env.reset()
    return wins


@pytest.mark.slow
def test_pettingzoo_games_with_optimal_agents_win_as_the_table_says():
    """Literal play through the environment agrees with the exact first-player advantage."""
    env = pettingzoo_env.env(players=2, target=30)
    games = 4000
    wins = _play_pz(env, seed=11, games=games)
    rules = Rules.from_options(reading="rulebook", target=30)
    p = float(solve(turn_model(rules), 2, 30).start_win[0, 0, 0])
    assert wins.sum() == games
    assert abs(wins[0] / games - p) < 4 * math.sqrt(p * (1 - p) / games)


def test_pettingzoo_info_is_the_table_and_regret_is_measured():
    from solver.store import tables
    from solver.store.locate import find_table
    env = pettingzoo_env.env()
    env.reset(seed=3)
    table = tables.load(find_table(Rules.from_options(reading="rulebook")))
    agent = env.agent_selection
    obs, _, _, _, info = env.last()
    o = obs["observation"]
    frame, t, n = tuple(int(x) for x in o[:2]), int(o[2]), int(o[3])
    assert info["win_if_roll"] == table.arrays["roll_win"][frame + (t, n)]
    assert info["win_if_stop"] == table.arrays["stop_win"][frame + (t, n)]
    worse = 0 if info["win_if_roll"] > info["win_if_stop"] else 1
    env.step(worse)
    while env.agent_selection != agent and not all(env.terminations.values()):
        env.step(1 if env.last()[4]["win_if_roll"] > env.last()[4]["win_if_stop"] else 0)
    regret = env.infos[agent]["regret"]
    assert regret == pytest.approx(100 * abs(info["win_if_roll"] - info["win_if_stop"]), abs=1e-12)
    assert sum(env.rewards.values()) == pytest.approx(0.0)


def test_pettingzoo_refuses_bad_parameters_and_actions():
    for bad, name in (({"players": 5}, "players"), ({"reading": "house"}, "reading"), ({"target": 0}, "target"),
                      ({"reading": "summary", "rules": "summary"}, "reading once"),
                      ({"game": "chess"}, "game")):
        with pytest.raises(ValueError, match=name):
            pettingzoo_env.env(**bad)
    env = pettingzoo_env.raw_env()
    env.reset(seed=1)
    with pytest.raises(ValueError, match="out of range"):
        env.step(5)
    wrapped = pettingzoo_env.env()
    wrapped.reset(seed=1)
    with pytest.raises(AssertionError):
        wrapped.step(7)


def test_pettingzoo_terminal_rewards_are_zero_sum():
    env = pettingzoo_env.env(players=3, target=15)
    env.reset(seed=5)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        env.step(None if term or trunc else 1 if obs["observation"][-2] < 5 else 0)
    assert sorted(totals.values()) == pytest.approx([-0.5, -0.5, 1.0])


# -- Gymnasium ----------------------------------------------------------------------------------------
