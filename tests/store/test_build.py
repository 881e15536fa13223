"""Tables you can trust: interrupted builds leave no partial table and resume to the identical result;
verify catches wrong tables; builds that cannot fit are refused."""
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from solver.errors import TableError
from solver.game.rules import Rules
from solver.store import build as builder
from solver.store import tables

ROOT = Path(__file__).resolve().parent.parent.parent
RULES4 = Rules.from_options(players=4, target=30)


@pytest.fixture(scope="module")
def reference4(tmp_path_factory):
    path = tmp_path_factory.mktemp("ref") / "ref.npz"
    builder.build(RULES4, path)
    return tables.load(path)


def _cli(*args, **kw):
    return subprocess.Popen([sys.executable, "-m", "cli", *map(str, args)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kw)


def _wait_for(path, proc, seconds=120):
    t0 = time.monotonic()
    while not path.exists():
        assert proc.poll() is None, "the build ended before its first checkpoint"
        assert time.monotonic() - t0 < seconds, "no checkpoint appeared"
        time.sleep(0.02)


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, *([signal.SIGKILL] if hasattr(signal, "SIGKILL") else [])])
def test_interrupted_build_leaves_no_table_and_resumes_identically(sig, tmp_path, reference4):
    out = tmp_path / "t4.npz"
    ckpt = tmp_path / ".t4.npz.checkpoint.npz"
    args = ("build", "--players", 4, "--target", 30, "--out", out, "--checkpoint-every", 0.1)
    proc = _cli(*args)
    _wait_for(ckpt, proc)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode != 0
    assert not out.exists()                                     # nothing under the target name
    assert "Traceback" not in err
    if sig == signal.SIGINT:
        assert proc.returncode == 130 and "--resume" in err
        assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    done = subprocess.run([sys.executable, "-m", "cli", *map(str, args), "--resume"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert not ckpt.exists()
    resumed = tables.load(out, expect=RULES4)
    for name, arr in reference4.arrays.items():
        assert np.array_equal(resumed.arrays[name], arr), name
    assert resumed.meta["checksum"] == reference4.meta["checksum"]


def test_resume_without_checkpoint_is_refused(tmp_path):
    p = subprocess.run([sys.executable, "-m", "cli", "build", "--target", "5", "--out", tmp_path / "x.npz",
                        "--resume"], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 1 and "nothing to resume" in p.stderr and len(p.stderr.splitlines()) == 1


def test_failed_write_leaves_nothing(tmp_path, monkeypatch):
    t = tables.load(ROOT / "tables" / "gonuts-2p-t50-rulebook.npz")
    out = tmp_path / "t.npz"

    def broken(fh, arrays):
        fh.write(b"PK\x03\x04 half a table")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tables, "write_npz", broken)
    with pytest.raises(TableError, match="No space"):
        tables.save(out, t.rules, dict(t.arrays), t.meta["solver"], 5)
    assert list(tmp_path.iterdir()) == []


def test_build_that_cannot_fit_is_refused_with_the_estimate(tmp_path):
    never = tmp_path / "never.npz"
    p = subprocess.run([sys.executable, "-m", "cli", "build", "--players", "4", "--target", "150", "--out",
                        str(never)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert p.returncode == 1
    assert "GiB" in p.stderr and "--force" in p.stderr and len(p.stderr.splitlines()) == 1
    assert not never.exists()


def _resave(t, path, **changes):
    arrays = {k: v.copy() for k, v in t.arrays.items()}
    for name, (index, value) in changes.items():
        arrays[name][index] = value
    tables.save(path, t.rules, arrays, t.meta["solver"], t.substates)
    return path


@pytest.mark.slow
def test_verify_passes_a_good_table_and_fails_wrong_ones(tmp_path):
    good = ROOT / "tables" / "gonuts-2p-t50-rulebook.npz"
    ok = subprocess.run([sys.executable, "-m", "cli", "verify", good, "--json"], cwd=ROOT, capture_output=True,
                        text=True)
    rep = json.loads(ok.stdout)
    assert ok.returncode == 0 and rep["ok"] and rep["value_error"] < 1e-12 and rep["disagreements"] == 0
    t = tables.load(good)
    roll = t.arrays["roll"]
    # A decision flipped where the two actions are far apart; a value nudged by 1e-6.
    rw, sw = t.arrays["roll_win"], t.arrays["stop_win"]
    gap = np.where(roll, rw - sw, -1.0)
    i = np.unravel_index(np.argmax(gap), gap.shape)
    assert gap[i] > 1e-3
    bad_policy = _resave(t, tmp_path / "flip.npz", roll=(i, False))
    bad_value = _resave(t, tmp_path / "value.npz", start_win=((20, 30), t.arrays["start_win"][20, 30] + [1e-6, -1e-6]))
    for path, field in ((bad_policy, "disagreements"), (bad_value, "value_error")):
        p = subprocess.run([sys.executable, "-m", "cli", "verify", path, "--json"], cwd=ROOT,
                           capture_output=True, text=True)
        assert p.returncode == 1
        rep = json.loads(p.stdout)
        assert not rep["ok"] and rep[field] >= (1 if field == "disagreements" else 1e-7)
        assert len(p.stderr.splitlines()) == 1 and "failed verification" in p.stderr


def test_mismatched_checkpoint_is_refused(tmp_path):
    out = tmp_path / "t.npz"
    ckpt = tmp_path / ".t.npz.checkpoint.npz"
    np.savez(ckpt, rules=np.array(json.dumps(Rules.from_options(target=9).to_dict(), sort_keys=True)), W=np.zeros((3, 2)),
             bits=np.zeros((3, 1), np.uint8), stats=np.zeros((1, 3)), layers_done=np.array(1))
    p = subprocess.run([sys.executable, "-m", "cli", "build", "--target", "9", "--out", out, "--resume"],
                       cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 1 and "does not match" in p.stderr and "Traceback" not in p.stderr
    assert not out.exists()
    other = subprocess.run([sys.executable, "-m", "cli", "build", "--target", "8", "--out", out, "--resume"],
                           cwd=ROOT, capture_output=True, text=True)
    assert other.returncode == 1 and "other rules" in other.stderr and len(other.stderr.splitlines()) == 1


def test_checkpoints_take_at_most_a_tenth_of_the_build(tmp_path, monkeypatch):
    """After a save that took c seconds the next waits max(every, 10 c); the first waits `every`."""
    clock = [0.0]
    monkeypatch.setattr(builder.time, "monotonic", lambda: clock[0])
    ckpt = builder._Checkpoint(tmp_path / "t.npz", Rules.from_options(players=2, target=5), every=1.0)
    writes = []

    def write(state):
        writes.append(clock[0])
        clock[0] += 2.0                                     # this save takes 2 s
        ckpt._last, ckpt._cost = clock[0], 2.0
    monkeypatch.setattr(ckpt, "_write", write)
    for layer in range(400):
        clock[0] += 0.125                                   # a layer takes 1/8 s
        ckpt.save({"layers_done": layer + 1})
    assert writes[0] == pytest.approx(1.0)
    assert all(b - a >= 2.0 + 20.0 - 1e-9 for a, b in zip(writes, writes[1:]))
    assert len(writes) == 3                                  # 50 s of layers and 6 s of saves
    assert builder.CHECKPOINT_EVERY >= 60
