"""The ``.npz`` table contract: one symmetric pair, ``save`` and ``load``, checking the same invariants.

Arrays (documented in tables/README.md): ``meta`` (0-d JSON string),
``start_win``, ``roll`` (2-3 players) or ``roll_bits`` (4 players),
``roll_win`` and ``stop_win`` (2 players), ``nuts_payout`` (Go Nuts!), and
where an orbit has no pure equilibrium ``mixed_at`` and ``mixed_roll``.
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
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Protocol

import numpy as np
import numpy.typing as npt

from solver.engine.solve import SELECTION, Mixed, unpack_roll
from solver.errors import TableError
from solver.files import StrPath, atomic_write
from solver.game.rules import Rules
from solver.game.states import GameShape
from solver.store.contract import (
    FORMAT,
    SCHEMA,
    SOLVER_KEYS,
    Archive,
    Member,
    Meta,
    check_mixed,
    contract,
    equilibrium_of,
)
from solver.version import __version__


@dataclass(frozen=True)
class Table:
    """A checked table: its ``meta`` (the rules, the solver's report, the checksum), the ``rules`` it solves, its
    ``arrays`` by name (tables/README.md), and ``path``, the file it was read from (None when made in memory).

    >>> from solver.store.locate import shipped_dir
    >>> t = load(shipped_dir() / "gonuts-2p-t50-rulebook.npz")
    >>> t.players, t.arrays["start_win"].shape
    (2, (50, 50, 2))
    """
    meta: Meta
    rules: Rules
    arrays: dict[str, npt.NDArray[np.generic]]
    path: Path | None = None

    @property
    def players(self) -> int:
        """How many play: ``rules.players``."""
        return self.rules.players

    @property
    def target(self) -> int:
        """The score that wins: ``rules.target``."""
        return self.rules.target

    @property
    def substates(self) -> int:
        """Dice a turn can hold, the ``n`` axis's last index (6 for Go Nuts!, 1 for Pig)."""
        return int(self.meta["substates"])

    def roll_at(self, scores: Sequence[int], t: int, n: int) -> bool:
        """The stored decision at one decision state (at a mixed one, the likelier action: see ``mix_at``)."""
        D = self.substates
        if "roll" in self.arrays:
            return bool(self.arrays["roll"][tuple(scores) + (t, n)])
        q = t * (D + 1) + n
        return bool(self.arrays["roll_bits"][tuple(scores) + (q >> 3,)] & (128 >> (q & 7)))

    def roll_array(self) -> np.ndarray:
        """All decisions, (G,)*N + (G, D+1) bool (unpacks ``roll_bits``)."""
        if "roll" in self.arrays:
            return np.asarray(self.arrays["roll"], dtype=np.bool_)
        return unpack_roll(np.asarray(self.arrays["roll_bits"], dtype=np.uint8), self.target, self.substates)

    def mix_at(self, scores: Sequence[int], t: int, n: int) -> float | None:
        """The probability of rolling where the equilibrium mixes (the mover is indifferent), else None."""
        at = self.arrays.get("mixed_at")
        if at is None:
            return None
        row = tuple(int(x) for x in scores) + (int(t), int(n))
        hit = np.flatnonzero(np.all(at == np.array(row, dtype=np.int64), axis=1))
        return float(self.arrays["mixed_roll"][hit[0]]) if len(hit) else None

    @property
    def mixed(self) -> Mixed:
        """The decisions played mixed, as the engine takes them (``engine.solve.Mixed``)."""
        return mixed_of(self.arrays, self.players, self.target, self.substates)

    @property
    def equilibrium(self) -> Meta:
        """The table's ``equilibrium`` meta: the selection rule and how often it applied (schema 1: none)."""
        return equilibrium_of(self.meta, str(self.path or "table"))


def mixed_arrays(mixed: Mixed, players: int, target: int, substates: int) -> dict[str, npt.NDArray[np.generic]]:
    """A solve's mixed decisions as a table holds them: ``mixed_at`` rows (scores in turn order, turn points, dice)
    and ``mixed_roll``."""
    W1 = substates + 1
    scores = np.stack(np.unravel_index(mixed.state, (target,) * players), axis=1)
    at = np.concatenate([scores, (mixed.decision // W1)[:, None], (mixed.decision % W1)[:, None]], axis=1)
    return {"mixed_at": np.ascontiguousarray(at, dtype=np.int64),
            "mixed_roll": np.ascontiguousarray(mixed.roll, dtype=np.float64)}


def mixed_of(arrays: dict[str, npt.NDArray[np.generic]], players: int, target: int, substates: int) -> Mixed:
    """``mixed_arrays`` read back (none when the table has no mixed decision)."""
    if "mixed_at" not in arrays:
        return Mixed.none()
    at = np.asarray(arrays["mixed_at"], dtype=np.int64)
    state = np.ravel_multi_index(tuple(at[:, k] for k in range(players)), (target,) * players).astype(np.int64)
    decision = (at[:, players] * (substates + 1) + at[:, players + 1]).astype(np.int64)
    return Mixed(state, decision, np.asarray(arrays["mixed_roll"], dtype=np.float64))


class TableView(GameShape, Protocol):
    """What a question (``play.advise``, ``play.luck``, ``review``) reads of a table: a ``Table``, or the page's
    values standing in for one (``site.pagetable.PageTable``)."""

    @property
    def rules(self) -> Rules: ...

    @property
    def arrays(self) -> dict[str, npt.NDArray[np.generic]]: ...

    def roll_at(self, scores: Sequence[int], t: int, n: int) -> bool: ...


def checksum(arrays: dict[str, npt.NDArray[np.generic]]) -> str:
    """SHA-256 over every array but ``meta``: name, dtype, shape and bytes, in name order."""
    h = hashlib.sha256()
    for name in sorted(arrays):
        if name == "meta":
            continue
        a = np.ascontiguousarray(arrays[name])
        h.update(f"{name}|{a.dtype.str}|{a.shape}|".encode())
        h.update(a.data.cast("B"))
    return "sha256:" + h.hexdigest()


def _check_mixed(arrays: dict[str, npt.NDArray[np.generic]], rules: Rules, where: str) -> None:
    """``contract.check_mixed``, the one check every path that reads a table makes, on the arrays."""
    G, D = rules.target, rules.substates
    at = [int(x) for x in np.asarray(arrays["mixed_at"]).ravel()]
    roll = [float(x) for x in np.asarray(arrays["mixed_roll"]).ravel()]
    if "roll" in arrays:
        flat = arrays["roll"].reshape(-1, G * (D + 1))
        bit = lambda state, q: bool(flat[state, q])  # noqa: E731
    else:
        packed = arrays["roll_bits"].reshape(-1, arrays["roll_bits"].shape[-1])
        bit = lambda state, q: bool(packed[state, q >> 3] & (128 >> (q & 7)))  # noqa: E731
    check_mixed(rules, at, roll, bit, where)


def _check(meta: Meta, arrays: dict[str, npt.NDArray[np.generic]], where: str) -> Rules:
    """The invariants ``save`` and ``load`` both enforce. Returns the table's rules."""
    rules, layout = contract(meta, where)
    want = {name: (np.dtype(dtype), shape) for name, (dtype, shape) in layout.items()}
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
    if "mixed_at" in arrays:
        _check_mixed(arrays, rules, where)
    if "roll" in arrays:
        G, roll = rules.target, arrays["roll"]
        # with banked score s0, turn points t >= G - s0 already win: rolling there is never stored
        if any(roll[s0][..., G - s0:, :].any() for s0 in range(1, G)):
            raise TableError(f"{where}: roll is True where stopping already reaches the target")
    return rules


def save(path: StrPath, rules: Rules, arrays: dict[str, npt.NDArray[np.generic]], solver_meta: dict[str, Any],
         substates: int, equilibrium: dict[str, Any] | None = None) -> Meta:
    """Write a table atomically. Returns the meta written. Refuses a solve that did not converge.

    ``equilibrium`` is the solve's ``SolveResult.equilibrium()``; without it (a table written again from
    another's arrays), none was searched and the mixed decisions are those ``arrays`` hold."""
    path = Path(path)
    arrays = {k: np.ascontiguousarray(v) for k, v in arrays.items()}
    meta = table_meta(rules, arrays, solver_meta, substates, equilibrium, str(path))
    atomic_write(path, lambda fh: write_npz(fh, {"meta": np.array(json.dumps(meta, sort_keys=True)), **arrays}),
                 error=TableError)
    return meta


def table_meta(rules: Rules, arrays: dict[str, npt.NDArray[np.generic]], solver_meta: dict[str, Any], substates: int,
               equilibrium: dict[str, Any] | None, where: str) -> Meta:
    """The meta of a table of these arrays, checked by ``_check`` (named ``where``) and with their checksum: what
    ``save`` writes, and what a table made in memory carries (``corner.corner``)."""
    if equilibrium is None:
        equilibrium = {"selection": SELECTION, "orbits_searched": 0, "orbits_with_several": 0,
                       "mixed_decisions": len(arrays["mixed_at"]) if "mixed_at" in arrays else 0}
    meta = {
        "format": FORMAT, "schema": SCHEMA, "package_version": __version__,
        "game": rules.game, "players": rules.players, "target": rules.target,
        "substates": substates, "rules": rules.to_dict(), "reading": rules.reading_name(),
        "solver": solver_meta, "equilibrium": equilibrium,
        **rules.to_dict(),
        **{k: solver_meta.get(k) for k in SOLVER_KEYS},
        "arrays": {k: {"dtype": v.dtype.str, "shape": list(v.shape)} for k, v in arrays.items()},
    }
    _check(meta, arrays, where)
    meta["checksum"] = checksum(arrays)
    return meta


COMPRESS_LEVEL = 1        # zlib level: quicker to write than numpy's 6, files a little larger (docs/performance.md)
STORE_ABOVE = 0.875       # an array that deflate shrinks by less than 1/8 is stored as it is
SAMPLE = 16, 1 << 16      # checked on this many evenly spaced pieces of this many bytes


def write_npz(fh: IO[bytes], arrays: dict[str, npt.NDArray[np.generic]]) -> None:
    """The ``.npz`` as ``numpy.savez_compressed`` writes it (zipfile, one ``.npy`` per array, ZIP64), at
    ``COMPRESS_LEVEL``. Only the compressed container differs; arrays and checksum are the same.

    An array that deflate would hardly shrink is stored instead (``worth_deflating``): 4-player
    win probabilities shrink by 10% for 6 s of compression, more than the whole rest of the write.
    Every zip reader, numpy's included, reads both kinds of member."""
    with zipfile.ZipFile(fh, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=COMPRESS_LEVEL) as zf:
        for name, a in arrays.items():
            a = np.asanyarray(a)
            zf.compression = zipfile.ZIP_DEFLATED if worth_deflating(a) else zipfile.ZIP_STORED
            with zf.open(f"{name}.npy", "w", force_zip64=True) as f:
                np.lib.format.write_array(f, a, allow_pickle=False)


def worth_deflating(a: np.ndarray) -> bool:
    """Whether deflate shrinks the array's bytes by 1/8 or more, judged on ``SAMPLE`` of them (all of a
    small array). Depends only on the bytes, so a table is written the same way every time."""
    raw = np.ascontiguousarray(a).reshape(-1).view(np.uint8)
    pieces, size = SAMPLE
    if raw.size <= pieces * size:
        chunks = [raw]
    else:
        step = (raw.size - size) // (pieces - 1)
        chunks = [raw[i * step:i * step + size] for i in range(pieces)]
    total = sum(c.size for c in chunks)
    packed = sum(len(zlib.compress(c.tobytes(), COMPRESS_LEVEL)) for c in chunks)
    return total == 0 or packed <= STORE_ABOVE * total


def read_meta(path: StrPath) -> Meta:
    """Only the metadata of a table (cheap: the other arrays are not read)."""
    with Archive(Path(path)) as z:
        return z.meta()


def load(path: StrPath, expect: Rules | None = None) -> Table:
    """Read and check a table; with ``expect``, refuse one built for other rules.

    A table from a stranger is hostile until checked: ``contract.Archive``
    checks the zip directory and every member's npy header against the
    contract its meta implies before reading any array data. Then the
    checksum, and the invariants of ``_check``.
    """
    path = Path(path)
    with Archive(path) as z:
        meta, rules, raw = z.read_table(expect)
    return from_raw(meta, rules, raw, str(path))


def from_raw(meta: Meta, rules: Rules, raw: dict[str, Member], where: str) -> Table:
    """A ``Table`` over what ``Archive.read_table`` returned: read-only arrays on its bytes (no copy), with
    the invariants of ``_check``."""
    arrays = {name: np.frombuffer(data, dtype=dtype).reshape(shape) for name, (dtype, shape, data) in raw.items()}
    _check(meta, arrays, where)
    return Table(meta, rules, arrays, Path(where))
