"""The command line: answers match the tables, and bad input gets one line and a non-zero exit. Through it, the
commands' modules (solver/commands/: cli, asked, options, text) and the verify command (solver/store/verify.py)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
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


def run_here(*args, cache=None, env=None):
    """``run`` in this process (cli.main, stdout and stderr captured), with ``env`` added to the environment
    meanwhile: the same exit code and output without the interpreter's start-up, for tables of many refusals."""
    import contextlib
    import io

    import cli
    out, err = io.StringIO(), io.StringIO()
    env = {k: str(v) for k, v in (env or {}).items()}
    saved = {k: os.environ.get(k) for k in ("GONUTS_SOLVE_CACHE", "GONUTS_DEBUG", *env)}
    if cache is not None:
        os.environ["GONUTS_SOLVE_CACHE"] = str(cache)
    os.environ.pop("GONUTS_DEBUG", None)
    os.environ.update(env)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                cli.main([str(a) for a in args])
                code = 0
            except SystemExit as exc:
                code = exc.code
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


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


@pytest.mark.parametrize("scores", ["23,31", "12,30,41"])
def test_advise_imports_neither_numpy_nor_the_solver(scores):
    """The README's claim: advise answers from the shipped tables without numpy, scipy or the engine."""
    code = ("import sys, cli\n"
            f"try:\n    cli.main(['advise', '--scores', '{scores}', '--turn', '7', '--dice', '3'])\n"
            "except SystemExit as e:\n    assert e.code == 0, e.code\n"
            "heavy = [m for m in ('numpy', 'numba', 'scipy', 'solver.engine.solve', 'solver.engine.kernels') if m in sys.modules]\n"
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


@pytest.mark.slow
def test_other_rules_are_built_on_demand_and_cached(cache):
    args = ("advise", "--scores", "5,9", "--turn", "2", "--dice", "4", "--rules", "summary", "--target", "15",
            "--speed", "2", "--json")
    first = run(*args, cache=cache, check_ok=True)
    assert "building" in first.stderr
    assert list(cache.glob("gonuts-2p-t15-summary-speed2.npz"))
    second = run(*args, cache=cache, check_ok=True)
    assert second.stderr == "" and json.loads(second.stdout) == json.loads(first.stdout)


def test_a_smaller_target_is_read_off_a_larger_table_with_no_solve(cache, tmp_path):
    """The shipped table to 50 answers the game to 15 at once (its corner), said in one line, then cached; the
    file build writes for it is the one a solve writes (its checksum), and info says where it came from."""
    args = ("advise", "--scores", "5,9", "--turn", "2", "--dice", "4", "--rules", "summary", "--target", "15",
            "--json")
    first = run(*args, cache=cache, check_ok=True)
    assert first.stderr == ("Go Nuts!, 2 players, target 15, summary reading: from the table to 50 "
                            "(gonuts-2p-t50-summary.npz), with no solve\n")
    second = run(*args, cache=cache, check_ok=True)
    assert second.stderr == "" and json.loads(second.stdout) == json.loads(first.stdout)
    p = run("build", "--target", "15", "--rules", "summary", "--out", tmp_path / "t.npz", "--json", cache=cache,
            check_ok=True)
    summary = json.loads(p.stdout)
    assert summary["corner_of"] == 50 and summary["converged"] and p.stderr == ""
    from solver.engine.solve import solve
    from solver.game.rules import Rules
    from solver.game.turn import turn_model
    from solver.store import tables
    r = solve(turn_model(Rules.from_options(target=15, reading="summary")), 2, 15)
    arrays = {"start_win": r.start_win, "roll": r.roll, "roll_win": r.roll_win, "stop_win": r.stop_win,
              "nuts_payout": tables.load(tmp_path / "t.npz").arrays["nuts_payout"]}
    assert tables.load(tmp_path / "t.npz").meta["checksum"] == tables.checksum(arrays)
    text = run("build", "--target", "15", "--rules", "summary", "--out", tmp_path / "u.npz", cache=cache).stdout
    assert "from the table to 50, with no solve" in text and "solved in" not in text
    assert "read off the table to 50 (no solve)" in run("info", tmp_path / "t.npz", check_ok=True).stdout


@pytest.mark.slow
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


# The README's rule: 2 when the command line cannot be read (unknown command or option, missing
# argument, a value not of its option's type or choices, options that conflict); 1 when a readable
# value is refused (out of range, wrong count, rules that make no game, impossible state, bad table).
MISTAKES = [
    (("advise", "--scores", "50,3"), 1),
    (("advise", "--scores", "-1,3"), 1),
    (("advise", "--scores", "3"), 1),
    (("advise", "--scores", "1,2,3,4,5"), 1),
    (("advise", "--scores", "1,2,3", "--players", "2"), 1),
    (("advise", "--scores", "a,b"), 2),
    (("advise", "--scores", "3,4", "--dice", "0"), 1),
    (("advise", "--scores", "3,4", "--dice", "6"), 1),
    (("advise", "--scores", "3,4", "--dice", "x"), 2),
    (("advise", "--scores", "3,4", "--turn", "-2"), 1),
    (("advise", "--scores", "3,4", "--faces", "2,3"), 1),
    (("advise", "--scores", "3,4", "--faces", "0,3,1"), 1),
    (("advise", "--scores", "3,4", "--dog", "0,6"), 1),
    (("advise", "--scores", "3,4", "--speed", "-1"), 1),
    (("advise", "--scores", "3,4", "--speed", "fast"), 2),
    (("advise", "--scores", "3,4", "--players", "9"), 1),
    (("advise", "--scores", "3,4", "--rules", "house"), 2),
    (("advise", "--scores", "3,4", "--table", "/nonexistent/table.npz"), 1),
    (("advise", "--scores", "3,4", "--table", str(SHIPPED2), "--rules", "summary"), 1),
    (("advise", "--scores", "3,4", "--table", str(SHIPPED2), "--target", "40"), 1),
    (("advise", "--scores", "3,4", "--table", str(SHIPPED2), "--players", "3"), 1),
    (("advise", "--scores", "1,2,3", "--table", str(SHIPPED2)), 1),
    (("advise", "--scores", "3,4", "--game", "pig", "--faces", "1,1,1"), 2),
    (("advise", "--scores", "3,4", "--game", "pig", "--dice", "3"), 1),
    (("advise",), 2),
    (("advise", "--scores", "3,4", "--frobnicate"), 2),
    (("build", "--players", "5"), 1),
    (("build", "--players", "9"), 1),
    (("build", "--players", "two"), 2),
    (("build", "--target", "0"), 1),
    (("build", "--target", "10", "--out", "/nonexistent/dir/t.npz"), 1),
    (("info", "/nonexistent.npz"), 1),
    (("info", str(ROOT / "README.md")), 1),
    (("info",), 2),
    (("verify", "/nonexistent.npz"), 1),
    (("evaluate", "--policies", "optimal"), 1),
    (("evaluate", "--policies", "optimal,hold:0"), 1),
    (("evaluate", "--policies", "optimal,frob"), 1),
    (("simulate", "--policies", "hold:20,hold:20", "--games", "0"), 1),
    (("simulate", "--policies", "hold:20,hold:20", "--games", "many"), 2),
    (("fair", "--players", "7"), 1),
    (("fair", "--head-starts", "x"), 2),
    (("review", "/nonexistent.json"), 1),
    (("web", "--players", "9"), 1),
    (("frobnicate",), 2),
]


@pytest.mark.parametrize("args, code", MISTAKES, ids=lambda v: " ".join(v) if isinstance(v, tuple) else str(v))
def test_bad_input_gets_one_line_and_the_rules_exit_code(args, code, cache):
    p = run_here(*args, cache=cache)
    assert_one_line_error(p)
    assert p.returncode == code, p.stderr


@pytest.mark.parametrize("args, code", MISTAKES[::9], ids=lambda v: " ".join(v) if isinstance(v, tuple) else str(v))
def test_the_same_mistakes_in_a_real_process(args, code, cache):
    """run_here is faithful: a sample of the table through the real interpreter gives the same."""
    p, q = run(*args, cache=cache), run_here(*args, cache=cache)
    assert (p.returncode, p.stdout, p.stderr) == (q.returncode, q.stdout, q.stderr)



@pytest.mark.slow
def test_long_work_reports_progress_when_stderr_is_not_a_terminal(tmp_path):
    """Piped stderr: a line at least every GONUTS_SOLVE_PROGRESS_EVERY seconds, one at the end, no stray label."""
    env = {**os.environ, "GONUTS_SOLVE_PROGRESS_EVERY": "0.2", "GONUTS_SOLVE_CACHE": str(tmp_path / "cache")}
    p = subprocess.run([sys.executable, "-m", "cli", "build", "--players", "3", "--target", "40", "--speed", "2", "--out",
                        str(tmp_path / "t.npz")], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    lines = p.stderr.splitlines()
    assert any(line.startswith("solving: ") and "% after" in line for line in lines), p.stderr
    assert [line for line in lines if line.startswith("solving")][-1].startswith("solving: done in"), p.stderr
    assert "solving" not in [line.strip() for line in lines]


def test_corrupted_table_is_refused(tmp_path):
    bad = tmp_path / "bad.npz"
    data = bytearray(SHIPPED2.read_bytes())
    data[len(data) // 2] ^= 0x55
    bad.write_bytes(bytes(data))
    assert_one_line_error(run("advise", "--scores", "3,4", "--table", bad))
    assert_one_line_error(run("info", bad))


@pytest.mark.parametrize("cmd", ["", "build", "advise", "info", "verify", "evaluate", "simulate", "simple-rules", "plot"])
def test_help(cmd):
    p = run(*([cmd] if cmd else []), "--help", check_ok=True)
    assert "Usage" in p.stdout


@pytest.mark.slow
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


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["boundary", "win", "payout"])
def test_plots_are_written(kind, tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / f"{kind}.png"
    p = run("plot", kind, "--out", out, check_ok=True)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 5000
    assert f"wrote {out}" in p.stdout
    assert not [q for q in tmp_path.iterdir() if q.name.startswith(".")]


@pytest.mark.slow
def test_plot_refuses_unknown_formats_and_kinds(tmp_path):
    assert_one_line_error(run("plot", "win", "--out", tmp_path / "x.jpg"))
    assert_one_line_error(run("plot", "pie"))


def test_stopping_threshold_matches_the_decisions():
    from solver.lab.policies import TablePolicy
    from solver.store.tables import load
    z = _shipped()
    thr = TablePolicy(load(SHIPPED2)).thresholds().stop_at
    for s0, s1, n in [(0, 0, 3), (20, 35, 1), (10, 45, 5), (30, 10, 4)]:
        t = thr[s0, s1, n - 1]                       # n dice live at index n - 1
        assert t == 50 - s0 or not z["roll"][s0, s1, t, n]
        assert all(z["roll"][s0, s1, u, n] for u in range(1 if n == 5 else 0, min(t, 50)))


@pytest.mark.slow
def test_evaluate_json_and_both_orders():
    out = json.loads(run("evaluate", "--policies", "optimal,optimal", "--both-orders", "--json", check_ok=True).stdout)
    z = _shipped()
    assert out["win"] == pytest.approx(list(z["start_win"][0, 0]), abs=1e-12)
    assert out["win_both_orders"] == pytest.approx([0.5, 0.5], abs=1e-12)
    assert 5 < out["expected_turns"] < 40
    text = run("evaluate", "--policies", "optimal,hold:20", check_ok=True).stdout
    assert "seat 2" in text and "expected game length" in text


@pytest.mark.slow
def test_user_callable_policy_matches_the_builtin_rule(tmp_path):
    f = tmp_path / "mine.py"
    f.write_text("def cautious(scores, turn, dice):\n    return turn < 12\n")
    mine = json.loads(run("evaluate", "--policies", f"optimal,{f}:cautious", "--json", check_ok=True).stdout)
    ref = json.loads(run("evaluate", "--policies", "optimal,hold:12", "--json", check_ok=True).stdout)
    assert mine["win"] == pytest.approx(ref["win"], abs=1e-14)


@pytest.mark.slow
def test_simulate_json_is_seeded():
    args = ("simulate", "--policies", "hold:15,maxpoints", "--games", "3000", "--seed", "5", "--json")
    a = json.loads(run(*args, check_ok=True).stdout)
    b = json.loads(run(*args, check_ok=True).stdout)
    assert a["win"] == b["win"] and len(a["stderr"]) == 2 and sum(a["win"]) == pytest.approx(1.0)
    ev = json.loads(run("evaluate", "--policies", "hold:15,maxpoints", "--json", check_ok=True).stdout)
    assert all(abs(w - e) < 3 * s for w, e, s in zip(a["win"], ev["win"], a["stderr"]))


@pytest.mark.slow
def test_simple_rules_never_beat_optimal_with_two_players(cache):
    p = run("simple-rules", "--target", "15", "--json", cache=cache, check_ok=True)
    out = json.loads(p.stdout)
    for key in ("hold", "hold_dice", "per_dice", "maxpoints"):
        assert out[key]["gives_up"] >= -1e-12, key
    assert out["per_dice"]["gives_up"] <= out["hold"]["gives_up"] + 1e-12
    assert out["per_dice"]["gives_up"] <= out["hold_dice"]["gives_up"] + 1e-12


@pytest.mark.parametrize("args", [
    ("evaluate", "--policies", "optimal,frobnicate"),
    ("evaluate", "--policies", "optimal,hold:20,hold:10", "--players", "2"),
    ("evaluate", "--policies", "optimal"),
    ("evaluate", "--policies", "hold:0,optimal"),
    ("evaluate", "--policies", "hold:51,optimal"),
    ("evaluate", "--policies", "hold:10/9,optimal"),
    ("evaluate", "--policies", "dice:1-2,optimal"),
    ("evaluate", "--policies", "optimal,no_such_module_zz:f"),
    ("evaluate", "--policies", ","),
    ("simulate", "--policies", "optimal,hold:20", "--games", "0"),
    ("simulate", "--policies", "optimal,hold:x"),
    ("simple-rules", "--table", "/nonexistent.npz"),
])
def test_strategy_bad_input(args, cache):
    assert_one_line_error(run(*args, cache=cache))


@pytest.mark.slow
def test_broken_callable_is_one_line(tmp_path):
    f = tmp_path / "bad.py"
    f.write_text("def boom(scores, turn, dice):\n    raise ValueError('no')\n"
                 "def maybe(scores, turn, dice):\n    return 'sometimes'\n")
    for fn in ("boom", "maybe", "missing"):
        assert_one_line_error(run("evaluate", "--policies", f"optimal,{f}:{fn}"))
    (tmp_path / "syntax.py").write_text("def (:\n")
    assert_one_line_error(run("evaluate", "--policies", f"optimal,{tmp_path / 'syntax.py'}:f"))


def test_version():
    from solver import __version__
    assert run("--version", check_ok=True).stdout.strip().endswith(__version__)


@pytest.mark.slow
def test_unusable_cached_table_is_rebuilt(tmp_path):
    (tmp_path / "gonuts-2p-t12-rulebook.npz").write_bytes(b"not a table")
    p = run("advise", "--scores", "3,4", "--target", "12", "--json", cache=tmp_path, check_ok=True)
    assert "unusable" in p.stderr and "making it again" in p.stderr
    assert "from the table to 50 (gonuts-2p-t50-rulebook.npz), with no solve" in p.stderr   # no solve
    assert json.loads(p.stdout)["action"] == "roll"
    assert run("info", tmp_path / "gonuts-2p-t12-rulebook.npz", check_ok=True).returncode == 0


def test_installed_command_answers_from_its_shipped_tables(tmp_path):
    """The console script of a non-editable install (CI installs one), run away from the checkout."""
    import shutil
    exe = shutil.which("gonuts-solve")
    if exe is None:
        pytest.skip("gonuts-solve is not installed on PATH")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["GONUTS_SOLVE_CACHE"] = str(tmp_path / "empty-cache")
    p = subprocess.run([exe, "advise", "--scores", "23,31", "--turn", "7", "--dice", "3", "--json"], cwd=tmp_path,
                       env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stderr == ""                                   # answered from a shipped table, nothing built
    assert json.loads(p.stdout)["win_if_roll"] == pytest.approx(_shipped()["roll_win"][23, 31, 7, 3], abs=1e-15)
    p3 = subprocess.run([exe, "advise", "--scores", "1,2,3", "--json"], cwd=tmp_path, env=env,
                        capture_output=True, text=True, timeout=120)
    assert p3.returncode == 0 and p3.stderr == "", p3.stderr


def test_build_of_a_solve_that_does_not_converge_writes_nothing_and_exits_1(tmp_path):
    """The solver's caps lowered until it cannot converge (a bug's stand-in): one line, exit 1, no table."""
    out = tmp_path / "t.npz"
    code = ("import sys; import solver.engine.solve as e; e.MAX_PI = 0; e.MAX_VI = 1; "
            "from solver.commands.cli import main; main(sys.argv[1:])")
    p = subprocess.run([sys.executable, "-W", "ignore", "-c", code, "build", "--target", "8", "--speed", "1.5", "--out", str(out)],
                       capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert p.returncode == 1, p.stderr
    last = p.stderr.strip().splitlines()[-1]
    assert last.startswith("gonuts-solve: error: the solve of Go Nuts!, 2 players, target 8") and \
        "did not converge (residual" in last and p.stderr.count("error:") == 1, p.stderr
    assert "Traceback" not in p.stderr and not out.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("speed", ["inf", "1e309"])
def test_a_speed_past_the_doubles_is_a_usage_error_like_inf(tmp_path, speed):
    p = subprocess.run([sys.executable, str(ROOT / "cli.py"), "build", "--speed", speed, "--out",
                        str(tmp_path / "t.npz")], capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "--speed must be" in p.stderr, p.stderr
    assert not (tmp_path / "t.npz").exists()
