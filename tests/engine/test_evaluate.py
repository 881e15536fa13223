"""Exact evaluation of strategies against independent evidence."""
import numpy as np
import pytest

from solver.engine.evaluate import evaluate
from solver.engine.solve import unpack_roll
from solver.game.payout import nuts_payout_table
from solver.game.rules import Rules
from solver.game.turn import gonuts_turn, turn_model
from solver.lab.policies import hold, parse
from solver.reference.bellman import plain_policy_evaluation
from solver.reference.simulate import simulate


def _eval(rules, specs, table=None):
    D = rules.substates
    pols = [parse(s, rules, D, (lambda: table)) for s in specs]
    model = turn_model(rules) if rules.game == "pig" else gonuts_turn(rules, nuts_payout_table(rules))
    G, N = rules.target, rules.players
    return evaluate(model, N, G, [p.bits(G, N, D) for p in pols]), pols


def test_optimal_against_itself_reproduces_the_table(rulebook2, rulebook3_small):
    for t in (rulebook2, rulebook3_small):
        ev, _ = _eval(t.rules, ["optimal"] * t.players, t)
        N = t.players
        assert np.abs(ev.values[0, :, :N] - t.arrays["start_win"].reshape(-1, N)).max() < 1e-12
        assert ev.win_both_orders == pytest.approx(np.full(N, 1 / N), abs=1e-12)


CASES = [
    (Rules.from_options(target=20), ["hold:8", "maxpoints"]),
    (Rules.from_options(reading="summary", target=20), ["dice:2-3-6-9-20", "hold:5/2"]),
    (Rules.from_options(players=3, target=10), ["hold:4", "maxpoints", "hold:7/1"]),
    (Rules(game="pig", target=25), ["hold:20", "hold:12"]),
]


@pytest.mark.slow
@pytest.mark.parametrize("rules, specs", CASES, ids=lambda x: getattr(x, "describe", lambda: str(x))())
def test_exact_evaluation_agrees_with_plain_policy_iteration(rules, specs):
    ev, pols = _eval(rules, specs)
    G, N, D = rules.target, rules.players, rules.substates
    rolls = [unpack_roll(p.bits(G, N, D), G, D).reshape((G,) * N + (G, D + 1)) for p in pols]
    V, sweeps = plain_policy_evaluation(rules, rolls)
    assert np.abs(ev.values[:, :, :N] - V).max() < 1e-9


def test_expected_turns_closed_form_target_one():
    """Target 1, everyone rolls: the game lasts Geometric(q) turns, mean 1/q."""
    r = Rules.from_options(players=3, target=1)
    ev, _ = _eval(r, ["hold:1"] * 3)
    from test_solve import _turn_win_prob_target1
    q = float(_turn_win_prob_target1(r))
    assert ev.expected_turns == pytest.approx(1 / q, rel=1e-12)


@pytest.mark.parametrize("specs, seed", [(["optimal", "hold:20"], 1), (["maxpoints", "optimal"], 2),
                                         (["hold:10/2", "dice:3-4-8-15-30"], 3)])
@pytest.mark.slow
def test_simulation_agrees_with_exact_evaluation(specs, seed, rulebook2):
    ev, pols = _eval(rulebook2.rules, specs, rulebook2)
    games = 20_000
    res = simulate(rulebook2.rules, pols, games, np.random.default_rng(seed))
    se = np.sqrt(ev.win * (1 - ev.win) / games)
    assert np.all(np.abs(res.win_rate - ev.win) < 3 * se)
    sd_turns = res.turns.std()
    assert abs(res.turns.mean() - ev.expected_turns) < 3 * sd_turns / np.sqrt(games)


def test_extreme_policies_still_finish_games():
    """Stopping right after the forced opening roll still scores sometimes, so games end."""
    r = Rules.from_options(target=10)
    timid = parse("dice:0-0-0-0-1", r, 5)
    ev, _ = _eval(r, ["dice:0-0-0-0-1", "hold:1"])
    V, _ = plain_policy_evaluation(r, [unpack_roll(p.bits(10, 2, 5), 10, 5).reshape(10, 10, 10, 6) for p in (timid, hold(1, 10, 5))])
    assert np.abs(ev.values[:, :, :2] - V).max() < 1e-9
    assert ev.win.sum() == pytest.approx(1.0, abs=1e-12) and 1 < ev.expected_turns < 100


def test_three_player_simulation_agrees_with_exact_evaluation(rulebook3_small):
    t = rulebook3_small
    ev, pols = _eval(t.rules, ["maxpoints", "optimal", "hold:4/2"], t)
    games = 20_000
    res = simulate(t.rules, pols, games, np.random.default_rng(33))
    assert np.all(np.abs(res.win_rate - ev.win) < 3 * np.sqrt(ev.win * (1 - ev.win) / games))
    assert abs(res.turns.mean() - ev.expected_turns) < 3 * res.turns.std() / np.sqrt(games)
