"""The ``.npz`` table contract: one symmetric pair, ``save`` and ``load``, checking the same invariants.

Arrays (documented in tables/README.md): ``meta`` (0-d JSON string),
``start_win``, ``roll`` (2-3 players) or ``roll_bits`` (4 players),
``roll_win`` and ``stop_win`` (2 players), ``nuts_payout`` (Go Nuts!).
Every table carries its schema version and a SHA-256 of its arrays in
``meta``; ``load`` never allows pickles and refuses anything that does not
match. ``save`` writes to a temporary file in the target's folder, fsyncs
and renames, so a table appears under its name only when complete.
"""
from __future__ import annotations

import hashlib
import json
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import __version__
from .errors import RulesError, TableError
from .files import atomic_write
from .rules import Rules

SCHEMA = 1
FORMAT = "gonuts-solve table"
PACKED_FROM_PLAYERS = 4      # from this many players on, decisions are bit-packed
SOLVER_KEYS = ("tolerance", "residual", "iterations", "converged")


@dataclass(frozen=True)
class Table:
    meta: dict
    rules: Rules
    arrays: dict

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def target(self) -> int:
        return self.rules.target

    @property
    def substates(self) -> int:
        return int(self.meta["substates"])

    def roll_at(self, scores, t: int, n: int) -> bool:
        """The stored decision at one decision state."""
        D = self.substates
        if "roll" in self.arrays:
            return bool(self.arrays["roll"][tuple(scores) + (t, n)])
        q = t * (D + 1) + n
        return bool(self.arrays["roll_bits"][tuple(scores) + (q >> 3,)] & (128 >> (q & 7)))

    def roll_array(self) -> np.ndarray:
        """All decisions, (G,)*N + (G, D+1) bool (unpacks ``roll_bits``)."""
        if "roll" in self.arrays:
            return self.arrays["roll"]
        return unpack_roll(self.arrays["roll_bits"], self.target, self.substates)


def packed_width(target: int, substates: int) -> int:
    """Bytes of one state's packed decisions: G * (D + 1) bits, the flattened (t, n) axis."""
    return -(-target * (substates + 1) // 8)


def unpack_roll(bits: np.ndarray, target: int, substates: int) -> np.ndarray:
    """Packed decisions (..., packed_width) -> (..., G, D+1) bool."""
    n = target * (substates + 1)
    return np.unpackbits(bits, axis=-1, count=n).reshape(bits.shape[:-1] + (target, substates + 1)).astype(bool)


def checksum(arrays: dict) -> str:
    """SHA-256 over every array but ``meta``: name, dtype, shape and bytes, in name order."""
    h = hashlib.sha256()
    for name in sorted(arrays):
        if name == "meta":
            continue
        a = np.ascontiguousarray(arrays[name])
        h.update(f"{name}|{a.dtype.str}|{a.shape}|".encode())
        h.update(memoryview(a).cast("B"))
    return "sha256:" + h.hexdigest()


def expected_arrays(rules: Rules, substates: int) -> dict:
    """name -> (dtype, shape) that a table of these rules must hold."""
    N, G, D = rules.players, rules.target, substates
    grid = (G,) * N
    out = {"start_win": (np.dtype(np.float64), grid + (N,))}
    if N >= PACKED_FROM_PLAYERS:
        out["roll_bits"] = (np.dtype(np.uint8), grid + (packed_width(G, D),))
    else:
        out["roll"] = (np.dtype(np.bool_), grid + (G, D + 1))
    if N == 2:
        out["roll_win"] = (np.dtype(np.float64), grid + (G, D + 1))
        out["stop_win"] = (np.dtype(np.float64), grid + (G, D + 1))
    if rules.game == "gonuts":
        out["nuts_payout"] = (np.dtype(np.float64), (6, G + 1))
    return out


def _check(meta: dict, arrays: dict, where: str) -> Rules:
    """The invariants ``save`` and ``load`` both enforce. Returns the table's rules."""
    rules, want = _contract(meta, where)
    flat = rules.to_dict()
    if any(meta.get(k) != v for k, v in flat.items()):
        raise TableError(f"{where}: the rules knobs in meta disagree with its rules object")
    if any(meta.get(k) != meta.get("solver", {}).get(k) for k in SOLVER_KEYS):
        raise TableError(f"{where}: the solver numbers in meta disagree with its solver object")
    have = set(arrays) - {"meta"}
    if have != set(want):
        missing, extra = sorted(set(want) - have), sorted(have - set(want))
        raise TableError(f"{where}: arrays do not match the contract (missing {missing}, unexpected {extra})")
    for name, (dtype, shape) in want.items():
        a = arrays[name]
        if a.dtype != dtype or a.shape != shape:
            raise TableError(f"{where}: array {name} is {a.dtype}{a.shape}, expected {dtype}{shape}")
    sw = arrays["start_win"]
    if not np.all(np.isfinite(sw)) or sw.min() < -1e-12 or sw.max() > 1 + 1e-12:
        raise TableError(f"{where}: start_win holds values outside [0, 1]")
    if np.abs(sw.sum(axis=-1) - 1.0).max() > 1e-9:
        raise TableError(f"{where}: start_win does not sum to 1 over players")
    if "roll" in arrays:
        G = rules.target
        s0 = np.arange(G).reshape((G,) + (1,) * (rules.players - 1) + (1, 1))
        t = np.arange(G).reshape(1, -1, 1)
        if np.any(arrays["roll"] & (s0 + t >= G)):
            raise TableError(f"{where}: roll is True where stopping already reaches the target")
    return rules


def save(path, rules: Rules, arrays: dict, solver_meta: dict, substates: int) -> dict:
    """Write a table atomically. Returns the meta written."""
    path = Path(path)
    arrays = {k: np.ascontiguousarray(v) for k, v in arrays.items()}
    meta = {
        "format": FORMAT, "schema": SCHEMA, "package_version": __version__,
        "game": rules.game, "players": rules.players, "target": rules.target,
        "substates": substates, "rules": rules.to_dict(), "preset": rules.preset_name(),
        "solver": solver_meta,
        **rules.to_dict(),
        **{k: solver_meta.get(k) for k in SOLVER_KEYS},
        "arrays": {k: {"dtype": v.dtype.str, "shape": list(v.shape)} for k, v in arrays.items()},
    }
    _check(meta, arrays, str(path))
    meta["checksum"] = checksum(arrays)
    atomic_write(path, lambda fh: np.savez_compressed(fh, meta=np.array(json.dumps(meta, sort_keys=True)), **arrays),
                 error=TableError)
    return meta


def read_meta(path) -> dict:
    """Only the metadata of a table (cheap: the other arrays are not read)."""
    with _Archive(Path(path)) as z:
        return z.meta()


def load(path, expect: Rules | None = None) -> Table:
    """Read and check a table; with ``expect``, refuse one built for other rules.

    A table from a stranger is hostile until checked: the zip directory and every
    member's npy header are checked against the contract the table's own meta
    implies (names, dtypes, shapes, sizes) before any array data is read, so a
    member that declares a huge array costs nothing. Then the data, its
    checksum and the invariants of ``_check``.
    """
    path = Path(path)
    where = str(path)
    with _Archive(path) as z:
        meta = z.meta()
        rules, want = _contract(meta, where)
        z.check_members(want)
        arrays = {name: z.read(name, *want[name]) for name in want}
    if meta.get("checksum") != checksum(arrays):
        raise TableError(f"{where}: checksum mismatch: the table is corrupted")
    rules = _check(meta, arrays, where)
    if expect is not None and rules != expect:
        raise TableError(f"{where} was built for {rules.describe()} ({_diff(rules, expect)}), "
                         f"not {expect.describe()}")
    return Table(meta, rules, arrays)


def _contract(meta: dict, where: str):
    """The rules in meta and the arrays (name -> dtype, shape) a table of them must hold."""
    if meta.get("format") != FORMAT:
        raise TableError(f"{where}: not a gonuts-solve table")
    if meta.get("schema") != SCHEMA:
        raise TableError(f"{where}: unknown table schema {meta.get('schema')!r} (this version reads {SCHEMA})")
    try:
        rules = Rules.from_dict(meta["rules"])
    except (RulesError, KeyError, TypeError) as exc:
        raise TableError(f"{where}: its rules are not valid ({exc})") from None
    if meta.get("substates") != rules.substates:
        raise TableError(f"{where}: substates {meta.get('substates')!r} do not fit game {rules.game}")
    return rules, expected_arrays(rules, rules.substates)


def _diff(have: Rules, want: Rules) -> str:
    a, b = have.to_dict(), want.to_dict()
    return ", ".join(f"{k}={a[k]} vs asked {b[k]}" for k in a if a[k] != b[k])


MAX_META_BYTES = 1_000_000
MAX_HEADER_BYTES = 65_536
KNOWN_MEMBERS = ("meta", "start_win", "roll", "roll_bits", "roll_win", "stop_win", "nuts_payout")
_CORRUPT = (OSError, EOFError, zipfile.BadZipFile, zlib.error, ValueError, RuntimeError, NotImplementedError)


class _Archive:
    """A table's zip, read defensively: the directory and npy headers first, data only on request."""

    def __init__(self, path: Path):
        self.path = path
        self.where = str(path)

    def __enter__(self):
        if not self.path.exists():
            raise TableError(f"no table at {self.path}")
        if not self.path.is_file():
            raise TableError(f"{self.path} is not a file")
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
        for info in self.zip.infolist():
            name = info.filename[:-4] if info.filename.endswith(".npy") else None
            if name not in KNOWN_MEMBERS or info.is_dir():
                self.close()
                raise TableError(f"{self.where}: unexpected member {info.filename!r}: not a gonuts-solve table")
            if name in self.members:
                self.close()
                raise TableError(f"{self.where}: member {info.filename!r} appears twice")
            if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                self.close()
                raise TableError(f"{self.where}: member {info.filename!r} uses an unsupported compression")
            self.members[name] = info
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def close(self):
        self.zip.close()

    def _header(self, name):
        """(dtype, shape, fortran, offset of the data) from a member's npy header, reading only the header."""
        fmt = np.lib.format
        try:
            with self.zip.open(self.members[name]) as f:
                version = fmt.read_magic(f)
                if version == (1, 0):
                    shape, fortran, dtype = fmt.read_array_header_1_0(f, max_header_size=MAX_HEADER_BYTES)
                elif version == (2, 0):
                    shape, fortran, dtype = fmt.read_array_header_2_0(f, max_header_size=MAX_HEADER_BYTES)
                else:
                    raise ValueError(f"npy version {version}")
                return dtype, shape, fortran, f.tell()
        except _CORRUPT + (SyntaxError,) as exc:
            raise TableError(f"{self.where}: member {name}.npy is not a readable npy array "
                             f"({type(exc).__name__})") from None

    def _checked(self, name, dtype, shape):
        """Refuse a member whose header or directory size disagrees with the dtype and shape it must have."""
        have, have_shape, fortran, offset = self._header(name)
        if have.hasobject:
            raise TableError(f"{self.where}: holds pickled objects; refusing to load it")
        if dtype is not None and (have != dtype or tuple(have_shape) != tuple(shape)):
            raise TableError(f"{self.where}: array {name} is {have}{tuple(have_shape)}, expected {dtype}{tuple(shape)}")
        if fortran:
            raise TableError(f"{self.where}: array {name} is stored in Fortran order")
        nbytes = have.itemsize * int(np.prod(have_shape, dtype=np.int64))
        if offset + nbytes != self.members[name].file_size:
            raise TableError(f"{self.where}: member {name}.npy declares {offset + nbytes:,} bytes but the zip "
                             f"directory says {self.members[name].file_size:,}")
        return have, tuple(have_shape), offset, nbytes

    def read(self, name, dtype=None, shape=None) -> np.ndarray:
        """A member's array, after its header and size have been checked; zip's CRC is checked too."""
        dtype, shape, offset, nbytes = self._checked(name, dtype, shape)
        try:
            with self.zip.open(self.members[name]) as f:
                f.read(offset)
                data = bytearray(nbytes)
                view = memoryview(data)
                got = 0
                while got < nbytes:
                    k = f.readinto(view[got:])
                    if not k:
                        raise EOFError("member shorter than its header says")
                    got += k
                if f.read(1):
                    raise ValueError("member longer than its header says")
        except _CORRUPT as exc:
            raise TableError(f"{self.where}: truncated or corrupted ({type(exc).__name__})") from None
        return np.frombuffer(data, dtype=dtype).reshape(shape)

    def meta(self) -> dict:
        if "meta" not in self.members:
            raise TableError(f"{self.where}: no meta array: not a gonuts-solve table")
        if self.members["meta"].file_size > MAX_META_BYTES:
            raise TableError(f"{self.where}: meta is {self.members['meta'].file_size:,} bytes, more than a table's "
                             f"{MAX_META_BYTES:,}")
        dtype, shape, _, _ = self._checked("meta", None, None)
        if dtype.kind != "U" or shape != ():
            raise TableError(f"{self.where}: meta is {dtype}{shape}, not a JSON string")
        try:
            meta = json.loads(str(self.read("meta")[()]))
        except ValueError:
            raise TableError(f"{self.where}: meta is not valid JSON") from None
        if not isinstance(meta, dict):
            raise TableError(f"{self.where}: meta is not a JSON object")
        return meta

    def check_members(self, want: dict):
        """Every member the contract names, nothing else, each header and size as the contract says."""
        have = set(self.members) - {"meta"}
        for name in sorted(have):
            self._checked(name, None, None)          # pickles are named as such before anything else
        if have != set(want):
            missing, extra = sorted(set(want) - have), sorted(have - set(want))
            raise TableError(f"{self.where}: arrays do not match the contract (missing {missing}, unexpected {extra})")
        for name, (dtype, shape) in want.items():
            self._checked(name, dtype, shape)
