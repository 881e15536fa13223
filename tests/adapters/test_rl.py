"""The game-AI adapters (pip install ".[rl]"): PettingZoo, Gymnasium and OpenSpiel, each checked by its
framework's own tests, against our tables, and by playing; each wraps the same live game (solver/adapters/live.py).
"""
import math
import re
import sys
import threading
import warnings

import numpy as np
import pytest

pytestmark = pytest.mark.rl
gymnasium = pytest.importorskip("gymnasium", reason="the adapters' tests need the rl extra (pip install \".[rl]\")")
pyspiel = pytest.importorskip("pyspiel", reason="the adapters' tests need the rl extra (pip install \".[rl]\")")
pytest.importorskip("pettingzoo", reason="the adapters' tests need the rl extra (pip install \".[rl]\")")

from solver.adapters import gymnasium_env, openspiel_game, pettingzoo_env  # noqa: E402,F401 (registers GoNuts-v0, python_gonuts)
from solver.engine.solve import solve  # noqa: E402
from solver.game.rules import Rules  # noqa: E402
from solver.game.turn import turn_model  # noqa: E402


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("GONUTS_SOLVE_CACHE", str(tmp_path_factory.getbasetemp() / "rl-cache"))


# -- PettingZoo ---------------------------------------------------------------------------------------

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

@pytest.mark.parametrize("kwargs", [{}, {"players": 3, "target": 20, "reading": "summary", "seat": 1,
                                         "opponents": "optimal,hold:8"}, {"game": "pig", "target": 30}])
@pytest.mark.slow
def test_gymnasium_check_env(kwargs):
    from gymnasium.utils.env_checker import check_env
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(gymnasium.make("GoNuts-v0", **kwargs).unwrapped)


def test_gymnasium_best_response_to_optimal_play_is_worth_the_game_value():
    """Two players, zero-sum: against a minimax opponent nothing beats the game's value, and optimal play
    reaches it, so the best-response values equal the optimal ones."""
    env = gymnasium.make("GoNuts-v0", target=25).unwrapped
    obs, info = env.reset(seed=2)
    for _ in range(300):
        assert info["best_response_win_probability"] == pytest.approx(info["win_probability"], abs=1e-12)
        obs, r, term, trunc, info = env.step(1 if info["win_if_roll"] > info["win_if_stop"] else 0)
        if term:
            obs, info = env.reset()


def test_gymnasium_best_response_exploits_a_simple_opponent():
    env = gymnasium.make("GoNuts-v0", target=25, opponents="hold:6").unwrapped
    obs, info = env.reset(seed=4)
    gains = []
    for _ in range(300):
        assert info["best_response_win_probability"] >= info["win_probability"] - 1e-12
        gains.append(info["best_response_win_probability"] - info["win_probability"])
        obs, r, term, trunc, info = env.step(1 if info["best_response_if_roll"] > info["best_response_if_stop"] else 0)
        if term:
            obs, info = env.reset()
    assert max(gains) > 1e-3


def test_gymnasium_seeding_and_bad_input():
    a = gymnasium.make("GoNuts-v0", target=20).unwrapped
    b = gymnasium.make("GoNuts-v0", target=20).unwrapped
    oa, _ = a.reset(seed=9)
    ob, _ = b.reset(seed=9)
    for _ in range(50):
        assert np.array_equal(oa, ob)
        oa, ra, ta, _, _ = a.step(1)
        ob, rb, tb, _, _ = b.step(1)
        assert ra == rb and ta == tb
        if ta:
            oa, _ = a.reset(seed=10)
            ob, _ = b.reset(seed=10)
    with pytest.raises(ValueError, match="out of range"):
        a.step(2)
    for bad, name in (({"seat": 3}, "seat"), ({"opponents": "hold:x"}, "opponents"), ({"players": 1}, "players")):
        with pytest.raises(ValueError, match=name):
            gymnasium.make("GoNuts-v0", **bad)
    with pytest.raises(TypeError, match="colour"):
        gymnasium.make("GoNuts-v0", colour="red")


# -- OpenSpiel ----------------------------------------------------------------------------------------

def _openspiel_values(game):
    """OpenSpiel's own value iteration. Its state enumeration is a deep recursion: give it room."""
    from open_spiel.python.algorithms import value_iteration
    out = {}
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(1_000_000)
    size = threading.stack_size(1 << 29)
    try:
        th = threading.Thread(target=lambda: out.update(value_iteration.value_iteration(
            game, depth_limit=-1, threshold=1e-10, cyclic_game=True)))
        th.start()
        th.join()
    finally:
        threading.stack_size(size)
        sys.setrecursionlimit(old)
    return out


@pytest.mark.parametrize("reading, target", [("rulebook", 3), ("rulebook", 6), ("rulebook", 10), ("summary", 3),
                                             ("summary", 8)])
@pytest.mark.slow
def test_openspiel_value_iteration_reproduces_our_tables(reading, target):
    game = pyspiel.load_game(f"python_gonuts(players=2,target={target},reading={reading})")
    values = _openspiel_values(game)
    res = solve(turn_model(Rules.from_options(reading=reading, target=target)), 2, target)
    checked = 0
    for key, v in values.items():
        m = re.match(r"scores=\[(\d+), (\d+)\] seat=(\d) t=(\d+) n=(\d) decide", key)
        if not m:
            continue
        s0, s1, seat, t, n = map(int, m.groups())
        frame = (s0, s1) if seat == 0 else (s1, s0)
        own = max(res.roll_win[frame + (t, n)], res.stop_win[frame + (t, n)])
        p0 = own if seat == 0 else 1 - own
        assert abs(v - (2 * p0 - 1)) < 1e-8, key          # OpenSpiel's value is player 0's return
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("params", ["players=2,target=30", "players=3,target=20,reading=summary",
                                    "players=4,target=12", "players=2,target=40,game=pig"])
def test_openspiel_random_simulation_checks(params):
    pyspiel.random_sim_test(pyspiel.load_game(f"python_gonuts({params})"), num_sims=30, serialize=False,
                            verbose=False)


def test_openspiel_chance_nodes_are_exact_distributions():
    game = pyspiel.load_game("python_gonuts(players=3,target=20)")
    state = game.new_initial_state()
    state.apply_action(1)                                   # the forced first roll
    outcomes = state.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-12
    assert len(outcomes) <= game.max_chance_outcomes()
    # the Go Nuts! round of five dice (all squirrels, 1/32) is spread over its exact payouts
    model = turn_model(Rules.from_options(reading="rulebook", players=3, target=20))
    labels = [state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a, _ in outcomes]
    assert len(set(labels)) == len(labels)
    ends = sum(p for (a, p), label in zip(outcomes, labels) if "lost" in label or "Go Nuts!" in label)
    e5 = model.endings[model.endings["src"] == 5]["p"].sum()
    assert ends == pytest.approx(e5, abs=1e-12)


def test_openspiel_refuses_bad_parameters():
    for bad, name in (("players=5", "players"), ("reading=house", "reading"), ("colour=3", "colour"),
                      ("reading=summary,rules=summary", "reading once")):
        with pytest.raises(Exception, match=name):
            pyspiel.load_game(f"python_gonuts({bad})")


def test_the_older_name_of_the_reading_still_makes_the_same_game():
    """Code written when the reading was called ``rules`` keeps working in every framework."""
    summary = Rules.from_options(reading="summary", players=3, target=20)
    assert pettingzoo_env.raw_env(players=3, target=20, rules="summary").game_rules == summary
    assert gymnasium_env.GoNutsEnv(players=3, target=20, rules="summary").game_rules == summary
    old, new = (pyspiel.load_game(f"python_gonuts(players=3,target=20,{p}=summary)") for p in ("rules", "reading"))
    assert old.rules == new.rules == summary


@pytest.mark.slow
def test_the_worked_example_trains_and_is_evaluated_exactly():
    import subprocess
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent.parent
    p = subprocess.run([sys.executable, "examples/q_learning.py", "--target", "10", "--episodes", "3000",
                        "--opponents", "hold:4"], cwd=root, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    gap = float(re.search(r"policy is (-?[\d.]+) points of win probability from the best response", p.stdout)[1])
    assert gap >= -1e-9                 # nothing beats the exact best response
