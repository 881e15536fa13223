"""A table's decisions as an array that is read only where it is indexed: ``TablePolicy.roll``.

A 4-player table to 71 decides at 71**4 states x 71 turn totals x 5 dice, 9 billion decisions: a bool array of
9 GB, held in the table 8 to a byte. ``Decisions`` answers numpy's indexing of that array (integers, slices,
``...``, ``None``, integer and bool arrays, with numpy's own rules for where the axes go) by unpacking only the
states the key selects, so a read costs memory in proportion to what it reads. The whole array is made only when
asked for by name (``full()``, ``np.asarray``), and refused in one line where it would not fit in the memory
available, as a build is.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from types import EllipsisType
from typing import Any, Union

import numpy as np
import numpy.typing as npt

from solver.engine.bits import packed_width
from solver.engine.resources import available_memory, fmt_bytes
from solver.engine.solve import unpack_roll
from solver.errors import GonutsError

# what ``Decisions[...]`` takes: numpy's index of one axis, or a tuple of them
Index = Union[int, "np.integer[Any]", slice, EllipsisType, None, npt.ArrayLike]
READ_CHUNK = 1 << 24          # decisions unpacked at a time by full() and the thresholds: 16 MB of bools


class PolicyIndexError(GonutsError, IndexError):
    """An index outside the decisions' shape: the axis by name and its range."""


class Decisions:
    """Every decision of a table: True where the player to move rolls, indexed as the bool array of ``shape``
    ``(G,)*N + (G, D)`` would be (``[*scores, turn, d - 1]``; ``axes`` names them), False where the turn's points
    reach the target with the own score (stopping wins) and at the mixed decisions' less likely action. Reading
    ``p.roll[23, 31, 7, 2]`` unpacks one state; ``p.roll[:, :, 0]`` one plane.

    >>> import solver
    >>> roll = solver.table(players=3).policy.roll
    >>> roll.shape, bool(roll[10, 20, 30, 7, 3 - 1]), roll[:, :, 0].shape
    ((50, 50, 50, 50, 5), True, (50, 50, 50, 5))
    """

    def __init__(self, bits: npt.NDArray[np.uint8], target: int, players: int, substates: int,
                 axes: tuple[str, ...]) -> None:
        G, N, D = target, players, substates
        self._bits = np.asarray(bits, dtype=np.uint8).reshape(G ** N, packed_width(G, D))
        self.target, self.players, self.substates, self.axes = G, N, D, axes
        self._shape: tuple[int, ...] = (G,) * N + (G, D)

    @property
    def shape(self) -> tuple[int, ...]:
        """``(G,)*N + (G, D)``: the scores in turn order from the player to move, the turn's points, the live dice
        (index d - 1)."""
        return self._shape

    @property
    def ndim(self) -> int:
        """How many axes: the players' scores, the turn's points, the dice."""
        return len(self.shape)

    @property
    def size(self) -> int:
        """How many decisions: the whole array's size."""
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def dtype(self) -> np.dtype[np.bool_]:
        """bool, as numpy's."""
        return np.dtype(np.bool_)

    @property
    def nbytes(self) -> int:
        """What the whole array would take (``full()``): one byte a decision."""
        return self.size

    def __len__(self) -> int:
        return self.shape[0]

    def __repr__(self) -> str:
        return f"<Decisions shape {self.shape}, axes {self.axes}: {fmt_bytes(self.nbytes)} as a whole array>"

    def __iter__(self) -> Iterator[npt.NDArray[np.bool_]]:
        for s in range(self.shape[0]):
            yield np.asarray(self[s])

    def __getitem__(self, key: Index | tuple[Index, ...]) -> npt.NDArray[np.bool_] | np.bool_:
        """The decisions ``key`` selects, as numpy indexes an array of ``shape`` (a single one as a numpy bool).
        An index out of range is refused naming the axis and its range (``PolicyIndexError``, an IndexError)."""
        parts = key if isinstance(key, tuple) else (key,)
        out = self._basic(parts)
        if out is None:
            out = self._gathered(parts)
        return out[()] if out.ndim == 0 else out

    def __array__(self, dtype: npt.DTypeLike | None = None, copy: bool | None = None) -> npt.NDArray[Any]:
        out = self.full()
        return out if dtype is None else out.astype(dtype)

    def full(self) -> npt.NDArray[np.bool_]:
        """The whole array, made plane by plane; refused in one line where it would not fit in the memory
        available (at 4 players to 71 it is 9 GB: index what you need instead)."""
        free = available_memory()
        if free is not None and self.nbytes > free:
            raise GonutsError(f"the whole decision array {self.shape} takes {fmt_bytes(self.nbytes)} but only "
                              f"{fmt_bytes(free)} is available: index it instead (roll[s0], roll[:, :, 0], ...)")
        out = np.empty(self.shape, dtype=np.bool_)
        for block in blocks(self.shape, READ_CHUNK):
            out[block] = self[block]
        return out

    # -- reading ----------------------------------------------------------------------------------------------
    def _rows(self, flat: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
        """The decisions of the states ``flat`` (flat indexes): flat.shape + (G, D), stopping wins masked."""
        G, N, D = self.target, self.players, self.substates
        rows = unpack_roll(self._bits[flat], G, D)[..., 1:]
        own = (flat // G ** (N - 1))[..., None] + np.arange(G)          # own score + turn points
        return np.asarray(rows & (own < G)[..., None], dtype=np.bool_)

    def _basic(self, parts: tuple[Any, ...]) -> npt.NDArray[np.bool_] | None:
        """Integers, slices, new axes and one ``...``: unpack the selected states' rows (None for any other key)."""
        if sum(p is Ellipsis for p in parts) > 1:
            raise PolicyIndexError("an index can only have a single ellipsis ('...')")
        if not all(p is Ellipsis or p is None or isinstance(p, (slice, int, np.integer))
                   and not isinstance(p, (bool, np.bool_)) for p in parts):
            return None
        if Ellipsis in parts:
            at = parts.index(Ellipsis)
            given = sum(p is not None for p in parts) - 1
            parts = parts[:at] + (slice(None),) * (self.ndim - given) + parts[at + 1:]
        if None in parts:         # new axes go where they stand among the axes kept (ints keep none)
            kept = [p for p in parts if p is not None]
            out = self._basic(tuple(kept))
            assert out is not None
            where = [k for k, p in enumerate(q for q in parts if not isinstance(q, (int, np.integer))) if p is None]
            return np.expand_dims(out, tuple(where)) if where else out
        if len(parts) > self.ndim:
            raise PolicyIndexError(f"too many indices: the decisions have {self.ndim} axes {self.axes}")
        parts = parts + (slice(None),) * (self.ndim - len(parts))
        for axis, (p, size) in enumerate(zip(parts, self.shape)):
            if not isinstance(p, slice) and not -size <= int(p) < size:
                raise self._out_of_range(axis, int(p))
        N, G, D = self.players, self.target, self.substates
        flat: npt.NDArray[np.int64] = np.zeros((), dtype=np.int64)
        for p in parts[:N]:                  # the flat state index of every selected score tuple, broadcast
            coords = np.arange(G, dtype=np.int64)[p]
            flat = (flat[..., None] * G + coords) if coords.ndim else flat * G + coords
        need = flat.size * G * (D + 1) * 3           # each state's row unpacked, as bools, and masked
        free = available_memory()
        if free is not None and need > free:
            raise GonutsError(f"reading {flat.size:,} states' decisions at once takes about {fmt_bytes(need)} "
                              f"but only {fmt_bytes(free)} is available: read fewer at a time (roll[s0], roll[s0, s1], "
                              "...)")
        return self._rows(flat)[(Ellipsis,) + tuple(parts[N:])]

    def _gathered(self, parts: tuple[Any, ...]) -> npt.NDArray[np.bool_]:
        """Any other key: numpy indexes a zero-copy grid of each axis's coordinates with it (its own rules for
        arrays, bools and new axes), and the decisions are read at those coordinates."""
        coords = []
        for axis, size in enumerate(self.shape):
            grid = np.broadcast_to(np.arange(size).reshape([-1 if a == axis else 1 for a in range(self.ndim)]),
                                   self.shape)
            try:
                coords.append(np.asarray(grid[parts]))
            except IndexError as exc:
                raise self._refused(exc) from None
        G, N, D = self.target, self.players, self.substates
        flat = np.ravel_multi_index(tuple(coords[:N]), (G,) * N)
        turn, dice = coords[N], coords[N + 1] + 1
        q = turn * (D + 1) + dice
        rolled = (self._bits[flat, q >> 3] & (128 >> (q & 7))) != 0            # engine/bits.py's layout
        return np.asarray(rolled & (coords[0] + turn < G), dtype=np.bool_)

    def _out_of_range(self, axis: int, index: int) -> PolicyIndexError:
        size = self.shape[axis]
        return PolicyIndexError(f"index {index} is out of range for axis {axis} ({self.axes[axis]}): "
                                f"0 to {size - 1}, or -{size} to -1 from the end")

    def _refused(self, exc: IndexError) -> PolicyIndexError:
        """numpy's refusal, with the axis named."""
        m = re.search(r"index (-?\d+) is out of bounds for axis (\d+)", str(exc))
        if m is None:
            return PolicyIndexError(f"{exc} (the decisions have {self.ndim} axes {self.axes}, shape {self.shape})")
        return self._out_of_range(int(m.group(2)), int(m.group(1)))


def blocks(shape: tuple[int, ...], chunk: int) -> list[tuple[Any, ...]]:
    """Keys of blocks of about ``chunk`` elements that cover an array of ``shape`` in C order, each some whole
    leading indexes and then a range of the next axis: (slice(lo, hi),), (s0, slice(lo, hi)), ... (the last two
    axes, turn and dice, are never split). ``full()`` and ``policies.thresholds_of`` read decisions so."""
    for depth in range(len(shape) - 2):
        inner = int(np.prod(shape[depth + 1:], dtype=np.int64))
        if inner <= chunk or depth == len(shape) - 3:
            per = max(1, chunk // inner)
            return [lead + (slice(lo, min(lo + per, shape[depth])),) for lead in np.ndindex(*shape[:depth])
                    for lo in range(0, shape[depth], per)]
    return [(slice(0, shape[0]),)]
