"""Tables checked once: a file whose exact bytes passed the full check is not inflated again.

The full check (``Archive.read_table``: contract, npy headers, sizes, CRC-32
and the SHA-256 checksum of every array) inflates every member: 27 MB for the
shipped 2-player table, 40 MB for the 3-player one. One ``advise`` question
needs a handful of numbers. So after a full check the arrays' bytes are kept
in the cache, under the SHA-256 of the whole file:
``<cache>/checked/<sha256>/`` (``$GONUTS_SOLVE_CACHE``, else
``~/.cache/gonuts-solve``). A later call hashes the file (quick: docs/performance.md) and, if those bytes
were checked before, reads only the numbers it
needs from the kept copy. A file that differs in any byte has another hash
and is checked in full again, so a corrupted or altered table is refused as
before.

A kept copy is read only where nobody else could have written it
(``files.cache_trusted``: every folder from the cache's root down, and each
file, owned by this user and writable by nobody else); otherwise the table is
checked in full and nothing is kept there, said once. Pruning removes only
folders of this module's own pattern (64 hex digits) that hold its marker.
``gonuts-solve verify`` always checks in full. No numpy here.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import time
from pathlib import Path
from typing import IO, BinaryIO

from solver.errors import GonutsError, TableError
from solver.files import StrPath, atomic_write, cache_dir, cache_folder, cache_trusted, notice, untrusted
from solver.game.rules import Rules
from solver.store.contract import (
    ITEMSIZE,
    Archive,
    Member,
    Meta,
    Shape,
    array_bytes,
    check_expected,
    check_file,
    contract,
)

STAMP = "table.json"
MARK = "gonuts-solve-checked"      # written first into every folder this module makes: pruning needs it
OWN = re.compile(r"[0-9a-f]{64}")
CHUNK = 1 << 20
KEPT = 8                  # checked tables kept; the least recently used go first
HASH_FIRST_BYTES = 64 << 20   # larger files have their zip directory and headers checked before hashing


def file_digest(path: Path) -> str:
    """SHA-256 of a file's bytes, read in 1 MB chunks (a hostile file's size costs time, not memory)."""
    h = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            while True:
                block = fh.read(CHUNK)
                if not block:
                    break
                h.update(block)
    except PermissionError:
        raise TableError(f"{path}: permission denied") from None
    except OSError as exc:
        raise TableError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    return h.hexdigest()


class CheckedTable:
    """A table that passed the full check: meta, rules, and each array's dtype, shape and bytes.

    Bytes come either from the check just made (in memory) or from the cache's kept copy
    (read on demand: ``item`` seeks to one element)."""

    def __init__(self, where: str, meta: Meta, rules: Rules, headers: dict[str, tuple[str, Shape]],
                 memory: dict[str, memoryview] | None = None, folder: Path | None = None) -> None:
        self.where, self.meta, self.rules = where, meta, rules
        self.headers = headers                      # name -> (dtype, shape)
        self._memory = memory                       # name -> memoryview, or None
        self._folder = folder
        self._files: dict[str, BinaryIO] = {}

    def data(self, name: str) -> memoryview | bytes:
        """Every byte of one array (C order)."""
        if self._memory is not None:
            return self._memory[name]
        fh = self._open(name)
        fh.seek(0)
        return fh.read()

    def item(self, name: str, index: int, count: int = 1) -> bytes:
        """The bytes of elements ``index .. index + count - 1`` (flat, C order) of one array."""
        dtype, _ = self.headers[name]
        size = ITEMSIZE[dtype]
        if self._memory is not None:
            return bytes(self._memory[name][size * index:size * (index + count)])
        fh = self._open(name)
        fh.seek(size * index)
        out = fh.read(size * count)
        if len(out) != size * count:
            raise TableError(f"{self.where}: the checked copy in the cache is truncated; remove "
                             f"{self._folder} and ask again")
        return out

    def _open(self, name: str) -> BinaryIO:
        if name not in self._files:
            assert self._folder is not None, "a table in memory has no files"
            self._files[name] = open(self._folder / f"{name}.raw", "rb")
        return self._files[name]

    def close(self) -> None:
        """Close the kept copy's files (a table checked in memory has none)."""
        for fh in self._files.values():
            fh.close()
        self._files.clear()

    def __enter__(self) -> CheckedTable:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _from_cache(folder: Path, where: str) -> CheckedTable | None:
    """The kept copy under ``folder`` if it is complete and consistent, else None."""
    try:
        if any(untrusted(folder / name, folder=False) for name in os.listdir(folder)):
            return None                                # a file anybody could have written: not read
        info = json.loads((folder / STAMP).read_text())
        meta = info["meta"]
        rules, want = contract(meta, where)
        headers = {name: (dtype, tuple(shape)) for name, (dtype, shape) in want.items()}
        for name, (dtype, shape) in headers.items():
            if (folder / f"{name}.raw").stat().st_size != array_bytes(dtype, shape):
                return None
        os.utime(folder / STAMP)                       # recently used: pruned last
    except (OSError, ValueError, KeyError, TypeError, TableError):
        return None
    return CheckedTable(where, meta, rules, headers, folder=folder)


def _keep(folder: Path, meta: Meta, raw: dict[str, Member]) -> None:
    """Write the marker, the arrays' bytes, then the stamp (last, atomically): a folder without a stamp is
    ignored."""
    cache_folder("checked", folder.name)
    atomic_write(folder / MARK, lambda fh: fh.write(b"gonuts-solve: a checked copy of a table\n"))
    for name, (_, _, data) in raw.items():
        def write(fh: IO[bytes], data: memoryview = data) -> None:
            fh.write(data)
        atomic_write(folder / f"{name}.raw", write)
    stamp = json.dumps({"meta": meta}).encode()
    atomic_write(folder / STAMP, lambda fh: fh.write(stamp))
    _prune(folder.parent)


def _prune(root: Path) -> None:
    """Keep the ``KEPT`` most recently used copies (and no half-written ones older than a day). Only this
    module's folders are candidates: a name of 64 hex digits, holding its marker (or, from versions before
    the marker, its stamp). Anything else in the folder is never touched."""

    def used(f: Path) -> float:
        try:
            return (f / STAMP).stat().st_mtime
        except OSError:
            return f.stat().st_mtime if time.time() - f.stat().st_mtime < 86400 else 0.0
    own = [f for f in root.iterdir() if OWN.fullmatch(f.name) and f.is_dir() and not f.is_symlink()
           and ((f / MARK).is_file() or (f / STAMP).is_file())]
    for f in sorted(own, key=used, reverse=True)[KEPT:]:
        shutil.rmtree(f, ignore_errors=True)


def open_table(path: StrPath, expect: Rules | None = None) -> CheckedTable:
    """A table file, checked in full unless these exact bytes were checked before (see the module).

    With ``expect`` (a ``Rules``), a table built for other rules is refused."""
    path = Path(path)
    where = str(path)
    check_file(path)
    if path.stat().st_size > HASH_FIRST_BYTES:
        with Archive(path) as z:                    # a large file: its structure is checked before
            z.layout()                              # the time it takes to hash all of it is spent
    digest = file_digest(path)
    folder = cache_dir() / "checked" / digest
    why = cache_trusted(folder)
    if why not in (None, "missing"):
        notice(f"a checked copy of {path.name} in the cache is not used ({why}): checking it in full")
    table = _from_cache(folder, where) if why is None else None
    if table is None:
        with Archive(path) as z:
            meta, rules, raw = z.read_table()
        table = CheckedTable(where, meta, rules, {name: (d, s) for name, (d, s, _) in raw.items()},
                             memory={name: data for name, (_, _, data) in raw.items()})
        if file_digest(path) == digest and why in (None, "missing"):   # unchanged while it was checked
            try:
                _keep(folder, meta, raw)
            except (OSError, GonutsError):
                pass                                    # no cache: every call checks in full
    check_expected(table.rules, expect, where)
    return table


__all__ = ["CheckedTable", "file_digest", "open_table"]
