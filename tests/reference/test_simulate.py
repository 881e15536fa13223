"""Whole games played literally, dice by dice, with every seat following the table."""
import numpy as np
import pytest

from solver.lab.policies import TablePolicy
from solver.reference.simulate import simulate

GAMES = 20_000


@pytest.mark.slow
@pytest.mark.parametrize("name, seed", [("rulebook", 2024), ("summary", 7)])
def test_first_player_win_matches_simulation(name, seed, rulebook2, summary2):
    t = rulebook2 if name == "rulebook" else summary2
    pol = TablePolicy(t)
    res = simulate(t.rules, [pol, pol], GAMES, np.random.default_rng(seed))
    exact = t.arrays["start_win"][0, 0]
    assert res.wins.sum() == GAMES
    assert np.all(np.abs(res.win_rate - exact) < 3 * np.sqrt(exact * (1 - exact) / GAMES))


def test_three_player_simulation_matches_start_win(rulebook3_small):
    t = rulebook3_small
    pol = TablePolicy(t)
    res = simulate(t.rules, [pol] * 3, GAMES, np.random.default_rng(99))
    exact = t.arrays["start_win"][0, 0, 0]
    assert np.all(np.abs(res.win_rate - exact) < 3 * np.sqrt(exact * (1 - exact) / GAMES))
