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


def test_a_mixed_decision_is_played_as_its_probability():
    """Where a policy mixes (an equilibrium with no pure one: docs/model.md), evaluate, simulate and best response
    play the mix: the exact values equal the pure policy's at probability 0 and the other action's at 1, and a
    literal simulation with the seeded coin lands within 4 standard errors of the exact value at 1/2."""
    from solver.engine.respond import respond
    from solver.engine.solve import Mixed
    from solver.lab.policies import BitsPolicy
    from solver.lab.strategy import evaluate_policies, simulate_policies
    rules = Rules.from_options(players=2, target=12)
    G, N, D = 12, 2, 5
    model = turn_model(rules)
    pure = hold(6, G, D)                              # stops at 6 points or more, so it rolls at 2 points
    bits = pure.bits(G, N, D)
    states = np.array([i for i in range(G ** N) if np.unravel_index(i, (G, G))[0] + 2 < G], np.int64)
    q = 2 * (D + 1) + 3                                # 2 points, 3 dice live: a decision met often
    def mixed(p):
        return Mixed(states, np.full(len(states), q, np.int64), np.full(len(states), p))
    flipped = bits.copy()
    flipped[states, q >> 3] &= ~np.uint8(128 >> (q & 7))        # the same policy, stopping there
    at = {p: evaluate(model, N, G, [bits, bits], seat_mixed=[mixed(p), mixed(p)]).win for p in (0.0, 0.5, 1.0)}
    assert np.array_equal(at[1.0], evaluate(model, N, G, [bits, bits]).win)
    assert np.array_equal(at[0.0], evaluate(model, N, G, [flipped, flipped]).win)
    assert np.abs(at[0.5] - at[0.0]).max() > 1e-4 and np.abs(at[0.5] - at[1.0]).max() > 1e-4
    # seat 0 mixes, seat 1 plays pure: the exact value against dice and coins
    pols = [BitsPolicy(bits, G, N, D, "mix", mixed(0.5)), BitsPolicy(bits, G, N, D, "pure")]
    exact = evaluate_policies(rules, pols).win
    sim = simulate_policies(rules, pols, games=40_000, seed=11)
    assert np.all(np.abs(sim.win - exact) <= 4 * sim.stderr + 1e-12), (sim.win, exact, sim.stderr)
    # the best response of seat 1 to the mixing seat 0 wins at least what its pure policy wins
    br = respond(model, N, G, [bits, None], [1], seat_mixed=[mixed(0.5), None])
    assert br.converged and br.values[0, 0, 1] >= exact[1] - 1e-12
