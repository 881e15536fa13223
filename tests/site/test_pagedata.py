"""The start-of-turn values as the page carries them (solver/site/pagedata.py): 2 and 3 players exact, bit for bit
with the last seat's share as the page subtracts it; 4 players within the precision the encoding states (2^-17),
which it measures and says, and what it refuses to exceed."""
from __future__ import annotations

import numpy as np
import pytest

from solver.site.pagedata import BOUND, cumulative, decode, encode


def _values(shape, rng):
    w = rng.random(shape)
    return w / w.sum(axis=-1, keepdims=True)


@pytest.mark.parametrize("players", [2, 3])
def test_two_and_three_players_travel_exactly(players):
    w = _values((7,) * players + (players,), np.random.default_rng(players))
    desc, blob = encode(w)
    assert desc["encoding"] == "f64" and desc["precision"] == 0.0 and len(blob) == w[..., :-1].size * 8
    got = decode(desc, blob, w.shape)
    assert np.array_equal(got[..., :-1], w[..., :-1])
    rest = 1.0 - w[..., 0:1]
    for k in range(1, players - 1):
        rest = rest - w[..., k:k + 1]
    assert np.array_equal(got[..., -1:], rest)                 # the page's subtraction, in its order


def test_four_players_travel_within_the_stated_precision_and_say_it():
    w = _values((6, 6, 6, 6, 4), np.random.default_rng(4))
    seen = []
    desc, blob = encode(w, progress=lambda d, n: seen.append((d, n)))
    assert desc["encoding"] == "lorenzo" and 0 < desc["precision"] <= BOUND
    got = decode(desc, blob, w.shape)
    assert np.abs(got - w).max() == pytest.approx(desc["precision"], rel=0, abs=1e-15)
    assert np.allclose(got.sum(axis=-1), 1.0, atol=1e-12)
    C = cumulative(desc, blob, w.shape)                         # exact multiples of the step, as float32 holds them
    assert C.dtype == np.float32 and np.array_equal(np.ldexp(C.astype(np.float64), 17) % 1, np.zeros(C.shape))
    assert seen[-1] == (5, 5) and [d for d, _ in seen] == sorted(d for d, _ in seen)
