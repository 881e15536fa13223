r"""Game-agnostic max-n solver for turn-taking jeopardy dice games.

The engine is handed a :class:`~solver.game.turn.TurnModel`, a number of players N
and a target G; it never names a game.

Equations. Let s = (s_0, ..., s_{N-1}) be banked scores in turn order from the
active player and W(s) in [0, 1]^N the win probabilities at the start of the
active player's turn, component k for the player k seats later. A turn that
ends with gain g leads to s' = (s_1, ..., s_{N-1}, s_0 + g), or to a win of
player 0 when s_0 + g >= G; in the old frame its value is C_g = P W(s'), with
(P v)_k = v_{(k-1) mod N}. Within the turn, at decision state (t, n):

    stop(t, n) = C_t
    roll(t, n) = sum_moves p V(t + da, n2) + sum_endings p E_j[C_{gain}]
    V(t, n)    = roll if roll_0 > stop_0 else stop          (exact tie: stop)

with V(t, n) = e_0 (a win) once s_0 + t >= G, and the opening (0, start) rolls.
The turn is a DAG (t descending, n ascending): backward induction is exact.

Layers. Gains are non-negative, so W(s) depends only on states whose score
sum is larger, except through C_0, the value after a turn that gains nothing:
the next state in the rotation orbit of s. Layers are solved from the largest
sum down. In an orbit s_0, ..., s_{L-1} (s_{i+1} = rot s_i), fixed decisions
make every turn value affine in x = C_0: W(s_i) = c_i + b_i P W(s_{i+1}), with
b_i the probability that the turn gains nothing. That cycle is solved in closed
form. Decisions depend on x only through y = x_0; each pass also returns the
interval of y over which its decisions stay greedy.

Stopping rule. An orbit is done when, for every member, the y implied by the
solved values lies in that interval (within ``eps`` = 1e-13): the values then
satisfy the Bellman equations up to rounding. The residual reported is the
largest of |c_i + b_i P W_{i+1} - W_i| and the interval overshoot.

Several equilibria. With three or more players the game is not zero-sum, and
an orbit's turns can have several stationary equilibria (or none in pure
decisions); policy iteration then jumps between policies. If the decisions
have not settled after ``max_pi`` passes, the kernel lists each member's
policies that are greedy over the y its iteration visited (each with its
interval), closes the cycle exactly for every choice of one per member, and
keeps the equilibria: the choices whose y fall in their intervals. It picks
the one with the largest sum of the movers' own chances at their turns
(``SELECTION``); with none, the mixed equilibrium in which one member is
indifferent at one decision and rolls there with the probability that closes
the cycle (a ratio of affine functions of it: a linear equation). Only if that
finds nothing does the orbit fall back to value iteration, capped at
``max_vi`` passes, whose last change is the residual. ``converged`` is True
when every orbit's residual is at most ``tol``. docs/model.md says why the
search ends and what the choice changes.
Twin in the page: ``solver/site/web/src/core/solve.js``.
"""
from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from solver.engine import kernels
from solver.engine.bits import packed_width
from solver.engine.kernels import NO_MIXES, STATS, Kernel, Mixes, ModelArrays
from solver.errors import GonutsError
from solver.game.turn import TurnModel

TOLERANCE = 1e-12
EPS = 1e-13
MAX_PI = 50
MAX_VI = 100_000

SELECTION = "largest sum of the movers' own chances at their turns"
"""The rule that picks one of an orbit's several equilibria (docs/model.md: why)."""

Progress = Callable[[int, int], object]
"""``progress(done, total)``: called as long work goes on (a bar, a callback of the caller's)."""
Checkpoint = Callable[[dict[str, Any]], object]
"""``checkpoint(state)``: given the solve's arrays after each layer (``solve``'s ``resume`` takes them back)."""


class ConvergenceWarning(RuntimeWarning):
    """A solve ended above its tolerance."""


class NotConverged(GonutsError):
    """A solve ended above its tolerance: nothing may be kept or answered from it."""


@dataclass(frozen=True)
class Mixed:
    """Decisions played mixed: at the state ``state[e]`` (flat index of the scores in turn order), the decision
    ``decision[e]`` (flat index of (turn points, dice): t (D + 1) + n), the mover rolls with probability
    ``roll[e]`` and stops otherwise; the two give the mover the same chance. Ascending by state."""
    state: npt.NDArray[np.int64]       # (M,)
    decision: npt.NDArray[np.int64]    # (M,)
    roll: npt.NDArray[np.float64]      # (M,)

    def __len__(self) -> int:
        return len(self.state)

    @staticmethod
    def none() -> Mixed:
        """No mixed decision."""
        return Mixed(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.float64))

    @staticmethod
    def from_stats(stats: np.ndarray) -> Mixed:
        """The mixed decisions a solve's per-orbit stats hold (columns 4 and 8: the states, -1 for none)."""
        rows = np.concatenate([stats[stats[:, 4] >= 0][:, 4:7], stats[stats[:, 8] >= 0][:, 8:11]])
        rows = rows[np.argsort(rows[:, 0], kind="stable")]
        return Mixed(rows[:, 0].astype(np.int64), rows[:, 1].astype(np.int64), rows[:, 2].astype(np.float64))


@dataclass(frozen=True)
class SolveResult:
    """Everything a solve produced. Arrays are indexed by scores in turn order from the active player.

    >>> import solver
    >>> r = solver.solve(players=2, target=20)
    >>> r.converged, r.start_win.shape, r.equilibrium()["orbits_searched"]
    (True, (20, 20, 2), 0)
    """
    players: int
    target: int
    substates: int
    start_win: npt.NDArray[np.float64]           # (G,)*N + (N,)
    roll_bits: npt.NDArray[np.uint8]             # (G,)*N + (ceil(G*(D+1)/8),), bits of the flattened (t, n)
    roll_win: npt.NDArray[np.float64] | None     # (G,)*N + (G, D+1), own win probability if rolling
    stop_win: npt.NDArray[np.float64] | None
    converged: bool
    residual: float
    iterations: int                 # the most passes any orbit needed
    passes: int                     # turn passes over all states
    tolerance: float
    seconds: float
    states: int
    method: str = "layered orbit policy iteration"
    timings: dict[str, float] = field(default_factory=dict)
    searched: int = 0               # orbits whose decisions did not settle, solved by the equilibrium search
    several: int = 0                # ... of them, with several pure equilibria (one picked by ``SELECTION``)
    spread: float = 0.0             # the largest difference between an orbit's equilibria of any chance there
    mixed: Mixed = field(default_factory=Mixed.none)   # decisions played mixed (orbits with no pure equilibrium)
    orbits: tuple[np.ndarray, np.ndarray] | None = None  # with keep_orbits: (representatives, per-orbit STATS rows)

    def equilibrium(self) -> dict[str, Any]:
        """What a table's meta says of the equilibrium: the rule that picks one, and how often it had to."""
        return {"selection": SELECTION, "orbits_searched": self.searched, "orbits_with_several": self.several,
                "mixed_decisions": len(self.mixed)}

    def check(self, game: str) -> None:
        """Refuse (``NotConverged``) a solve that ended above its tolerance, naming ``game`` and the residual."""
        if not self.converged:
            raise NotConverged(f"the solve of {game} did not converge (residual {self.residual:.3g}, tolerance "
                               f"{self.tolerance:.3g}, {self.iterations} iterations): nothing is kept; please "
                               "report it, with this line")

    @property
    def roll(self) -> npt.NDArray[np.bool_]:
        """Unpacked decisions, (G,)*N + (G, D+1) bool: True where rolling is optimal."""
        return unpack_roll(self.roll_bits, self.target, self.substates)

    @property
    def first_player_win(self) -> float:
        """The first player's win probability at 0-0."""
        return float(self.start_win[(0,) * self.players + (0,)])


def corner_report(result: SolveResult, targets: Sequence[int]) -> dict[int, dict[str, Any]]:
    """What a solve of each smaller target would report, read off one solve (``solve(..., keep_orbits=True)``) of
    the same game to a larger target: the game to T is its corner (docs/model.md, "The corner"), whose orbits
    are the orbits all of whose scores are at least G - T. For each T: converged, residual, iterations, the
    orbits searched, with several equilibria, the mixed decisions, the spread and the first player's chance at
    0-0, as ``SolveResult`` and its ``equilibrium()`` say them of a solve of T."""
    if result.orbits is None:
        raise ValueError("corner_report needs a solve made with keep_orbits=True")
    reps, stats = result.orbits
    N, G = result.players, result.target
    low = np.full(len(reps), G - 1, dtype=np.int64)
    rest = reps.copy()
    for _ in range(N):                                   # the smallest score of each orbit's representative
        low = np.minimum(low, rest % G)
        rest //= G
    need = G - low                                       # the smallest target whose corner holds the orbit
    size = G + 1
    searched = (stats[:, 3] > 0) | (stats[:, 4] >= 0)
    counts = {name: np.cumsum(np.bincount(need, weights=w.astype(np.float64), minlength=size))
              for name, w in (("searched", searched), ("several", stats[:, 3] > 1),
                              ("mixed", (stats[:, 4] >= 0).astype(np.int64) + (stats[:, 8] >= 0)),
                              ("unconverged", stats[:, 2] != 1.0))}
    tops = {}
    for name, col in (("residual", 1), ("iterations", 0), ("spread", 7)):
        top = np.zeros(size)
        np.maximum.at(top, need, stats[:, col])
        tops[name] = np.maximum.accumulate(top)
    out: dict[int, dict[str, Any]] = {}
    for T in targets:
        if not 1 <= T <= G:
            raise ValueError(f"target {T} is not a corner of the game to {G}")
        residual = float(tops["residual"][T])
        out[T] = {"converged": bool(counts["unconverged"][T] == 0) and residual <= result.tolerance,
                  "residual": residual, "iterations": int(tops["iterations"][T]),
                  "searched": int(counts["searched"][T]), "several": int(counts["several"][T]),
                  "mixed": int(counts["mixed"][T]), "spread": float(tops["spread"][T]),
                  "first_player_win": float(result.start_win[(G - T,) * N + (0,)])}
    return out


def kernel_mixes(per_seat: Sequence[Mixed | None], states: int) -> Mixes:
    """The seats' mixed decisions as the kernel takes them (``kernels.Mixes``): seat a's at key a S + state."""
    parts = [(a * states + m.state, m.decision, m.roll) for a, m in enumerate(per_seat) if m is not None and len(m)]
    if not parts:
        return NO_MIXES
    return (np.concatenate([p[0] for p in parts]).astype(np.int64),
            np.concatenate([p[1] for p in parts]).astype(np.int64),
            np.concatenate([p[2] for p in parts]).astype(np.float64))


def unpack_roll(bits: npt.NDArray[np.uint8], target: int, substates: int) -> npt.NDArray[np.bool_]:
    """Packed decisions (..., packed_width) -> (..., G, D+1) bool."""
    n = target * (substates + 1)
    return np.unpackbits(bits, axis=-1, count=n).reshape(bits.shape[:-1] + (target, substates + 1)).astype(bool)


def orbit_layers(players: int, target: int, canonical: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """States grouped by score sum, descending: the order in which layers are solved.

    With ``canonical`` only the representative (smallest index) of each rotation
    orbit is kept; otherwise every state is (as the seat-0 member of its orbit
    of (state, seat to move) pairs, for policy evaluation). Returns (reps, ptr):
    the l-th layer is reps[ptr[l]:ptr[l+1]].
    """
    N, G = players, target
    # Each score on its own axis: the flat index, the score sum and the rotations' indices are
    # broadcast sums, with no division.
    s = np.arange(G, dtype=np.int64)
    axes = [s.reshape([G if j == k else 1 for j in range(N)]) for k in range(N)]
    weights = [G ** (N - 1 - k) for k in range(N)]
    idx = sum(a * w for a, w in zip(axes, weights)).reshape(-1)
    small = N * (G - 1) < 2 ** 15                       # int16 sums sort by radix
    total = cast(np.ndarray, sum(a.astype(np.int16) if small else a for a in axes)).reshape(-1)
    canon = np.ones(G ** N, dtype=bool)
    for r in range(1, N if canonical else 1):
        canon &= idx <= sum(axes[(k + r) % N] * weights[k] for k in range(N)).reshape(-1)
    reps = idx[canon]
    sums = total[canon]
    order = np.argsort(-sums, kind="stable")
    reps, sums = reps[order], sums[order].astype(np.int64)
    counts = np.bincount(N * (G - 1) - sums, minlength=N * (G - 1) + 1)
    ptr = np.concatenate([[0], np.cumsum(counts)])
    return reps, ptr


def layer_work(players: int, target: int, ptr: np.ndarray) -> np.ndarray:
    """Work done by the end of each layer, for a progress bar that keeps time: a turn from banked score
    s_0 has G - s_0 turn totals, so an orbit of the layer with score sum S costs about N G - S. Its
    entry l is the work of layers 0 .. l - 1 (descending sums, as ``orbit_layers`` gives them)."""
    N, G = players, target
    sums = N * (G - 1) - np.arange(len(ptr) - 1)
    return np.concatenate([[0], np.cumsum(np.diff(ptr) * (N * G - sums))]).astype(np.int64)


def model_arrays(model: TurnModel, target: int) -> ModelArrays:
    """The turn model as the kernel's twelve arrays: moves and endings sorted by source sub-state with their
    offsets, the gain distributions and their tails, and which distributions are used absolutely or relatively."""
    D = model.substates
    mv = np.sort(model.moves, order=["src"], kind="stable")
    en = np.sort(model.endings, order=["src"], kind="stable")
    mv_ptr = np.searchsorted(mv["src"], np.arange(D + 2)).astype(np.int64)
    en_ptr = np.searchsorted(en["src"], np.arange(D + 2)).astype(np.int64)
    dists = np.ascontiguousarray(model.dists, dtype=np.float64)
    if dists.shape[1] != target + 1:
        raise ValueError(f"turn model gain distributions have {dists.shape[1]} bins, target {target} needs "
                         f"{target + 1}")
    tails = np.zeros((len(dists), target + 2))
    tails[:, :-1] = model.tails                     # the model's exact tails, not a sum from the target down
    abs_used = np.zeros(len(dists), dtype=np.bool_)
    rel_used = np.zeros(len(dists), dtype=np.bool_)
    abs_used[en["dist"][~en["rel"]]] = True
    rel_used[en["dist"][en["rel"]]] = True
    return (mv_ptr, np.ascontiguousarray(mv["p"]), np.ascontiguousarray(mv["da"]),
            np.ascontiguousarray(mv["dst"]), en_ptr, np.ascontiguousarray(en["p"]),
            np.ascontiguousarray(en["dist"]), np.ascontiguousarray(en["rel"]),
            dists, tails, abs_used, rel_used)


def convergence(stats: np.ndarray, tol: float, what: str) -> tuple[float, bool, int]:
    """(residual, converged, iterations) of a solve from its per-orbit stats (``kernels.STATS``: passes,
    residual, converged, ...); warns with a ``ConvergenceWarning`` when it is not converged."""
    residual = float(stats[:, 1].max()) if len(stats) else 0.0
    converged = bool(np.all(stats[:, 2] == 1.0)) and residual <= tol
    if not converged:
        warnings.warn(f"{what} ended with residual {residual:.3g} above tolerance {tol:.3g}",
                      ConvergenceWarning, stacklevel=3)
    return residual, converged, int(stats[:, 0].max()) if len(stats) else 0


def prepare() -> float:
    """Compile the solver kernel if it is not compiled yet; returns the seconds it took (0 if it was)."""
    t0 = time.perf_counter()
    kernels.load()
    return time.perf_counter() - t0


def _check_resume(state: Mapping[str, Any], N: int, G: int, D: int, norbits: int, nlayers: int,
                  store_values: bool) -> None:
    want: dict[str, tuple[tuple[int, ...], type[np.generic]]] = {
        "W": ((G ** N, N), np.float64), "bits": ((G ** N, packed_width(G, D)), np.uint8),
        "stats": ((norbits, STATS), np.float64)}
    if store_values:
        want.update(rw=((G ** N, G, D + 1), np.float64), sw=((G ** N, G, D + 1), np.float64))
    for name, (shape, dtype) in want.items():
        a = state.get(name)
        if a is None or a.shape != shape or a.dtype != dtype:
            raise GonutsError("the checkpoint does not match this build; remove it or build without --resume")
    done = int(np.asarray(state.get("layers_done", -1)))
    if not 0 <= done <= nlayers:
        raise GonutsError("the checkpoint does not match this build; remove it or build without --resume")


def solve(model: TurnModel, players: int, target: int, *, tol: float = TOLERANCE,
          store_values: bool | None = None, progress: Progress | None = None,
          resume: Mapping[str, Any] | None = None, checkpoint: Checkpoint | None = None,
          other_extreme: bool = False, keep_orbits: bool = False) -> SolveResult:
    """Solve the game for max-n optimal play. See the module docstring.

    ``other_extreme`` picks, where an orbit has several equilibria, the one with the smallest sum instead of
    ``SELECTION``'s largest: only to measure how much the choice matters (bench/sweep_equilibria.py).
    ``progress(done, total)`` is called after each layer, in units of work (``layer_work``).
    ``resume`` is a saved state from ``checkpoint`` (a callable taking a dict of
    arrays after each layer, returning nothing) to continue from.
    ``keep_orbits`` keeps every orbit's representative and stats in ``orbits`` (``corner_report`` reads every
    smaller target's report off them).
    """

    t0 = time.perf_counter()
    N, G, D = players, target, model.substates
    if store_values is None:
        store_values = N == 2
    arrays = model_arrays(model, G)
    reps, ptr = orbit_layers(N, G)
    nlayers = len(ptr) - 1
    nbytes = packed_width(G, D)
    if resume is not None:
        _check_resume(resume, N, G, D, len(reps), nlayers, store_values)
        W, bits, stats, done = resume["W"], resume["bits"], resume["stats"], int(resume["layers_done"])
        rw, sw = resume.get("rw"), resume.get("sw")
    else:
        W = np.zeros((G ** N, N))
        bits = np.zeros((G ** N, nbytes), dtype=np.uint8)
        stats = np.zeros((len(reps), STATS))
        stats[:, [4, 8]] = -1.0
        rw = sw = None
        done = 0
        if store_values:
            rw = np.zeros((G ** N, G, D + 1))
            sw = np.zeros((G ** N, G, D + 1))
    dummy = np.zeros((1, 1, 1))
    work = layer_work(N, G, ptr)
    t_setup = time.perf_counter() - t0
    total_states = G ** N
    with Kernel(N, N, G, D, model.start, nbytes, arrays) as kernel:
        for layer in range(done, nlayers):
            lo, hi = ptr[layer], ptr[layer + 1]
            if hi > lo:
                kernel.solve_layer(reps[lo:hi], W, bits, rw if store_values and rw is not None else dummy,
                                   sw if store_values and sw is not None else dummy, store_values, tol, EPS,
                                   MAX_PI, MAX_VI, stats[lo:hi], select=int(other_extreme))
            if checkpoint is not None:
                checkpoint({"W": W, "bits": bits, "stats": stats, "layers_done": layer + 1,
                            **({"rw": rw, "sw": sw} if store_values else {})})
            if progress is not None:
                progress(int(work[layer + 1]), int(work[-1]))
    seconds = time.perf_counter() - t0
    residual, converged, iterations = convergence(stats, tol, "solve")
    shape = (G,) * N
    return SolveResult(
        players=N, target=G, substates=D,
        start_win=W.reshape(shape + (N,)),
        roll_bits=bits.reshape(shape + (nbytes,)),
        roll_win=rw.reshape(shape + (G, D + 1)) if store_values and rw is not None else None,
        stop_win=sw.reshape(shape + (G, D + 1)) if store_values and sw is not None else None,
        converged=converged, residual=residual,
        iterations=iterations,
        passes=int(stats[:, 0].sum()), tolerance=tol, seconds=seconds, states=total_states,
        timings={"setup": t_setup, "total": seconds},
        searched=int(np.count_nonzero((stats[:, 3] > 0) | (stats[:, 4] >= 0))),
        several=int(np.count_nonzero(stats[:, 3] > 1)), mixed=Mixed.from_stats(stats),
        spread=float(stats[:, 7].max()) if len(stats) else 0.0,
        orbits=(reps, stats) if keep_orbits else None,
    )
