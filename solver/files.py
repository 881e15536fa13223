"""Files: where the cache lives, sources and destinations checked before any work, atomic replacement.

A file is written to a temporary file in the destination's folder, fsynced and
renamed, so it appears under its name only when complete; whatever stops the
write (a full disk, a signal) removes the temporary file. A destination is
refused before any work unless it is missing or a regular file: a device, a
FIFO or a socket is never replaced (``/dev/null`` stays ``/dev/null``). A
source is read only if it is a regular file, so a FIFO never blocks a command.
"""
from __future__ import annotations

import contextlib
import errno
import glob
import os
import shutil
import signal
import stat
import sys
import threading
from collections.abc import Callable, Iterator
from collections.abc import Set as AbstractSet
from pathlib import Path
from types import FrameType
from typing import IO, Union

from solver.errors import GonutsError, show

StrPath = Union[str, "os.PathLike[str]"]
"""A path as callers give it: text or a ``Path``."""
Refusal = Callable[[str], Exception]
"""What a refusal is raised as: an error class (``GonutsError``, ``TableError``) or a function making one."""

NAME_MAX = 255           # bytes in one file name (Linux, macOS)
PATH_MAX = 4000          # bytes in a whole path (a little under Linux's 4096)
_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"))


def kind(mode: int) -> str:
    """What a file of this ``st_mode`` is, in words."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def reason(exc: OSError) -> str:
    """An OSError in a few words ("No space left on device")."""
    return exc.strerror or type(exc).__name__


def check_name(path: StrPath, error: Refusal = GonutsError) -> Path:
    """Refuse a path the system cannot hold: a name over NAME_MAX bytes, a path over PATH_MAX, a NUL."""
    path = Path(path)
    text = os.fsencode(path)
    if b"\0" in text:
        raise error(f"{show(str(path))}: a path cannot hold a NUL character")
    if len(text) > PATH_MAX:
        raise error(f"{show(str(path))}: the path is {len(text)} bytes long; the system allows {PATH_MAX}")
    longest = max((part for part in path.parts), key=lambda p: len(os.fsencode(p)), default="")
    if len(os.fsencode(longest)) > NAME_MAX:
        raise error(f"{show(str(path))}: a name of {len(os.fsencode(longest))} bytes; the system allows {NAME_MAX}")
    return path


def check_source(path: StrPath, what: str = "file", error: Refusal = GonutsError) -> Path:
    """Refuse, at once, a path to read that is missing or not a regular file (a FIFO would block)."""
    path = check_name(path, error)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise error(f"no {what} at {path}") from None
    except OSError as exc:
        raise error(f"cannot read {path}: {reason(exc)}") from None
    if not stat.S_ISREG(st.st_mode):
        raise error(f"{path} is {kind(st.st_mode)}, not a regular file")
    return path


def destination(out: StrPath, default_name: str, error: Refusal = GonutsError) -> Path:
    """Where ``--out`` writes: ``out`` itself, or ``out/default_name`` when ``out`` names a folder (it ends
    with a slash, or it is an existing folder)."""
    text = str(out)
    if text.endswith(("/", os.sep)) or os.path.isdir(text):
        return Path(text) / default_name
    return Path(text)


def check_destination(out: StrPath, error: Refusal = GonutsError) -> Path:
    """Refuse, before any work, a destination that cannot be written: its folder missing or not writable,
    the name too long, or a path that exists and is anything but a regular file."""
    path = check_name(out, error)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise error(f"cannot write {path}: folder {folder} does not exist")
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise error(f"cannot write {path}: {reason(exc)}") from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise error(f"cannot write {path}: it is {kind(st.st_mode)}; give the path of a regular file")
    if not os.access(folder, os.W_OK):
        raise error(f"cannot write {path}: folder {folder} is not writable")
    return path


def atomic_write(path: StrPath, write: Callable[[IO[bytes]], object], error: Refusal = GonutsError) -> None:
    """Call ``write(binary_file)`` on a temporary file beside ``path``, fsync it and rename it into place.

    Anything that stops it (an OSError such as a full disk, a signal's exception) removes the temporary
    file; an OSError becomes one ``error`` line."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise error(f"cannot write {path}: folder {folder} does not exist")
    # one name per process and thread: threads of one process writing the same table must not share it
    tmp = folder / f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp"
    try:
        with open(tmp, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        raise error(f"cannot write {path}: {reason(exc)}") from None
    finally:
        try:
            tmp.unlink()
        except OSError:
            pass
    sync_folder(folder)


def sync_folder(folder: StrPath) -> None:
    """fsync a folder, so that a rename in it survives a power cut (best effort)."""
    try:
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass


@contextlib.contextmanager
def uninterrupted() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back for a few steps that must finish together (renaming a new folder into
    the place of an old one); a signal that came meanwhile takes effect when they are done."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        held.append(signum)

    saved = {s: signal.signal(s, hold) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in saved.items():
            signal.signal(s, handler)
        if held:
            handler = saved[signal.Signals(held[0])]
            if callable(handler):
                handler(held[0], None)
            elif handler == signal.SIG_DFL:
                signal.raise_signal(held[0])


def untrusted(path: StrPath, folder: bool) -> str | None:
    """None if ``path`` may be trusted as this program's own: a folder (or with ``folder`` false, a regular
    file), not a link, owned by this user and writable by nobody else. Otherwise why not, in words. (Not
    POSIX: no owners to check, only the kind.)"""
    try:
        st = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):      # not there (a file on the way: cache_folder says so)
        return "missing"
    except OSError as exc:
        return f"{path} cannot be examined ({reason(exc)})"
    if not (stat.S_ISDIR(st.st_mode) if folder else stat.S_ISREG(st.st_mode)):
        return f"{path} is {kind(st.st_mode)}"
    if hasattr(os, "getuid"):
        me = os.getuid()
        if st.st_uid != me:
            return f"{path} belongs to user {st.st_uid}, not to you ({me})"
        if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            return f"{path} is writable by others (mode {stat.S_IMODE(st.st_mode):o})"
    return None


def cache_trusted(path: StrPath, folder: bool = True) -> str | None:
    """``untrusted`` of ``path`` inside the cache and of every folder between it and the cache's root: None
    when a file there may be read as this program's own (nobody else could have planted or changed it)."""
    root, where = cache_dir(), Path(path)
    try:
        parts = where.relative_to(root).parts
    except ValueError:
        return f"{where} is not in the cache {root}"
    for i in range(len(parts) + 1):
        level = root.joinpath(*parts[:i])
        why = untrusted(level, folder or i < len(parts))
        if why is not None:
            return why
    return None


_PRIVATE: list[Path] = []           # the private folder this process works in when the cache's root is not safe


def default_cache() -> Path:
    """Where this system keeps a user's caches, by its own convention: ``$XDG_CACHE_HOME`` (an absolute
    path) else ``~/.cache`` on Linux and other POSIX systems, ``~/Library/Caches`` on macOS,
    ``%LOCALAPPDATA%`` on Windows; then ``gonuts-solve``. A home folder that is empty or relative is never
    taken (it would put the cache at the root of the file system or under the current folder): refused."""
    if sys.platform == "win32":                                     # pragma: no cover - Windows
        local = os.environ.get("LOCALAPPDATA", "")
        if local and os.path.isabs(local):
            return Path(local) / "gonuts-solve" / "Cache"
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if sys.platform not in ("win32", "darwin") and xdg and os.path.isabs(xdg):
        return Path(xdg) / "gonuts-solve"
    home = _home()
    if sys.platform == "darwin":
        return home / "Library" / "Caches" / "gonuts-solve"
    if sys.platform == "win32":                                     # pragma: no cover - Windows
        return home / "AppData" / "Local" / "gonuts-solve" / "Cache"
    return home / ".cache" / "gonuts-solve"


def _home() -> Path:
    """The user's home folder: ``$HOME`` if absolute, else the account's (POSIX), else a refusal."""
    home = os.environ.get("HOME", "") if os.name == "posix" else str(Path.home())
    if home and os.path.isabs(home) and Path(home).parent != Path(home):
        return Path(home)
    try:
        import pwd  # deferred for start-up: only an unusable $HOME needs it
        account = pwd.getpwuid(os.getuid()).pw_dir
        if account and os.path.isabs(account) and Path(account).parent != Path(account):
            return Path(account)
    except (ImportError, KeyError, OSError):
        pass
    raise GonutsError(f"HOME is {show(home)}, not a home folder: set GONUTS_SOLVE_CACHE (or HOME) to an absolute "
                      "folder of your own")


def cache_dir() -> Path:
    """Where built tables, checked copies and the compiled kernel are kept: ``$GONUTS_SOLVE_CACHE``, else
    ``default_cache()``. A path the system cannot hold is refused in one line. A root that exists but is not
    safe (another user's, or writable by others: anything read from it could have been planted) is not
    used: this process works in a private temporary folder instead, and says so once."""
    if _PRIVATE:
        return _PRIVATE[0]
    env = os.environ.get("GONUTS_SOLVE_CACHE", "")
    root = check_name(Path(env).expanduser(), _cache_error) if env else default_cache()
    why = untrusted(root, folder=True)
    if why is None or why == "missing":
        return root
    import atexit  # deferred for start-up: only an unsafe cache needs it
    import tempfile  # deferred for start-up: only an unsafe cache needs it
    private = Path(tempfile.mkdtemp(prefix="gonuts-solve-private-"))
    atexit.register(shutil.rmtree, private, True)
    _PRIVATE.append(private)
    notice(f"the cache folder is not safe to read ({why}): working in a private temporary folder this "
           "time; set GONUTS_SOLVE_CACHE to a folder of your own")
    return private


def notice(text: str) -> None:
    """One line for the person at the terminal, on stderr if it is open (the library never fails for it)."""
    try:
        if sys.stderr is not None:
            sys.stderr.write(f"gonuts-solve: note: {text}\n")
            sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _cache_error(message: str) -> GonutsError:
    return GonutsError(f"GONUTS_SOLVE_CACHE: {message}")


def cache_folder(*parts: str) -> Path:
    """The cache folder (or a folder inside it), created if needed with mode 0700: only its owner may
    read it or plant files in it (the compiled kernel is loaded from there). One line, naming the cause, if
    it cannot be, or if a folder on the way is not safe (``cache_trusted``)."""
    root = cache_dir()
    folder = root.joinpath(*parts)
    try:
        blocker = next((p for p in [root, *root.parents] if p.exists() or p.is_symlink()), None)
        if blocker is not None and blocker != root and not blocker.is_dir():
            mode = os.stat(blocker).st_mode
            raise OSError(errno.ENOTDIR, f"{blocker} is {'a file' if stat.S_ISREG(mode) else kind(mode)}, not a folder")
        if not root.is_dir():
            root.parent.mkdir(parents=True, exist_ok=True)
        for level in [root, *[root.joinpath(*parts[:i + 1]) for i in range(len(parts))]]:
            try:
                os.mkdir(level, 0o700)
            except FileExistsError:
                if not level.is_dir():
                    raise OSError(errno.ENOTDIR, f"{level} is not a folder") from None
    except OSError as exc:
        raise GonutsError(f"cannot create the cache folder {folder}: {reason(exc)} "
                          "(set GONUTS_SOLVE_CACHE to a folder you can write)") from None
    why = cache_trusted(folder)
    if why is not None:
        raise GonutsError(f"the cache folder {folder} is not safe to use: {why}; set GONUTS_SOLVE_CACHE to a "
                          "folder of your own")
    return folder


def replace_folder(folder: Path, files: dict[str, bytes], keep: AbstractSet[str] = frozenset()) -> None:
    """Write ``files`` ({relative name: bytes}) as the whole of ``folder``, atomically: into a new folder
    beside it, then renamed into its place, so that an interruption (a signal, a full disk) leaves the old
    folder whole. The files of ``keep`` (relative names in the old folder) are carried over by hard links.
    Leftovers of interrupted runs beside it (``.NAME.gonuts-new-PID``, ``-old-PID``) are removed."""
    parent, name = folder.parent, folder.name
    for stale in parent.glob(f".{glob.escape(name)}.gonuts-*-*"):
        pid = stale.name.rpartition("-")[2]
        if stale.is_dir() and pid.isdigit() and not alive(int(pid)):
            shutil.rmtree(stale, ignore_errors=True)
    new, old = parent / f".{name}.gonuts-new-{os.getpid()}", parent / f".{name}.gonuts-old-{os.getpid()}"
    try:
        try:
            os.mkdir(new, 0o755)
            for rel, blob in files.items():
                path = new / rel
                path.parent.mkdir(parents=True, exist_ok=True)
                with open(path, "wb") as fh:
                    fh.write(blob)
                    fh.flush()
                    os.fsync(fh.fileno())
            for rel in sorted(keep):
                (new / rel).parent.mkdir(parents=True, exist_ok=True)
                try:
                    os.link(folder / rel, new / rel, follow_symlinks=False)
                except OSError:
                    shutil.copy2(folder / rel, new / rel, follow_symlinks=False)
            sync_folder(new)
            with uninterrupted():
                if folder.exists():
                    os.rename(folder, old)
                os.rename(new, folder)
            sync_folder(parent)
        except OSError as exc:
            raise GonutsError(f"--site {folder}: cannot write the site: {reason(exc)}; the old folder is "
                              "unchanged") from None
    finally:
        shutil.rmtree(new, ignore_errors=True)
        shutil.rmtree(old, ignore_errors=True)


def alive(pid: int) -> bool:
    """Whether process ``pid`` is running (so that its leftovers are not removed under it). POSIX: signal
    0 probes it; Windows (where signal 0 would be a Ctrl-C event): OpenProcess and its exit code."""
    if sys.platform == "win32":                                     # pragma: no cover - Windows
        import ctypes  # deferred for start-up: Windows only
        k32 = ctypes.windll.kernel32
        k32.OpenProcess.restype = ctypes.c_void_p                   # a HANDLE, not a C int
        handle = k32.OpenProcess(0x1000, False, pid)                # PROCESS_QUERY_LIMITED_INFORMATION
        if not handle:
            return ctypes.GetLastError() == 5                       # access denied: it exists
        try:
            code = ctypes.c_ulong()
            return bool(k32.GetExitCodeProcess(ctypes.c_void_p(handle), ctypes.byref(code))) and code.value == 259
        finally:                                                    # 259: STILL_ACTIVE
            k32.CloseHandle(ctypes.c_void_p(handle))
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True
