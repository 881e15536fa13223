"""What the command line asks for (solver/commands/asked.py): the rule options a user gave, made into rules through
Rules.from_options (Pig taking only players and target), a table refused when its rules differ from an option
given (naming the --rules flag for the reading), and web's lists of games read with one-line refusals."""
from __future__ import annotations

import pytest

from solver.commands import asked
from solver.errors import GonutsError, TableError, UsageError
from solver.game.rules import Rules


def test_the_options_given_make_the_rules():
    knobs = asked.asked(players=3, reading="summary", faces="1,3,2", dog="2,4", speed=2.0)
    assert knobs == {"players": 3, "reading": "summary", "faces": (1, 3, 2), "dog": (2, 4), "speed": 2.0}
    assert asked.make_rules(knobs) == Rules.from_options(players=3, reading="summary", faces=(1, 3, 2), dog=(2, 4),
                                                        speed=2.0)
    assert asked.make_rules({}) == Rules.from_options()
    assert asked.rules_for({}, 3).players == 3 and asked.rules_for({}, 7).players == 2
    assert asked.make_rules({"game": "pig", "target": 30}) == Rules.from_options(game="pig", target=30)
    with pytest.raises(UsageError, match="--speed does not apply to Pig"):
        asked.make_rules({"game": "pig", "speed": 2.0})
    with pytest.raises(GonutsError, match="--faces must be 3 comma-separated whole numbers"):
        asked.asked(faces="1,2")


def test_a_table_of_other_rules_is_refused_naming_the_flag():
    rules = Rules.from_options(players=2, reading="rulebook")
    asked.check_against(rules, {"players": 2, "reading": "rulebook"})
    with pytest.raises(TableError, match="built for Go Nuts!, 2 players, target 50, rulebook reading, not --rules summary"):
        asked.check_against(rules, {"reading": "summary"})
    with pytest.raises(TableError, match="not --faces 1,3,2"):
        asked.check_against(rules, {"faces": (1, 3, 2)})


def test_webs_lists_of_games_are_read_with_one_line_refusals():
    assert asked.games_asked("2, 3", "summary") == [(2, "summary"), (3, "summary")]
    assert asked.games_asked("4,4", "rulebook,summary") == [(4, "rulebook"), (4, "summary")]
    with pytest.raises(GonutsError, match="--players: \"5\" is not one of 2, 3, 4"):
        asked.games_asked("2,5", "rulebook")
    with pytest.raises(UsageError, match="--rules: \"house\" is not one of rulebook, summary"):
        asked.games_asked("2", "house")
    with pytest.raises(UsageError, match="an empty item"):
        asked.games_asked("2,,3", "rulebook")
