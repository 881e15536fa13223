"""bench/sweep_equilibria.py as a long job: what it keeps is whole, a stop ends its child, one sweep at a time,
and a game read off its family's solve says what the same game solved on its own says."""
from __future__ import annotations

import fcntl
import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "bench" / "sweep_equilibria.py"


@pytest.fixture(scope="module")
def sweep() -> ModuleType:
    spec = importlib.util.spec_from_file_location("sweep_equilibria", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def line(target: int, **extra: object) -> str:
    return json.dumps({"players": 2, "reading": "summary", "speed": 1.0, "target": target, "converged": True,
                       "residual": 0.0, "iterations": 1, "searched": 0, "several": 0, "mixed": 0, "spread": 0.0,
                       "first_player_win": 0.5, "start_diff": 0.0, "seconds": 0.1, **extra})


def run(tmp_path: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), "--results", str(tmp_path / "r.jsonl"),
                           "--doc", str(tmp_path / "doc.md"), *args],
                          capture_output=True, text=True, timeout=timeout, cwd=tmp_path)


def test_a_line_cut_short_is_named_and_set_aside(sweep: ModuleType, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(line(10) + "\n" + line(11)[:40] + "\n" + line(12) + "\n")
    done = sweep.load(path)
    assert sorted(k[1] for k in done) == [10, 12]
    err = capsys.readouterr().err
    assert f"{path}:2: not a whole result" in err and len(err.strip().splitlines()) == 1


def test_a_game_that_failed_is_tried_again_up_to_a_limit(sweep: ModuleType, tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    failed = line(10, error="MemoryError")
    path.write_text(failed + "\n")
    assert sweep.load(path) == {}                                   # tried again
    path.write_text((failed + "\n") * sweep.TRIES)
    failures: dict[tuple[int, int, str, float], int] = {}
    done = sweep.load(path, failures)
    assert "error" in done[(2, 10, "summary", 1.0)]                 # given up on, and said so in the doc
    assert failures[(2, 10, "summary", 1.0)] == sweep.TRIES
    path.write_text(failed + "\n" + line(10) + "\n")
    assert "error" not in sweep.load(path)[(2, 10, "summary", 1.0)]  # a later success is what counts


def test_the_next_result_is_never_glued_onto_a_line_cut_short(sweep: ModuleType, tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(line(11) + "\n" + line(10)[:40])                # no newline: a crash mid-write
    r = run(tmp_path, "--players", "2", "--targets", "10", "--readings", "summary", "--speeds", "1")
    assert r.returncode == 0, r.stderr
    assert "r.jsonl:2: not a whole result" in r.stderr
    done = sweep.load(path)
    assert sorted(k[1] for k in done) == [10, 11] and done[(2, 10, "summary", 1.0)]["converged"] is True
    assert path.read_text().splitlines()[1] == line(10)[:40]       # the cut line kept apart, on its own line


def test_a_second_sweep_on_the_same_results_is_refused(tmp_path: Path) -> None:
    (tmp_path / "r.jsonl").write_text(line(11) + "\n")
    with (tmp_path / "r.jsonl").open("a") as lock:                     # as a sweep under way holds it
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        r = run(tmp_path, "--players", "2", "--targets", "10", "--readings", "summary", "--speeds", "1")
    assert r.returncode != 0
    assert r.stderr.strip().splitlines() == [f"another sweep is writing {tmp_path / 'r.jsonl'}; wait for it, or "
                                             "give this one --results elsewhere"]
    assert (tmp_path / "r.jsonl").read_text() == line(11) + "\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.jsonl"]           # and no lock file left anywhere


def children(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout
    return [int(x) for x in out.split()]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_stopping_the_sweep_ends_its_child_and_keeps_the_results_whole(tmp_path: Path, signum: int) -> None:
    # 3 players to 100: several seconds of solving in the child, long enough to be stopped in the middle
    path = tmp_path / "r.jsonl"
    path.write_text(line(10) + "\n")
    proc = subprocess.Popen([sys.executable, str(SCRIPT), "--results", str(path), "--doc", str(tmp_path / "d.md"),
                             "--players", "3", "--targets", "100", "--readings", "summary", "--speeds", "0.5"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    kids: list[int] = []
    while not kids and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.2)
        kids = children(proc.pid)
    assert kids, "the sweep started no solve"
    time.sleep(1.0)                                                   # the child is importing or solving
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 128 + signum, err
    deadline = time.monotonic() + 10
    while any(alive(k) for k in kids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(k) for k in kids), "the child solves on, orphaned"
    assert path.read_text() == line(10) + "\n"                        # nothing half written
    assert "Traceback" not in err


def test_a_game_read_off_its_family_says_what_it_says_solved_on_its_own(sweep: ModuleType, tmp_path: Path) -> None:
    common = ("--players", "3", "--readings", "summary", "--speeds", "0.5")
    fam = run(tmp_path, *common, "--targets", "10-30")
    assert fam.returncode == 0, fam.stderr
    alone = subprocess.run([sys.executable, str(SCRIPT), "--per-target", "--results", str(tmp_path / "p.jsonl"),
                            "--doc", str(tmp_path / "p.md"), *common, "--targets", "17,30"],
                           capture_output=True, text=True, timeout=120)
    assert alone.returncode == 0, alone.stderr
    a, b = sweep.load(tmp_path / "r.jsonl"), sweep.load(tmp_path / "p.jsonl")
    assert len(a) == 21 and len(b) == 2
    for k in b:
        assert a[k]["corner_of"] == (30 if k[1] < 30 else None) and b[k]["corner_of"] is None
        for c in ("converged", "searched", "several", "mixed", "spread", "first_player_win", "residual"):
            assert a[k][c] == b[k][c], (k, c)
    doc = (tmp_path / "doc.md").read_text()
    assert "| 3 | summary | 0.5 | 10-30 (21) | 21/21 |" in doc and "| 3 | summary | 0.5 | 30 |" in doc


def test_the_proof_by_best_response_is_kept_and_written(sweep: ModuleType, tmp_path: Path) -> None:
    r = run(tmp_path, "--prove", "--players", "2,3", "--targets", "25", "--readings", "rulebook", "--speeds", "0.5")
    assert r.returncode == 0, r.stderr
    kept = sweep.proofs(tmp_path / "r.jsonl")
    assert set(kept) == {(2, "rulebook", 0.5), (3, "rulebook", 0.5)}
    for proof in kept.values():
        assert proof["converged"] is True and abs(float(proof["gain"])) < 1e-14
    doc = (tmp_path / "doc.md").read_text()
    assert "## No seat gains by deviating" in doc
    assert "| 3 | rulebook | 0.5 | 25 | 0 | True |" in doc and "| yes |" in doc
    again = run(tmp_path, "--prove", "--players", "2,3", "--targets", "25", "--readings", "rulebook", "--speeds", "0.5")
    assert again.returncode == 0 and "proved" not in again.stdout          # kept: not solved again
