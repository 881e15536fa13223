"""Files (solver/files.py): where the cache lives on each system and how it is made (for its owner only), a write
that lands whole or not at all, and names no system can hold refused."""
from __future__ import annotations

import os
import stat

import pytest

from solver import files
from solver.errors import GonutsError


def test_the_cache_folder_is_made_for_its_owner_only(tmp_path):
    os.environ["GONUTS_SOLVE_CACHE"], before = str(tmp_path / "a" / "b"), os.environ["GONUTS_SOLVE_CACHE"]
    try:
        made = files.cache_folder("kernels")
    finally:
        os.environ["GONUTS_SOLVE_CACHE"] = before
    assert stat.S_IMODE(made.stat().st_mode) == 0o700 and stat.S_IMODE(made.parent.stat().st_mode) == 0o700


def test_the_cache_follows_each_systems_convention(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(files.sys, "platform", "linux")
    assert files.default_cache() == tmp_path / "home" / ".cache" / "gonuts-solve"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert files.default_cache() == tmp_path / "xdg" / "gonuts-solve"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")           # the XDG rule: a relative one is ignored
    assert files.default_cache() == tmp_path / "home" / ".cache" / "gonuts-solve"
    monkeypatch.setattr(files.sys, "platform", "darwin")
    assert files.default_cache() == tmp_path / "home" / "Library" / "Caches" / "gonuts-solve"


@pytest.mark.parametrize("home", ["", ".", "relative/home", "/"])
def test_an_empty_or_relative_home_never_puts_the_cache_at_the_root(tmp_path, monkeypatch, home):
    import pwd
    monkeypatch.setenv("HOME", home)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(files.sys, "platform", "linux")
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: type("pw", (), {"pw_dir": str(tmp_path / "account")}))
    assert files.default_cache() == tmp_path / "account" / ".cache" / "gonuts-solve"
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: type("pw", (), {"pw_dir": "/"}))
    with pytest.raises(GonutsError, match="not a home folder: set GONUTS_SOLVE_CACHE"):
        files.default_cache()


def test_a_write_lands_whole_or_leaves_the_old_file_and_no_temporary_one(tmp_path):
    path = tmp_path / "t.bin"
    files.atomic_write(path, lambda fh: fh.write(b"first"))
    assert path.read_bytes() == b"first"

    def fails(fh):
        fh.write(b"half")
        raise OSError(28, "No space left on device")
    with pytest.raises(GonutsError, match="cannot write .*: No space left on device"):
        files.atomic_write(path, fails)
    assert path.read_bytes() == b"first" and [p.name for p in tmp_path.iterdir()] == ["t.bin"]


def test_names_no_system_can_hold_and_special_files_are_refused_before_any_work(tmp_path):
    with pytest.raises(GonutsError, match="cannot hold a NUL"):
        files.check_name("a\0b")
    with pytest.raises(GonutsError, match="a name of 300 bytes"):
        files.check_name(tmp_path / ("x" * 300))
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(GonutsError, match="is a FIFO"):
        files.check_source(tmp_path / "fifo")
    with pytest.raises(GonutsError, match="it is a FIFO"):
        files.check_destination(tmp_path / "fifo")
    with pytest.raises(GonutsError, match="folder .* does not exist"):
        files.check_destination(tmp_path / "nope" / "t.npz")
    assert files.destination(tmp_path, "t.npz") == tmp_path / "t.npz"
    assert files.destination("out/", "t.npz") == files.Path("out/t.npz")
    assert files.kind(stat.S_IFSOCK) == "a socket"


def test_two_threads_writing_one_file_at_once_do_not_share_a_temporary_file(tmp_path):
    """Both threads are inside their write at the same moment (a barrier): each must have a file of its own,
    and the file ends whole, as one of them wrote it."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from solver.files import atomic_write
    barrier = threading.Barrier(2, timeout=30)
    target = tmp_path / "t.bin"

    def write(k: int) -> None:
        def body(fh):
            fh.write(bytes([k]) * 1000)
            barrier.wait()
            fh.write(bytes([k]) * 1000)
        atomic_write(target, body)
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(write, (1, 2)))
    data = target.read_bytes()
    assert data in (bytes([1]) * 2000, bytes([2]) * 2000)
    assert [p.name for p in tmp_path.iterdir()] == ["t.bin"]
