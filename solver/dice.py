"""Roll outcomes of n squirrel dice: every (acorns, squirrels, cars) with its probability."""
from __future__ import annotations

from math import factorial


def roll_outcomes(n: int, p_acorn: float, p_squirrel: float, p_car: float):
    """All outcomes of rolling n dice as a list of (a, s, c, probability).

    The probabilities are multinomial; outcomes of probability zero (a face the
    die does not have) are left out.
    """
    out = []
    for a in range(n + 1):
        for c in range(n - a + 1):
            s = n - a - c
            coef = factorial(n) // (factorial(a) * factorial(s) * factorial(c))
            p = coef * p_acorn ** a * p_squirrel ** s * p_car ** c
            if p > 0.0:
                out.append((a, s, c, p))
    return out
