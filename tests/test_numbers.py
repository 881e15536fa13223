"""Numbers as a person types them (solver/numbers.py): ASCII digits only, a range said in words, a number too long
refused before it is converted; and the fixture the page's reader is held to (numbers.js, under Node) still says
what Python says."""
from __future__ import annotations

import json

import number_fixtures
import pytest

from solver.errors import GonutsError, UsageError
from solver.numbers import MAX_DIGITS, env_real, env_whole, real, whole, wholes


def test_a_whole_number_is_ascii_digits_with_blanks_around():
    assert whole(" 007\t", "--turn") == 7 and whole("0", "--turn") == 0
    for text in ("+3", "2_3", "٢٣", "３", "3.0", "", "0x10", "1e3"):
        with pytest.raises(UsageError, match="--turn must be a whole number"):
            whole(text, "--turn")


def test_a_range_is_said_in_words_and_a_minus_is_out_of_range_not_a_typo():
    with pytest.raises(GonutsError, match="--turn must be at least 0, not -3"):
        whole("-3", "--turn")
    with pytest.raises(GonutsError, match="--players must be from 2 to 4, not 5"):
        whole("5", "--players", 2, 4)
    with pytest.raises(GonutsError, match=f"not a number of {MAX_DIGITS + 1} digits"):
        whole("9" * (MAX_DIGITS + 1), "--seed", 0, None)


def test_lists_have_no_empty_field_and_the_count_asked_for():
    assert wholes("1, 2,3", "--scores") == [1, 2, 3]
    with pytest.raises(UsageError, match="none empty"):
        wholes("5,,3", "--scores")
    with pytest.raises(GonutsError, match="must be 3 comma-separated whole numbers, not 2"):
        wholes("2,3", "--faces", 3)


def test_a_real_number_is_a_finite_decimal():
    assert real("0.5", "--speed") == 0.5 and real("1e-12", "--tol") == 1e-12 and real(".5", "x") == 0.5
    for text in ("nan", "inf", "0x1p3", "1,5"):
        with pytest.raises(UsageError):
            real(text, "--speed")
    with pytest.raises(GonutsError, match="finite"):
        real("1e999", "--speed")
    with pytest.raises(GonutsError, match="above 0"):
        real("0", "--tol", above=0.0)


def test_environment_variables_are_read_the_same_way(monkeypatch):
    monkeypatch.setenv("GONUTS_TEST_N", " 12 ")
    assert env_whole("GONUTS_TEST_N", 3, 1, 16) == 12
    monkeypatch.setenv("GONUTS_TEST_N", "")
    assert env_whole("GONUTS_TEST_N", 3, 1, 16) == 3
    monkeypatch.setenv("GONUTS_TEST_N", "99")
    with pytest.raises(GonutsError, match="environment: GONUTS_TEST_N must be from 1 to 16"):
        env_whole("GONUTS_TEST_N", 3, 1, 16)
    monkeypatch.setenv("GONUTS_TEST_X", "2.5")
    assert env_real("GONUTS_TEST_X", 1.0, above=0.0) == 2.5


def test_the_number_fixture_still_says_what_python_says():
    fixture = json.loads(number_fixtures.FIXTURE.read_text(encoding="utf-8"))
    assert fixture["cases"] == number_fixtures.cases()
