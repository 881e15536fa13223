"""The sentences the command line and the page both say (solver/play/words.py): a chance as "1 in N", a change in
win probability as signed percentage points (never -0.0), and the why of an advice, its numbers the explain
object's, for a state at which each clause can be checked by hand."""
from __future__ import annotations

from types import SimpleNamespace

from solver.game.rules import Rules
from solver.play.explain import explain_path
from solver.play.words import explain, one_in, points
from solver.store.locate import shipped_dir


def test_chances_and_points_in_words():
    assert one_in(1 / 216) == "1 in 216" and one_in(0.125) == "1 in 8" and one_in(0) == "never"
    assert one_in(0.5) == "50%" and one_in(1 / 1234.4) == "1 in 1,234"
    assert points(0.0123) == "+1.2" and points(-0.0004) == "+0.0" and points(-0.051) == "-5.1"


def test_the_why_of_an_advice_says_the_explain_objects_numbers():
    rules = Rules.from_options(players=2)
    e = explain_path(shipped_dir() / "gonuts-2p-t50-rulebook.npz", (23, 31), 7, 3)
    said = explain(rules, SimpleNamespace(scores=(23, 31), turn=7, dice=3), e)
    assert said.startswith("why: with 3 dice here, optimal play stops at 15.")
    assert "1 in 216 all cars (the turn's 7 points lost)" in said                 # (1/6)^3
    assert "1 in 8 a Go Nuts! round" in said and f"{e['nuts_mean']:.2f} acorns on average" in said   # (1/2)^3
    assert f"this turn adds {e['turn_gain_mean_if_roll']:.2f} points on average" in said


def test_the_why_of_a_mixed_decision_says_neither_action_is_better_not_where_play_stops():
    rules = Rules.from_options(players=2)
    e = explain_path(shipped_dir() / "gonuts-2p-t50-rulebook.npz", (23, 31), 7, 3)
    said = explain(rules, SimpleNamespace(scores=(23, 31), turn=7, dice=3, roll_probability=0.4875), e)
    assert said.startswith("why: with 3 dice here, rolling and stopping give you the same chance (the equilibrium "
                           "rolls with probability 0.4875).")
    assert "optimal play stops" not in said and "1 in 216 all cars" in said
