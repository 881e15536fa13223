"""The command line under abuse: a private cache, refusals before any work, special files,
signals, full and read-only disks, numbers as the page reads them, short messages, a loader that trusts
nothing it did not write. Every refusal is one line with exit 1 or 2, never 3 or a traceback."""
from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_cli import run_here

from solver import files
from solver.engine import kernels
from solver.errors import GonutsError

ROOT = Path(__file__).resolve().parent.parent.parent
# Hostile environments as Linux makes them (tmpfs, mknod, /proc, signals): the wheels' other platforms
# run the rest of the fast lane.
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="hostile environments as Linux makes them")
ROOT_ONLY = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="this machine does not allow it: mknod and mount need root")


def call(argv, **env):
    """cli.main in this process (``test_cli.run_here``), with these environment variables: (code, out, err)."""
    p = run_here(*argv, env=env)
    return p.returncode, p.stdout, p.stderr


def proc(*args, env=None, timeout=300, **kw):
    return subprocess.run([sys.executable, "-m", "cli", *map(str, args)], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=timeout, **kw)


def one_line(code, err, want=1):
    assert code == want, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("gonuts-solve: error:") and len(lines[0]) <= 300, err
    return lines[0]


def last_error(code, err, want=1):
    """After work that printed its progress: exactly one error line, the last, of at most 300 characters."""
    assert code == want, err
    errors = [line for line in err.splitlines() if line.startswith("gonuts-solve:")]
    assert len(errors) == 1 and err.strip().splitlines()[-1] == errors[0] and len(errors[0]) <= 300, err
    assert "Traceback" not in err
    return errors[0]


def tables_in(folder: Path) -> list:
    return sorted(p.name for p in folder.rglob("*.npz")) if folder.exists() else []


# -- a private cache ---------------------------------------------------------------------------------

def test_the_session_cache_is_private_and_empty_at_first(private_cache):
    assert os.environ["GONUTS_SOLVE_CACHE"] == str(private_cache) == str(files.cache_dir())
    assert Path.home() / ".cache" not in private_cache.parents
    p = proc("advise", "--scores", "3,4", "--game", "pig", "--explain", env={"HOME": str(private_cache / "home")})
    assert not (private_cache / "home").exists()          # the CLI used $GONUTS_SOLVE_CACHE, not $HOME
    assert p.returncode == 1 and p.stderr.strip().splitlines()[-1].endswith("no dice to explain)")


# -- refused before any work -------------------------------------------------------------------------


def record(tmp_path, **fields):
    r = {"format": "gonuts-game", "version": 1, "reading": "rulebook", "players": 2, "you": 0, "events": [], **fields}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(r))
    return path


BEFORE_WORK = [
    (("advise", "--game", "pig", "--scores", "3,4", "--explain"), 1, "no dice to explain"),
    (("advise", "--scores", "1,2,3", "--players", "4"), 1, "expected 4 scores"),
    (("advise", "--scores", "1,2", "--players", "3", "--rules", "summary"), 1, "expected 3 scores"),
    (("advise", "--scores", "60,2", "--rules", "summary"), 1, "score 60 is outside 0..49"),
    (("advise", "--scores", "3,4", "--rules", "summary", "--dice", "7"), 1, "live dice must be from 1 to 5"),
    (("advise", "--scores", "3,4,5", "--rules", "summary", "--turn", "-1"), 1, "--turn must be at least 0"),
    (("fair", "--rules", "summary", "--head-starts", "3,x"), 2, "--head-starts must be a whole number"),
    (("fair", "--rules", "summary", "--players", "3", "--head-starts", "3"), 1, "head starts"),
]


@pytest.mark.parametrize("args, code, says", BEFORE_WORK, ids=[" ".join(a) for a, _, _ in BEFORE_WORK])
def test_a_refused_question_builds_nothing(args, code, says, tmp_path):
    got, _, err = call(args, GONUTS_SOLVE_CACHE=tmp_path / "cache")
    assert says in one_line(got, err, code)
    assert tables_in(tmp_path) == []


def test_a_strangers_record_never_starts_a_long_build(tmp_path):
    t0 = time.monotonic()
    # 3 players to 120: about 24 s to build (more than a review waits for) in 2.5 GB, which any machine that runs
    # the tests has free, even beside a 4-player sweep: the refusal is the long build's, not memory's
    code, _, err = call(["review", record(tmp_path, players=3, target=120)], GONUTS_SOLVE_CACHE=tmp_path / "cache")
    line = one_line(code, err)
    assert "gonuts-solve build --players 3 --target 120 --rules rulebook --out" in line and "--force" not in line
    code, _, err = call(["review", record(tmp_path, players=3, target=10 ** 6)], GONUTS_SOLVE_CACHE=tmp_path / "cache")
    assert "memory" in one_line(code, err) and "--force" not in err and "building it once" not in err
    assert time.monotonic() - t0 < 30 and tables_in(tmp_path) == []
    code, _, err = call(["review", record(tmp_path, reading="summary"), "--seat", 3],
                        GONUTS_SOLVE_CACHE=tmp_path / "cache")
    assert "--seat 3: this game has 2 players" in one_line(code, err, 2) and tables_in(tmp_path) == []


def test_a_small_table_for_a_record_is_built(tmp_path):
    code, out, err = call(["review", record(tmp_path, target=20, reading="summary"), "--json"],
                          GONUTS_SOLVE_CACHE=tmp_path / "cache")
    assert code == 0, err
    assert json.loads(out)["target"] == 20 and tables_in(tmp_path / "cache") == ["gonuts-2p-t20-summary.npz"]


def test_force_is_offered_only_where_it_exists(tmp_path, monkeypatch):
    from solver.engine import resources
    monkeypatch.setattr(resources, "available_memory", lambda: 1)
    code, _, err = call(["advise", "--scores", "1,2", "--target", "60"], GONUTS_SOLVE_CACHE=tmp_path / "c")
    assert "memory" in one_line(code, err) and "--force" not in err
    code, _, err = call(["build", "--target", "9", "--speed", "1.5", "--out", tmp_path / "t.npz"], GONUTS_SOLVE_CACHE=tmp_path / "c")
    assert "use --force to try anyway" in one_line(code, err) and tables_in(tmp_path) == []


# -- numbers as the page reads them, and every environment variable ----------------------------------

NUMBERS = [
    (("advise", "--scores", "٢٣,31"), 2), (("advise", "--scores", "２3,31"), 2), (("advise", "--scores", "2_3,31"), 2),
    (("advise", "--scores", "5,,3"), 2), (("advise", "--scores", "5,3,"), 2), (("advise", "--scores", "+5,3"), 2),
    (("advise", "--scores", "23,31", "--turn", "1" + "0" * 30), 1), (("advise", "--scores", "23,31", "--turn", "²"), 2),
    (("advise", "--scores", "23,31", "--dice", "٣"), 2), (("simulate", "--policies", "hold:20,hold:20", "--seed", -1), 1),
    (("simulate", "--policies", "hold:20,hold:20", "--seed", 2 ** 32), 1), (("web", "--players", "²"), 2),
    (("web", "--players", "2,,3"), 2), (("build", "--players", "３"), 2), (("build", "--speed", "nan"), 2),
    (("build", "--speed", "inf"), 2), (("build", "--speed", "1e999"), 2), (("verify", "x.npz", "--tol", "0"), 1),
    (("build", "--target", "1_0"), 2), (("fair", "--target", "٥٠"), 2), (("review", "x.json", "--seat", "-1"), 1),
]


@pytest.mark.parametrize("args, code", NUMBERS, ids=[" ".join(map(str, a)) for a, _ in NUMBERS])
def test_numbers_are_ascii_digits_as_the_page_reads_them(args, code, tmp_path):
    got, _, err = call(args, GONUTS_SOLVE_CACHE=tmp_path / "cache")
    one_line(got, err, code)
    assert tables_in(tmp_path) == []


ENVIRONMENT = [("GONUTS_SOLVE_THREADS", "²"), ("GONUTS_SOLVE_THREADS", "0"), ("GONUTS_SOLVE_THREADS", "-1"),
               ("GONUTS_SOLVE_PROGRESS_EVERY", "abc"), ("GONUTS_SOLVE_PROGRESS_EVERY", "nan"),
               ("GONUTS_SOLVE_PROGRESS_EVERY", "inf"), ("GONUTS_SOLVE_PROGRESS_EVERY", "0"),
               ("GONUTS_SOLVE_COMPILE_TIMEOUT", "nan"), ("GONUTS_SOLVE_COMPILE_TIMEOUT", "٣"),
               ("GONUTS_SOLVE_SIMD", "avx512"), ("GONUTS_SOLVE_CACHE", "/tmp/" + "x" * 300),
               ("GONUTS_SOLVE_CACHE", "/tmp/" + "/y" * 2100)]


@pytest.mark.parametrize("name, value", ENVIRONMENT, ids=[f"{n}={v[:12]}" for n, v in ENVIRONMENT])
def test_every_environment_variable_is_checked_before_any_work(name, value, tmp_path):
    env = {"GONUTS_SOLVE_CACHE": tmp_path / "cache", name: value}
    code, _, err = call(["build", "--target", "5", "--out", tmp_path / "t.npz"], **env)
    assert name in one_line(code, err) and tables_in(tmp_path) == []


def test_progress_every_as_a_number_of_seconds_is_taken(tmp_path):
    code, _, err = call(["build", "--target", "5", "--out", tmp_path / "t.npz"], GONUTS_SOLVE_CACHE=tmp_path / "c",
                        GONUTS_SOLVE_PROGRESS_EVERY="0.5", GONUTS_SOLVE_THREADS="1")
    assert code == 0, err


@pytest.mark.parametrize("args", [("web", "--players", "x" * 10_000), ("advise", "--rules", "x" * 10_000, "--scores", "1,2"),
                                  ("advise", "--scores", "9" * 10_000), ("review", "/" + "d/" * 2000 + "g.json"),
                                  ("evaluate", "--policies", "hold:" + "7" * 5000 + ",optimal"),
                                  ("info", "/no/" + "é" * 3000)], ids=lambda a: a[0])
def test_no_message_is_longer_than_300_characters(args, tmp_path):
    code, _, err = call(args, GONUTS_SOLVE_CACHE=tmp_path / "cache")
    assert code in (1, 2)
    one_line(code, err, code)


# -- files that are not files ------------------------------------------------------------------------

@pytest.fixture
def specials(tmp_path):
    """A private character device (a copy of /dev/null's numbers), a FIFO and a socket, never the real /dev."""
    import socket
    made = {"fifo": tmp_path / "fifo", "socket": tmp_path / "socket"}
    os.mkfifo(made["fifo"])
    s = socket.socket(socket.AF_UNIX)
    s.bind(str(made["socket"]))
    if os.geteuid() == 0:
        made["device"] = tmp_path / "null"
        os.mknod(made["device"], 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    yield made
    s.close()


def _as_made(path: Path, kind):
    st_ = os.lstat(path)
    return {"fifo": stat.S_ISFIFO, "socket": stat.S_ISSOCK, "device": stat.S_ISCHR}[kind](st_.st_mode)


@pytest.mark.parametrize("command", [("web", "--players", "2"), ("build", "--target", "5"), ("plot", "payout")],
                         ids=lambda c: c[0])
def test_out_never_replaces_a_device_a_fifo_or_a_socket(command, specials, tmp_path):
    for kind, path in specials.items():
        code, _, err = call([*command, "--out", path], GONUTS_SOLVE_CACHE=tmp_path / "cache")
        assert f"it is a {'character device' if kind == 'device' else kind.upper() if kind == 'fifo' else kind}" \
            in one_line(code, err).replace("FIFO (named pipe)", "FIFO"), err
        assert _as_made(path, kind), f"{kind} was replaced"
    assert tables_in(tmp_path) == []


@ROOT_ONLY
def test_a_private_device_node_survives_every_out(specials, tmp_path):
    dev = specials["device"]
    before = os.lstat(dev)
    for command in (("web", "--players", "2"), ("build", "--target", "5"), ("plot", "payout")):
        p = proc(*command, "--out", dev, env={"GONUTS_SOLVE_CACHE": str(tmp_path / "cache")})
        one_line(p.returncode, p.stderr)
    after = os.lstat(dev)
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev and after.st_ino == before.st_ino


@pytest.mark.parametrize("args", [("review", "{p}"), ("info", "{p}"), ("verify", "{p}"),
                                  ("advise", "--scores", "1,2", "--table", "{p}")], ids=lambda a: a[0])
def test_a_fifo_to_read_is_refused_at_once(args, specials):
    p = proc(*[a.format(p=specials["fifo"]) for a in args], timeout=20)      # a blocking open would time out
    assert "FIFO (named pipe), not a regular file" in one_line(p.returncode, p.stderr)


def test_out_ending_in_a_slash_is_a_folder(tmp_path):
    (tmp_path / "dir").mkdir()
    code, out, err = call(["build", "--target", "5", "--out", f"{tmp_path / 'dir'}/"], GONUTS_SOLVE_CACHE=tmp_path / "c")
    assert code == 0, err
    assert tables_in(tmp_path / "dir") == ["gonuts-2p-t5-rulebook.npz"]
    code, _, err = call(["web", "--players", "2", "--rules", "rulebook", "--out", f"{tmp_path / 'dir'}/"])
    assert code == 0 and (tmp_path / "dir" / "gonuts.html").is_file(), err
    code, _, err = call(["build", "--target", "5", "--out", f"{tmp_path / 'none'}/"], GONUTS_SOLVE_CACHE=tmp_path / "c")
    assert "folder" in one_line(code, err) and not (tmp_path / "none").exists()


def test_a_name_too_long_is_one_line(tmp_path):
    code, _, err = call(["build", "--target", "5", "--out", tmp_path / ("x" * 300 + ".npz")],
                        GONUTS_SOLVE_CACHE=tmp_path / "c")
    assert "the system allows 255" in one_line(code, err) and tables_in(tmp_path) == []


# -- full and read-only disks (small tmpfs mounts) --------------------------------------------------

@pytest.fixture
def mount(tmp_path):
    """mount(size, ro=False) -> a fresh tmpfs folder; unmounted afterwards."""
    made = []

    def make(size: str, ro: bool = False) -> Path:
        where = tmp_path / f"mnt{len(made)}"
        where.mkdir()
        opts = f"size={size},mode=0755" + (",ro" if ro else "")
        p = subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(where)], capture_output=True, text=True)
        if p.returncode != 0:
            pytest.skip(f"this machine does not allow it: mount -t tmpfs failed ({p.stderr.strip()[:80]})")
        made.append(where)
        return where
    yield make
    for where in made:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def leftovers(folder: Path) -> list:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp") or ".gonuts-" in p.name)


@ROOT_ONLY
def test_a_full_disk_while_writing_a_table_is_one_line_and_leaves_nothing(mount, tmp_path):
    disk = mount("64k")
    p = proc("build", "--target", "30", "--out", disk / "t.npz", env={"GONUTS_SOLVE_CACHE": str(tmp_path / "c")})
    assert "No space left on device" in last_error(p.returncode, p.stderr)
    assert list(disk.iterdir()) == []


@ROOT_ONLY
@pytest.mark.slow
def test_a_full_disk_at_a_checkpoint_is_one_line_and_leaves_no_temporary_file(mount, tmp_path):
    disk = mount("2m")
    p = proc("build", "--players", "4", "--target", "30", "--out", disk / "t4.npz", "--checkpoint-every", "0.05",
             env={"GONUTS_SOLVE_CACHE": str(tmp_path / "c")})
    assert "cannot save the checkpoint" in last_error(p.returncode, p.stderr) and "No space left" in p.stderr
    assert leftovers(disk) == [] and not (disk / "t4.npz").exists()


@ROOT_ONLY
def test_a_read_only_folder_is_refused_before_any_build(mount, tmp_path):
    ro = mount("1m", ro=True)
    cache = tmp_path / "cache"
    for args in (("build", "--target", "5", "--out", ro / "t.npz"), ("web", "--players", "2", "--out", ro / "p.html"),
                 ("web", "--players", "2", "--rules", "summary", "--site", ro / "site")):
        code, _, err = call(args, GONUTS_SOLVE_CACHE=cache)
        assert "not writable" in one_line(code, err), err
    assert tables_in(cache) == []


@ROOT_ONLY
def test_a_full_disk_while_writing_a_site_leaves_the_old_site_whole(mount, tmp_path):
    disk = mount("1m")
    site = disk / "site"
    code, _, err = call(["web", "--players", "2", "--rules", "rulebook", "--site", site])
    assert code == 0, err
    before = {p.name: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    code, _, err = call(["web", "--players", "2,3", "--rules", "rulebook", "--site", site])     # 3 players: 2.7 MB more
    assert "No space left on device" in last_error(code, err) and "old folder is unchanged" in err
    assert {p.name: p.read_bytes() for p in site.rglob("*") if p.is_file()} == before
    assert leftovers(disk) == []


# -- sites: written beside, renamed into place -----------------------------------------------------

def test_an_interrupted_site_write_leaves_the_old_site_and_the_rerun_takes_its_leftovers(tmp_path):
    site = tmp_path / "site"
    code, _, err = call(["web", "--players", "2", "--rules", "rulebook", "--site", site])
    assert code == 0, err
    before = sorted(p.name for p in site.rglob("*"))

    class Stops(dict):
        def items(self):
            yield from list(super().items())[:3]
            raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        files.replace_folder(site, Stops({"a": b"1", "b": b"2", "c": b"3", "d": b"4"}))
    assert sorted(p.name for p in site.rglob("*")) == before and leftovers(tmp_path) == []
    stale = tmp_path / ".site.gonuts-new-999999999"                  # a run killed outright (no pid that high)
    stale.mkdir()
    (stale / "index.html").write_text("half")
    (site / ".index.html.12345.tmp").write_text("an older version's temporary file")
    code, _, err = call(["web", "--players", "2", "--rules", "rulebook", "--site", site])
    assert code == 0, err
    assert leftovers(tmp_path) == [] and not (site / ".index.html.12345.tmp").exists()


# -- signals ---------------------------------------------------------------------------------------

def _wait_for(path: Path, p, seconds=120):
    t0 = time.monotonic()
    while not path.exists():
        assert p.poll() is None, "the build ended before its first checkpoint"
        assert time.monotonic() - t0 < seconds
        time.sleep(0.02)


@pytest.mark.slow
@pytest.mark.parametrize("signals, code", [((signal.SIGTERM,), 143), ((signal.SIGINT, signal.SIGINT), 130)],
                         ids=["SIGTERM", "two Ctrl-C"])
def test_sigterm_and_a_second_ctrl_c_keep_the_checkpoint_and_leave_no_temporary_file(signals, code, tmp_path):
    out, ckpt = tmp_path / "t4.npz", tmp_path / ".t4.npz.checkpoint.npz"
    args = ("build", "--players", 4, "--target", 30, "--out", out, "--checkpoint-every", 0.1)
    p = subprocess.Popen([sys.executable, "-m", "cli", *map(str, args)], cwd=ROOT, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    _wait_for(ckpt, p)
    for s in signals:
        p.send_signal(s)
        time.sleep(0.05)
    _, err = p.communicate(timeout=120)
    # 130 (143), or ended by that signal itself: a second one that arrives after the checkpoint is saved and
    # the exit begun meets Python's own default handler; a shell reports either as 130 (143)
    assert p.returncode in (code, 128 - code), err
    assert "--resume" in err and "Traceback" not in err and not out.exists()
    assert [q.name for q in tmp_path.iterdir() if q.name.endswith(".tmp")] == []
    done = proc(*args, "--resume")
    assert done.returncode == 0, done.stderr
    assert not ckpt.exists() and out.is_file()


# -- the kernel loader -------------------------------------------------------------------------------

def test_the_kernels_key_covers_the_compiler_version_and_the_machine(monkeypatch):
    base = kernels.library_path("/usr/bin/cc")
    monkeypatch.setattr(kernels, "compiler_version", lambda cc: "cc (Other) 99.1")
    other_compiler = kernels.library_path("/usr/bin/cc")
    monkeypatch.setattr(kernels.platform, "machine", lambda: "aarch64")
    other_machine = kernels.library_path("/usr/bin/cc")
    assert len({base, other_compiler, other_machine, kernels.library_path("/usr/bin/clang")}) == 4


@pytest.mark.slow
def test_a_kernel_anybody_could_have_written_is_never_loaded(tmp_path):
    env = {"GONUTS_SOLVE_CACHE": str(tmp_path / "cache")}
    assert proc("build", "--target", "5", "--speed", "1.5", "--out", tmp_path / "a.npz", env=env).returncode == 0
    folder = tmp_path / "cache" / "kernels"
    (lib,) = folder.iterdir()
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700 and not lib.stat().st_mode & 0o022
    os.chmod(lib, 0o666)                                          # writable by others: compiled anew
    p = proc("build", "--target", "5", "--speed", "1.5", "--out", tmp_path / "b.npz", env=env)
    assert p.returncode == 0 and "compiling" in p.stderr and not lib.stat().st_mode & 0o022, p.stderr
    os.chmod(folder, 0o777)                                       # a folder anybody can plant files in: refused
    p = proc("build", "--target", "5", "--speed", "1.5", "--out", tmp_path / "c.npz", env=env)
    line = last_error(p.returncode, p.stderr)
    assert "is not safe to use" in line and "is writable by others (mode 777)" in line and len(p.stderr.splitlines()) == 1
    assert not (tmp_path / "c.npz").exists()
    os.chmod(folder, 0o700)
    lib.write_bytes(b"not a shared library")                      # trusted, but damaged: one line
    os.chmod(lib, 0o700)
    p = proc("build", "--target", "5", "--speed", "1.5", "--out", tmp_path / "d.npz", env=env)
    assert "cannot load the compiled kernel" in last_error(p.returncode, p.stderr)


# -- the whole command line, fuzzed ------------------------------------------------------------------

HOSTILE = st.one_of(st.text(max_size=12), st.sampled_from(["٢٣", "²", "３", "2_3", "5,,3", "-1", "+2", "nan", "inf",
                                                            "1e999", "0", "1" + "0" * 40, "x" * 5000, "2,3,4", "",
                                                            "1,2", "/dev/null", "rulebook", "pig"]))
OPTIONS = {"advise": ["--scores", "--turn", "--dice", "--players", "--target", "--rules", "--faces", "--dog",
                      "--speed", "--game"],
           "build": ["--players", "--target", "--rules", "--faces", "--dog", "--speed", "--out", "--checkpoint-every"],
           "fair": ["--players", "--rules", "--target", "--head-starts"],
           "web": ["--players", "--rules", "--target", "--out"],
           "review": ["--seat"], "info": [], "simulate": ["--policies", "--games", "--seed", "--players"]}


@st.composite
def command_lines(draw):
    command = draw(st.sampled_from(sorted(OPTIONS)))
    argv = [command]
    if command in ("review", "info"):
        argv.append(draw(st.sampled_from(["/nonexistent", "/dev/null", str(ROOT / "README.md")])))
    for opt in draw(st.lists(st.sampled_from(OPTIONS[command] or ["--json"]), max_size=4, unique=True)):
        argv += [opt, draw(HOSTILE)] if opt != "--json" else [opt]
    return argv


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(command_lines())
def test_no_command_line_exits_3_or_says_more_than_one_short_line(monkeypatch, tmp_path_factory, argv):
    from solver.store import build
    monkeypatch.setattr(build, "build", lambda *a, **k: (_ for _ in ()).throw(GonutsError("fuzz: no builds")))
    monkeypatch.chdir(tmp_path_factory.mktemp("cwd"))
    code, out, err = call(argv)
    assert code != 3 and "Traceback" not in out + err, (argv, err)
    assert all(len(line) <= 300 for line in err.splitlines()), (argv, err)
    if code not in (0, None):
        assert len([line for line in err.splitlines() if line.startswith("gonuts-solve:")]) == 1, (argv, err)


# -- where the cache is, on every system ---------------------------------------------------------------


def test_a_cache_path_through_a_file_names_the_file(tmp_path):
    (tmp_path / "FILE").write_text("x")
    p = proc("build", "--target", "5", "--speed", "1.5", "--out", tmp_path / "t.npz",
             env={"GONUTS_SOLVE_CACHE": str(tmp_path / "FILE" / "sub"), "GONUTS_SOLVE_KERNEL": "compile"})
    line = one_line(p.returncode, p.stderr)
    assert "FILE is a file, not a folder" in line and "File exists" not in line
