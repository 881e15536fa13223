r"""Exact evaluation of fixed strategies: every seat's win probability, and the game's expected length.

Each seat a plays its own fixed policy. The state is (scores in turn order
from the player to move, the seat to move), and the value vector V_a(s) has
N win probabilities (component k: the seat k places after a) and the
expected number of turns still to be played, this one included. The same
layered scheme as the solver applies: a turn that gains nothing passes play
to the next seat with the scores rotated, so the orbit (rot^i s, seat i),
i < N, is one cycle of affine equations solved in closed form:

    V_i = c_i + b_i (P V_{i+1} + e_turns),     V_N = V_0,

with b_i the probability that seat i's turn gains nothing. No iteration and
no sampling: the values are exact up to rounding. If the policies never end
the game from some scores (every seat always stops with nothing), evaluation
is refused.
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from solver.engine.bits import packed_width
from solver.engine.kernels import Kernel
from solver.engine.solve import Mixed, Progress, kernel_mixes, layer_work, model_arrays, orbit_layers
from solver.errors import GonutsError
from solver.game.turn import TurnModel


@dataclass(frozen=True)
class EvalResult:
    """The exact values of a game under fixed policies, one per seat.

    * ``win``: each seat's win probability from 0-0 (a fraction), seat 0 first, or averaged over who moves first
      when ``both_orders`` is set (``solver.evaluate(..., both_orders=True)``); ``expected_turns`` likewise;
    * ``win_when_starting(seat, scores=None)``, ``turns_when_starting(seat)``: one order, from any scores;
    * ``win_both_orders``, ``expected_turns_both_orders``: averaged over who moves first, whatever ``both_orders``;
    * ``probabilities[a, state]``: every seat's win probability (seat order from the one to move) with seat ``a``
      to move, the state's index ``s0 G^(N-1) + ... + s_(N-1)`` (scores in turn order from the mover);
      ``turns[a, state]``: the expected turns left, this one included (``values`` holds both, the turns last).

    >>> import solver
    >>> r = solver.evaluate(["hold:20", "optimal"], players=2)
    >>> r.probabilities.shape, r.turns.shape, round(r.expected_turns, 1)
    ((2, 2500, 2), (2, 2500), 14.5)
    """
    players: int
    target: int
    values: npt.NDArray[np.float64]        # (N, G**N, N + 1): V_a for each seat a to move
    seconds: float
    both_orders: bool = False

    @property
    def probabilities(self) -> npt.NDArray[np.float64]:
        """(N, G**N, N): with seat a to move, every seat's win probability, seat order from the mover."""
        return self.values[..., :self.players]

    @property
    def turns(self) -> npt.NDArray[np.float64]:
        """(N, G**N): with seat a to move, the expected turns left, this one included."""
        return self.values[..., self.players]

    def win_when_starting(self, seat: int, scores: Sequence[int] | None = None) -> npt.NDArray[np.float64]:
        """Every seat's win probability (absolute seat order) when ``seat`` moves first."""
        N, G = self.players, self.target
        idx = 0 if scores is None else int(np.ravel_multi_index(tuple(scores), (G,) * N))
        rel = self.values[seat, idx, :N]
        return np.array([rel[(a - seat) % N] for a in range(N)], dtype=np.float64)

    def turns_when_starting(self, seat: int) -> float:
        """The expected number of turns left when ``seat`` moves first from 0-0."""
        return float(self.values[seat, 0, self.players])

    @property
    def win(self) -> npt.NDArray[np.float64]:
        """Each seat's win probability from 0-0: seat 0 first, or averaged over who moves first (``both_orders``)."""
        return self.win_both_orders if self.both_orders else self.win_when_starting(0)

    @property
    def expected_turns(self) -> float:
        """The expected number of turns in a game: seat 0 first, or averaged over who moves first."""
        return self.expected_turns_both_orders if self.both_orders else self.turns_when_starting(0)

    @property
    def win_both_orders(self) -> npt.NDArray[np.float64]:
        """Each seat's win probability averaged over which seat moves first."""
        return np.asarray(np.mean([self.win_when_starting(a) for a in range(self.players)], axis=0))

    @property
    def expected_turns_both_orders(self) -> float:
        """The expected number of turns in a game, averaged over which seat moves first."""
        return float(np.mean([self.turns_when_starting(a) for a in range(self.players)]))


def evaluate(model: TurnModel, players: int, target: int, seat_bits: Sequence[np.ndarray],
             progress: Progress | None = None, seat_mixed: Sequence[Mixed | None] = ()) -> EvalResult:
    """Exact values when seat a follows ``seat_bits[a]`` (packed decisions, (G**N, nbytes) uint8), mixed where
    ``seat_mixed[a]`` says (a table's ``Mixed``)."""

    t0 = time.perf_counter()
    N, G, D = players, target, model.substates
    nbytes = packed_width(G, D)
    pbits = np.empty((N, G ** N, nbytes), dtype=np.uint8)
    for a, bits in enumerate(seat_bits):
        pbits[a] = np.asarray(bits, dtype=np.uint8).reshape(G ** N, nbytes)
    arrays = model_arrays(model, G)
    mixes = kernel_mixes(seat_mixed, G ** N)
    reps, ptr = orbit_layers(N, G, canonical=False)
    work = layer_work(N, G, ptr)
    V = np.zeros((N, G ** N, N + 1))
    gaps = np.ones(len(reps))
    with Kernel(N, N + 1, G, D, model.start, nbytes, arrays) as kernel:
        for layer in range(len(ptr) - 1):
            lo, hi = ptr[layer], ptr[layer + 1]
            if hi > lo:
                kernel.evaluate_layer(reps[lo:hi], V, pbits, mixes, gaps[lo:hi])
            if progress is not None:
                progress(int(work[layer + 1]), int(work[-1]))
    if gaps.min() <= 1e-14:
        s = np.unravel_index(reps[int(np.argmin(gaps))], (G,) * N)
        raise GonutsError(f"these policies never end the game from scores {tuple(int(x) for x in s)}: "
                          "every seat stops without scoring")
    return EvalResult(N, G, V, time.perf_counter() - t0)


__all__ = ["EvalResult", "evaluate"]
