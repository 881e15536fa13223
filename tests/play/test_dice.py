"""The page's dice in Python (solver/play/dice.py): the seeded generator is mulberry32, as published, so that a seed
gives the page's dice; its port in the page (core/dice.js) is held to the same numbers under Node."""
from __future__ import annotations

import math

from solver.game.payout import nuts_gain_mean
from solver.game.rules import Rules
from solver.play.dice import Mulberry32, nuts_round, roll_dice


def test_the_seeded_generator_is_mulberry32():
    """mulberry32's published first outputs for seed 0 (the page's generator; its port must agree)."""
    r = Mulberry32(0)
    assert [round(r.next() * 2 ** 32) for _ in range(3)] == [1144304738, 1416247, 958946056]


def test_the_dice_fall_as_their_faces_say_and_a_round_pays_its_exact_mean():
    """Thousands of seeded throws against the faces' chances, and Go Nuts! rounds against payout.nuts_gain_mean (the
    exact mean), each within four standard errors."""
    rules, r = Rules.from_options(), Mulberry32(2024)
    throws = 20_000
    acorns = sum(roll_dice(r, rules, 1)[0] for _ in range(throws))
    assert abs(acorns / throws - 1 / 3) < 4 * math.sqrt((1 / 3) * (2 / 3) / throws)
    rounds = [nuts_round(r, rules, 3, 1) for _ in range(4000)]
    mean = sum(rounds) / len(rounds)
    sd = math.sqrt(sum((x - mean) ** 2 for x in rounds) / (len(rounds) - 1))
    exact = float(nuts_gain_mean(3, 1, rules.dog_chance, rules.acorn_chance, rules.speed_fraction))
    assert abs(mean - exact) < 4 * sd / math.sqrt(len(rounds))
