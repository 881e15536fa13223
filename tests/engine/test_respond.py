"""Best response: exact, against an independent value iteration, a literal simulation, and its own
definition (it does at least as well as any fixed policy against the same opponents)."""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from solver.engine.respond import deviate, respond
from solver.engine.solve import Mixed, solve
from solver.game.rules import Rules
from solver.game.turn import turn_model
from solver.lab.policies import hold, thresholds
from solver.lab.strategy import evaluate_policies, resolve, simulate_policies
from solver.reference.bellman import plain_policy_evaluation

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.mark.parametrize("rules", [Rules.from_options(reading="rulebook", target=25), Rules.from_options(reading="summary", players=3, target=12),
                                   Rules.from_options(reading="rulebook", players=4, target=6), Rules(game="pig", target=40)])
def test_with_every_seat_greedy_it_is_optimal_play(rules):
    model, N, G = turn_model(rules), rules.players, rules.target
    opt = solve(model, N, G)
    br = respond(model, N, G, [None] * N, range(N))
    assert br.converged and br.residual <= 1e-12
    for a in range(N):
        assert np.abs(br.values[a] - opt.start_win.reshape(-1, N)).max() < 1e-12


CASES = [
    (Rules.from_options(reading="rulebook", target=20), ["best", "hold:5"]),
    (Rules.from_options(reading="summary", target=20), ["dice:3-4-6-8-10", "best"]),
    (Rules(game="pig", target=30), ["best", "hold:10"]),
    (Rules.from_options(reading="rulebook", players=3, target=10), ["best", "hold:4", "dice:1-2-3-4-5"]),
    (Rules.from_options(reading="summary", players=3, target=10), ["best", "best", "hold:3"]),
]


@pytest.mark.slow
@pytest.mark.parametrize("rules, specs", CASES)
def test_best_response_agrees_with_plain_value_iteration(rules, specs):
    """The oracle: Jacobi sweeps of the plain Bellman operator, greedy for the best seats."""
    N, G, D = rules.players, rules.target, rules.substates
    pols = resolve(specs, rules)
    best = [a for a, s in enumerate(specs) if s == "best"]
    assert all(pols[a].report["converged"] for a in best)
    rolls = [None if a in best else np.unpackbits(p.bits(G, N, D), axis=1, count=G * (D + 1)).reshape(
        (G,) * N + (G, D + 1)).astype(bool) for a, p in enumerate(pols)]
    V, sweeps = plain_policy_evaluation(rules, rolls, tol=1e-14)
    ev = evaluate_policies(rules, pols)
    assert np.abs(ev.values[..., :N] - V.reshape(ev.values[..., :N].shape)).max() < 1e-10


def test_best_response_beats_every_fixed_policy_against_the_same_opponents():
    rules = Rules.from_options(reading="rulebook", target=30)
    opponent = hold(8, 30, 5)
    best = evaluate_policies(rules, resolve(["best", "hold:8"], rules)).win_both_orders[0]
    G, D = rules.target, rules.substates
    for mine in (hold(k, G, D) for k in range(1, 30, 3)):
        assert evaluate_policies(rules, [mine, opponent]).win_both_orders[0] <= best + 1e-12
    opt = resolve(["best", "best"], rules)
    opt_vs_hold = evaluate_policies(rules, [opt[0], opponent]).win_both_orders[0]
    assert opt_vs_hold <= best + 1e-12
    assert best - opt_vs_hold > 1e-4          # exploiting hold:8 gains something over playing safe


def test_pig_best_response_to_hold_20_reproduces_neller_presser_2004():
    """Neller & Presser, "Optimal Play of the Dice Game Pig", UMAP Journal 25(1), 2004: against "hold at
    20", the best response wins 58.74% of games when it moves first, and "hold at 20" wins 47.76% when it
    moves first (the best response moving second wins 52.24%)."""
    rules = Rules(game="pig", target=100)
    first = evaluate_policies(rules, resolve(["best", "hold:20"], rules)).win
    second = evaluate_policies(rules, resolve(["hold:20", "best"], rules)).win
    assert round(first[0], 4) == 0.5874
    assert round(second[0], 4) == 0.4776 and round(second[1], 4) == 0.5224
    # the same numbers from both kernels: one seat against the rest (deviate, what resolve takes here) and the
    # general max-n response
    G, D = rules.target, rules.substates
    h20 = hold(20, G, D).bits(G, 2, D)
    dev = deviate(turn_model(rules), 2, G, h20)
    gen = respond(turn_model(rules), 2, G, [None, h20], [0])
    assert round(dev.values[0, 0], 4) == 0.5874 and round(dev.values[1, 0], 4) == 0.5224
    assert abs(gen.values[0, 0, 0] - dev.values[0, 0]) < 1e-14 and abs(gen.values[1, 0, 1] - dev.values[1, 0]) < 1e-14


@pytest.mark.slow
def test_pig_best_response_to_hold_20_matches_a_literal_simulation():
    rules = Rules(game="pig", target=100)
    pols = resolve(["best", "hold:20"], rules)
    exact = evaluate_policies(rules, pols).win[0]
    sim = simulate_policies(rules, pols, 200_000, seed=7)
    assert abs(sim.win[0] - exact) < 4 * sim.stderr[0]
    # and it beats optimal play against hold:20, which it must
    opt = resolve(["best", "best"], rules)
    assert evaluate_policies(rules, [opt[0], pols[1]]).win[0] < exact


@pytest.mark.slow
def test_evaluate_command_reports_the_best_response_and_its_convergence():
    p = subprocess.run([sys.executable, "-m", "cli", "evaluate", "--game", "pig", "--target", "100", "--policies",
                        "best,hold:20", "--both-orders", "--json"], cwd=ROOT, capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["best_response"]["converged"] and out["best_response"]["residual"] <= 1e-12
    assert sum(out["win"]) == pytest.approx(1.0, abs=1e-12)
    text = subprocess.run([sys.executable, "-m", "cli", "evaluate", "--game", "pig", "--target", "60",
                           "--policies", "hold:20,best"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert text.returncode == 0 and "best response" in text.stdout and "converged" in text.stdout


def test_simple_rule_thresholds_are_exploitable_in_go_nuts():
    rules = Rules.from_options(reading="rulebook", target=30)
    G, D = rules.target, rules.substates
    rule = thresholds([3, 4, 8, 12, 15], G, D, "dice:3-4-8-12-15")
    vs_best = evaluate_policies(rules, resolve(["dice:3-4-8-12-15", "best"], rules)).win_both_orders[0]
    opt = resolve(["best", "best"], rules)
    vs_opt = evaluate_policies(rules, [rule, opt[1]]).win_both_orders[0]
    assert vs_best < vs_opt


def _deviator(values: np.ndarray) -> np.ndarray:
    """respond's values (N, S, N) -> the seat-0 deviator's chance with each seat to move, deviate's (N, S)."""
    N = values.shape[0]
    return np.array([values[a, :, (N - a) % N] for a in range(N)])


GAMES = [Rules.from_options(players=2, target=30, reading="rulebook"),
         Rules.from_options(players=3, target=18, reading="summary", speed=0.5),
         Rules.from_options(players=4, target=13, reading="rulebook", speed=2),
         Rules.from_options(players=4, target=15, reading="summary", speed=0.5),
         Rules(game="pig", target=40)]


@pytest.mark.parametrize("rules", GAMES, ids=["2p-30", "3p-18-summary-slow", "4p-13-fast", "4p-15-summary-slow", "pig-40"])
def test_no_seat_gains_by_deviating_from_a_solved_table(rules):
    model, N, G = turn_model(rules), rules.players, rules.target
    opt = solve(model, N, G)
    dev = deviate(model, N, G, opt.roll_bits, opt.mixed, values=opt.start_win, keep_bits=True)
    assert dev.converged and dev.residual <= 1e-12
    assert dev.gain is not None and abs(dev.gain) < 1e-14          # rounding only, at every state and seat
    # the general kernel (N components, every seat's chance) says the same, decision for decision
    gen = respond(model, N, G, [None] + [opt.roll_bits.reshape(G ** N, -1)] * (N - 1), [0],
                  seat_mixed=[None] + [opt.mixed] * (N - 1))
    assert np.abs(_deviator(gen.values) - dev.values).max() < 1e-14
    assert np.array_equal(dev.bits, gen.bits[0])


@pytest.mark.parametrize("rules, k", [(Rules.from_options(players=3, target=20, reading="rulebook"), 6),
                                      (Rules.from_options(players=4, target=12, reading="summary"), 4)])
def test_one_seat_against_a_rule_that_is_no_equilibrium_gains_what_respond_says(rules, k):
    model, N, G, D = turn_model(rules), rules.players, rules.target, rules.substates
    rule = hold(k, G, D).bits(G, N, D)
    played = evaluate_policies(rules, [hold(k, G, D)] * N).probabilities[0]      # everyone holds at k
    dev = deviate(model, N, G, rule, values=played)
    gen = respond(model, N, G, [None] + [rule] * (N - 1), [0])
    assert dev.converged and np.abs(_deviator(gen.values) - dev.values).max() < 1e-14
    assert dev.gain is not None and dev.gain > 0.05                # holding at k is easy to exploit
    a, scores = dev.where
    assert dev.gain == pytest.approx(dev.values[a, np.ravel_multi_index(scores, (G,) * N)] - dev.baseline)


def test_one_seat_against_mixed_play_agrees_with_respond():
    # a made-up mix: the others roll at a few decisions with probability 0.3 where their rule stops
    rules = Rules.from_options(players=3, target=14, reading="rulebook")
    model, N, G, D = turn_model(rules), rules.players, rules.target, rules.substates
    rule = hold(5, G, D).bits(G, N, D)
    states = np.array([7, 100, 1000, 2000], dtype=np.int64)
    decision = np.full(4, 6 * (D + 1) + 2, dtype=np.int64)          # 6 points, 2 dice: past hold:5, so it stops
    mixed = Mixed(states, decision, np.full(4, 0.3))
    dev = deviate(model, N, G, rule, mixed)
    gen = respond(model, N, G, [None] + [rule] * (N - 1), [0], seat_mixed=[None] + [mixed] * (N - 1))
    plain = deviate(model, N, G, rule)
    assert np.abs(_deviator(gen.values) - dev.values).max() < 1e-14
    assert np.abs(plain.values - dev.values).max() > 1e-6           # the mix is played


def test_decisions_or_values_of_another_game_are_refused_in_one_line():
    from solver.errors import GonutsError
    rules = Rules.from_options(players=3, target=10)
    model = turn_model(rules)
    opt = solve(model, 3, 10)
    with pytest.raises(GonutsError, match="must be 1000 x 8 packed bytes for 3 players to 10"):
        deviate(model, 3, 10, opt.roll_bits[:5])
    with pytest.raises(GonutsError, match="values must be 1000 x 3"):
        deviate(model, 3, 10, opt.roll_bits, values=opt.start_win[..., :2])
