"""One statement of the rules for Python and the page: the shared fixtures (tests/fixtures/), run against
Python here and against the page's core under Node (``node --test tests/js``) and in Chromium (test_webpage.py).

The fixtures are the specification, written by hand: each policy name with its normalized name or the
exact refusal, each game record with where it leaves the game or the exact refusal."""
from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from solver.game.rules import Rules
from solver.play.record import RecordError, replay
from solver.site import pagegames

FIXTURES = Path(__file__).parent.parent / "fixtures"
sys.path.insert(0, str(Path(__file__).parent.parent))          # page_fixtures, the fixtures' generator
ROOT = Path(__file__).resolve().parent.parent.parent


def fixture(name):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def record_of(fx, case):
    rec = case["record"]
    if not isinstance(rec, dict):
        return rec
    rec = {**fx["defaults"], **rec}
    return {k: v for k, v in rec.items() if v is not None}


RECORDS = fixture("records.json")


@pytest.mark.parametrize("case", RECORDS["cases"], ids=[c["name"] for c in RECORDS["cases"]])
def test_the_record_rules_give_the_fixtures_state_or_refusal(case):
    record = record_of(RECORDS, case)
    if "error" in case:
        with pytest.raises(RecordError) as err:
            replay(record)
        assert str(err.value) == case["error"]
    else:
        assert replay(record).state() == case["state"]


FILES = fixture("record_files.json")["cases"]


@pytest.mark.parametrize("case", FILES, ids=[c["name"] for c in FILES])
def test_record_files_are_read_or_refused_as_the_fixture_says(case, tmp_path):
    import base64

    from solver.play.record import read_file
    path = tmp_path / "game.json"
    path.write_bytes(base64.b64decode(case["bytes"]))
    if "error" in case:
        with pytest.raises(RecordError) as err:
            read_file(path)
        assert str(err.value) == case["error"].replace("game.json", str(path))
        return
    record = read_file(path)
    if "replay_error" in case:
        with pytest.raises(RecordError) as err:
            replay(record)
        assert str(err.value) == case["replay_error"]
    elif case.get("replayed"):
        replay(record)


def test_the_pages_rolls_are_the_rules_own(tmp_path):
    """The page's data lists every roll with what game.moves says it does, and nothing else."""
    from solver.game.moves import outcome
    for name in ("rulebook", "summary"):
        data = pagegames.reading_data(name)
        rules = Rules.from_options(reading=name)
        for n in range(1, 6):
            rolls = data["rolls"][str(n)]
            assert sorted((a, s, c) for a, s, c, *_ in rolls) == sorted(
                (a, s, n - a - s) for a in range(n + 1) for s in range(n + 1 - a))
            for a, s, c, _p, kind, x, live in rolls:
                assert (kind, x, live) == outcome(rules, n, a, s, c)


@pytest.mark.source
@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_pages_core_passes_the_fixtures_under_node_on_its_own(tmp_path):
    """``node --test tests/js`` as a developer types it: no environment set up, a home of its own."""
    env = {k: v for k, v in os.environ.items() if k != "GONUTS_PAGE_DATA"}
    p = subprocess.run(["node", "--test", "tests/js"], cwd=ROOT, capture_output=True, text=True,
                       env={**env, "HOME": str(tmp_path)}, timeout=420)   # 4 players to 51: a minute
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-2000:]
    # every test written runs: at least one per test( in the sources (a loop of test( makes several), all passing
    written = sum(len(re.findall(r"^\s*test\(", f.read_text(), re.M)) for f in (ROOT / "tests" / "js").glob("*.test.*js"))
    ran, passed = (int(re.search(rf"^# {k} (\d+)$", p.stdout, re.M).group(1)) for k in ("tests", "pass"))
    assert "# fail 0" in p.stdout and ran == passed >= written >= 11, p.stdout[-2000:]


def _same(got, want, where):
    """Equal, floats within 1e-15 (a printed float64 reads back exactly; the margin is for other machines'
    last-bit rounding of a sum)."""
    if isinstance(want, float):
        assert isinstance(got, (int, float)) and abs(got - want) <= 1e-15, (where, got, want)
    elif isinstance(want, dict):
        assert got.keys() == want.keys(), where
        for k in want:
            _same(got[k], want[k], f"{where}.{k}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want)):
            _same(g, w, f"{where}[{i}]")
    else:
        assert got == want, (where, got, want)


def _planes(data: dict) -> dict:
    """Page data with each 4-player encoding's deflated bytes replaced by its inflated planes (another
    zlib may deflate the same planes to other bytes)."""
    out = json.loads(json.dumps(data))
    for g in out["games"].values():
        d = g["start_win"]
        if d["encoding"] != "f64":
            d["data"] = zlib.decompress(base64.b64decode(d["data"])).hex()
            d.pop("bytes"), d.pop("crc32")
    return out


def test_the_committed_page_fixtures_say_what_python_says(tmp_path):
    """The data and numbers node checks the core against are today's Python's, recomputed from the tables."""
    import page_fixtures
    fresh = page_fixtures.build(tmp_path)
    for name, data in fresh.items():
        committed = fixture(name)
        if name == "advice.json":
            assert len(committed["cases"]) == len(data["cases"]) >= 40
            for got, want in zip(committed["cases"], json.loads(json.dumps(data["cases"]))):
                _same(got, want, f"{want['players']}-{want['reading']} {want['scores']} {want['turn']} {want['dice']}")
        elif name == "mixed.json":
            _same(committed, json.loads(json.dumps(data)), name)
        elif name in ("practice.json", "luck.json"):
            assert len(committed["cases"]) == len(data["cases"]) >= 8
            _same(committed, json.loads(json.dumps(data)), name)
        else:
            assert _planes(committed) == _planes(data), name
