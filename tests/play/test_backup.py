"""The plain-Python one-state backup (what advise uses for 3-4 players) against the numpy operator."""
import numpy as np
import pytest

from solver.engine.solve import solve
from solver.game.rules import Rules
from solver.game.turn import turn_model
from solver.play.backup import backup_state
from solver.reference.bellman import bellman


@pytest.mark.parametrize("rules", [Rules.from_options(reading="rulebook", players=3, target=15), Rules.from_options(reading="summary", players=3, target=15),
                                   Rules.from_options(reading="summary", players=4, target=8), Rules(game="pig", players=3, target=14)],
                         ids=lambda r: r.describe())
@pytest.mark.slow
def test_one_state_backup_equals_the_numpy_operator(rules):
    model = turn_model(rules)
    res = solve(model, rules.players, rules.target)
    N, G, D = rules.players, rules.target, rules.substates
    W = res.start_win
    payouts = model.dists[:6] if rules.game == "gonuts" else None
    rng = np.random.default_rng(7)
    states = rng.choice(G ** N, size=40, replace=False)
    b = bellman(rules, payouts, W, states, keep_vectors=True)
    for i, state in enumerate(states):
        scores = tuple(int(x) for x in np.unravel_index(state, (G,) * N))
        for turn in range(0, G - scores[0]):
            for dice in range(1, D + 1):
                r, s = backup_state(rules, None if payouts is None else payouts.tolist(),
                                    lambda g, scores=scores: W[scores[1:] + (scores[0] + g,)].tolist(), scores[0], turn, dice)
                assert r == pytest.approx(b.roll_vec[i, turn, dice], abs=1e-14)
                assert s == pytest.approx(b.stop_vec[i, turn, dice], abs=1e-14)
                if not (turn == 0 and dice == D):
                    assert (r[0] > s[0]) == bool(res.roll[scores + (turn, dice)])
