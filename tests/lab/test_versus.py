"""Many rules against optimal players in one pass (solver/versus.py), checked against the plain evaluation.

``evaluate`` runs a backward induction over every decision state of every turn, with each seat's
win probability as a vector, in the mover's frame. ``Versus`` turns each turn into its gain
distribution by a forward pass and carries one scalar per state in absolute seat order. The two
share no code beyond the turn model, so agreement to rounding is evidence for both.
"""
import numpy as np
import pytest

from solver.engine.solve import solve
from solver.errors import GonutsError
from solver.game.rules import Rules
from solver.game.turn import turn_model
from solver.lab.policies import TablePolicy, parse
from solver.lab.strategy import evaluate_policies
from solver.lab.versus import Versus
from solver.store.tables import Table

SPECS = ["hold:6", "dice:2-3-5-7-9", "race:2-4-6-8-9/3/4", "race:4-4-8-8-12/0/2", "race:1-2-4-9-11/2/0"]


def _table(rules):
    model = turn_model(rules)
    res = solve(model, rules.players, rules.target)
    extra = {"nuts_payout": model.dists[:6]} if rules.game == "gonuts" else {}
    return Table({"substates": rules.substates}, rules, {"start_win": res.start_win, "roll": res.roll, **extra})


def _reference(rules, table, spec):
    """Seat c (0 moves first): the plain evaluation with the rule in seat 0, seat -c mod N moving first."""
    N, D = rules.players, rules.substates
    pols = [parse(spec, rules, D)] + [TablePolicy(table)] * (N - 1)
    ev = evaluate_policies(rules, pols, table=table)
    return np.array([ev.win_when_starting((N - c) % N)[0] for c in range(N)])


@pytest.mark.parametrize("rules", [Rules.from_options(reading="rulebook", target=20), Rules.from_options(reading="summary", target=20),
                                   Rules.from_options(reading="rulebook", players=3, target=14), Rules.from_options(reading="summary", players=3, target=14),
                                   Rules.from_options(reading="rulebook", players=4, target=9)], ids=lambda r: r.describe())
def test_every_seat_agrees_with_the_plain_evaluation(rules):
    table = _table(rules)
    specs = SPECS if rules.target > 9 else ["hold:3", "dice:1-2-3-4-5", "race:1-2-3-4-5/2/3"]
    with Versus(rules, table) as vs:
        got = vs.win([parse(s, rules, 5) for s in specs])
    for spec, row in zip(specs, got):
        assert row == pytest.approx(_reference(rules, table, spec), abs=1e-13), spec


def test_pig_and_the_batches_change_nothing():
    rules = Rules(game="pig", target=30)
    table = _table(rules)
    specs = ["hold:20", "hold:8", "race:21/8/10", "race:15/3/0"]
    pols = [parse(s, rules, 1) for s in specs]
    with Versus(rules, table) as vs:
        together = vs.win(pols)
    with Versus(rules, table, memory=1) as vs:         # one rule per pass
        assert vs.batch_size() == 1
        alone = vs.win(pols)
    assert np.array_equal(together, alone)
    for spec, row in zip(specs, together):
        assert row == pytest.approx(_reference(rules, table, spec), abs=1e-13)


def test_a_rule_that_is_not_a_table_of_scores_is_refused():
    rules = Rules.from_options(reading="rulebook", target=10)
    table = _table(rules)
    bad = TablePolicy(table)                           # full tables have no (score, lead) rows
    with Versus(rules, table) as vs, pytest.raises(GonutsError, match="only rules that depend on"):
        vs.win([bad])


def _pig_game(rng, table, turns, rule_seat, G):
    """One literal game of Pig: the scoring-turns rule in ``rule_seat`` against the table's decisions."""
    roll = table.roll_array()
    scores, k, seat = [0, 0], 0, 0
    while True:
        t = 0
        while True:
            if scores[seat] + t >= G:
                return seat
            if seat == rule_seat:
                hold_at = G - scores[seat] if k >= turns - 1 else -(-(G - scores[seat]) // (turns - k))
                go = t < hold_at
            else:
                go = t == 0 or bool(roll[scores[seat], scores[1 - seat], t, 1])
            if not go:
                break
            face = int(rng.integers(1, 7))
            if face == 1:
                t = 0
                break
            t += face
        scores[seat] += t
        if scores[seat] >= G:
            return seat
        if seat == rule_seat and t > 0:
            k = min(k + 1, turns - 1)
        seat = 1 - seat


@pytest.mark.slow
def test_the_scoring_turns_rule_matches_a_literal_simulation():
    from solver.lab.versus import scoring_turns
    rules = Rules(game="pig", target=30)
    table = _table(rules)
    exact = scoring_turns(rules, table, turns=3)
    rng = np.random.default_rng(2010)
    games = 6000
    for seat in (0, 1):
        wins = sum(_pig_game(rng, table, 3, seat, 30) == seat for _ in range(games))
        se = (exact[seat] * (1 - exact[seat]) / games) ** 0.5
        assert abs(wins / games - exact[seat]) < 4 * se, (seat, wins / games, exact[seat])


def test_one_scoring_turn_is_rolling_to_the_goal():
    from solver.lab.versus import scoring_turns
    rules = Rules(game="pig", target=30)
    table = _table(rules)
    with Versus(rules, table) as vs:
        assert scoring_turns(rules, table, turns=1) == pytest.approx(tuple(vs.win([parse("hold:30", rules, 1)])[0]),
                                                                     abs=1e-15)
