"""The practice command (solver/commands/drills.py): the question's options checked before any table is read (the
daily set takes none of the others), answers asked one by one and scored as advise scores them, and a short input
ending the set with the score so far."""
from __future__ import annotations

import datetime as dt
import json

import pytest
from test_practice import cli

from solver.commands import drills
from solver.errors import UsageError
from solver.play import practice


@pytest.mark.parametrize("args, message", [
    (["--date", "2026-12-01"], "--date names the daily set's date: give it with --daily"),
    (["--daily", "--seed", "3"], "--daily is the same 10 decisions for everyone on a date: it takes no --seed"),
    (["--daily", "--players", "3"], "it takes no --players"),
    (["--daily", "--date", "2026-13-01"], 'a date is written YYYY-MM-DD, such as 2026-12-01, not "2026-13-01"'),
    (["--daily", "--date", "2026-1-1"], "a date is written YYYY-MM-DD"),
    (["--count", "0"], "--count must be from 1 to 100, not 0"),
    (["--count", "101"], "--count must be from 1 to 100, not 101"),
    (["--seed", "4294967296"], "--seed must be from 0 to 4294967295, not 4294967296"),
    (["--players", "5"], "--players must be from 2 to 4, not 5"),
])
def test_bad_questions_are_one_line(args, message):
    p = cli("practice", *args, "--json")
    assert p.returncode in (1, 2) and p.stdout == ""
    assert len(p.stderr.strip().splitlines()) == 1 and message in p.stderr, p.stderr


def test_answers_are_asked_one_by_one_and_scored():
    want = json.loads(cli("practice", "--seed", 11, "--count", 4, "--json").stdout)["decisions"]
    answers = [d["action"][0] for d in want[:3]] + ["stop" if want[3]["action"] == "roll" else "roll"]
    p = cli("practice", "--seed", 11, "--count", 4, stdin="maybe\n" + "\n".join(answers) + "\n")
    assert p.returncode == 0, p.stderr
    assert p.stdout.count("Roll or stop? [r/s]") == 5 and "answer r (roll) or s (stop)" in p.stdout
    assert p.stdout.count("Right.") == 3 and p.stdout.count("Not quite:") == 1
    loss = 100 * abs(want[3]["win_if_roll"] - want[3]["win_if_stop"])
    assert f"Score: 3/4 right, {loss / 4:.2f} points of win probability lost per decision" in p.stdout
    assert p.stdout.count("why: with") == 4
    half = cli("practice", "--daily", "--date", "2026-12-01", stdin="r\n")
    assert half.returncode == 0 and "(no more answers)" in half.stdout and "Score: " in half.stdout
    assert "Go Nuts! practice" not in half.stdout                        # the share line only for a whole set


def test_the_question_is_checked_before_any_table_is_read():
    seed, count, players, reading, day = drills.question(None, None, None, None, False, None)
    assert 0 <= seed < 2 ** 32 and (count, players, reading, day) == (10, 2, "rulebook", None)
    daily = drills.question(None, None, None, None, True, "2026-12-01")
    assert daily == (20261201, practice.DAILY_COUNT, practice.DAILY_PLAYERS, practice.DAILY_READING, dt.date(2026, 12, 1))
    with pytest.raises(UsageError, match="it takes no --players"):
        drills.question(None, None, 3, None, True, None)
    with pytest.raises(UsageError, match="give it with --daily"):
        drills.question(None, None, None, None, False, "2026-12-01")
