"""A state as a question names it, checked against the game's shape before anything is read (solver/game/states.py):
each field that names no state is refused, naming the field, with the same words for every way in."""
from __future__ import annotations

import numpy as np
import pytest

from solver.errors import StateError
from solver.game.rules import Rules
from solver.game.states import check_dice, check_scores, check_state, whole

RULES = Rules.from_options(players=3, target=30)


def test_a_state_that_exists_comes_back_as_plain_ints():
    assert check_state(RULES, (np.int64(3), 0, 29), np.int32(7), 5) == (3, 0, 29)
    assert check_scores(RULES, [1, 2, 3]) == (1, 2, 3) and whole(np.uint8(4), "x") == 4


@pytest.mark.parametrize("scores, turn, dice, words", [
    ((1, 2), 0, 5, "expected 3 scores"),
    ((1, 2, 30), 0, 5, "score 30 is outside 0..29"),
    ((-1, 2, 3), 0, 5, "score -1 is outside 0..29"),
    ((True, 2, 3), 0, 5, "a score must be a whole number, not True"),
    ((1.0, 2, 3), 0, 5, "a score must be a whole number, not 1.0"),
    ("123", 0, 5, "scores must be a list of 3 banked scores"),
    ((1, 2, 3), -1, 5, "turn points must be 0 or more, not -1"),
    ((1, 2, 3), 2.5, 5, "turn points must be a whole number, not 2.5"),
    ((1, 2, 3), 0, 6, "live dice must be from 1 to 5, not 6"),
    ((1, 2, 3), 0, True, "live dice must be a whole number, not True"),
])
def test_a_state_that_does_not_exist_is_refused_naming_its_field(scores, turn, dice, words):
    with pytest.raises(StateError, match=words.replace("(", r"\(").replace(".", r"\.")):
        check_state(RULES, scores, turn, dice)


def test_pig_has_one_die():
    with pytest.raises(StateError, match="Pig is played with one die: dice must be 1, not 2"):
        check_dice(1, 2)
