"""The page's dice, bit for bit: its seeded generator (Mulberry32), a face of a die, a roll of squirrel dice and
a Go Nuts! round tick by tick, as play mode and the practice draw throw them. (``game.rolls`` gives the exact
outcome probabilities of a roll; these are the throws themselves.)
Twin in the page: ``solver/site/web/src/core/dice.js``.
"""
from __future__ import annotations

from collections.abc import Sequence

from solver.game.rules import Rules

M32 = 0xFFFFFFFF


class Mulberry32:
    """The page's seeded generator (web/src/core/dice.js ``rng``), bit for bit: mulberry32, a 32-bit state
    advanced by a constant and mixed, whose published outputs tests/play/test_dice.py holds it to.

    >>> [round(Mulberry32(0).next() * 2 ** 32)]
    [1144304738]
    """

    def __init__(self, seed: int) -> None:
        self.state = seed & M32

    def next(self) -> float:
        """The next number in [0, 1), as the page's generator gives it."""
        self.state = (self.state + 0x6D2B79F5) & M32
        z = self.state
        z = ((z ^ (z >> 15)) * (z | 1)) & M32
        z ^= (z + (((z ^ (z >> 7)) * (z | 61)) & M32)) & M32
        return ((z ^ (z >> 14)) & M32) / 4294967296


def face(r: Mulberry32, counts: Sequence[int]) -> int:
    """The face a die shows, from its faces' counts ((acorn, squirrel, car) or (dog, house)): one draw of ``r``."""
    total = sum(counts)
    u = int(r.next() * total)
    for i, c in enumerate(counts):
        if u < c:
            return i
        u -= c
    return len(counts) - 1


def roll_dice(r: Mulberry32, rules: Rules, n: int) -> tuple[int, ...]:
    """(acorns, squirrels, cars) of n squirrel dice."""
    counts = [0, 0, 0]
    for _ in range(n):
        counts[face(r, rules.faces)] += 1
    return tuple(counts)


def nuts_round(r: Mulberry32, rules: Rules, dice: int, opponents: int) -> int:
    """The acorns of a Go Nuts! round, tick by tick as the page plays it: the mover throws ``dice`` dice,
    each opponent still waiting a dog die; the round ends after the tick of the last dog."""
    waiting, acorns = opponents, 0
    for _ in range(100_000):
        if not waiting:
            return acorns
        acorns += roll_dice(r, rules, dice)[0]
        waiting -= sum(face(r, rules.dog) == 0 for _ in range(waiting))
    raise RuntimeError("a Go Nuts! round did not end (a dog die without a dog face?)")
