"""Go Nuts! payouts against closed forms and a literal simulation of the dog race."""
from fractions import Fraction
from math import comb, log, sqrt

import numpy as np
import pytest

from solver.game.payout import nuts_gain_mean, nuts_gain_pmf, nuts_gain_tails, nuts_payout_table
from solver.game.rules import Rules
from solver.reference.simulate import simulate_nuts_round


def _zero_gain_closed_form(n, k, p_dog, p_acorn):
    """P(gain = 0) = E[z^T], z = (1 - p_acorn)^n, T the max of k geometrics (exact fractions)."""
    q, z = 1 - p_dog, (1 - p_acorn) ** n
    return sum(comb(k, j) * (-1) ** j * (q ** j - 1) * z / (1 - q ** j * z) for j in range(1, k + 1))


def _mean_closed_form(n, k, p_dog, p_acorn):
    """E[gain] = n p_acorn E[T], E[T] = sum_j C(k, j) (-1)^(j+1) / (1 - q^j)."""
    q = 1 - p_dog
    return n * p_acorn * sum(comb(k, j) * (-1) ** (j + 1) / (1 - q ** j) for j in range(1, k + 1))


def _closed_form_pmf(n, k, p_dog, p_acorn, cap):
    """P(gain = g), g < cap, at speed 1 with no truncation, in exact fractions (independent of payout.py).

    P(T = m) = sum_j c_j x_j^m with x_j = q^j and c_j = C(k, j) (-1)^(j+1) (q^-j - 1), and
    sum_{m >= 0} C(n m, g) y^m = sum_i e_{g,i} y^i / (1 - y)^(i+1), where
    e_{g,i} = sum_l (-1)^(i-l) C(i, l) C(n l, g) are the Newton coefficients of m -> C(n m, g).
    """
    q, a = 1 - p_dog, p_acorn
    b = 1 - a
    out = []
    for g in range(cap):
        e = [sum((-1) ** (i - j) * comb(i, j) * comb(n * j, g) for j in range(i + 1)) for i in range(g + 1)]
        total = Fraction(0)
        for j in range(1, k + 1):
            c = comb(k, j) * (-1) ** (j + 1) * (q ** -j - 1)
            y = q ** j * b ** n
            series = sum(e[i] * y ** i / (1 - y) ** (i + 1) for i in range(g + 1)) - (1 if g == 0 else 0)
            total += c * series
        out.append(total * a ** g / b ** g)
    return out


@pytest.mark.parametrize("n, k, faces, dog", [(1, 1, (2, 3, 1), (1, 5)), (5, 1, (2, 3, 1), (1, 5)),
                                              (2, 2, (2, 3, 1), (1, 5)), (3, 3, (2, 3, 1), (1, 5)),
                                              (4, 2, (1, 1, 1), (2, 3))])
def test_every_bin_is_the_closed_form_rounded_once(n, k, faces, dog):
    """Each bin below the cap equals the exact infinite sum, rounded once: bit for bit."""
    pa, pd = Fraction(faces[0], sum(faces)), Fraction(dog[0], sum(dog))
    cap = 40
    ours = nuts_gain_pmf(n, k, pd, pa, Fraction(1), cap=cap)
    want = [float(x) for x in _closed_form_pmf(n, k, pd, pa, cap)]
    assert ours[:cap].tolist() == want
    assert ours[cap] == float(1 - sum(_closed_form_pmf(n, k, pd, pa, cap)))


@pytest.mark.parametrize("n, k, faces, dog", [(1, 1, (2, 3, 1), (1, 5)), (5, 3, (2, 3, 1), (1, 5)),
                                              (4, 2, (1, 1, 1), (2, 3))])
def test_every_tail_is_the_closed_form_rounded_once_whatever_the_cap(n, k, faces, dog):
    """P(gain >= h) is the exact infinite sum rounded once, and so are the bins: none depends on the cap, which
    is what makes a game to a target the corner of the same game to any larger target."""
    pa, pd = Fraction(faces[0], sum(faces)), Fraction(dog[0], sum(dog))
    exact = _closed_form_pmf(n, k, pd, pa, 40)
    want = [float(1 - sum(exact[:h])) for h in range(41)]
    for cap in (7, 23, 40):
        assert nuts_gain_tails(n, k, pd, pa, Fraction(1), cap=cap).tolist() == want[:cap + 1]
        assert nuts_gain_pmf(n, k, pd, pa, Fraction(1), cap=cap)[:cap].tolist() == [float(x) for x in exact[:cap]]


@pytest.mark.parametrize("k", [1, 2, 3])
@pytest.mark.parametrize("n", [1, 2, 5])
def test_zero_gain_and_mean_match_closed_forms(n, k):
    pd, pa = Fraction(1, 6), Fraction(1, 3)
    pmf = nuts_gain_pmf(n, k, pd, pa, Fraction(1), cap=12)
    assert pmf[0] == float(_zero_gain_closed_form(n, k, pd, pa))
    assert nuts_gain_mean(n, k, pd, pa, Fraction(1)) == float(_mean_closed_form(n, k, pd, pa))


@pytest.mark.slow
def test_payouts_agree_with_a_floating_point_sum_of_scipy_binomials():
    """A second method: P(T = m) from the closed form, binomials from scipy.stats, summed over 600 ticks."""
    from scipy.stats import binom
    r = Rules.from_options(players=3)
    m = np.arange(1, 601)
    q = 5 / 6
    p_t = (1 - q ** m) ** 2 - (1 - q ** (m - 1)) ** 2
    for n in range(1, 6):
        other = p_t @ binom.pmf(np.arange(50)[None, :], n * m[:, None], 1 / 3)
        ours = nuts_gain_pmf(n, 2, r.dog_chance, r.acorn_chance, Fraction(1), cap=50)[:50]
        assert np.abs(ours - other).max() < 1e-15


def test_table_rows_are_distributions_cut_at_target():
    r = Rules.from_options(target=20)
    t = nuts_payout_table(r)
    assert t.shape == (6, 21) and np.all(t[0] == 0)
    assert np.allclose(t[1:].sum(1), 1.0, atol=1e-14, rtol=0)
    full = nuts_gain_pmf(5, 1, r.dog_chance, r.acorn_chance, Fraction(1), cap=120)
    assert t[5, :20].tolist() == full[:20].tolist()
    assert t[5, 20] == pytest.approx(full[20:].sum(), abs=1e-15)


@pytest.mark.parametrize("players, n, speed", [(2, 1, 1.0), (2, 5, 1.0), (4, 3, 1.0), (3, 2, 1.5), (2, 4, 0.5)])
def test_payout_matches_literal_race_simulation(players, n, speed):
    """Kolmogorov distance within the DKW bound at level 1e-6, and the mean within 4 standard errors."""
    r = Rules.from_options(players=players, speed=speed, target=200)
    exact = nuts_gain_pmf(n, players - 1, r.dog_chance, r.acorn_chance, r.speed_fraction, cap=200)
    rounds = 100_000
    gains = simulate_nuts_round(r, n, rounds, np.random.default_rng(12345 + n + 10 * players))
    emp = np.bincount(np.minimum(gains, 200), minlength=201) / rounds
    eps = sqrt(log(2 / 1e-6) / (2 * rounds))
    assert np.abs(np.cumsum(emp) - np.cumsum(exact)).max() < eps
    mean = (exact * np.arange(201)).sum()
    sd = sqrt((exact * (np.arange(201) - mean) ** 2).sum())
    assert abs(gains.mean() - mean) < 4 * sd / sqrt(rounds)


def test_speed_changes_the_distribution():
    r = Rules.from_options()
    slow = nuts_gain_pmf(3, 1, r.dog_chance, r.acorn_chance, Fraction(1, 2), cap=50)
    fast = nuts_gain_pmf(3, 1, r.dog_chance, r.acorn_chance, Fraction(2), cap=50)
    def mean(p):
        return (p * np.arange(51)).sum()
    assert mean(slow) < mean(nuts_gain_pmf(3, 1, r.dog_chance, r.acorn_chance, Fraction(1), cap=50)) < mean(fast)


