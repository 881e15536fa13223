"""Policies as values.

A policy decides, at a decision state, whether the player to move rolls. Every
policy here offers two views of itself:

* ``decide(scores, turn, dice) -> bool array``: vectorised (``scores`` is an
  (M, N) integer array in turn order from the player to move, ``turn`` and
  ``dice`` are (M,) arrays; True = roll). The simulator calls this.
* ``bits(G, N, D)``: its decision at every state of a game, packed like a
  table's ``roll_bits``, ``(G**N, ceil(G*(D+1)/8))`` uint8. Exact evaluation
  reads this.

Named policies (``parse``): ``optimal`` (a table), ``hold:K`` (stop once the
turn holds K points), ``hold:K/D`` (also stop with D or fewer live dice),
``dice:K1-K2-K3-K4-K5`` (stop at K_n points with n live dice), ``maxpoints`` (the
turn policy that maximises expected points per turn, ignoring scores), a path
to an ``.npz`` table, or a Python callable ``module:function`` /
``file.py:function`` taking ``(scores, turn, dice)`` (scores a tuple in turn
order from the player to move) and returning a bool. Every policy stops when
stopping reaches the target: such a state is a win.
"""
from __future__ import annotations

import functools
import importlib
import importlib.util
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from solver.engine.bits import packed_width
from solver.engine.solve import Mixed
from solver.game.payout import nuts_gain_mean
from solver.game.rules import Rules
from solver.game.states import Action, check_state
from solver.game.turn import TurnModel, turn_model
from solver.lab import decisions, grammar
from solver.lab.decisions import Decisions
from solver.lab.grammar import PolicyError
from solver.store import tables
from solver.store.library import Tables
from solver.store.tables import Table


class Policy:
    """A decision at every state: ``decide`` for batches of states, ``bits`` for all of a game's (module)."""
    name = "policy"

    def decide(self, scores: np.ndarray, turn: np.ndarray, dice: np.ndarray) -> np.ndarray:
        """True where the player to move rolls: ``scores`` (M, N) in turn order from them, ``turn`` and
        ``dice`` (M,)."""
        raise NotImplementedError

    def __call__(self, scores: np.ndarray, turn: np.ndarray, dice: np.ndarray) -> np.ndarray:
        return self.decide(scores, turn, dice)

    def mixed(self, G: int, N: int, D: int) -> Mixed | None:
        """The decisions this policy plays mixed (a table's, where an orbit has no pure equilibrium), or None."""
        return None

    def bits(self, G: int, N: int, D: int) -> np.ndarray:
        """Decisions at every state, by calling ``decide`` on them in chunks."""
        S = G ** N
        out = np.zeros((S, packed_width(G, D)), dtype=np.uint8)
        tn = np.array([(t, n) for t in range(G) for n in range(1, D + 1)])
        step = max(1, 200_000 // len(tn))
        for lo in range(0, S, step):
            idx = np.arange(lo, min(S, lo + step))
            scores = np.array(np.unravel_index(idx, (G,) * N)).T
            rows = np.repeat(np.arange(len(idx)), len(tn))
            sc = scores[rows]
            t = np.tile(tn[:, 0], len(idx))
            n = np.tile(tn[:, 1], len(idx))
            live = sc[:, 0] + t < G
            roll = np.zeros(len(rows), dtype=bool)
            roll[live] = self.decide(sc[live], t[live], n[live])
            grid = np.zeros((len(idx), G, D + 1), dtype=bool)
            grid[rows, t, n] = roll
            out[lo:lo + len(idx)] = np.packbits(grid.reshape(len(idx), -1), axis=1)
        return out


class BitsPolicy(Policy):
    """A policy given by packed decisions over every state (what everything compiles to), mixed where ``mixed``
    says: there ``decide`` rolls with the mixed probability, by a coin of ``rng`` (seeded by the caller)."""

    def __init__(self, bits: np.ndarray, G: int, N: int, D: int, name: str = "table", mixed: Mixed | None = None,
                 rng: np.random.Generator | None = None) -> None:
        self._bits = np.asarray(bits, dtype=np.uint8).reshape(G ** N, packed_width(G, D))
        self.G, self.N, self.D, self.name = G, N, D, name
        self._mixed = mixed if mixed is not None and len(mixed) else None
        self._rng = rng if rng is not None else np.random.default_rng(0)

    def decide(self, scores: np.ndarray, turn: np.ndarray, dice: np.ndarray) -> np.ndarray:
        scores, turn, dice = np.asarray(scores), np.asarray(turn), np.asarray(dice)
        inside = scores[:, 0] + turn < self.G
        out = np.zeros(len(turn), dtype=bool)
        idx = np.ravel_multi_index(tuple(scores[inside].T), (self.G,) * self.N)
        q = turn[inside] * (self.D + 1) + dice[inside]
        out[inside] = (self._bits[idx, q >> 3] & (128 >> (q & 7))) != 0
        if self._mixed is not None and len(idx):
            width = self.G * (self.D + 1)
            keys = self._mixed.state * width + self._mixed.decision       # ascending: by state, one per orbit
            at = np.searchsorted(keys, idx * width + q)
            hit = (at < len(keys)) & (keys[np.minimum(at, len(keys) - 1)] == idx * width + q)
            if hit.any():
                rows = np.flatnonzero(inside)[hit]
                out[rows] = self._rng.random(len(rows)) < self._mixed.roll[at[hit]]
        return out

    def mixed(self, G: int, N: int, D: int) -> Mixed | None:
        return self._mixed

    def bits(self, G: int, N: int, D: int) -> np.ndarray:
        if (G, N, D) != (self.G, self.N, self.D):
            raise PolicyError(f"policy {self.name} is for {self.N} players, target {self.G}, not {N} and {G}")
        return self._bits


class BestSeat(Policy):
    """``best``: the exact best response to the other seats, solved by ``strategy.resolve``."""
    name = "best"

    def decide(self, scores: np.ndarray, turn: np.ndarray, dice: np.ndarray) -> np.ndarray:
        raise PolicyError("best is solved against the other seats first (strategy.resolve)")

    def bits(self, G: int, N: int, D: int) -> np.ndarray:
        raise PolicyError("best is solved against the other seats first (strategy.resolve)")


class ResponsePolicy(BitsPolicy):
    """A seat's best response, with the convergence report of the solve that found it."""

    def __init__(self, bits: np.ndarray, G: int, N: int, D: int, report: dict[str, object]) -> None:
        super().__init__(bits, G, N, D, "best")
        self.report = report


class TablePolicy(BitsPolicy):
    """A table's play (optimal: the equilibrium it holds), as data and as a policy ``evaluate`` and ``simulate``
    take. ``action`` and ``roll_probability`` answer one state; ``roll`` is every decision, a bool array with the
    named ``axes`` (the scores in turn order from the player to move, the turn's points, the live dice: index d-1
    for d dice, no column for none); ``thresholds()`` the turn points at which play first stops, and the states
    that roll again above them (play is not monotone in the turn's points: docs/library.md).

    >>> import solver
    >>> p = solver.table(players=2).policy
    >>> p.action((23, 31), turn=7, dice=3), p.roll_probability((23, 31), turn=30, dice=3)
    ('roll', 0.0)
    """

    def __init__(self, table: Table, name: str = "optimal") -> None:
        G, N, D = table.target, table.players, table.substates
        if "roll_bits" in table.arrays:
            bits = np.asarray(table.arrays["roll_bits"], dtype=np.uint8)
        else:
            bits = np.packbits(np.asarray(table.arrays["roll"], dtype=np.bool_).reshape(G ** N, -1), axis=1)
        super().__init__(bits, G, N, D, name, table.mixed)
        self.table = table

    @property
    def axes(self) -> tuple[str, ...]:
        """The names of ``roll``'s axes: ``score 0`` (the player to move), ``score 1`` (the next), ..., ``turn``,
        ``dice``."""
        return tuple(f"score {k}" for k in range(self.N)) + ("turn", "dice")

    @functools.cached_property
    def roll(self) -> Decisions:
        """Every decision: True where the player to move rolls, indexed as a bool array of shape (G,)*N + (G, D),
        ``[*scores, turn, d - 1]`` with d dice live (``lab.decisions.Decisions``: a read unpacks only what it
        selects; ``roll.full()`` is the whole array). Where the equilibrium mixes, the likelier action
        (``roll_probability`` says the mix); where the turn's points reach the target with the scores, False
        (stopping wins)."""
        return Decisions(self._bits, self.G, self.N, self.D, self.axes)

    def roll_probability(self, scores: Sequence[int], turn: int, dice: int) -> float:
        """The probability that the player to move rolls: 1.0 or 0.0, or where the equilibrium mixes its
        probability (an orbit with no pure equilibrium: docs/model.md). Stopping wins: 0.0; the opening roll: 1.0."""
        sc, t, n = check_state(self.table, scores, turn, dice), int(turn), int(dice)
        if sc[0] + t >= self.G:
            return 0.0
        mix = self.table.mix_at(sc, t, n)
        return mix if mix is not None else float(self.table.roll_at(sc, t, n))

    def action(self, scores: Sequence[int], turn: int, dice: int) -> Action:
        """"roll" or "stop" at one state (where the equilibrium mixes, the likelier)."""
        return "roll" if self.roll_probability(scores, turn, dice) > 0.5 else "stop"

    def thresholds(self) -> Thresholds:
        """The turn points at which this play first stops, per state and dice, and the decisions that roll
        again above them (``Thresholds``), read a plane of the mover's score at a time."""
        return thresholds_of(self.roll, self.axes)


@dataclass(frozen=True)
class Thresholds:
    """Where a play first stops: ``stop_at[*scores, d - 1]`` is the smallest turn total at which it stops with d
    dice live (the target minus the own score when it never stops before stopping wins). Play need not be
    monotone: ``rolls_above`` lists the decisions (rows of the scores, the turn's points, the dice) where it rolls
    again at a turn total above ``stop_at``; ``count_above`` is their number per dice (index d - 1).

    >>> import solver
    >>> thr = solver.table(players=2).policy.thresholds()
    >>> int(thr.stop_at[0, 0, 5 - 1]), thr.rolls_above[0].tolist()      # at 0-0 with 5 dice; the first roll above
    (31, [0, 26, 49, 5])
    """
    axes: tuple[str, ...]
    stop_at: npt.NDArray[np.int64]         # (G,)*N + (D,)
    rolls_above: npt.NDArray[np.int64]     # (M, N + 2): scores..., turn, dice
    count_above: npt.NDArray[np.int64]     # (D,)

    @property
    def monotone(self) -> bool:
        """Whether play stops at every turn total from ``stop_at`` on."""
        return len(self.rolls_above) == 0


def thresholds_of(roll: Decisions | npt.NDArray[np.bool_], axes: tuple[str, ...]) -> Thresholds:
    """``Thresholds`` of decisions ``roll`` (as ``TablePolicy.roll``: (G,)*N + (G, D), False where stopping
    wins), read a block of the leading scores at a time (about ``decisions.READ_CHUNK`` decisions): memory for
    the answer, not for every decision. The opening roll (no turn points, every die) is forced: it is no stop."""
    G, D = roll.shape[-2], roll.shape[-1]
    stop_at = np.empty(roll.shape[:-2] + (D,), dtype=np.int64)
    found, count = [], np.zeros(D, dtype=np.int64)
    for block in decisions.blocks(roll.shape, decisions.READ_CHUNK):
        part = np.asarray(roll[block], dtype=np.bool_)
        stops = ~part
        stops[..., 0, D - 1] = False                              # the forced opening roll
        # roll is False where stopping wins, so the first stop is at most the target minus the own score
        first = np.where(stops.any(axis=-2), stops.argmax(axis=-2), G)
        stop_at[block] = first
        above = part & (np.arange(G).reshape((1,) * (part.ndim - 2) + (G, 1)) > first[..., None, :])
        where = np.argwhere(above).astype(np.int64)
        lead = block[:-1]                                        # the whole scores before the block's range
        where[:, 0] += block[-1].start
        where = np.concatenate([np.tile(np.array(lead, dtype=np.int64), (len(where), 1)), where], axis=1)
        where[:, -1] += 1                                         # dice, not their index
        found.append(where)
        count += above.reshape(-1, D).sum(axis=0)
    return Thresholds(axes, stop_at, np.concatenate(found), count)


class TurnRule(Policy):
    """A decision that depends only on the turn (points, live dice) and on whether stopping wins."""

    def __init__(self, roll_tn: np.ndarray, target: int, name: str) -> None:
        self.roll_tn = np.asarray(roll_tn, dtype=bool)     # (T, D+1): roll at (t, n), T >= target
        self.target, self.name = target, name

    def decide(self, scores: np.ndarray, turn: np.ndarray, dice: np.ndarray) -> np.ndarray:
        scores, turn, dice = np.asarray(scores), np.asarray(turn), np.asarray(dice)
        tt = np.minimum(turn, self.roll_tn.shape[0] - 1)
        return np.asarray(self.roll_tn[tt, dice] & (scores[:, 0] + turn < self.target))

    def _per_s0(self, G: int, D: int) -> np.ndarray:
        t = np.arange(G)[:, None]
        return np.array([np.packbits((self.roll_tn[:G, :D + 1] & (s0 + t < G)).ravel()) for s0 in range(G)])

    def bits(self, G: int, N: int, D: int) -> np.ndarray:
        return np.asarray(self._per_s0(G, D)[np.arange(G ** N) // G ** (N - 1)])

    def rows(self, G: int, D: int) -> np.ndarray:
        """Packed decisions by (own score, best opponent's score): (G * G, nbytes), row s0 * G + lead."""
        return np.repeat(self._per_s0(G, D), G, axis=0)


class RaceRule(Policy):
    """``race:K1-...-KD/P/E``, "keep pace, end race": once anyone's banked score is within E points of the
    target, roll until stopping wins; otherwise stop at K_n + round((best opponent - you) / P) turn
    points with n dice live (round half up; P = 0 leaves the pace term out, E = 0 the end race)."""

    def __init__(self, ks: Sequence[int], pace: int, end: int, target: int, name: str) -> None:
        self.ks = np.asarray([0] + list(ks), dtype=np.int64)
        self.pace, self.end, self.target, self.name = pace, end, target, name

    def _roll(self, s0: np.ndarray, lead: np.ndarray, turn: np.ndarray, dice: np.ndarray) -> np.ndarray:
        G = self.target
        thr = self.ks[dice]
        if self.pace:
            thr = thr + np.floor((lead - s0) / self.pace + 0.5).astype(np.int64)
        roll = turn < thr
        if self.end:
            roll = roll | (np.maximum(s0, lead) >= G - self.end)
        return np.asarray(roll & (s0 + turn < G))

    def decide(self, scores: np.ndarray, turn: np.ndarray, dice: np.ndarray) -> np.ndarray:
        scores = np.asarray(scores)
        return self._roll(scores[:, 0], scores[:, 1:].max(axis=1), np.asarray(turn), np.asarray(dice))

    def rows(self, G: int, D: int) -> np.ndarray:
        """Packed decisions by (own score, best opponent's score): (G * G, nbytes), row s0 * G + lead."""
        s0, lead, t, n = (np.arange(m).reshape([-1 if i == a else 1 for i in range(4)])
                          for a, m in enumerate((G, G, G, D + 1)))        # broadcast, not meshgrid
        grid = np.broadcast_to(self._roll(s0, lead, t, n) & (n >= 1), (G, G, G, D + 1))
        return np.packbits(grid.reshape(G * G, -1), axis=1)

    def bits(self, G: int, N: int, D: int) -> np.ndarray:
        """Decisions depend on (own score, best opponent) only: pack those G*G rows, then gather."""
        scores = np.unravel_index(np.arange(G ** N), (G,) * N)
        return np.asarray(self.rows(G, D)[scores[0] * G + np.max(scores[1:], axis=0)])


def race(ks: Sequence[int], pace: int, end: int, target: int, D: int) -> RaceRule:
    """``race:K1-...-KD/P/E`` (``RaceRule``) for a game to ``target``."""
    name = f"race:{'-'.join(map(str, ks))}/{pace}/{end}"
    return RaceRule(ks, pace, end, target, name)


def thresholds(ks: Sequence[int], target: int, D: int, name: str) -> TurnRule:
    """Stop at ks[n-1] points with n live dice (and whenever stopping wins)."""
    t = np.arange(target)[:, None]
    k = np.concatenate([[0], np.asarray(ks)])[None, :]
    return TurnRule(t < k, target, name)


def hold(k: int, target: int, D: int, dice: int | None = None) -> TurnRule:
    """``hold:K`` (stop once the turn holds K points), ``hold:K/D`` (also stop with D or fewer live dice)."""
    ks = [k if (dice is None or n > dice) else 0 for n in range(1, D + 1)]
    return thresholds(ks, target, D, f"hold:{k}" + (f"/{dice}" if dice is not None else ""))


def maxpoints(rules: Rules, D: int) -> TurnRule:
    """The turn policy that maximises expected points banked per turn, ignoring scores.

    Solved on the game's own turn model with the means of the uncut gain
    distributions (``payout.nuts_gain_mean``, exact): V(t, n) = max(t, E[roll])
    by backward induction from a horizon H at which the player stops; H doubles
    until the decisions below the target no longer change.
    """
    model = turn_model(rules)
    means = np.zeros(len(model.dists))
    if rules.game == "gonuts":
        for n in range(1, len(means)):      # dists[n]: a round with n dice; dists[0] is the bust
            means[n] = nuts_gain_mean(n, rules.players - 1, rules.dog_chance, rules.acorn_chance,
                                      rules.speed_fraction)
    prev = None
    H = 4 * rules.target + 200
    while True:
        roll = _maxpoints_decisions(model, means, H)[:rules.target]
        if prev is not None and np.array_equal(roll, prev):
            return TurnRule(roll, rules.target, "maxpoints")
        if H > 200_000:
            raise PolicyError("maxpoints: expected points do not settle; the turn never needs to end")
        prev, H = roll, 2 * H


def _maxpoints_decisions(model: TurnModel, means: np.ndarray, H: int) -> np.ndarray:
    D = model.substates
    V = np.tile(np.arange(H + 8, dtype=float)[:, None], (1, D + 1))
    roll = np.zeros((H, D + 1), dtype=bool)
    mv, en = model.moves, model.endings
    # each die count's moves and endings, their fields picked once (the sums below are over the same values in the
    # same order: the turn points an ending keeps are 0 or t, a whole number, as np.where gave them)
    ms = [(m["p"], m["da"], m["dst"]) for m in (mv[mv["src"] == n] for n in range(D + 1))]
    es = [(e["p"], means[e["dist"]], e["rel"].astype(np.int64)) for e in (en[en["src"] == n] for n in range(D + 1))]
    for t in range(H - 1, -1, -1):
        for n in range(1, D + 1):
            (mp, da, dst), (ep, mean, rel) = ms[n], es[n]
            r = float((mp * V[np.minimum(t + da, H + 7), dst]).sum())
            r += float((ep * (mean + rel * t)).sum())
            roll[t, n] = r > t
            V[t, n] = max(r, float(t))
    return roll


class CallablePolicy(Policy):
    """A user's Python function ``f(scores, turn, dice)``: ``scores`` a tuple of ints in turn order from the player
    to move, ``turn`` the turn's points, ``dice`` the live dice; it returns True or "roll" to roll, False or "stop"
    to stop. With ``f.vectorized = True`` it is called on arrays (scores (M, N), turn and dice (M,)) and returns a
    bool array."""

    def __init__(self, fn: Callable[..., Any], name: str) -> None:
        self.fn, self.name = fn, name

    def decide(self, scores: np.ndarray, turn: np.ndarray, dice: np.ndarray) -> np.ndarray:
        if getattr(self.fn, "vectorized", False):
            out = np.asarray(self.fn(scores, turn, dice))
            if out.shape != np.shape(turn) or out.dtype != bool:
                raise PolicyError(f"policy {self.name} returned {out.dtype}{out.shape}, expected bool{np.shape(turn)}")
            return out
        out = np.empty(len(turn), dtype=bool)
        for i, (s, t, n) in enumerate(zip(map(tuple, np.asarray(scores).tolist()), np.asarray(turn).tolist(),
                                          np.asarray(dice).tolist())):
            try:
                v = self.fn(s, t, n)
            except Exception as exc:
                raise PolicyError(f"policy {self.name} raised {type(exc).__name__}: {exc} at scores {s}, "
                                  f"turn {t}, dice {n}") from None
            if isinstance(v, (bool, np.bool_)) or (isinstance(v, (int, np.integer)) and v in (0, 1)):
                out[i] = bool(v)
            elif v in ("roll", "stop"):
                out[i] = v == "roll"
            else:
                raise PolicyError(f"policy {self.name} returned {v!r} (not True/False or \"roll\"/\"stop\") at "
                                  f"scores {s}, turn {t}, dice {n}")
        return out


def load_callable(spec: str) -> Callable[..., Any]:
    """``module:function`` or ``path/to/file.py:function``."""
    target, _, attr = spec.rpartition(":")
    try:
        if target.endswith(".py"):
            path = Path(target)
            if not path.is_file():
                raise PolicyError(f"policy {spec}: no file {target}")
            modspec = importlib.util.spec_from_file_location(f"_gonuts_policy_{path.stem}", path)
            if modspec is None or modspec.loader is None:
                raise PolicyError(f"policy {spec}: cannot load {target} (not a Python module)")
            module = importlib.util.module_from_spec(modspec)
            modspec.loader.exec_module(module)
        else:
            module = importlib.import_module(target)
    except PolicyError:
        raise
    except Exception as exc:
        raise PolicyError(f"policy {spec}: cannot load {target} ({type(exc).__name__}: {exc})") from None
    fn: Callable[..., Any] | None = getattr(module, attr, None)
    if not callable(fn):
        raise PolicyError(f"policy {spec}: {target} has no function {attr!r}")
    return fn


def parse(spec: str, rules: Rules, D: int | None = None, optimal: Callable[[], Table] | None = None) -> Policy:
    """A policy from its name (``grammar.read``) for a game of ``rules``; ``D``: the turn's sub-states (the live
    dice, 5 for Go Nuts!, 1 for Pig; default ``rules.substates``). ``optimal()`` returns the table for the rules
    when "optimal" is named (default: the shipped or cached table, built once: ``store.library.Tables``)."""
    D = rules.substates if D is None else D
    if optimal is None:
        def optimal() -> Table:
            table: Table = Tables().get(rules)
            return table
    sp = grammar.read(spec, rules.target, D)
    G = rules.target
    if sp.kind == "best":
        return BestSeat()
    if sp.kind == "optimal":
        return TablePolicy(optimal())
    if sp.kind == "maxpoints":
        return maxpoints(rules, D)
    if sp.kind == "hold":
        return hold(sp.args[0], G, D, sp.args[1])
    if sp.kind == "dice":
        return thresholds(sp.args, G, D, sp.name)
    if sp.kind == "race":
        ks, pace, end = sp.args
        return race(ks, pace, end, G, D)
    if sp.kind == "table":
        t = tables.load(sp.name)
        if (t.rules.game, t.players, t.target) != (rules.game, rules.players, G):
            raise PolicyError(f"policy {sp.name} is a table for {t.rules.describe()}, not {rules.describe()}")
        return TablePolicy(t, name=sp.name)
    return CallablePolicy(load_callable(sp.name), sp.name)
