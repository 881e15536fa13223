"""The rules of a roll written out once more for the tests, from the rulebook and docs/RULES.md, not from
``game.moves``: six-sided squirrel dice (faces 0-1 an acorn, 2-4 a squirrel, 5 a car) and the one-die rule.
The tests' own literal games (test_record, test_luck) use it to check the replay and the luck split."""
from __future__ import annotations


def throw(rng, n: int) -> tuple:
    """(acorns, squirrels, cars) of n dice thrown with numpy's generator ``rng``."""
    faces = rng.integers(0, 6, size=n)
    a, s = int((faces < 2).sum()), int(((faces >= 2) & (faces < 5)).sum())
    return a, s, n - a - s


def live_after(n: int, a: int, c: int, rolled: bool) -> int:
    """Live dice after a roll of n that showed a acorns and c cars: the cars are out, and one acorn on a
    single die (the rulebook: the die rolled alone; the summary: the one die left) brings all five back."""
    after = n - c
    return 5 if a == 1 and ((n == 1) if rolled else (after == 1)) else after
