"""A table checked from its rules alone (solver/store/verify.py), by the plain Bellman operator of the independent
checks: a fresh build passes with a residual at rounding level; a table whose values, decisions or payouts were
altered (and saved with a checksum that matches, as a careless tool would) is caught, each by its own figure."""
from __future__ import annotations

import numpy as np
import pytest

from solver.game.rules import Rules
from solver.store import tables
from solver.store.build import build
from solver.store.verify import verify


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    rules = Rules.from_options(players=2, target=12)
    out = tmp_path_factory.mktemp("verify") / "t12.npz"
    build(rules, out)
    return tables.load(out)


def _altered(table, tmp_path, **arrays):
    """The table with some arrays replaced, saved properly (a new checksum), and read back."""
    new = {**{k: v for k, v in table.arrays.items()}, **arrays}
    solver_meta = dict(table.meta["solver"])
    tables.save(tmp_path / "altered.npz", table.rules, new, solver_meta, table.substates)
    return tables.load(tmp_path / "altered.npz")


def test_a_fresh_table_satisfies_the_bellman_equations_of_the_independent_operator(built):
    rep = verify(built)
    assert rep.ok and rep.disagreements == 0 and rep.states == 12 ** 2
    assert rep.value_error <= 1e-12 and rep.action_error is not None and rep.action_error <= 1e-12
    assert rep.payout_error is not None and rep.payout_error <= 1e-15


def test_altered_values_decisions_or_payouts_are_each_caught(built, tmp_path):
    sw = built.arrays["start_win"].copy()
    sw[3, 5] = sw[3, 5][::-1]                                  # two seats' chances swapped: still sums to 1
    assert not verify(_altered(built, tmp_path, start_win=sw)).ok

    roll = built.arrays["roll"].copy()
    roll[0, 0, 8, 2] = not roll[0, 0, 8, 2]                    # one decision flipped at 0-0, 8 points, 2 dice
    rep = verify(_altered(built, tmp_path, roll=roll))
    assert not rep.ok and rep.disagreements == 1 and rep.value_error <= 1e-12

    pay = built.arrays["nuts_payout"].copy()
    pay[2, :2] = pay[2, 1::-1]                                  # two outcomes of a 2-dice round swapped
    rep = verify(_altered(built, tmp_path, nuts_payout=pay))
    assert not rep.ok and rep.payout_error > 1e-3
    assert np.array_equal(built.arrays["roll"], tables.load(built.path).arrays["roll"])   # the original is untouched
