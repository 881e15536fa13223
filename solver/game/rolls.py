"""Roll outcomes of n squirrel dice: every (acorns, squirrels, cars) with its probability."""
from __future__ import annotations

from fractions import Fraction
from math import factorial


def roll_outcomes(n: int, p_acorn: Fraction, p_squirrel: Fraction,
                  p_car: Fraction) -> list[tuple[int, int, int, float]]:
    """All outcomes of rolling n dice as a list of (a, s, c, probability).

    The probabilities are multinomial, computed exactly from exact face chances
    (``Fraction``) and rounded once to float, so their bits depend on nothing but
    the faces. Outcomes of probability zero (a face the die does not have) are
    left out.
    """
    p_acorn, p_squirrel, p_car = Fraction(p_acorn), Fraction(p_squirrel), Fraction(p_car)
    out = []
    for a in range(n + 1):
        for c in range(n - a + 1):
            s = n - a - c
            coef = factorial(n) // (factorial(a) * factorial(s) * factorial(c))
            p = coef * p_acorn ** a * p_squirrel ** s * p_car ** c
            if p > 0:
                out.append((a, s, c, float(p)))
    return out
