"""The command line: answers match the tables, and bad input gets one line and a non-zero exit."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
SHIPPED2 = ROOT / "tables" / "gonuts-2p-t50-rulebook.npz"


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("cache")


def run(*args, cache=None, check_ok=None):
    env = dict(os.environ)
    if cache is not None:
        env["GONUTS_SOLVE_CACHE"] = str(cache)
    env.pop("GONUTS_DEBUG", None)
    p = subprocess.run([sys.executable, "-m", "cli", *map(str, args)], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=600)
    if check_ok is True:
        assert p.returncode == 0, p.stderr
    return p


def assert_one_line_error(p):
    assert p.returncode != 0
    assert "Traceback" not in p.stderr and "Traceback" not in p.stdout
    lines = [line for line in p.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, p.stderr
    assert lines[0].startswith("gonuts-solve: error:")


def _shipped():
    z = np.load(SHIPPED2, allow_pickle=False)
    return {k: z[k] for k in ("roll", "roll_win", "stop_win", "start_win")}


def test_advise_json_matches_the_shipped_table():
    p = run("advise", "--scores", "23,31", "--turn", "7", "--dice", "3", "--json", check_ok=True)
    out = json.loads(p.stdout)
    z = _shipped()
    assert out["win_if_roll"] == pytest.approx(z["roll_win"][23, 31, 7, 3], abs=1e-15)
    assert out["win_if_stop"] == pytest.approx(z["stop_win"][23, 31, 7, 3], abs=1e-15)
    assert out["action"] == ("roll" if z["roll"][23, 31, 7, 3] else "stop")
    assert (out["action"] == "roll") == (out["win_if_roll"] > out["win_if_stop"])


def test_advise_text_names_the_action_and_both_chances():
    p = run("advise", "--scores", "45,10", "--turn", "3", "--dice", "2", check_ok=True)
    z = _shipped()
    action = "ROLL" if z["roll"][45, 10, 3, 2] else "STOP"
    assert action in p.stdout
    assert f"{100 * z['roll_win'][45, 10, 3, 2]:.2f}%" in p.stdout
    assert f"{100 * z['stop_win'][45, 10, 3, 2]:.2f}%" in p.stdout


def test_advise_says_when_stopping_reaches_the_target():
    p = run("advise", "--scores", "47,20", "--turn", "3", "--dice", "2", "--json", check_ok=True)
    out = json.loads(p.stdout)
    assert out["action"] == "stop" and out["reason"] == "reaches_target" and out["win_if_stop"] == 1.0
    p = run("advise", "--scores", "47,20", "--turn", "5", "--dice", "2", check_ok=True)
    assert "you win" in p.stdout


def test_advise_at_the_start_of_a_turn_reports_the_forced_roll():
    out = json.loads(run("advise", "--scores", "0,0", "--json", check_ok=True).stdout)
    assert out["reason"] == "forced" and out["action"] == "roll"
    assert out["win_if_roll"] == pytest.approx(_shipped()["start_win"][0, 0, 0], abs=1e-15)


def test_advise_does_not_import_the_solver_or_scipy():
    code = ("import sys, cli\n"
            "try:\n    cli.main(['advise', '--scores', '23,31', '--turn', '7', '--dice', '3'])\n"
            "except SystemExit as e:\n    assert e.code == 0, e.code\n"
            "heavy = [m for m in ('numba', 'scipy', 'solver.engine', 'solver.kernels') if m in sys.modules]\n"
            "print(heavy)\n")
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip().splitlines()[-1] == "[]"


def test_advise_three_players_reports_every_seat():
    p = run("advise", "--scores", "12,30,41", "--turn", "4", "--dice", "4", "--json", check_ok=True)
    out = json.loads(p.stdout)
    assert len(out["players_if_roll"]) == 3 and len(out["players_if_stop"]) == 3
    assert sum(out["players_if_roll"]) == pytest.approx(1.0, abs=1e-12)
    assert sum(out["players_if_stop"]) == pytest.approx(1.0, abs=1e-12)
    assert (out["action"] == "roll") == (out["win_if_roll"] > out["win_if_stop"])
    text = run("advise", "--scores", "12,30,41", "--turn", "4", "--dice", "4", check_ok=True).stdout
    assert "you" in text and "+2" in text


def test_other_rules_are_built_on_demand_and_cached(cache):
    args = ("advise", "--scores", "5,9", "--turn", "2", "--dice", "4", "--rules", "summary", "--target", "15",
            "--json")
    first = run(*args, cache=cache, check_ok=True)
    assert "building" in first.stderr
    assert list(cache.glob("gonuts-2p-t15-summary.npz"))
    second = run(*args, cache=cache, check_ok=True)
    assert second.stderr == "" and json.loads(second.stdout) == json.loads(first.stdout)


def test_build_then_info_then_advise_from_table(tmp_path):
    out = tmp_path / "pig.npz"
    p = run("build", "--game", "pig", "--target", "20", "--out", out, "--json", check_ok=True)
    summary = json.loads(p.stdout)
    assert summary["converged"] and summary["residual"] <= 1e-12 and out.exists()
    info = json.loads(run("info", out, "--json", check_ok=True).stdout)
    assert info["rules"]["game"] == "pig" and info["solver"]["converged"]
    assert info["start_win_at_zero"][0] == pytest.approx(summary["first_player_win"])
    adv = json.loads(run("advise", "--table", out, "--scores", "10,12", "--turn", "6", "--json",
                         check_ok=True).stdout)
    assert adv["action"] in ("roll", "stop")
    text = run("build", "--target", "8", "--out", tmp_path / "t8.npz", check_ok=True).stdout
    assert "residual" in text and "first player wins" in text


@pytest.mark.parametrize("args", [
    ("advise", "--scores", "50,3"),
    ("advise", "--scores", "-1,3"),
    ("advise", "--scores", "3"),
    ("advise", "--scores", "1,2,3,4,5"),
    ("advise", "--scores", "1,2,3", "--players", "2"),
    ("advise", "--scores", "a,b"),
    ("advise", "--scores", "3,4", "--dice", "0"),
    ("advise", "--scores", "3,4", "--dice", "6"),
    ("advise", "--scores", "3,4", "--turn", "-2"),
    ("advise", "--scores", "3,4", "--faces", "2,3"),
    ("advise", "--scores", "3,4", "--faces", "0,3,1"),
    ("advise", "--scores", "3,4", "--dog", "0,6"),
    ("advise", "--scores", "3,4", "--speed", "-1"),
    ("advise", "--scores", "3,4", "--table", "/nonexistent/table.npz"),
    ("advise", "--scores", "3,4", "--table", str(SHIPPED2), "--rules", "summary"),
    ("advise", "--scores", "3,4", "--table", str(SHIPPED2), "--target", "40"),
    ("advise", "--scores", "3,4", "--table", str(SHIPPED2), "--players", "3"),
    ("advise", "--scores", "1,2,3", "--table", str(SHIPPED2)),
    ("advise", "--scores", "3,4", "--game", "pig", "--faces", "1,1,1"),
    ("advise",),
    ("build", "--players", "5"),
    ("build", "--target", "0"),
    ("build", "--target", "10", "--out", "/nonexistent/dir/t.npz"),
    ("info", "/nonexistent.npz"),
    ("info", str(ROOT / "README.md")),
    ("frobnicate",),
])
def test_bad_input_gets_one_line_and_nonzero_exit(args, cache):
    assert_one_line_error(run(*args, cache=cache))


def test_corrupted_table_is_refused(tmp_path):
    bad = tmp_path / "bad.npz"
    data = bytearray(SHIPPED2.read_bytes())
    data[len(data) // 2] ^= 0x55
    bad.write_bytes(bytes(data))
    assert_one_line_error(run("advise", "--scores", "3,4", "--table", bad))
    assert_one_line_error(run("info", bad))


@pytest.mark.parametrize("cmd", ["", "build", "advise", "info"])
def test_help(cmd):
    p = run(*([cmd] if cmd else []), "--help", check_ok=True)
    assert "Usage" in p.stdout


def test_advise_four_players_on_demand_uses_packed_decisions(cache):
    args = ("advise", "--scores", "1,2,3,4", "--turn", "2", "--dice", "3", "--target", "8", "--json")
    out = json.loads(run(*args, cache=cache, check_ok=True).stdout)
    assert len(out["players_if_roll"]) == 4 and sum(out["players_if_roll"]) == pytest.approx(1.0, abs=1e-12)
    assert (out["action"] == "roll") == (out["win_if_roll"] > out["win_if_stop"])
    with np.load(next(cache.glob("gonuts-4p-t8-rulebook.npz")), allow_pickle=False) as z:
        assert "roll_bits" in z.files and "roll" not in z.files
        bits = z["roll_bits"][1, 2, 3, 4]
        roll = np.unpackbits(bits, count=8 * 6).reshape(8, 6).astype(bool)   # the documented one-liner
    assert roll[2, 3] == (out["action"] == "roll")
