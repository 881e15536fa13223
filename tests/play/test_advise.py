"""One question from a table (solver/play/advise.py), two ways that must agree: from a loaded table (numpy) and
straight from the file without numpy (the checked reader: two stored numbers for 2 players, one plain-Python
backup for 3); and a state the game does not have is refused in words."""
from __future__ import annotations

import random

import pytest

from solver.errors import StateError
from solver.game.rules import Rules
from solver.game.states import check_state
from solver.play.advise import advise, advise_path
from solver.store import tables
from solver.store.locate import shipped_dir


@pytest.mark.parametrize("players, reading", [(2, "rulebook"), (2, "summary"), (3, "rulebook"), (3, "summary")])
def test_a_loaded_table_and_the_file_read_without_numpy_give_the_same_answer(players, reading):
    rules = Rules.from_options(players=players, reading=reading)
    path = shipped_dir() / f"gonuts-{players}p-t50-{reading}.npz"
    table, rng = tables.load(path), random.Random(players * 7 + len(reading))
    for _ in range(40):
        scores = tuple(rng.randrange(50) for _ in range(players))
        turn, dice = rng.randrange(0, 30), rng.randrange(1, 6)
        a = advise(table, scores, turn, dice)
        b, read_rules = advise_path(path, scores, turn, dice, expect=rules)
        assert read_rules == rules and (a.action, a.reason) == (b.action, b.reason)
        for x, y in ((a.win_if_roll, b.win_if_roll), (a.win_if_stop, b.win_if_stop)):
            assert (x is None) == (y is None) and (x is None or abs(x - y) <= 1e-12)
        if a.players_if_roll is not None and b.players_if_roll is not None:
            assert abs(sum(a.players_if_roll) - 1) < 1e-9


def test_a_state_the_game_does_not_have_is_refused_in_words():
    rules = Rules.from_options(players=2)
    with pytest.raises(StateError, match="expected 2 scores"):
        check_state(rules, (1, 2, 3), 0, 5)
    with pytest.raises(StateError, match="score 50 is outside 0..49: a banked score of 50 or more has already won"):
        check_state(rules, (50, 0), 0, 5)
    with pytest.raises(StateError, match="live dice must be from 1 to 5, not 6"):
        check_state(rules, (1, 2), 0, 6)
    with pytest.raises(StateError, match="Pig is played with one die"):
        check_state(Rules.from_options(game="pig"), (1, 2), 0, 2)
    assert check_state(rules, [3, 4], 7, 3) == (3, 4)
