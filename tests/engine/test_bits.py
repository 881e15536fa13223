"""How a state's decisions are packed (solver/engine/bits.py): one bit per decision state, t-major, eight to a byte,
so that numpy's own packbits and the engine's unpack_roll agree with it bit for bit."""
from __future__ import annotations

import numpy as np

from solver.engine.bits import packed_width
from solver.engine.solve import unpack_roll


def test_a_state_takes_the_bytes_its_bits_need_and_no_more():
    for target in (1, 7, 8, 30, 50, 100):
        for substates in (1, 5):
            bits = target * (substates + 1)
            assert packed_width(target, substates) == (bits + 7) // 8
            assert 8 * packed_width(target, substates) - bits < 8


def test_numpys_packbits_and_unpack_roll_are_one_layout():
    rng = np.random.default_rng(5)
    for target, substates in ((7, 5), (30, 1), (13, 5)):
        roll = rng.random((4, 3, target, substates + 1)) < 0.5          # (scores...) + (t, n)
        packed = np.packbits(roll.reshape(4, 3, -1), axis=-1)
        assert packed.shape[-1] == packed_width(target, substates)
        assert np.array_equal(unpack_roll(packed, target, substates), roll)
        t, n = target - 1, substates                                       # the last decision state: its bit
        q = t * (substates + 1) + n
        assert bool(packed[2, 1, q >> 3] & (128 >> (q & 7))) == bool(roll[2, 1, t, n])
