"""Players' names as a person sees them (solver/play/names.py, the page's page/names.js): hidden characters
removed, look-alikes the same name, a cap on the marks one letter carries, letters counted as a person counts
them, and ``review`` numbering the seats of a record whose names the page would refuse."""
from __future__ import annotations

import pytest

from solver.play.names import MARKS_MAX, NAME_MAX, clean_name, letters, name_key, table_names

INVISIBLE_INSIDE = ["\u200d", "\u200c", "\ufe0f", "\u034f", "\u00ad", "\u2060"]   # ZWJ, ZWNJ, VS16, CGJ, SHY, WJ


@pytest.mark.parametrize("hidden", INVISIBLE_INSIDE)
def test_a_name_with_an_invisible_character_inside_is_the_same_name(hidden):
    assert name_key(clean_name(f"An{hidden}n")) == name_key("Ann") == name_key("ANN")
    assert table_names(["Ann", f"An{hidden}n"], 2) == ()


def test_blank_and_invisible_names_are_no_names():
    for blank in ("\u2800", "\u2800\u2800 ", "\u200b\u200d", "\u3164", "\u0301\u0301", " \u202e "):
        assert clean_name(blank) == "", repr(blank)
    assert table_names(["\u2800", "Bo"], 2) == ()


def test_a_letter_keeps_at_most_the_marks_a_script_needs():
    zalgo = "".join("x" + "\u0301" * 200 for _ in range(20))         # no x with an acute is composed
    name = clean_name(zalgo)
    assert name == ("x" + "\u0301" * MARKS_MAX) * 20 and letters(name) == 20 == NAME_MAX
    assert clean_name("Nguy\u1ec5n") == "Nguy\u1ec5n" and clean_name("Nguye\u0302\u0303n") == "Nguy\u1ec5n"   # NFC


@pytest.mark.parametrize("name, count", [("Ann", 3), ("Zo\u00eb", 3), ("Zoe\u0308", 3), ("\U0001F468\u200d\U0001F469\u200d\U0001F467", 1),
                                         ("\U0001F1E9\U0001F1EA\U0001F1EB\U0001F1F7", 2), ("\U0001F44D\U0001F3FD", 1),
                                         ("\u2764\ufe0f", 1), ("Gro\u00dfmutter Hildegard", 20)])
def test_letters_are_counted_as_a_person_counts_them(name, count):
    assert letters(name) == count


def test_review_shows_names_the_page_would_accept_and_numbers_the_seats_otherwise():
    assert table_names([" Ann\u202e ", "Bo"], 2) == ("Ann", "Bo")
    assert table_names(["Ａｎｎ", "ann"], 2) == ()                      # look-alikes
    assert table_names(["x" * 21, "Bo"], 2) == ()                      # longer than the page allows
    assert table_names(["Ann"], 2) == () and table_names("Ann,Bo", 2) == () and table_names(["Ann", 5], 2) == ()
