"""Fair head starts: the points each later seat starts with so that every seat's chance is closest to 1/N.

Seat 1 moves first and starts at 0; seat k starts with h_k points. Under optimal
play by everyone, each seat's win probability is read exactly from the table:
``start_win[0, h_2, ..., h_N]`` (scores in turn order from seat 1, who moves
first). The search covers every integer vector 0 <= h_k < target at once and
picks the smallest largest deviation from the fair share 1/N; among equals the
smallest total head start, then the smallest head starts seat by seat.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from solver.errors import StateError
from solver.store.tables import Table


@dataclass(frozen=True)
class FairStart:
    players: int
    target: int
    head_starts: tuple[int, ...]          # points of seats 2..N (seat 1 starts at 0)
    before: tuple[float, ...]               # each seat's win probability from 0-0-...
    after: tuple[float, ...]                # each seat's win probability with the head starts
    deviation: float            # largest |after_k - 1/N|

    def to_dict(self) -> dict[str, object]:
        return {"players": self.players, "target": self.target, "head_starts": [0, *self.head_starts],
                "win_before": list(self.before), "win_after": list(self.after), "max_deviation": self.deviation,
                "max_deviation_before": float(max(abs(p - 1 / self.players) for p in self.before))}


def _probs(sw: np.ndarray, heads: Sequence[int]) -> tuple[float, ...]:
    return tuple(float(x) for x in sw[(0,) + tuple(heads)])


def check_heads(N: int, G: int, head_starts: Iterable[int]) -> tuple[int, ...]:
    """Head starts for seats 2..N of an N-player game to G, or a StateError saying what is wrong."""
    heads = tuple(head_starts)
    if len(heads) != N - 1:
        raise StateError(f"give {N - 1} head start{'s' if N != 2 else ''}, one for each seat after the first "
                         f"(--players {N}); got {len(heads)}")
    for h in heads:
        if not 0 <= h < G:
            raise StateError(f"head start {h} is outside 0..{G - 1}: a seat that starts at {G} has already won")
    return heads


def fair_start(table: Table, head_starts: Iterable[int] | None = None) -> FairStart:
    """The fairest head starts (or, given ``head_starts`` for seats 2..N, those), exactly from the table."""
    N, G = table.players, table.target
    sw = table.arrays["start_win"]
    before = _probs(sw, (0,) * (N - 1))
    if head_starts is not None:
        heads = check_heads(N, G, head_starts)
    else:
        dev = np.abs(sw[0] - 1.0 / N).max(axis=-1)                 # (G,)*(N-1): over every head-start vector
        best = dev.min()
        cands = np.argwhere(dev == best)
        heads = tuple(int(x) for x in min(map(tuple, cands), key=lambda h: (sum(h), h)))
    after = _probs(sw, heads)
    return FairStart(N, G, heads, before, after, float(max(abs(p - 1.0 / N) for p in after)))
