"""The library's errors and how a refusal repeats a value (solver/errors.py): as the page's JSON.stringify writes it,
cut short, so that the page and the command line say the same and a hostile value never makes a long message."""
from __future__ import annotations

import pytest

from solver.errors import (
    SHOWN,
    CompileError,
    GonutsError,
    RulesError,
    StateError,
    TableError,
    UsageError,
    one_line,
    show,
)


def test_a_value_is_shown_as_json_stringify_writes_it():
    assert show("house") == '"house"'
    assert show(3) == "3" and show(2.5) == "2.5" and show(1e21) == "1e+21" and show(-0.0) == "0"
    assert show(True) == "true" and show(None) == "null"
    assert show([1, "a", None]) == '[1,"a",null]' and show({"k": [2]}) == '{"k":[2]}'
    # a number that is not finite is named, as the page's String(x) names it; inside a list JSON's null stays
    assert show(float("nan")) == "NaN" and show(float("inf")) == "Infinity" and show(float("-inf")) == "-Infinity"
    assert show([float("nan"), 1]) == "[null,1]"
    assert show('a"b\n') == '"a\\"b\\n"'


def test_a_long_value_is_cut_and_its_length_said():
    text = show("x" * 10_000)
    assert text.startswith('"xxx') and text.endswith("... (10002 characters)")
    assert len(text) < SHOWN + 30


def test_every_refusal_is_a_gonuts_error_and_a_message_is_one_line():
    for kind in (RulesError, TableError, CompileError, StateError, UsageError):
        assert issubclass(kind, GonutsError)
    assert one_line("first\nsecond  line") == "first second line"
    long = one_line("a " + "y" * 500 + " " + "z " * 400)
    assert "\n" not in long and len("gonuts-solve: error: " + long) <= 300 and long.endswith("...")
    assert "y" * 60 + "..." in long and "y" * 61 not in long                  # a pasted run is cut to 60
    with pytest.raises(GonutsError):
        raise TableError("x")
