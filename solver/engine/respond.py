r"""Exact best response: some seats follow fixed policies, the others play to win against them.

Seats in ``greedy`` choose, at every decision, the action with the larger own win
probability; the other seats' decisions are read from their packed policies. With
one greedy seat this is that seat's exact best response to the others; with
several, the max-n solution among them with the rest fixed; with every seat
greedy, the optimal (max-n) play of ``engine.solve``.

Values depend on which seat is to move, so, as in ``evaluate``, a state is
(scores in turn order from the seat to move, that seat), and the orbit of
(s, seat 0) is (rot^i s, seat i), i < N. Each orbit is solved as
``engine.solve`` solves its orbits: for fixed decisions every turn value is
affine in the value after a zero-gain turn, the cycle is closed exactly, and
the greedy seats' decisions are iterated on that one scalar until they settle
(policy iteration), with capped value iteration as the fallback. The same
stopping rule, tolerance and convergence report as ``engine.solve``.
"""
from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from solver.engine.bits import packed_width
from solver.engine.kernels import STATS, Kernel
from solver.engine.solve import (
    EPS,
    MAX_PI,
    MAX_VI,
    TOLERANCE,
    Mixed,
    Progress,
    convergence,
    kernel_mixes,
    layer_work,
    model_arrays,
    orbit_layers,
)
from solver.errors import GonutsError
from solver.game.turn import TurnModel


@dataclass(frozen=True)
class ResponseResult:
    players: int
    target: int
    greedy: tuple[int, ...]      # the seats that played to win
    bits: np.ndarray             # (N, G**N, nbytes): packed decisions of every seat (fixed seats: as given)
    values: np.ndarray           # (N, G**N, N): win probabilities when seat a is to move, turn order from it
    converged: bool
    residual: float
    iterations: int
    tolerance: float
    seconds: float

    def report(self) -> dict[str, object]:
        """The solver's numbers, as a table's ``solver`` meta says them."""
        return {"method": "layered orbit policy iteration (best response)", "tolerance": self.tolerance,
                "residual": self.residual, "iterations": self.iterations, "converged": self.converged,
                "seconds": round(self.seconds, 4), "greedy_seats": list(self.greedy)}


def respond(model: TurnModel, players: int, target: int, seat_bits: Sequence[np.ndarray | None],
            greedy: Iterable[int], *, seat_mixed: Sequence[Mixed | None] = (), tol: float = TOLERANCE,
            progress: Progress | None = None) -> ResponseResult:
    """Best response of the seats in ``greedy`` to the others' ``seat_bits`` (packed, (G**N, nbytes) each;
    ignored for greedy seats, which may be None), mixed where ``seat_mixed[a]`` says (a table's ``Mixed``)."""
    t0 = time.perf_counter()
    N, G, D = players, target, model.substates
    S, nbytes = G ** N, packed_width(G, D)
    seats = tuple(sorted(set(int(a) for a in greedy)))
    if not seats or not all(0 <= a < N for a in seats):
        raise ValueError(f"greedy seats must be some of 0..{N - 1}, not {seats}")
    pbits = np.zeros((N, S, nbytes), dtype=np.uint8)
    for a, b in enumerate(seat_bits):
        if a not in seats:
            pbits[a] = np.asarray(b, dtype=np.uint8).reshape(S, nbytes)
    mask = np.array([a in seats for a in range(N)], dtype=np.uint8)
    mixes = kernel_mixes([m if a not in seats else None for a, m in enumerate(seat_mixed)], S)
    reps, ptr = orbit_layers(N, G, canonical=False)
    work = layer_work(N, G, ptr)
    V = np.zeros((N, S, N))
    stats = np.zeros((len(reps), STATS))
    stats[:, [4, 8]] = -1.0
    with Kernel(N, N, G, D, model.start, nbytes, model_arrays(model, G)) as kernel:
        for layer in range(len(ptr) - 1):
            lo, hi = ptr[layer], ptr[layer + 1]
            if hi > lo:
                kernel.respond_layer(reps[lo:hi], V, pbits, mixes, mask, pbits, tol, EPS, MAX_PI, MAX_VI, stats[lo:hi])
            if progress is not None:
                progress(int(work[layer + 1]), int(work[-1]))
    residual, converged, iterations = convergence(stats, tol, "best response")
    return ResponseResult(N, G, seats, pbits, V, converged, residual, iterations, tol,
                          time.perf_counter() - t0)


@dataclass(frozen=True)
class DeviationResult:
    """One seat's exact best response to the others all playing one policy (``deviate``).

    * ``values[a, state]``: the deviator's win probability with the seat ``a`` places after it to move (scores in
      turn order from that seat), playing its best response;
    * ``bits``: its decisions, packed (``(G**N, nbytes)``, scores in turn order from the deviator), or None;
    * ``gain``: against ``baseline`` (the others' own table, when given), the largest rise of the deviator's chance
      over every state and seat to move, at ``where`` (seat, scores), and ``baseline`` the chance there; where the
      policy is an equilibrium, no more than rounding.
    """
    players: int
    target: int
    values: np.ndarray                  # (N, G**N)
    bits: np.ndarray | None
    converged: bool
    residual: float
    iterations: int
    tolerance: float
    seconds: float
    gain: float | None = None
    where: tuple[int, tuple[int, ...]] | None = None
    baseline: float | None = None

    def report(self) -> dict[str, object]:
        """The proof's numbers, as a table's ``solver`` meta says a solve's."""
        out: dict[str, object] = {"method": "layered orbit policy iteration (one seat against the rest)",
                                  "tolerance": self.tolerance, "residual": self.residual,
                                  "iterations": self.iterations, "converged": self.converged,
                                  "seconds": round(self.seconds, 4), "greedy_seats": [0]}
        if self.gain is not None:
            out["gain"] = self.gain
            out["where"] = None if self.where is None else [self.where[0], list(self.where[1])]
        return out


def deviate(model: TurnModel, players: int, target: int, bits: np.ndarray, mixed: Mixed | None = None, *,
            values: np.ndarray | None = None, keep_bits: bool = False, eps: float = EPS, tol: float = TOLERANCE,
            progress: Progress | None = None) -> DeviationResult:
    """The exact best response of one seat to the other N - 1 all playing the packed policy ``bits`` ((G**N,
    nbytes), scores in turn order from the mover; mixed where ``mixed`` says): ``respond`` with one greedy seat
    and the rest alike, carrying only the deviator's own chance (one component per state and seat to move, not N),
    so that it costs about a solve. By the game's rotation symmetry the seat does not matter. With ``values`` (the
    table's ``(G**N, N)`` win probabilities, turn order from the mover), the result says the largest ``gain`` a
    seat has by deviating anywhere: the proof that the table is an equilibrium, state by state.

    >>> from solver import Rules
    >>> from solver.engine.solve import solve
    >>> from solver.game.turn import turn_model
    >>> model = turn_model(Rules.from_options(players=3, target=15))
    >>> table = solve(model, 3, 15)
    >>> dev = deviate(model, 3, 15, table.roll_bits, table.mixed, values=table.start_win)
    >>> dev.converged, dev.gain is not None and dev.gain < 1e-12, dev.values.shape
    (True, True, (3, 3375))
    """
    t0 = time.perf_counter()
    N, G, D = players, target, model.substates
    S, nbytes = G ** N, packed_width(G, D)
    if np.size(bits) != S * nbytes:
        raise GonutsError(f"the others' decisions must be {S} x {nbytes} packed bytes for {N} players to {G}, "
                          f"not {np.shape(bits)}")
    if values is not None and np.size(values) != S * N:
        raise GonutsError(f"the table's values must be {S} x {N} for {N} players to {G}, not {np.shape(values)}")
    pbits = np.ascontiguousarray(bits, dtype=np.uint8).reshape(S, nbytes)
    mixes = kernel_mixes([mixed], S)
    reps, ptr = orbit_layers(N, G, canonical=False)
    work = layer_work(N, G, ptr)
    V = np.zeros((N, S))
    dbits = np.zeros((S, nbytes), dtype=np.uint8) if keep_bits else None
    W0 = None if values is None else np.ascontiguousarray(values, dtype=np.float64).reshape(S, N)
    layer_stats = np.zeros((int(np.diff(ptr).max(initial=0)), 3))      # one layer's at a time: S rows is GBs at 100
    folded = np.array([[0.0, 0.0, 1.0]])                                  # passes, residual, converged: the worst
    with Kernel(N, 1, G, D, model.start, nbytes, model_arrays(model, G)) as kernel:
        for layer in range(len(ptr) - 1):
            lo, hi = ptr[layer], ptr[layer + 1]
            if hi > lo:
                st = layer_stats[:hi - lo]
                kernel.deviate_layer(reps[lo:hi], V, pbits, mixes, W0, dbits, eps, MAX_PI, st)
                folded = np.array([[max(folded[0, 0], st[:, 0].max()), max(folded[0, 1], st[:, 1].max()),
                                    min(folded[0, 2], st[:, 2].min())]])
            if progress is not None:
                progress(int(work[layer + 1]), int(work[-1]))
    residual, converged, iterations = convergence(folded, tol, "best response")
    gain = where = base = None
    if W0 is not None:
        W = W0
        gain = -np.inf
        for a in range(N):                       # the seat a places after the deviator moves: it is (N - a) % N on
            d = V[a] - W[:, (N - a) % N]         # from the mover
            i = int(np.argmax(d))
            if d[i] > gain:
                gain, where, base = float(d[i]), (a, tuple(int(x) for x in np.unravel_index(i, (G,) * N))), \
                    float(W[i, (N - a) % N])
            del d
    return DeviationResult(N, G, V, dbits, converged, residual, iterations, tol, time.perf_counter() - t0,
                           gain, where, base)

