"""The strategy lab: one library call per question the CLI asks.

* ``resolve``: policy names -> policies for a game (one per seat);
* ``evaluate_policies``: exact win probabilities and expected game length;
* ``simulate_policies``: literal games with a seeded ``numpy.random.Generator``;
* ``simple_rules``: the best ``hold:K`` and the best per-dice thresholds
  against optimal opponents, and what each gives up.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from solver.engine.evaluate import EvalResult, evaluate
from solver.engine.respond import deviate, respond
from solver.engine.solve import Progress
from solver.errors import GonutsError
from solver.game.rules import Rules
from solver.game.turn import game_model
from solver.lab.grammar import PolicyError
from solver.lab.policies import (
    BestSeat,
    BitsPolicy,
    CallablePolicy,
    Policy,
    ResponsePolicy,
    TablePolicy,
    maxpoints,
    parse,
    race,
    thresholds,
)
from solver.lab.versus import RowsRule, Versus
from solver.reference.simulate import simulate
from solver.store.library import Tables
from solver.store.tables import Table

PolicyLike = str | Policy | Callable[..., Any]
"""A seat's policy as a caller gives it: a name (``policies.parse``), a ``Policy``, or a function
``f(scores, turn, dice) -> bool`` (``CallablePolicy``)."""


def resolve(specs: Iterable[PolicyLike], rules: Rules, optimal: Callable[[], Table] | None = None,
            table: Table | None = None, progress: Progress | None = None) -> list[Policy]:
    """One policy per seat from names, ``Policy`` objects or functions; ``optimal()`` gives the optimal table
    when one is named (default: the shipped or cached table, built once: ``store.library.Tables``).

    ``best`` seats are solved here, exactly, as the best response to the other seats
    (the max-n solution among several ``best`` seats); each becomes a
    ``ResponsePolicy`` carrying the solve's convergence report.
    """
    specs = [s for s in specs]
    if len(specs) != rules.players:
        raise PolicyError(f"give one policy per seat: {rules.players} players, {len(specs)} "
                          f"polic{'y' if len(specs) == 1 else 'ies'}")
    cache: dict[str, Table] = {}

    def opt() -> Table:
        if "t" not in cache:
            cache["t"] = optimal() if optimal is not None else Tables().get(rules)
        return cache["t"]

    pols = [s if isinstance(s, Policy) else parse(s, rules, rules.substates, opt) if isinstance(s, str)
            else CallablePolicy(s, getattr(s, "__name__", "function")) for s in specs]
    best = [a for a, p in enumerate(pols) if isinstance(p, BestSeat)]
    if best:
        pols = best_response(rules, pols, best, table=table if table is not None else cache.get("t"),
                             progress=progress)
    return pols


def _same_play(policies: Sequence[Policy], G: int, N: int, D: int) -> bool:
    """Whether the policies play alike: the same decisions, mixed alike."""
    first = policies[0]
    bits, mixed = first.bits(G, N, D), first.mixed(G, N, D)
    for p in policies[1:]:
        other = p.mixed(G, N, D)
        if p is first:
            continue
        if not np.array_equal(p.bits(G, N, D), bits) or (mixed is None) != (other is None):
            return False
        if mixed is not None and other is not None and not all(
                np.array_equal(x, y) for x, y in ((mixed.state, other.state), (mixed.decision, other.decision),
                                                  (mixed.roll, other.roll))):
            return False
    return True


def best_response(rules: Rules, policies: Sequence[Policy], seats: Sequence[int], table: Table | None = None,
                  progress: Progress | None = None) -> list[Policy]:
    """``policies`` with the seats in ``seats`` replaced by their exact best response to the others.

    One seat against others that all play alike (``best,optimal,optimal,optimal``) is ``engine.respond.deviate``,
    which carries only that seat's chance (about two solves' time, and a quarter of ``respond``'s memory at 4
    players); other cases take ``engine.respond.respond``."""
    G, N, D = rules.target, rules.players, rules.substates
    others = [p for a, p in enumerate(policies) if a not in seats]
    if len(seats) == 1 and others and _same_play(others, G, N, D):
        first = others[0]
        # a table's own values start the policy iteration where it ends when the table is an equilibrium
        values = first.table.arrays.get("start_win") if isinstance(first, TablePolicy) else None
        values = values if values is not None and values.size == G ** N * N else None
        dev = deviate(game_model(rules, table), N, G, first.bits(G, N, D), first.mixed(G, N, D), values=values,
                      keep_bits=True, progress=progress)
        assert dev.bits is not None
        report = {**dev.report(), "greedy_seats": [int(seats[0])]}
        return [ResponsePolicy(dev.bits, G, N, D, report) if a in seats else p for a, p in enumerate(policies)]
    res = respond(game_model(rules, table), N, G, [None if a in seats else p.bits(G, N, D)
                                                   for a, p in enumerate(policies)], seats,
                  seat_mixed=[p.mixed(G, N, D) for p in policies], progress=progress)
    return [ResponsePolicy(res.bits[a], G, N, D, res.report()) if a in seats else p
            for a, p in enumerate(policies)]


def evaluate_policies(rules: Rules, policies: Sequence[Policy], table: Table | None = None,
                      progress: Progress | None = None) -> EvalResult:
    """The exact result of a game played by ``policies`` (one per seat, from ``resolve``): an
    ``engine.evaluate.EvalResult``, whose ``win`` is every seat's win probability with seat 0 first to move.

    >>> from solver import Rules
    >>> rules = Rules.from_options(players=2)
    >>> [round(float(x), 2) for x in evaluate_policies(rules, resolve(["hold:20", "optimal"], rules)).win]
    [0.32, 0.68]
    """
    G, N, D = rules.target, rules.players, rules.substates
    return evaluate(game_model(rules, table), N, G, [p.bits(G, N, D) for p in policies], progress=progress,
                    seat_mixed=[p.mixed(G, N, D) for p in policies])


@dataclass(frozen=True)
class SimReport:
    """Simulated games: ``win[a]``, the share of the ``games`` seat ``a`` won (seat 0 first, or each seat first in
    turn when ``both_orders``), its ``stderr`` (binomial), the mean ``turns`` of a game, the ``seed`` that makes
    them again, and the ``seconds`` they took.

    >>> import solver
    >>> r = solver.simulate(["hold:20", "optimal"], games=1000, seed=3, players=2)
    >>> r.games, r.win.shape, bool(abs(r.win.sum() - 1) < 1e-12)
    (1000, (2,), True)
    """
    games: int
    seed: int
    win: npt.NDArray[np.float64]
    stderr: npt.NDArray[np.float64]
    turns: float
    seconds: float
    both_orders: bool = False


def simulate_policies(rules: Rules, policies: Sequence[Policy], games: int, seed: int,
                      progress: Progress | None = None, both_orders: bool = False) -> SimReport:
    """Play ``games`` games of ``policies`` (one per seat, seat 0 first) with the random ``seed`` (the dice, and
    each seat's coin where its policy mixes); with ``both_orders``, each seat first in turn, the games shared out
    evenly (the first ``games % N`` seats one more)."""
    if games < 1:
        raise GonutsError("games must be at least 1")
    G, N, D = rules.target, rules.players, rules.substates
    t0 = time.perf_counter()
    orders = range(N) if both_orders else range(1)
    wins, turns = np.zeros(N), 0.0
    for first in orders:
        share = games // len(orders) + (1 if first < games % len(orders) else 0)
        if share == 0:
            continue
        seats = [(first + k) % N for k in range(N)]          # seat `first` moves first
        fast = [BitsPolicy(policies[a].bits(G, N, D), G, N, D, policies[a].name, policies[a].mixed(G, N, D),
                           np.random.default_rng([seed, 1, a] if first == 0 else [seed, 1, a, first]))
                for a in seats]
        res = simulate(rules, fast, share, np.random.default_rng(seed if first == 0 else [seed, first]),
                       progress=progress, batch=min(50_000, share))
        wins[seats] += res.wins
        turns += float(res.turns.sum())
    win = wins / games
    return SimReport(games, seed, win, np.sqrt(win * (1 - win) / games), turns / games, time.perf_counter() - t0,
                     both_orders)


@dataclass(frozen=True)
class SimpleRule:
    """One simple rule's result against optimal opponents: its ``name``, its ``win`` probability averaged over
    seats (a fraction), and what it ``gives_up`` against the fair share 1/N, a fraction too
    (``gives_up_points``: in percentage points of win probability, as the docs and the command line say it)."""
    name: str
    win: float          # the simple rule's win probability against optimal opponents, averaged over seats
    gives_up: float     # fair share 1/N minus win

    @property
    def gives_up_points(self) -> float:
        """What the rule gives up, in percentage points of win probability (``gives_up`` times 100)."""
        return 100.0 * self.gives_up


@dataclass(frozen=True)
class SimpleRulesReport:
    players: int
    hold: SimpleRule
    hold_dice: SimpleRule
    per_dice: SimpleRule
    maxpoints: SimpleRule
    hold_curve: list[tuple[int, float]]      # (K, win) for every K tried
    evaluations: int


class _Batched:
    """Memoised exact scores of candidate rules: ``make(key)`` builds a rule, its score is its win
    probability against optimal opponents averaged over the seats. The keys not yet scored are
    evaluated together, ``Versus.batch_size()`` rules per pass; ``progress(scored, budget)`` after each."""

    def __init__(self, vs: Versus, make: Callable[[Any], RowsRule], progress: Progress | None = None,
                 budget: int | None = None) -> None:
        self.vs, self.make, self.progress, self.budget = vs, make, progress, budget
        self.memo: dict[Hashable, float] = {}

    def __call__(self, keys: Sequence[Hashable]) -> list[float]:
        todo = list(dict.fromkeys(k for k in keys if k not in self.memo))
        size = self.vs.batch_size()
        for lo in range(0, len(todo), size):
            part = todo[lo:lo + size]
            wins = self.vs.win([self.make(k) for k in part]).mean(axis=1)
            self.memo.update((k, float(w)) for k, w in zip(part, wins))
            if self.progress is not None:
                self.progress(len(self.memo), self.budget if self.budget is not None else len(self.memo))
        return [self.memo[k] for k in keys]


def _first_best(keys: Sequence[Any], wins: Sequence[float], best: Any, w_best: float) -> tuple[Any, float]:
    """The choice a one-at-a-time search makes: in order, a candidate replaces the best so far only if
    it is better by more than 1e-13."""
    for key, w in zip(keys, wins):
        if w > w_best + 1e-13:
            best, w_best = key, w
    return best, w_best


def simple_rules(rules: Rules, table: Table, progress: Progress | None = None,
                 max_rounds: int = 6) -> SimpleRulesReport:
    """Search, by exact evaluation against N-1 optimal players (averaged over who starts):
    the best ``hold:K`` (K = 1..min(G, 60)), the best ``hold:K/D``, then the best
    ``dice:K1-...-K5`` by coordinate ascent from the better of those two.

    Candidates that do not depend on each other's results are evaluated together in one
    ``Versus`` pass; the choices are made in the order a one-at-a-time search makes them.
    ``progress(done, budget)`` is called after each batch; the budget is an upper bound
    (the ascent usually stops early)."""
    G, N, D = rules.target, rules.players, rules.substates
    fair = 1.0 / N

    def dice_rule(ks: Sequence[int]) -> RowsRule:
        return thresholds(list(ks), G, D, "dice:" + "-".join(map(str, ks)))

    kmax = min(G, 60)
    budget = kmax * D + max_rounds * D * (kmax + 1) + 1
    with Versus(rules, table) as vs:
        scores = _Batched(vs, dice_rule, progress, budget)
        hold_keys = [(k,) * D for k in range(1, kmax + 1)]
        curve = [(k, w) for k, w in zip(range(1, kmax + 1), scores(hold_keys))]
        k_best, w_hold = max(curve, key=lambda kw: (kw[1], -kw[0]))
        kd_keys = [(k, d) for d in range(1, D) for k in range(1, kmax + 1)]
        as_ks = {(k, d): tuple(0 if n <= d else k for n in range(1, D + 1)) for k, d in kd_keys}
        kd_best, w_kd = _first_best(kd_keys, scores([as_ks[kd] for kd in kd_keys]), (k_best, None), w_hold)
        best = tuple([k_best] * D) if kd_best[1] is None else as_ks[kd_best]
        w_best = w_kd
        for _ in range(max_rounds):
            before = best
            for n in range(D):
                cands = [c for c in (best[:n] + (k,) + best[n + 1:] for k in range(0, kmax + 1)) if max(c) >= 1]
                best, w_best = _first_best(cands, scores(cands), best, w_best)
            if best == before:
                break
        w_mp = float(vs.win([maxpoints(rules, D)]).mean())
    kd_name = f"hold:{kd_best[0]}" + (f"/{kd_best[1]}" if kd_best[1] is not None else "")
    if progress is not None:
        progress(budget, budget)
    return SimpleRulesReport(
        N, SimpleRule(f"hold:{k_best}", w_hold, fair - w_hold), SimpleRule(kd_name, w_kd, fair - w_kd),
        SimpleRule("dice:" + "-".join(map(str, best)), w_best, fair - w_best),
        SimpleRule("maxpoints", w_mp, fair - w_mp), curve, len(scores.memo) + 1)


@dataclass(frozen=True)
class RaceSearch:
    players: int
    best: SimpleRule            # the best race rule found, against optimal opponents, averaged over seats
    start: SimpleRule           # the per-dice thresholds the search started from
    evaluations: int


def race_rules(rules: Rules, table: Table, start_ks: Sequence[int], progress: Progress | None = None,
               max_rounds: int = 5, steps: Sequence[int] = (1, 2, 4, 8),
               shifts: Sequence[int] = (-6, -4, -3, -2, -1, 1, 2, 3, 4, 6)) -> RaceSearch:
    """Search the "keep pace, end race" family (``race:K1-...-K5/P/E``) by exact evaluation against N-1
    optimal players, averaged over who starts: ascent from ``start_ks`` (no pace, no end race), each
    coordinate tried at its current value plus and minus 1, 2, 4 and 8 (the pace divisor P and the
    end-race distance E also at a coarse grid and at 0, off), and P and E also together with every
    threshold shifted by the same amount, until no move improves (at most ``max_rounds`` rounds)."""
    G, N, D = rules.target, rules.players, rules.substates
    fair = 1.0 / N

    def candidates(i: int, value: int) -> list[int]:
        near = {value + sign * d for d in steps for sign in (-1, 1)}
        if i < D:
            return sorted(v for v in near if 0 <= v <= G)
        if i == D:                                         # pace divisor: 0 = off
            return sorted({0} | {v for v in near | {4, 8, 12, 16, 24} if 2 <= v <= 60})
        return sorted({0} | {v for v in near | {5, 10, 15, 20} if 1 <= v < G})   # end race: 0 = off

    def moves(cur: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        """Every coordinate on its own, then the pace and the end race each with every threshold shifted
        together (turning the pace term on pays only if the base thresholds move with it)."""
        for i in range(D + 2):
            for v in candidates(i, cur[i]):
                yield cur[:i] + (v,) + cur[i + 1:]
        for i in (D, D + 1):
            for v in candidates(i, cur[i]):
                for shift in shifts:
                    ks = tuple(min(G, max(0, k + shift)) for k in cur[:D])
                    yield ks + cur[D:i] + (v,) + cur[i + 1:]

    cur = tuple(int(k) for k in start_ks) + (0, 0)
    with Versus(rules, table) as vs:
        scores = _Batched(vs, lambda p: race(p[:D], p[D], p[D + 1], G, D), progress)
        w_start = w = scores([cur])[0]
        for _ in range(max_rounds):
            # a round's moves are all taken from where the round began: evaluate them together, then
            # accept them in order
            before = cur
            cands = [c for c in moves(cur) if max(c[:D]) >= 1 or c[D + 1] != 0]
            cur, w = _first_best(cands, scores(cands), cur, w)
            if cur == before:
                break
    name = race(cur[:D], cur[D], cur[D + 1], G, D).name
    start_name = "dice:" + "-".join(map(str, start_ks))
    return RaceSearch(N, SimpleRule(name, w, fair - w), SimpleRule(start_name, w_start, fair - w_start),
                      len(scores.memo))
