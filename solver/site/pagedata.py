"""The tables' start-of-turn win probabilities as the page carries them.

* **2 and 3 players**: ``f64``, the float64 values themselves (little-endian), the last seat's
  component left out (one minus the others): exact.
* **4 players**: ``lorenzo``. 6.25 M states x 3 components would be 150 MB as float64, so the
  cumulative sums C_k = W_0 + ... + W_k (k < 3) are rounded to a step of 2^-17, each one's
  integer grid is replaced by its 4-D Lorenzo residual (the finite difference along all four score
  axes: what remains after predicting a value from its neighbours below it), zigzag-coded, split
  into byte planes and deflated at level 9 (zlib format, which the browser's own
  ``DecompressionStream("deflate")`` reads). The page undoes it with a cumulative sum along each
  axis. Each C_k is within 2^-18 of the table, so each seat's probability W_k = C_k - C_{k-1}
  (the last: 1 - C_2) is within 2^-17 = 7.6e-6; every number the page derives is an average of
  these, so it is within that of ``advise --json`` too. ``encode`` measures the error it made
  and refuses to exceed the bound.
"""
from __future__ import annotations

import zlib
from typing import Any

import numpy as np

from solver.engine.solve import Progress
from solver.errors import GonutsError

STEP_BITS = 17
BOUND = 2.0 ** -STEP_BITS          # the stated precision of a 4-player page, per seat and per number
PACKED_FROM = 4                    # players from which the start_win values are encoded


def encode(start_win: np.ndarray, progress: Progress | None = None) -> tuple[dict[str, Any], bytes]:
    """(descriptor, bytes) of one table's ``start_win`` ((G,)*N + (N,)); ``progress(done, total)`` after
    each component, the deflate and the check (4 players: some 30 s of work)."""
    N = start_win.shape[-1]
    if N < PACKED_FROM:
        raw = np.ascontiguousarray(start_win[..., :N - 1], dtype="<f8").tobytes()
        return {"encoding": "f64", "components": N - 1, "precision": 0.0}, raw
    C = np.cumsum(start_win[..., :N - 1], axis=-1)
    q = np.rint(np.ldexp(C, STEP_BITS)).astype(np.int64)
    planes, widths = [], []
    steps = N + 1
    for c in range(N - 1):
        r = q[..., c]
        for axis in range(N):
            r = np.diff(r, axis=axis, prepend=0)
        z = ((r << 1) ^ (r >> 63)).astype(np.uint64).ravel()
        width = max(1, (int(z.max()).bit_length() + 7) // 8)
        planes += [((z >> np.uint64(8 * k)) & np.uint64(255)).astype(np.uint8).tobytes() for k in range(width)]
        widths.append(width)
        if progress:
            progress(c + 1, steps)
    blob = zlib.compress(b"".join(planes), 9)
    if progress:
        progress(N, steps)
    desc = {"encoding": "lorenzo", "components": N - 1, "step_bits": STEP_BITS, "planes": widths}
    err = float(np.abs(decode(desc, blob, start_win.shape) - start_win).max())
    if not err <= BOUND:
        raise GonutsError(f"the 4-player page encoding is off by {err:.2e}, more than its stated {BOUND:.2e}")
    desc["precision"] = err
    if progress:
        progress(steps, steps)
    return desc, blob


def decode(desc: dict[str, Any], blob: bytes, shape: tuple[int, ...]) -> np.ndarray:
    """``start_win`` back from ``encode``'s output (what the page computes, for the tests and the check)."""
    N = shape[-1]
    if desc["encoding"] == "f64":
        part = np.frombuffer(blob, dtype="<f8").reshape(shape[:-1] + (N - 1,))
        rest = np.ones(shape[:-1] + (1,))
        for k in range(N - 1):                       # the last seat's share as the page computes it, bit for bit
            rest = rest - part[..., k:k + 1]
        return np.concatenate([part, rest], axis=-1)
    return Shares(cumulative(desc, blob, shape))[...]


def cumulative(desc: dict[str, Any], blob: bytes, shape: tuple[int, ...]) -> np.ndarray:
    """A ``lorenzo`` encoding's cumulative shares C_0..C_{N-2} ((G,)*N + (N-1,) float32, exact: multiples of
    2^-step_bits below 2), what the page's core decodes to (``decodeLorenzo``)."""
    N = shape[-1]
    raw = np.frombuffer(zlib.decompress(blob), dtype=np.uint8)
    S = int(np.prod(shape[:-1]))
    C = np.empty((S, N - 1), dtype=np.float32)
    at = 0
    for c, width in enumerate(desc["planes"]):      # one cumulative component at a time (memory: a few S)
        z = np.zeros(S, dtype=np.int64)
        for k in range(width):
            z |= raw[at:at + S].astype(np.int64) << (8 * k)
            at += S
        r = ((z >> 1) ^ -(z & 1)).reshape(shape[:-1])
        for axis in range(N):
            np.cumsum(r, axis=axis, out=r)
        C[:, c] = np.ldexp(r.reshape(S).astype(np.float64), -desc["step_bits"])
    return C.reshape(shape[:-1] + (N - 1,))


class Shares:
    """Start-of-turn values from cumulative shares (an array or a memory map of ``cumulative``): seat j's
    share is C_j - C_{j-1}, the last seat's 1 - C_{N-2}, in float64 as the page subtracts them."""

    def __init__(self, C: np.ndarray) -> None:
        self.C = C
        self.shape = C.shape[:-1] + (C.shape[-1] + 1,)

    def __getitem__(self, index: Any) -> np.ndarray:
        C = np.asarray(self.C[index], dtype=np.float64)
        W = np.empty(C.shape[:-1] + (C.shape[-1] + 1,))
        W[..., 0] = C[..., 0]
        W[..., 1:-1] = C[..., 1:] - C[..., :-1]
        W[..., -1] = 1.0 - C[..., -1]
        return W
