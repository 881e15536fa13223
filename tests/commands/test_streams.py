"""The command line's streams as a shell can hand them over: closed, full, undecodable, hostile text."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX shells and /dev/full")
CLI = f"{sys.executable} -m cli"
ADVISE = "advise --scores 23,31 --turn 7 --dice 3"


def sh(script, **kw):
    """One bash line, in the checkout, with this Python's CLI as $CLI."""
    env = {**os.environ, "CLI": CLI, **kw.pop("env", {})}
    return subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
                          **kw)


def test_a_closed_stdout_is_refused_before_any_work_and_exits_1(tmp_path):
    p = sh(f"$CLI build --target 12 --out {tmp_path / 't.npz'} >&-")
    assert p.returncode == 1 and p.stderr.strip() == (
        "gonuts-solve: error: standard output is closed: there is nowhere to write the answer")
    assert not (tmp_path / "t.npz").exists()


def test_a_full_stdout_is_one_line_and_exit_1():
    p = sh(f"$CLI {ADVISE} --json > /dev/full")
    assert p.returncode == 1 and p.stderr.strip() == (
        "gonuts-solve: error: cannot write the answer to standard output: No space left on device")
    p = sh(f"$CLI {ADVISE} > /dev/full 2>&-")                  # and nothing to say it on: still exit 1
    assert p.returncode == 1 and p.stderr == ""


def test_a_closed_stderr_keeps_stdout_clean_and_the_exit_code(tmp_path):
    p = sh(f"$CLI build --target 20 --out {tmp_path / 't.npz'} --json 2>&-",
           env={"GONUTS_SOLVE_CACHE": str(tmp_path / "cache"), "GONUTS_SOLVE_PROGRESS_EVERY": "0.05"})
    assert p.returncode == 0 and json.loads(p.stdout)["rules"]["target"] == 20
    p = sh("$CLI advise --scores 23,99 --json 2>&-")
    assert p.returncode == 1 and p.stdout == ""


def test_a_closed_stdin_is_refused_by_practice():
    p = sh("$CLI practice --count 2 --seed 3 <&-")
    assert p.returncode == 2 and p.stderr.strip().splitlines() == [
        "gonuts-solve: error: practice asks its questions on standard input, which is closed; give it a terminal "
        "or a file of answers, or use --json to print the decisions"]
    assert sh("$CLI practice --count 2 --seed 3 --json <&-").returncode == 0


def test_a_terminal_that_cannot_encode_the_share_line_gets_ascii():
    p = sh("printf 'r\\n%.0s' $(seq 10) | $CLI practice --daily --date 2026-12-01",
           env={"PYTHONIOENCODING": "ascii"})
    assert p.returncode == 0, p.stderr
    share = p.stdout.strip().splitlines()[-1]
    assert share.startswith("Go Nuts! practice 2026-12-01 - ") and share.isascii()
    squares = share.rsplit(" ", 1)[-1]
    assert set(squares) <= {"#", "~", "x"} and len(squares) == 10        # right, a slip, a mistake: never "?"
    assert "~" in squares                           # this date's set has a slip when every answer is roll


def test_names_from_a_record_never_reach_the_terminal_raw(tmp_path):
    record = {"format": "gonuts-game", "version": 1, "reading": "rulebook", "players": 2, "you": 0, "mode": "table",
              "names": ["\x1b[2JAnn\r", "\x1b]0;owned\x07Bo\u202e"],
              "events": [{"seat": 0, "roll": [2, 2, 1]}, {"seat": 0, "choice": "stop"}]}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    p = sh(f"$CLI review {path} --all-seats | cat")
    assert p.returncode == 0, p.stderr
    assert not any(ch in p.stdout for ch in "\x1b\r\x07\u202e")
    # names are cleaned as the page cleans them (solver/play/names.py): their controls are gone before any printing
    assert "[2JAnn" in p.stdout and "]0;ownedBo" in p.stdout


def test_help_does_not_depend_on_docstrings():
    from solver.commands.helptext import HELP
    for name in ["", *[k for k in HELP if k != "gonuts-solve"]]:
        p = sh(f"$CLI {name} --help", env={"PYTHONOPTIMIZE": "2"})
        first = HELP[name or "gonuts-solve"].splitlines()[0]
        assert p.returncode == 0 and first[:40] in " ".join(p.stdout.split()), (name, p.stdout[:300])


@pytest.mark.parametrize("date", ["2026-W49-3", "2026-336", "20261202", "2026-12-1", "２026-12-01", "2026-12-02T00"])
def test_the_daily_date_is_only_yyyy_mm_dd(date):
    p = sh(f"$CLI practice --daily --date '{date}' --json")
    assert p.returncode == 2 and "a date is written YYYY-MM-DD" in p.stderr


def _history(tmp_path, games):
    path = tmp_path / "history.json"
    path.write_text(json.dumps({"format": "gonuts-history", "version": 1, "games": games}))
    return path


def test_a_historys_builds_are_limited_as_a_whole_before_any_build(tmp_path):
    """Six 2-player games to targets 150 to 155: each table is quick (about 4 s), the six are not (about 25 s):
    refused before any is built."""
    games = [{"format": "gonuts-game", "version": 1, "reading": "rulebook", "players": 2, "target": t, "you": 0,
              "events": []} for t in range(150, 156)]
    cache = tmp_path / "cache"
    p = sh(f"$CLI review {_history(tmp_path, games)}", env={"GONUTS_SOLVE_CACHE": str(cache)})
    assert p.returncode == 1 and p.stderr.count("\n") == 1, p.stderr
    assert p.stderr.startswith("gonuts-solve: error: game ") and "building the tables of this file takes" in p.stderr
    assert not list(cache.glob("*.npz"))


def test_every_refusal_of_a_history_names_its_game(tmp_path):
    two = {"format": "gonuts-game", "version": 1, "reading": "rulebook", "players": 2, "you": 0, "events": []}
    three = {**two, "players": 3}
    p = sh(f"$CLI review {_history(tmp_path, [three, two])} --seat 3")
    assert p.returncode == 2 and p.stderr.strip() == (
        "gonuts-solve: error: game 2: --seat 3: this game has 2 players (seats 1 to 2)")
    p = sh(f"$CLI review {_history(tmp_path, [two, {**two, 'players': 9}])}")
    assert p.returncode == 1 and p.stderr.startswith("gonuts-solve: error: game 2: ")


def test_a_shells_exit_codes_are_documented():
    guide = (ROOT / "docs" / "commands.md").read_text()
    for code in ("0", "1", "2", "3", "130", "143"):
        assert f"`{code}`" in guide.split("**Exit codes.**", 1)[1].split("\n\n", 1)[0]
    assert shutil.which("bash")
