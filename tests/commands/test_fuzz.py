"""Property-based fuzzing of the command line and the rules: never a traceback; every refusal one line
and a non-zero exit; every accepted input a valid answer."""
import contextlib
import io
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import cli
from solver.errors import TableError
from solver.store import tables

ROOT = Path(__file__).resolve().parent.parent.parent
SHIPPED = {2: ROOT / "tables" / "gonuts-2p-t50-rulebook.npz", 3: ROOT / "tables" / "gonuts-3p-t50-rulebook.npz"}
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def call(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            cli.main(list(argv))
            code = 0
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue(), err.getvalue()


def check_refusal(code, out, err):
    assert code not in (0, None, 3), (code, err)           # 3 would be an internal error
    assert "Traceback" not in err + out
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("gonuts-solve: error:"), err


@pytest.fixture(autouse=True)
def no_builds(monkeypatch, tmp_path):
    monkeypatch.setenv("GONUTS_SOLVE_CACHE", str(tmp_path / "cache"))


junk = st.text(alphabet="0123456789,-. ax", max_size=12)
number = st.integers(-5, 60).map(str)
csv = lambda v: ",".join(map(str, v))  # noqa: E731
wide_scores = st.lists(st.integers(-3, 55), min_size=0, max_size=5).map(csv)


def scores_for(players):
    valid = st.lists(st.integers(0, 49), min_size=players, max_size=players).map(csv)
    return st.one_of(valid, valid, valid, wide_scores, junk)


@settings(FUZZ, max_examples=120)
@given(players=st.sampled_from([2, 3]).flatmap(lambda n: st.tuples(st.just(n), scores_for(n))),
       turn=st.one_of(st.integers(0, 55).map(str), st.integers(0, 55).map(str), number, junk),
       dice=st.one_of(st.integers(1, 5).map(str), st.integers(1, 5).map(str), number, junk))
@pytest.mark.slow
def test_advise_never_crashes(players, turn, dice):
    players, scores = players
    argv = ["advise", "--table", str(SHIPPED[players]), "--scores", scores, "--turn", turn, "--dice", dice, "--json"]
    code, out, err = call(argv)
    event("accepted" if code == 0 else "refused")
    if code == 0:
        ans = json.loads(out)
        vals = [int(x) for x in scores.split(",")]
        assert len(vals) == players and all(0 <= v < 50 for v in vals)
        assert ans["action"] in ("roll", "stop")
        for key in ("win_if_roll", "win_if_stop"):
            assert ans[key] is None or 0.0 <= ans[key] <= 1.0
        if ans["reason"] == "optimal":
            assert (ans["action"] == "roll") == (ans["win_if_roll"] > ans["win_if_stop"])
        assert (ans["reason"] == "reaches_target") == (vals[0] + int(turn) >= 50)
    else:
        check_refusal(code, out, err)


option_values = {
    "--players": st.one_of(st.just("2"), st.integers(-1, 6).map(str), junk),
    "--target": st.one_of(st.just("50"), st.integers(-2, 60).map(str), junk),
    "--rules": st.sampled_from(["rulebook", "rulebook", "summary", "house", ""]),
    "--faces": st.one_of(st.lists(st.integers(-1, 4), min_size=0, max_size=4).map(lambda v: ",".join(map(str, v))), junk),
    "--dog": st.one_of(st.lists(st.integers(-1, 6), min_size=0, max_size=3).map(lambda v: ",".join(map(str, v))), junk),
    "--speed": st.one_of(st.floats(allow_nan=True, allow_infinity=True).map(repr), junk),
    "--game": st.sampled_from(["gonuts", "pig", "chess"]),
}


@FUZZ
@given(opts=st.dictionaries(st.sampled_from(sorted(option_values)), st.none(), max_size=4).flatmap(
    lambda d: st.fixed_dictionaries({k: option_values[k] for k in d})))
def test_advise_options_against_a_table_never_crash(opts):
    argv = ["advise", "--table", str(SHIPPED[2]), "--scores", "10,20", "--turn", "3", "--dice", "2", "--json"]
    for k, v in opts.items():
        argv += [k, v]
    code, out, err = call(argv)
    event("accepted" if code == 0 else "refused")
    if code == 0:
        assert json.loads(out)["action"] in ("roll", "stop")
    else:
        check_refusal(code, out, err)


@FUZZ
@given(players=st.one_of(st.integers(2, 4), st.integers(1, 5)), target=st.one_of(st.integers(1, 7), st.integers(-1, 7)),
       faces=st.one_of(st.tuples(st.integers(1, 3), st.integers(0, 3), st.integers(0, 3)),
                       st.tuples(*[st.integers(-1, 3)] * 3)),
       dog=st.one_of(st.tuples(st.integers(1, 2), st.integers(0, 4)), st.tuples(st.integers(-1, 2), st.integers(-1, 4))),
       speed=st.one_of(st.floats(0.1, 3.5), st.floats(-1, 3.5)),
       reading=st.sampled_from(["rulebook", "summary"]))
def test_rules_are_refused_or_solve_to_valid_tables(players, target, faces, dog, speed, reading, tmp_path_factory):
    out = tmp_path_factory.mktemp("b") / "t.npz"
    argv = ["build", "--players", str(players), "--target", str(target), "--faces", ",".join(map(str, faces)),
            "--dog", ",".join(map(str, dog)), "--speed", repr(speed), "--rules", reading, "--out", str(out), "--json"]
    code, stdout, err = call(argv)
    event("accepted" if code == 0 else "refused")
    if code != 0:
        check_refusal(code, stdout, err)
        assert not out.exists()
        return
    summary = json.loads(stdout)
    assert summary["converged"] and summary["residual"] <= 1e-12
    t = tables.load(out)
    sw = t.arrays["start_win"]
    assert np.all(sw >= 0) and np.all(sw <= 1) and np.allclose(sw.sum(-1), 1, atol=1e-12)


@FUZZ
@given(data=st.binary(max_size=400))
def test_random_files_are_refused_as_tables(data, tmp_path_factory):
    p = tmp_path_factory.mktemp("f") / "junk.npz"
    p.write_bytes(data)
    with pytest.raises(TableError):
        tables.load(p)
    code, out, err = call(["info", str(p)])
    check_refusal(code, out, err)


@FUZZ
@given(cut=st.integers(0, 10_000), flip=st.integers(0, 10_000))
def test_damaged_tables_are_refused(cut, flip, tmp_path_factory):
    src = (ROOT / "tables" / "gonuts-2p-t50-rulebook.npz").read_bytes()
    data = bytearray(src[: len(src) - 1 - cut * 97 % (len(src) - 1)])
    if flip:
        i = flip * 7919 % len(data)
        data[i] ^= 1 + flip % 255
    p = tmp_path_factory.mktemp("d") / "bad.npz"
    p.write_bytes(bytes(data))
    with pytest.raises(TableError):
        tables.load(p)


# -- game records from hypothesis: review never fails internally ----------------------------------------

_json = st.recursive(st.none() | st.booleans() | st.integers(-3, 60) | st.floats(allow_nan=False, allow_infinity=False)
                     | st.text(max_size=6),
                     lambda c: st.lists(c, max_size=4) | st.dictionaries(
                         st.sampled_from(["seat", "roll", "choice", "nuts", "banked", "x"]), c, max_size=3),
                     max_leaves=10)
_event = st.one_of(
    st.fixed_dictionaries({"seat": st.integers(0, 2), "roll": st.lists(st.integers(0, 5), min_size=3, max_size=3)}),
    st.fixed_dictionaries({"seat": st.integers(0, 2), "choice": st.sampled_from(["roll", "stop", "hold"])}),
    st.fixed_dictionaries({"seat": st.integers(0, 2), "nuts": st.integers(-1, 20)}),
    st.fixed_dictionaries({"seat": st.integers(0, 2), "banked": st.integers(-1, 60) | st.floats(0, 60)}),
    _json)
_record = st.fixed_dictionaries({
    "format": st.just("gonuts-game") | _json, "version": st.just(1) | st.just(1.0) | _json,
    "rules": st.sampled_from(["rulebook", "summary"]) | _json, "players": st.sampled_from([2, 3]) | _json,
    "you": st.integers(0, 2) | _json, "mode": st.sampled_from(["play", "coach", "table"]) | _json,
    "events": st.lists(_event, max_size=25) | _json}) | _json


@FUZZ
@given(record=_record)
def test_review_of_any_record_is_an_answer_or_one_line(record, tmp_path_factory):
    """Exit 0 or 1, never 3 (an internal error); a refusal is one line, quoting at most a short value."""
    from tests.commands.test_cli import run_here
    path = tmp_path_factory.mktemp("rec") / "game.json"
    path.write_text(json.dumps(record))
    p = run_here("review", path, "--json")
    event("accepted" if p.returncode == 0 else "refused")
    assert p.returncode in (0, 1), (p.returncode, p.stderr)
    if p.returncode:
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("gonuts-solve: error:") and len(lines[0]) < 400
