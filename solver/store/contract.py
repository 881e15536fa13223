"""The ``.npz`` table contract, and a defensive reader of table files, without numpy.

A table is a zip of ``.npy`` members (tables/README.md). Files from strangers
are hostile until checked, so ``Archive`` reads the zip directory and each
member's npy header first and checks them against the contract the table's
own ``meta`` implies (names, dtypes, shapes, sizes, a meta of at most 1 MB)
before reading any array data; a member declaring a huge array costs nothing.
Data comes back as bytes with its dtype and shape, so that ``advise`` can
answer from a table without importing numpy; ``tables.load`` wraps the same
bytes in numpy arrays.
"""
from __future__ import annotations

import ast
import hashlib
import json
import math
import struct
import zipfile
import zlib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import IO, Any

from solver.engine.bits import packed_width
from solver.errors import RulesError, TableError
from solver.files import StrPath, check_source
from solver.game.rules import Rules

SCHEMA = 2
"""Written by this version: 2 adds the ``equilibrium`` meta and, where decisions are mixed, ``mixed_at`` and
``mixed_roll``. Every schema in ``SCHEMAS`` is read."""
SCHEMAS = (1, 2)
FORMAT = "gonuts-solve table"
EQUILIBRIUM_KEYS = ("selection", "orbits_searched", "orbits_with_several", "mixed_decisions")
PACKED_FROM_PLAYERS = 4      # from this many players on, decisions are bit-packed
SOLVER_KEYS = ("tolerance", "residual", "iterations", "converged")
MAX_META_BYTES = 1_000_000
MAX_HEADER_BYTES = 65_536
KNOWN_MEMBERS = ("meta", "start_win", "roll", "roll_bits", "roll_win", "stop_win", "nuts_payout", "mixed_at",
                 "mixed_roll")
MAX_MIXED = 1_000_000        # mixed decisions a table may declare (there is at most one per orbit)
_CORRUPT = (OSError, EOFError, zipfile.BadZipFile, zlib.error, ValueError, RuntimeError, NotImplementedError,
            struct.error)
ITEMSIZE = {"<f8": 8, "|b1": 1, "|u1": 1, "<i8": 8}

Shape = tuple[int, ...]
Meta = dict[str, Any]
"""A table's ``meta``: the JSON object tables/README.md describes."""
Layout = dict[str, tuple[str, Shape]]
"""Array name -> (dtype string as numpy writes it, shape)."""
Member = tuple[str, Shape, memoryview]
"""An array as read without numpy: (dtype string, shape, its C-order bytes)."""


def expected(rules: Rules, substates: int, mixed: int = 0) -> Layout:
    """name -> (dtype string as numpy writes it, shape) that a table of these rules must hold, with ``mixed``
    decisions played mixed: ``mixed_at`` (scores in turn order, turn points, dice; one row each) and
    ``mixed_roll`` (the probability of rolling there)."""
    N, G, D = rules.players, rules.target, substates
    grid = (G,) * N
    out: Layout = {"start_win": ("<f8", grid + (N,))}
    if N >= PACKED_FROM_PLAYERS:
        out["roll_bits"] = ("|u1", grid + (packed_width(G, D),))
    else:
        out["roll"] = ("|b1", grid + (G, D + 1))
    if N == 2:
        out["roll_win"] = ("<f8", grid + (G, D + 1))
        out["stop_win"] = ("<f8", grid + (G, D + 1))
    if rules.game == "gonuts":
        out["nuts_payout"] = ("<f8", (6, G + 1))
    if mixed:
        out["mixed_at"] = ("<i8", (mixed, N + 2))
        out["mixed_roll"] = ("<f8", (mixed,))
    return out


def equilibrium_of(meta: Meta, where: str) -> Meta:
    """The ``equilibrium`` meta of a table (schema 2), checked; a schema-1 table has none and no mixed decision."""
    if meta.get("schema") == 1:
        return {"selection": None, "orbits_searched": 0, "orbits_with_several": 0, "mixed_decisions": 0}
    eq = meta.get("equilibrium")
    if not isinstance(eq, dict) or set(eq) != set(EQUILIBRIUM_KEYS) or not isinstance(eq["selection"], str) or \
            any(type(eq[k]) is not int or eq[k] < 0 for k in EQUILIBRIUM_KEYS[1:]) or \
            eq["mixed_decisions"] > MAX_MIXED:
        raise TableError(f"{where}: its equilibrium meta is not valid")
    return eq


def contract(meta: Meta, where: str) -> tuple[Rules, Layout]:
    """The rules in meta and the arrays (name -> dtype, shape) a table of them must hold."""
    if meta.get("format") != FORMAT:
        raise TableError(f"{where}: not a gonuts-solve table")
    if type(meta.get("schema")) is not int or meta.get("schema") not in SCHEMAS:   # true == 1 in Python
        raise TableError(f"{where}: unknown table schema {meta.get('schema')!r} (this version reads "
                         f"{', '.join(map(str, SCHEMAS))})")
    try:
        rules = Rules.from_dict(meta["rules"])
    except (RulesError, KeyError, TypeError) as exc:
        raise TableError(f"{where}: its rules are not valid ({exc})") from None
    if meta.get("substates") != rules.substates:
        raise TableError(f"{where}: substates {meta.get('substates')!r} do not fit game {rules.game}")
    if any(meta.get(k) != v for k, v in rules.to_dict().items()):
        raise TableError(f"{where}: the rules knobs in meta disagree with its rules object")
    if any(meta.get(k) != meta.get("solver", {}).get(k) for k in SOLVER_KEYS):
        raise TableError(f"{where}: the solver numbers in meta disagree with its solver object")
    if meta.get("converged") is not True or not isinstance(meta.get("residual"), (int, float)) or \
            not isinstance(meta.get("tolerance"), (int, float)) or not meta["residual"] <= meta["tolerance"]:
        raise TableError(f"{where}: its solve did not converge (residual {meta.get('residual')!r}, tolerance "
                         f"{meta.get('tolerance')!r}): no answer is given from it; build the game again")
    eq = equilibrium_of(meta, where)
    return rules, expected(rules, rules.substates, eq["mixed_decisions"])


def check_mixed(rules: Rules, at: Sequence[int], roll: Sequence[float], roll_bit: Callable[[int, int], bool],
                where: str) -> None:
    """The one check of a table's mixed decisions, for every path that reads a table (``tables.load`` and the
    numpy-free readers alike): ``at`` holds the rows of ``mixed_at`` one after the other (scores in turn order,
    turn points, dice), ``roll`` the probabilities, ``roll_bit(state, q)`` the table's roll bit at flat state
    ``state`` and decision ``q = t (D + 1) + n``. Each row names a decision (scores on the board, turn points
    that do not yet reach the target, 1 to D dice, not the turn's opening roll, which the rules force), the rows
    in table order, once each; each probability strictly between 0 and 1; and the roll bit there says the likelier
    action (roll where p >= 1/2, as the solver stores it)."""
    N, G, D = rules.players, rules.target, rules.substates
    width = N + 2
    rows = len(at) // width
    if len(at) != rows * width or len(roll) != rows:
        raise TableError(f"{where}: mixed_at and mixed_roll do not match")
    last = -1
    for e in range(rows):
        row = at[e * width:(e + 1) * width]
        scores, t, n = row[:N], row[N], row[N + 1]
        if not (all(0 <= x < G for x in scores) and 1 <= n <= D and 0 <= t < G - scores[0]) or (t == 0 and n == D):
            raise TableError(f"{where}: mixed_at names a state that is no decision")
        state = 0
        for x in scores:
            state = state * G + x
        key = (state * G + t) * (D + 1) + n
        if key <= last:
            raise TableError(f"{where}: mixed_at is not in table order, once each")
        last = key
        p = roll[e]
        if not (math.isfinite(p) and 0.0 < p < 1.0):
            raise TableError(f"{where}: mixed_roll holds values that are not probabilities strictly between 0 and 1")
        if roll_bit(state, t * (D + 1) + n) != (p >= 0.5):
            raise TableError(f"{where}: mixed_roll and the roll bit disagree at a mixed decision (the bit is the "
                             "likelier action)")


def mixed_members(rules: Rules, members: dict[str, Member],
                  where: str) -> None:
    """``check_mixed`` on a table's raw members (dtype, shape, bytes), as ``Archive.read_table`` returns them."""
    if "mixed_at" not in members:
        return
    G, D = rules.target, rules.substates
    raw = members["mixed_at"][2]
    at = struct.unpack(f"<{len(raw) // 8}q", raw)
    roll = struct.unpack(f"<{len(members['mixed_roll'][2]) // 8}d", members["mixed_roll"][2])
    if "roll" in members:
        bools = members["roll"][2]
        bit = lambda state, q: bools[state * G * (D + 1) + q] != 0  # noqa: E731
    else:
        packed, width = members["roll_bits"][2], members["roll_bits"][1][-1]
        bit = lambda state, q: bool(packed[state * width + (q >> 3)] & (128 >> (q & 7)))  # noqa: E731
    check_mixed(rules, at, roll, bit, where)


def checksum_of(items: Iterable[tuple[str, str, Sequence[int], bytes | memoryview]]) -> str:
    """SHA-256 over (name, dtype string, shape, C-order bytes) of every array but meta, in name order."""
    h = hashlib.sha256()
    for name, dtype, shape, data in sorted(items, key=lambda x: x[0]):
        if name == "meta":
            continue
        h.update(f"{name}|{dtype}|{tuple(shape)}|".encode())
        h.update(data)
    return "sha256:" + h.hexdigest()


def diff(have: Rules, want: Rules) -> str:
    """The knobs in which two rules differ, in words ("target=30 vs asked 50")."""
    a, b = have.to_dict(), want.to_dict()
    return ", ".join(f"{k}={a[k]} vs asked {b[k]}" for k in a if a[k] != b[k])


def check_file(path: StrPath) -> None:
    """Refuse, at once, a path that is not an existing regular file (a FIFO would block), with one line."""
    check_source(path, "table", TableError)


def check_expected(rules: Rules, expect: Rules | None, where: str) -> None:
    """Refuse a table built for other rules than ``expect`` (None: any rules)."""
    if expect is not None and rules != expect:
        raise TableError(f"{where} was built for {rules.describe()} ({diff(rules, expect)}), "
                         f"not {expect.describe()}")


def array_bytes(dtype: str, shape: Sequence[int]) -> int:
    """Bytes of an array of a dtype tables use (see ``_itemsize``) and a shape."""
    size = _itemsize(dtype)
    if size is None:
        raise TableError(f"dtype {dtype} is not one a table uses")
    n = size
    for x in shape:
        n *= x
    return n


def _npy_header(f: IO[bytes], where: str, name: str) -> tuple[str, Shape, bool, int]:
    """(dtype string, shape, fortran order, data offset) of an npy stream, reading only its header."""
    magic = f.read(8)
    if len(magic) != 8 or magic[:6] != b"\x93NUMPY" or magic[6] not in (1, 2, 3):
        raise TableError(f"{where}: member {name}.npy is not a readable npy array (bad magic)")
    size_bytes = 2 if magic[6] == 1 else 4
    raw = f.read(size_bytes)
    if len(raw) != size_bytes:
        raise TableError(f"{where}: member {name}.npy is not a readable npy array (truncated header)")
    hlen = int.from_bytes(raw, "little")
    if hlen > MAX_HEADER_BYTES:
        raise TableError(f"{where}: member {name}.npy has a {hlen:,}-byte header")
    text = f.read(hlen)
    try:
        header = ast.literal_eval(text.decode("latin1"))
        dtype, fortran, shape = header["descr"], header["fortran_order"], header["shape"]
        if not (isinstance(dtype, str) and isinstance(fortran, bool) and isinstance(shape, tuple)
                and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in shape)):
            raise ValueError
    except (ValueError, SyntaxError, KeyError, TypeError, UnicodeDecodeError, MemoryError, RecursionError):
        if b"'O'" in text or b"|O" in text:
            raise TableError(f"{where}: holds pickled objects; refusing to load it") from None
        raise TableError(f"{where}: member {name}.npy is not a readable npy array (bad header)") from None
    return dtype, shape, fortran, 8 + size_bytes + hlen


def _itemsize(dtype: str) -> int | None:
    if dtype in ITEMSIZE:
        return ITEMSIZE[dtype]
    if len(dtype) > 2 and dtype[:2] in ("<U", ">U") and dtype[2:].isdigit():
        return 4 * int(dtype[2:])
    return None


class Archive:
    """A table's zip, read defensively: the directory and npy headers first, data only on request."""

    zip: zipfile.ZipFile
    members: dict[str, zipfile.ZipInfo]

    def __init__(self, path: StrPath) -> None:
        self.path = Path(path)
        self.where = str(path)
        self._headers: dict[str, tuple[str, Shape, bool, int]] = {}

    def __enter__(self) -> Archive:
        check_file(self.path)
        try:
            with open(self.path, "rb") as fh:
                magic = fh.read(6)
            if magic == b"\x93NUMPY":
                raise TableError(f"{self.path}: a bare .npy array, not an .npz table")
            self.zip = zipfile.ZipFile(self.path)
        except PermissionError:
            raise TableError(f"{self.path}: permission denied") from None
        except TableError:
            raise
        except _CORRUPT as exc:
            raise TableError(f"{self.path}: not a readable .npz table ({type(exc).__name__})") from None
        self.members = {}
        self._headers = {}
        try:
            for info in self.zip.infolist():
                name = info.filename[:-4] if info.filename.endswith(".npy") else None
                if name is None or name not in KNOWN_MEMBERS or info.is_dir():
                    raise TableError(f"{self.where}: unexpected member {info.filename!r}: not a gonuts-solve table")
                if name in self.members:
                    raise TableError(f"{self.where}: member {info.filename!r} appears twice")
                if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                    raise TableError(f"{self.where}: member {info.filename!r} uses an unsupported compression")
                self.members[name] = info
        except TableError:
            self.zip.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.zip.close()

    def header(self, name: str, dtype: str | None = None,
               shape: Sequence[int] | None = None) -> tuple[str, Shape, int, int]:
        """(dtype, shape, data offset, data bytes) of a member, refused if it disagrees with the dtype and
        shape it must have, or with its size in the zip directory. Reads only the header, once per member."""
        if name not in self._headers:
            try:
                with self.zip.open(self.members[name]) as f:
                    self._headers[name] = _npy_header(f, self.where, name)
            except TableError:
                raise
            except _CORRUPT as exc:
                raise TableError(f"{self.where}: member {name}.npy is not a readable npy array "
                                 f"({type(exc).__name__})") from None
        have, have_shape, fortran, offset = self._headers[name]
        if "O" in have:
            raise TableError(f"{self.where}: holds pickled objects; refusing to load it")
        if dtype is not None and shape is not None and (have != dtype or tuple(have_shape) != tuple(shape)):
            raise TableError(f"{self.where}: array {name} is {have}{tuple(have_shape)}, expected "
                             f"{dtype}{tuple(shape)}")
        if fortran:
            raise TableError(f"{self.where}: array {name} is stored in Fortran order")
        size = _itemsize(have)
        if size is None:
            raise TableError(f"{self.where}: array {name} has dtype {have}, which no table uses")
        nbytes = array_bytes(have, have_shape)
        if offset + nbytes != self.members[name].file_size:
            raise TableError(f"{self.where}: member {name}.npy declares {offset + nbytes:,} bytes but the zip "
                             f"directory says {self.members[name].file_size:,}")
        return have, tuple(have_shape), offset, nbytes

    def read(self, name: str, dtype: str | None = None, shape: Sequence[int] | None = None) -> Member:
        """(dtype, shape, bytes) of a member, after its header and size have been checked.

        The member is inflated in one call whose output is capped at the size the
        header implies, and its CRC-32 is checked against the zip directory's.
        """
        dtype, shape, offset, nbytes = self.header(name, dtype, shape)
        info = self.members[name]
        try:
            fp = self.zip.fp
            if fp is None:
                raise ValueError("the zip is closed")
            fp.seek(info.header_offset)
            local = fp.read(30)
            if len(local) != 30 or local[:4] != b"PK\x03\x04":
                raise zipfile.BadZipFile("bad local file header")
            name_len, extra_len = struct.unpack("<HH", local[26:30])
            fp.seek(info.header_offset + 30 + name_len + extra_len)
            raw = fp.read(info.compress_size)
            if len(raw) != info.compress_size:
                raise EOFError("member shorter than the zip directory says")
            if info.compress_type == zipfile.ZIP_DEFLATED:
                inflate = zlib.decompressobj(-15)
                data = inflate.decompress(raw, info.file_size + 1)
                if not inflate.eof or inflate.unconsumed_tail:
                    raise ValueError("member longer than its header says")
            else:
                data = raw
            if len(data) != info.file_size:
                raise EOFError("member shorter than its header says")
            if zlib.crc32(data) != info.CRC:
                raise zipfile.BadZipFile("CRC-32 mismatch")
        except _CORRUPT as exc:
            raise TableError(f"{self.where}: truncated or corrupted ({type(exc).__name__})") from None
        return dtype, shape, memoryview(data)[offset:]

    def meta(self) -> Meta:
        """The table's meta, read after its size and header are checked: a JSON object, or one line."""
        if "meta" not in self.members:
            raise TableError(f"{self.where}: no meta array: not a gonuts-solve table")
        if self.members["meta"].file_size > MAX_META_BYTES:
            raise TableError(f"{self.where}: meta is {self.members['meta'].file_size:,} bytes, more than a table's "
                             f"{MAX_META_BYTES:,}")
        dtype, shape, _, _ = self.header("meta")
        if dtype[1:2] != "U" or shape != ():
            raise TableError(f"{self.where}: meta is {dtype}{shape}, not a JSON string")
        _, _, data = self.read("meta")
        try:
            meta = json.loads(bytes(data).decode("utf-32-le" if dtype[0] == "<" else "utf-32-be").rstrip("\0"))
        except (ValueError, UnicodeDecodeError):
            raise TableError(f"{self.where}: meta is not valid JSON") from None
        if not isinstance(meta, dict):
            raise TableError(f"{self.where}: meta is not a JSON object")
        return meta

    def layout(self) -> tuple[Meta, Rules, Layout]:
        """meta, rules and the contract's arrays (name -> dtype, shape), after checking every member's
        header and size against the contract: everything but the array data."""
        meta = self.meta()
        rules, want = contract(meta, self.where)
        have = set(self.members) - {"meta"}
        for name in sorted(have):
            self.header(name)                     # pickles are named as such before anything else
        if have != set(want):
            missing, extra = sorted(set(want) - have), sorted(have - set(want))
            raise TableError(f"{self.where}: arrays do not match the contract (missing {missing}, "
                             f"unexpected {extra})")
        for name, (dtype, shape) in want.items():
            self.header(name, dtype, shape)
        return meta, rules, want

    def read_table(self, expect: Rules | None = None) -> tuple[Meta, Rules, dict[str, Member]]:
        """meta, rules and every array as (dtype, shape, bytes), checked against the contract and the
        checksum; with ``expect``, refuse a table built for other rules."""
        meta, rules, want = self.layout()
        arrays = {name: self.read(name, *want[name]) for name in want}
        if meta.get("checksum") != checksum_of((name, *a) for name, a in arrays.items()):
            raise TableError(f"{self.where}: checksum mismatch: the table is corrupted")
        mixed_members(rules, arrays, self.where)
        check_expected(rules, expect, self.where)
        return meta, rules, arrays
