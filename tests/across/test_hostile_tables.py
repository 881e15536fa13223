"""A stranger's table with hostile mixed decisions (or meta) is refused the same way, in one line, by every path
that reads a table: the library's loader, the numpy-free reader ``advise`` takes, ``info`` and ``advise
--table``. Each file's checksum is recomputed, as anyone can: only the checks of what it says stop it."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from solver.errors import TableError
from solver.play.advise import advise_path
from solver.store import tables

ROOT = Path(__file__).resolve().parents[2]


def forge(table: tables.Table, path: Path, rows: list[tuple[int, ...]], roll: list[float],
          **meta_changes: object) -> Path:
    """``table`` with these mixed decisions (none: no mixed arrays), its meta saying so and its checksum
    recomputed: no ``save`` check."""
    arrays = {k: v.copy() for k, v in table.arrays.items()}
    if rows:
        arrays["mixed_at"] = np.array(rows, dtype=np.int64).reshape(len(rows), table.players + 2)
        arrays["mixed_roll"] = np.array(roll, dtype=np.float64)
    meta = dict(table.meta)
    meta["schema"] = 2
    meta["equilibrium"] = {**table.meta["equilibrium"], "mixed_decisions": len(rows)}
    meta["checksum"] = tables.checksum(arrays)
    meta.update(meta_changes)
    with path.open("wb") as fh:
        tables.write_npz(fh, {"meta": np.array(json.dumps(meta, sort_keys=True)), **arrays})
    return path


def likely(table: tables.Table, scores: tuple[int, ...], t: int, n: int) -> float:
    """A probability whose likelier action is the roll bit's there."""
    return 0.75 if table.roll_at(scores, t, n) else 0.25


# rows in the 3-player game to 12 (rulebook3_small): (s0, s1, s2, turn points, dice)
A, B = (3, 5, 1, 2, 1), (4, 0, 0, 7, 2)


def variants(t: tables.Table) -> list[tuple[str, list[tuple[int, ...]], list[float], str]]:
    pa, pb = likely(t, A[:3], *A[3:]), likely(t, B[:3], *B[3:])
    return [
        ("twice", [A, A], [pa, pa], "once each"),
        ("out of order", [B, A], [pb, pa], "table order"),
        ("nan in another row", [A, B], [pa, float("nan")], "strictly between"),
        ("one", [A], [1.0], "strictly between"),
        ("no dice", [(3, 5, 1, 2, 0)], [0.5], "no decision"),
        ("six dice", [(3, 5, 1, 2, 6)], [0.5], "no decision"),
        ("turn -1", [(3, 5, 1, -1, 1)], [0.5], "no decision"),
        ("score off the board", [(12, 5, 1, 0, 1)], [0.5], "no decision"),
        ("a turn that reaches the target", [(11, 5, 1, 2, 1)], [0.5], "no decision"),
        ("the forced opening roll", [(3, 5, 1, 0, 5)], [0.3], "no decision"),
        ("the bit is not the likelier action", [A], [1 - pa], "the roll bit disagree"),
    ]


CASES = ["twice", "out of order", "nan in another row", "one", "no dice", "six dice", "turn -1",
         "score off the board", "a turn that reaches the target", "the forced opening roll",
         "the bit is not the likelier action"]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cli", *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("case", CASES)
def test_every_path_refuses_a_hostile_mix_with_the_same_line(rulebook3_small, tmp_path, case):
    _, rows, roll, why = next(v for v in variants(rulebook3_small) if v[0] == case)
    path = forge(rulebook3_small, tmp_path / "hostile.npz", rows, roll)
    with pytest.raises(TableError, match=why) as loaded:
        tables.load(path)
    with pytest.raises(TableError, match=why) as read:
        advise_path(path, A[:3], A[3], A[4])                  # the numpy-free reader
    assert str(loaded.value) == str(read.value)
    for args in (("info", str(path)), ("advise", "--table", str(path), "--scores", "3,5,1", "--turn", "2",
                                       "--dice", "1")):
        p = cli(*args)
        assert p.returncode != 0 and p.stdout == "", (args, p.stdout)
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1 and why in lines[0] and "Traceback" not in p.stderr, (args, p.stderr)


def test_a_mix_the_checks_allow_is_answered_alike_by_every_path(rulebook3_small, tmp_path):
    pa = likely(rulebook3_small, A[:3], *A[3:])
    path = forge(rulebook3_small, tmp_path / "fine.npz", [A, B], [pa, 0.5])
    assert tables.load(path).mix_at(A[:3], A[3], A[4]) == pa
    assert advise_path(path, A[:3], A[3], A[4])[0].roll_probability == pa
    p = cli("advise", "--table", str(path), "--scores", "3,5,1", "--turn", "2", "--dice", "1", "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["roll_probability"] == pa


@pytest.mark.parametrize("schema", [True, 1.0, "2"])
def test_a_schema_that_is_not_an_integer_is_refused(rulebook3_small, tmp_path, schema):
    path = forge(rulebook3_small, tmp_path / "schema.npz", [], [], schema=schema)
    with pytest.raises(TableError, match="unknown table schema"):
        tables.load(path)
    p = cli("info", str(path))
    assert p.returncode != 0 and "unknown table schema" in p.stderr and "schema True" not in p.stdout
