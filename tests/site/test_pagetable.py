"""The page's values as a table (solver/site/pagetable.py): only for the game the page data ships (4 players to
50), with decisions that keep the rules: never a roll once stopping wins, the opening always rolled, and win
probabilities that sum to 1 within the precision they state."""
from __future__ import annotations

import numpy as np
import pytest

from solver.game.rules import Rules
from solver.site.pagetable import page_table

pytestmark = pytest.mark.slow


def test_only_the_game_whose_page_data_ships_has_page_values():
    assert page_table(Rules.from_options(players=2)) is None
    assert page_table(Rules.from_options(players=4, target=30)) is None


@pytest.mark.parametrize("reading", ["rulebook", "summary"])
def test_the_page_values_keep_the_rules(reading):
    rules = Rules.from_options(players=4, reading=reading)
    table = page_table(rules)
    assert table is not None and table.rules == rules
    assert (table.players, table.target, table.substates) == (4, 50, rules.substates)
    assert 0 < table.precision < 1e-3
    start = np.asarray(table.arrays["start_win"][0, 0, 0, 0])
    assert abs(float(start.sum()) - 1) <= 4 * table.precision
    assert table.roll_at((0, 0, 0, 0), 0, rules.substates)          # the opening is rolled
    for t in (5, 9):                                                  # 45 + 5 reaches 50: stopping wins
        assert not any(table.roll_at((45, 10, 20, 30), t, n) for n in range(1, rules.substates + 1))
