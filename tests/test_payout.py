"""Go Nuts! payouts against closed forms and a literal simulation of the dog race."""
from fractions import Fraction
from math import comb, sqrt, log

import numpy as np
import pytest

from solver.payout import nuts_gain_pmf, nuts_payout_table
from solver.rules import preset
from solver.simulate import simulate_nuts_round


def _zero_gain_closed_form(n, k, p_dog, p_acorn):
    """P(gain = 0) = E[z^T], z = (1 - p_acorn)^n, T the max of k geometrics (exact fractions)."""
    q, z = 1 - p_dog, (1 - p_acorn) ** n
    return sum(comb(k, j) * (-1) ** j * (q ** j - 1) * z / (1 - q ** j * z) for j in range(1, k + 1))


def _mean_closed_form(n, k, p_dog, p_acorn):
    """E[gain] = n p_acorn E[T], E[T] = sum_j C(k, j) (-1)^(j+1) / (1 - q^j)."""
    q = 1 - p_dog
    return n * p_acorn * sum(comb(k, j) * (-1) ** (j + 1) / (1 - q ** j) for j in range(1, k + 1))


@pytest.mark.parametrize("k", [1, 2, 3])
@pytest.mark.parametrize("n", [1, 2, 5])
def test_zero_gain_and_mean_match_closed_forms(n, k):
    pd, pa = Fraction(1, 6), Fraction(1, 3)
    pmf = nuts_gain_pmf(n, k, float(pd), float(pa), Fraction(1), cap=3000)
    assert pmf[0] == pytest.approx(float(_zero_gain_closed_form(n, k, pd, pa)), abs=1e-14)
    assert pmf[-1] < 1e-15   # nothing near the huge cap
    assert (pmf * np.arange(len(pmf))).sum() == pytest.approx(float(_mean_closed_form(n, k, pd, pa)), rel=1e-11)


def test_table_rows_are_distributions_cut_at_target():
    r = preset(target=20)
    t = nuts_payout_table(r)
    assert t.shape == (6, 21) and np.all(t[0] == 0)
    assert np.allclose(t[1:].sum(1), 1.0, atol=1e-14, rtol=0)
    full = nuts_gain_pmf(5, 1, r.p_dog, r.p_acorn, Fraction(1), cap=4000)
    assert t[5, :20] == pytest.approx(full[:20], abs=1e-15)
    assert t[5, 20] == pytest.approx(full[20:].sum(), abs=1e-13)


@pytest.mark.parametrize("players, n, speed", [(2, 1, 1.0), (2, 5, 1.0), (4, 3, 1.0), (3, 2, 1.5), (2, 4, 0.5)])
def test_payout_matches_literal_race_simulation(players, n, speed):
    """Kolmogorov distance within the DKW bound at level 1e-6, and the mean within 4 standard errors."""
    r = preset(players=players, speed=speed, target=200)
    exact = nuts_gain_pmf(n, players - 1, r.p_dog, r.p_acorn, r.speed_fraction, cap=200)
    rounds = 100_000
    gains = simulate_nuts_round(r, n, rounds, np.random.default_rng(12345 + n + 10 * players))
    emp = np.bincount(np.minimum(gains, 200), minlength=201) / rounds
    eps = sqrt(log(2 / 1e-6) / (2 * rounds))
    assert np.abs(np.cumsum(emp) - np.cumsum(exact)).max() < eps
    mean = (exact * np.arange(201)).sum()
    sd = sqrt((exact * (np.arange(201) - mean) ** 2).sum())
    assert abs(gains.mean() - mean) < 4 * sd / sqrt(rounds)


def test_speed_changes_the_distribution():
    r = preset()
    slow = nuts_gain_pmf(3, 1, r.p_dog, r.p_acorn, Fraction(1, 2), cap=50)
    fast = nuts_gain_pmf(3, 1, r.p_dog, r.p_acorn, Fraction(2), cap=50)
    mean = lambda p: (p * np.arange(51)).sum()
    assert mean(slow) < mean(nuts_gain_pmf(3, 1, r.p_dog, r.p_acorn, Fraction(1), cap=50)) < mean(fast)


@pytest.mark.parametrize("rules", [
    preset("rulebook"), preset("summary", players=3), preset("rulebook", players=4, target=70),
    preset("rulebook", faces=(1, 1, 1), dog=(2, 3), speed=1.5, target=30), preset("summary", speed=0.5, target=20),
    preset("rulebook", faces=(3, 0, 0), target=15),
])
def test_payouts_are_bit_for_bit_those_of_scipy_stats(rules, monkeypatch):
    """The binomial kernel is called directly; scipy.stats.binom.pmf must give the same bits."""
    from scipy.stats import binom

    from solver import payout
    fast = payout.nuts_payout_table(rules)
    monkeypatch.setattr(payout, "binom_pmf", binom.pmf)
    assert np.array_equal(fast, payout.nuts_payout_table(rules))
