"""What one roll does (solver/game/moves.py), against the rules as printed (docs/RULES.md) and closed forms: all
cars busts, all squirrels starts a Go Nuts! round, a lone acorn brings the dice back as each reading says, and the
chances of each kind with n dice are those of the dice."""
from __future__ import annotations

from solver.game.moves import BUST, MOVE, NUTS, faces_table, outcome, roll_table
from solver.game.rules import Rules

RULEBOOK, SUMMARY = Rules.from_options(reading="rulebook"), Rules.from_options(reading="summary")


def test_each_roll_does_what_the_rules_say():
    for rules in (RULEBOOK, SUMMARY):
        assert outcome(rules, 4, 0, 0, 4) == (BUST, 0, 0)
        assert outcome(rules, 3, 2, 1, 0) == (MOVE, 2, 3)                 # no car: all three stay live
        assert outcome(rules, 5, 2, 2, 1) == (MOVE, 2, 4)                 # a car: that die is out
    assert outcome(RULEBOOK, 3, 0, 3, 0) == (NUTS, 3, 0)                # the round is of the dice rolled
    assert outcome(SUMMARY, 3, 0, 3, 0) == (NUTS, 5, 0)                 # the summary: of all five
    # the one-die rule: the rulebook reads "one die rolled shows an acorn", the summary "one die left"
    assert outcome(RULEBOOK, 1, 1, 0, 0) == (MOVE, 1, 5) and outcome(SUMMARY, 1, 1, 0, 0) == (MOVE, 1, 5)
    assert outcome(RULEBOOK, 2, 1, 0, 1) == (MOVE, 1, 1) and outcome(SUMMARY, 2, 1, 0, 1) == (MOVE, 1, 5)


def test_the_chances_of_each_kind_are_the_dice_own():
    for rules in (RULEBOOK, SUMMARY):
        D, rolls = roll_table(rules)
        assert D == 5
        for n in range(1, 6):
            p = {k: sum(q for kind, q, *_ in rolls[n] if kind == k) for k in (BUST, NUTS, MOVE)}
            assert abs(p[BUST] - (1 / 6) ** n) < 1e-15                  # every die a car
            assert abs(p[NUTS] - (1 / 2) ** n) < 1e-15                  # every die a squirrel
            assert abs(sum(p.values()) - 1) < 1e-15
        for n, rows in faces_table(rules).items():                     # the same rolls, with their faces kept
            assert sorted((k, p, x, live) for _, _, _, p, k, x, live in rows) == sorted(rolls[n])
            assert all(outcome(rules, n, a, s, c) == (k, x, live) for a, s, c, _, k, x, live in rows)


def test_pig_is_one_die_a_one_busts():
    D, rolls = roll_table(Rules.from_options(game="pig"))
    assert D == 1 and sorted((k, x) for k, _, x, _ in rolls[1]) == [(BUST, 0)] + [(MOVE, k) for k in range(2, 7)]
