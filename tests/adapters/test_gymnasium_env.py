"""The Gymnasium environment (solver/adapters/gymnasium_env.py): Gymnasium's check_env, the best response that is
worth the game's value against optimal play and exploits a simple opponent, seeding, refusals, and the worked
example (examples/q_learning.py) evaluated exactly."""
import re
import sys
import warnings

import numpy as np
import pytest

pytestmark = [pytest.mark.rl, pytest.mark.usefixtures("rl_cache")]
gymnasium = pytest.importorskip("gymnasium", reason="the adapters' tests need the rl extra (pip install \".[rl]\")")

from solver.adapters import gymnasium_env  # noqa: E402,F401 (registers GoNuts-v0)


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
