"""A roll of n squirrel dice (solver/game/rolls.py): every (acorns, squirrels, cars) once, with the multinomial
probability of the exact face chances, rounded once."""
from __future__ import annotations

from fractions import Fraction
from math import comb

from solver.game.rolls import roll_outcomes


def test_every_outcome_once_with_its_multinomial_chance():
    a, s, c = Fraction(1, 3), Fraction(1, 2), Fraction(1, 6)
    for n in range(1, 6):
        rows = roll_outcomes(n, a, s, c)
        assert len(rows) == len({(x, y, z) for x, y, z, _ in rows}) == (n + 1) * (n + 2) // 2
        assert all(x + y + z == n for x, y, z, _ in rows)
        assert abs(sum(p for *_, p in rows) - 1) < 1e-15
        for x, y, z, p in rows:                      # exact, rounded once: the float of the Fraction
            assert p == float(comb(n, x) * comb(n - x, z) * a ** x * s ** y * c ** z)


def test_a_face_the_die_lacks_gives_no_outcome():
    rows = roll_outcomes(3, Fraction(1, 2), Fraction(1, 2), Fraction(0))
    assert all(z == 0 for _, _, z, _ in rows) and len(rows) == 4
