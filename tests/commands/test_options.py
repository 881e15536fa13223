"""The command line's options (solver/commands/options.py): numbers read as the page reads them (not a number
exits 2, out of range 1), paths no system can hold refused before click or the system sees them, and every failure
one line with its exit code (run)."""
from __future__ import annotations

import pytest
from test_abuse import call, one_line


@pytest.mark.parametrize("argv", [["build", "--out", "a\0b"], ["info", "\0"], ["verify", "x\0.npz"],
                                  ["plot", "win", "--out", "\0.png"], ["web", "--site", "s\0"], ["review", "g\0.json"],
                                  ["advise", "--scores", "1,2", "--table", "t\0.npz"]])
def test_a_path_with_a_nul_character_is_refused_in_one_line(argv):
    """A path that no system can hold (a NUL in it) is a usage error, said once, before click or the system sees it."""
    code, out, err = call(argv)
    one_line(code, err, want=2)
    assert "a path cannot hold a NUL character" in err and out == ""


def test_a_number_option_is_read_as_the_page_reads_numbers():
    import click

    from solver.commands.options import Bounded, Refused
    whole, real = Bounded(2, 4), Bounded(real=True, above=0.0)
    assert whole.convert(" 3 ", None, None) == 3 and real.convert("0.25", None, None) == 0.25
    with pytest.raises(click.UsageError, match="must be a whole number"):
        whole.convert("three", None, None)
    with pytest.raises(Refused, match="from 2 to 4, not 5"):
        whole.convert("5", None, None)
    with pytest.raises(Refused, match="above 0"):
        real.convert("0", None, None)


@pytest.mark.parametrize("argv, code", [(["--version"], 0), (["advise", "--scores", "x"], 2),
                                        (["advise", "--scores", "1,2", "--turn", "-1"], 1)])
def test_every_run_ends_with_its_exit_code_and_a_failure_in_one_line(argv, code):
    got, out, err = call(argv)
    assert got == code
    if code:
        one_line(got, err, want=code)
    else:
        assert out.startswith("gonuts-solve, version ")
