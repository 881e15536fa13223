"""The independent checks' plain Bellman operator (solver/reference/bellman.py), held to closed forms on its own:
with target 1 the player to move wins with the chance q of scoring at all, else play passes on, so seat k wins with
q(1-q)^k / (1-(1-q)^N); and the policy evaluation of a fixed rule gives chances that sum to 1 over the seats,
the first to move ahead."""
from __future__ import annotations

import numpy as np
import pytest

from solver.game.rules import Rules
from solver.reference.bellman import plain_policy_evaluation, plain_value_iteration


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("reading", ["rulebook", "summary"])
def test_value_iteration_gives_the_closed_form_of_target_one(players, reading):
    from test_solve import _turn_win_prob_target1  # the closed form of q, derived there for the engine
    rules = Rules.from_options(reading=reading, players=players, target=1)
    q = float(_turn_win_prob_target1(rules))
    W, roll, sweeps, residual = plain_value_iteration(rules, tol=1e-14)
    assert residual <= 1e-14 and sweeps < 10_000
    want = [q * (1 - q) ** k / (1 - (1 - q) ** players) for k in range(players)]
    assert W[(0,) * players] == pytest.approx(want, abs=1e-12)


def test_a_fixed_rule_is_evaluated_to_chances_that_sum_to_one():
    rules = Rules(game="pig", target=20)
    G = rules.target
    t = np.arange(G)[:, None]
    hold10 = np.broadcast_to((t < 10)[None, None, :, :], (G, G, G, 2)).copy()    # roll below 10 turn points
    hold10[..., 0] = False                                                        # sub-state 0 is unused
    V, sweeps = plain_policy_evaluation(rules, [hold10, hold10])
    assert np.allclose(V.sum(axis=-1), 1.0, atol=1e-9)
    assert V[0, 0, 0] > 0.5 > V[1, 0, 1]                       # the player to move first has the edge
