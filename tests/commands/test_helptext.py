"""Every command's help text (solver/commands/helptext.py), as data: each command of the command line has one and
says it in --help, so that ``python -OO`` (which strips docstrings) still helps, and each says what the --rules flag
sets where the command has it."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from solver.commands.cli import cli
from solver.commands.helptext import HELP

ROOT = Path(__file__).resolve().parent.parent.parent


def test_every_command_has_its_text_and_says_it():
    assert set(HELP) == {"gonuts-solve"} | set(cli.commands)
    runner = CliRunner()
    for name in cli.commands:
        out = " ".join(runner.invoke(cli, [name, "--help"]).output.split())     # click rewraps lines
        first = " ".join(HELP[name].splitlines()[0].split())
        assert first in out, name
        if any(p.opts == ["--rules"] for p in cli.commands[name].params):
            assert "Reading of the rules" in out or "readings of the rules" in out.lower(), name


def test_help_survives_python_minus_oo():
    p = subprocess.run([sys.executable, "-OO", "-m", "cli", "advise", "--help"], cwd=ROOT, capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0 and HELP["advise"].splitlines()[0] in p.stdout
