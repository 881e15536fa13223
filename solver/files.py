"""Files: where the cache lives, a destination checked before any work, and atomic replacement.

A file is written to a temporary file in the destination's folder, fsynced and
renamed, so it appears under its name only when complete.
"""
from __future__ import annotations

import os
from pathlib import Path

from solver.errors import GonutsError


def check_destination(out, error=GonutsError) -> Path:
    """Refuse a destination whose folder is missing or not writable, or that is a folder."""
    out = Path(out)
    folder = out.parent if str(out.parent) else Path(".")
    if not folder.is_dir():
        raise error(f"cannot write {out}: folder {folder} does not exist")
    if out.is_dir():
        raise error(f"cannot write {out}: it is a folder")
    if not os.access(folder, os.W_OK):
        raise error(f"cannot write {out}: folder {folder} is not writable")
    return out


def atomic_write(path, write, error=GonutsError) -> None:
    """Call ``write(binary_file)`` on a temporary file beside ``path``, fsync it and rename it into place."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise error(f"cannot write {path}: folder {folder} does not exist")
    tmp = folder / f".{path.name}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        raise error(f"cannot write {path}: {exc.strerror or exc}") from None
    finally:
        if tmp.exists():
            tmp.unlink()
    try:
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass


def cache_dir() -> Path:
    """Where built tables, checked copies and the compiled kernel are kept: ``$GONUTS_SOLVE_CACHE``,
    else ``~/.cache/gonuts-solve``."""
    return Path(os.environ.get("GONUTS_SOLVE_CACHE") or Path.home() / ".cache" / "gonuts-solve")
