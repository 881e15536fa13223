"""Exact gain distributions of a Go Nuts! round under the tick model of RULES.md.

With k opponents, each throwing a dog die (P(dog) = p_dog) once per tick until
they roll a dog, the round lasts T ticks where T is the maximum of k
independent Geometric(p_dog) counts:

    P(T <= m) = (1 - (1 - p_dog)^m)^k,   m = 1, 2, ...

The active player makes M = floor(r m) throws of the round's n dice, each die
an acorn with probability p_acorn (cars are thrown again and score nothing), so

    P(gain = g) = sum_m P(T = m) * Binomial(n M, p_acorn).pmf(g).

The sum over m is carried until P(T > m) times the mass below the cap of an
m-tick round (a bound on all it can still add) is under 1e-17; the distribution is cut at ``cap`` with all the mass of
gains >= cap lumped in the last bin, which is one minus the others, so the
vector sums to one.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from .errors import RulesError

_TAIL = 1e-17
_MAX_TICKS = 2_000_000


def tick_cdf(m, opponents: int, p_dog: float):
    """P(T <= m) for the round length T in ticks."""
    m = np.asarray(m, dtype=float)
    if p_dog >= 1.0:
        return np.where(m >= 1, 1.0, 0.0)
    with np.errstate(divide="ignore"):
        return np.exp(opponents * np.log1p(-np.exp(m * math.log1p(-p_dog))))


def throws(m: int, speed: Fraction) -> int:
    """The active player's throws in a round of m ticks at speed r: floor(r m)."""
    return math.floor(speed * m)


def binom_pmf(k, n, p: float) -> np.ndarray:
    """Binomial pmf, bit for bit that of ``scipy.stats.binom.pmf``.

    It calls the same compiled kernel (Boost's, in ``scipy.special``) and masks
    outside the support as ``binom.pmf`` does, without importing scipy.stats,
    which costs a build 0.4 s of start-up. Falls back to ``binom.pmf`` if a
    scipy release moves the kernel.
    """
    try:
        from scipy.special._ufuncs import _binom_pmf
    except ImportError:                                    # pragma: no cover - other scipy layouts
        from scipy.stats import binom
        return binom.pmf(k, n, p)
    k, n = np.broadcast_arrays(np.asarray(k), np.asarray(n))
    with np.errstate(invalid="ignore"):
        out = _binom_pmf(k, n, p)
    return np.where((k >= 0) & (k <= n), out, 0.0)


def nuts_gain_pmf(n_dice: int, opponents: int, p_dog: float, p_acorn: float,
                  speed: Fraction, cap: int) -> np.ndarray:
    """P(gain = g) for g = 0..cap, with P(gain >= cap) in the last bin."""
    if n_dice < 1 or opponents < 1 or cap < 1:
        raise RulesError("a Go Nuts! round needs dice, opponents and a positive cap")
    speed = Fraction(speed)
    below = np.zeros(cap)
    g = np.arange(cap)
    block = 512
    m0 = 1
    while True:
        m = np.arange(m0, m0 + block)
        p_t = tick_cdf(m, opponents, p_dog) - tick_cdf(m - 1, opponents, p_dog)
        trials = np.array([n_dice * throws(int(mi), speed) for mi in m])
        pmf = binom_pmf(g[None, :], trials[:, None], p_acorn)
        below += p_t @ pmf
        last = int(m[-1])
        still = 1.0 - float(tick_cdf(last, opponents, p_dog))
        # Longer rounds mean more throws, so no later round puts more mass below
        # the cap than the longest one so far: still * reach bounds what is left.
        reach = float(pmf[-1].sum())
        if still * reach < _TAIL:
            break
        if last >= _MAX_TICKS:
            raise RulesError("dog: a Go Nuts! round is too long to tabulate (dog face too rare)")
        m0 = last + 1
    out = np.empty(cap + 1)
    out[:cap] = below
    out[cap] = max(0.0, 1.0 - below.sum())
    return out


def nuts_payout_table(rules) -> np.ndarray:
    """Row n (1..5): gain distribution of a round played with n dice, cut at the target."""
    table = np.zeros((6, rules.target + 1))
    for n in range(1, 6):
        table[n] = nuts_gain_pmf(n, rules.players - 1, rules.p_dog, rules.p_acorn,
                                 rules.speed_fraction, rules.target)
    return table
