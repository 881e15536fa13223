"""Exact gain distributions of a Go Nuts! round under the tick model of docs/RULES.md.

With k opponents, each throwing a dog die (P(dog) = p_dog) once per tick until
they roll a dog, the round lasts T ticks where T is the maximum of k
independent Geometric(p_dog) counts:

    P(T <= m) = (1 - (1 - p_dog)^m)^k,   m = 1, 2, ...

The active player makes M = floor(r m) throws of the round's n dice, each die
an acorn with probability p_acorn (cars are thrown again and score nothing), so

    P(gain = g) = sum_m P(T = m) * Binomial(n M, p_acorn).pmf(g).

**Exact arithmetic, rounded once.** The face counts make every probability a
rational number, so the sum is carried in Python integers: the gain
distribution after m ticks as numerators over F^(n M) (F the die's faces, in
lowest terms), P(T = m) as a numerator over G^(m k) (G the dog die's faces),
and the running sum over their product, scaled up Horner-fashion each tick.
Only the last step rounds, once per bin (``int / int`` is correctly rounded).
No floating-point operation, BLAS kernel, SIMD loop or libm call comes before
it, so the bits depend on nothing but the rules.

**Truncation, and why the cap does not matter.** The sum over m stops after the
first tick m (checked every few ticks) at which what every later tick can still
add, at most ``left`` = P(T > m) * P(Binomial(n M, p_acorn) < cap) (longer rounds
only throw more, so the mass they leave below the cap can only shrink), is under
2^-64 of the smallest non-zero bin *and* cannot change the rounding of any bin
or any tail: each bin's exact value lies in [U, U + left] (over the common
denominator) and each tail P(gain >= h) in [1 - S_h - left, 1 - S_h], S_h the
sum of the bins below h, and the sum goes on until both ends of every interval
round to the same double. Every bin and every tail is then the correctly
rounded value of the exact infinite sum: a number that depends on the gain and
the rules only, never on the cap. That is what makes a game to target T the
exact corner of the same game to any larger target (docs/model.md, "The
corner"): the kernel reads a distribution's bins below the distance to the
target and its tail at that distance, and both are the same bits whatever the
target. The distribution is cut at ``cap`` with the tail P(gain >= cap) in the
last bin.
Twin in the page: ``solver/site/web/src/core/payout.js``.
"""
from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from solver.errors import RulesError

if TYPE_CHECKING:
    from solver.game.rules import Rules

_REL_BITS = 64          # truncation: what is left out is under 2^-64 of the smallest non-zero bin
_CHECK_EVERY = 8        # ticks between truncation checks
_MAX_TICKS = 200_000    # exact numerators grow with the ticks; past this the dog face is too rare


def throws(m: int, speed: Fraction) -> int:
    """The active player's throws in a round of m ticks at speed r: floor(r m)."""
    return math.floor(speed * m)


def _ratio(p: Any, name: str) -> tuple[int, int]:
    """p as (numerator, denominator) in lowest terms, 0 < p <= 1."""
    p = Fraction(p)
    if not 0 < p <= 1:
        raise RulesError(f"{name} must be a probability in (0, 1], not {p}")
    return p.numerator, p.denominator


def nuts_gain_numerators(n_dice: int, opponents: int, p_dog: Any, p_acorn: Any, speed: Any,
                         cap: int) -> tuple[np.ndarray, int, int]:
    """The exact gain distribution below the cap: (numerators of gains 0..cap-1, common denominator, ticks summed).

    ``p_dog``, ``p_acorn`` and ``speed`` are exact (``Fraction`` or int; a float
    is taken at its exact binary value).
    """
    if n_dice < 1 or opponents < 1 or cap < 1:
        raise RulesError("a Go Nuts! round needs dice, opponents and a positive cap")
    a, F = _ratio(p_acorn, "p_acorn")
    b = F - a
    d, G = _ratio(p_dog, "p_dog")
    H, k, r = G - d, opponents, Fraction(speed)
    Gk = G ** k
    V = np.zeros(cap, dtype=object)       # gain after m ticks, numerators over F^(n floor(r m))
    V[:] = 0
    V[0] = 1
    U = V * 0                             # the sum so far, numerators over G^(m k) F^(n floor(r m))
    rows: dict[int, list[int]] = {}
    Gm = Hm = Fn = 1                      # G^m, H^m, F^(n floor(r m))
    below_prev = 0                        # P(T <= m - 1) G^((m - 1) k)
    done = 0                              # throws so far
    for m in range(1, _MAX_TICKS + 1):
        now = throws(m, r)
        t = n_dice * (now - done)
        done = now
        if t:
            row = rows.get(t)
            if row is None:
                row = rows[t] = [math.comb(t, i) * a ** i * b ** (t - i) for i in range(min(t, cap - 1) + 1)]
            W = V * row[0]
            for i in range(1, len(row)):
                W[i:] += V[:-i] * row[i]
            V = W
        Gm *= G
        Hm *= H
        below = (Gm - Hm) ** k            # P(T <= m) G^(m k)
        Ft = F ** t
        Fn *= Ft
        U = U * (Gk * Ft) + V * (below - below_prev * Gk)
        below_prev = below
        if m % _CHECK_EVERY and H:
            continue
        left = (Gm ** k - below) * int(V.sum())   # P(T > m) * mass below the cap, over the same denominator
        if left == 0:
            break
        smallest = min((u for u in U if u), default=0)
        if smallest and (left << _REL_BITS) < smallest and _decided(U, left, Gm ** k * Fn):
            break
    else:
        raise RulesError("dog: a Go Nuts! round is too long to tabulate exactly (dog face too rare)")
    return U, Gm ** k * Fn, m


def _decided(U: np.ndarray, left: int, den: int) -> bool:
    """Whether no later tick can change the rounding of any bin (exact value in [u, u + left] / den) or any
    tail P(gain >= h), h = 1..cap (in [den - S_h - left, den - S_h] / den, S_h the bins below h)."""
    if left == 0:
        return True
    below = 0
    for u in U:
        u = int(u)
        if u / den != (u + left) / den:
            return False
        below += u
        if (den - below) / den != (den - below - left) / den:
            return False
    return True


@lru_cache(maxsize=64)
def _gain(n_dice: int, opponents: int, p_dog: Fraction, p_acorn: Fraction, speed: Fraction,
          cap: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """(P(gain = g) for g < cap, P(gain >= h) for h = 0..cap), each the exact value rounded once."""
    U, den, _ = nuts_gain_numerators(n_dice, opponents, p_dog, p_acorn, speed, cap)
    pmf = tuple(int(u) / den for u in U)
    tails, below = [], 0
    for u in U:
        tails.append((den - below) / den)
        below += int(u)
    tails.append((den - below) / den)
    return pmf, tuple(tails)


def nuts_gain_pmf(n_dice: int, opponents: int, p_dog: Any, p_acorn: Any, speed: Any, cap: int) -> np.ndarray:
    """P(gain = g) for g = 0..cap, with P(gain >= cap) in the last bin; each entry the exact value rounded once."""
    pmf, tails = _gain(n_dice, opponents, Fraction(p_dog), Fraction(p_acorn), Fraction(speed), cap)
    return np.array(pmf + tails[-1:])


def nuts_gain_tails(n_dice: int, opponents: int, p_dog: Any, p_acorn: Any, speed: Any, cap: int) -> np.ndarray:
    """P(gain >= h) for h = 0..cap, each the exact value rounded once (the last is ``nuts_gain_pmf``'s last bin)."""
    return np.array(_gain(n_dice, opponents, Fraction(p_dog), Fraction(p_acorn), Fraction(speed), cap)[1])


def _per_dice(row: Any, rules: Rules) -> np.ndarray:
    """(6, target + 1): row n (1..5) is ``row`` of a round played with n dice under these rules; row 0 all zero."""
    table = np.zeros((6, rules.target + 1))
    for n in range(1, 6):
        table[n] = row(n, rules.players - 1, rules.dog_chance, rules.acorn_chance, rules.speed_fraction, rules.target)
    return table


def nuts_payout_table(rules: Rules) -> np.ndarray:
    """Row n (1..5): gain distribution of a round played with n dice, cut at the target."""
    return _per_dice(nuts_gain_pmf, rules)


def nuts_tail_table(rules: Rules) -> np.ndarray:
    """Row n (1..5): P(gain >= h) of a round played with n dice, h = 0..target (row 0 all zero): the tails the
    kernel reads, exact and rounded once, so that they do not depend on the target (module docstring)."""
    return _per_dice(nuts_gain_tails, rules)


def nuts_gain_mean(n_dice: int, opponents: int, p_dog: Any, p_acorn: Any, speed: Any) -> float:
    """E[gain] of an uncut round, n p_acorn E[floor(r T)], exactly summed and rounded once.

    E[floor(r T)] = sum_m P(T >= m) (floor(r m) - floor(r (m - 1))), carried until
    what is left, at most P(T >= m) (r + 1) E[T'] with T' the k-opponent round
    restarted, is under 2^-64 of the sum.
    """
    d, G = _ratio(p_dog, "p_dog")
    return float(n_dice * Fraction(p_acorn) * _mean_throws(d, G, opponents, Fraction(speed)))


@lru_cache(maxsize=64)
def _mean_throws(d: int, G: int, opponents: int, r: Fraction) -> Fraction:
    """E[floor(r T)] exactly (``nuts_gain_mean``), the same for every number of dice: kept, as a page's games
    ask it for each dice count of each player count and speed."""
    H, k = G - d, opponents
    total = Fraction(0)
    Gm = Hm = 1
    at_least = Fraction(1)                                          # P(T >= 1)
    for m in range(1, _MAX_TICKS + 1):
        total += at_least * (throws(m, r) - throws(m - 1, r))
        Gm *= G
        Hm *= H
        at_least = Fraction(Gm ** k - (Gm - Hm) ** k, Gm ** k)      # P(T > m) = P(T >= m + 1)
        # later ticks add at most P(T > m) (r + 1) per expected extra tick, and a
        # round restarted at m lasts at most k / p_dog ticks more on average
        if at_least == 0 or at_least * (r + 1) * k * G / d * 2 ** _REL_BITS < total:
            return total
    raise RulesError("dog: a Go Nuts! round is too long to tabulate exactly (dog face too rare)")
