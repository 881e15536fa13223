"""Before a build (solver/engine/resources.py): the estimate grows as the game does, counts what a table of that
game holds, and a build that will not fit in the memory available is refused before any work, offering --force
only where the command has it."""
from __future__ import annotations

import pytest

from solver.engine import resources
from solver.errors import GonutsError
from solver.game.rules import Rules


def test_the_estimate_grows_with_the_game_and_says_itself_in_words():
    small, big = (resources.estimate(Rules.from_options(players=n, target=30)) for n in (2, 4))
    assert small.states == 30 ** 2 and big.states == 30 ** 4
    assert small.bytes < big.bytes and small.seconds < big.seconds
    assert small.seconds == pytest.approx(resources.START_SECONDS + small.solve_seconds + small.save_seconds)
    assert big.brief().startswith("about ") and ("MiB" in big.brief() or "GiB" in big.brief())
    assert f"{big.states:,} start states" in big.summary()


def test_a_build_that_will_not_fit_is_refused_and_force_is_offered_only_where_it_exists(monkeypatch):
    monkeypatch.setattr(resources, "available_memory", lambda: 1 << 20)          # 1 MiB left
    rules = Rules.from_options(players=3, target=30)
    with pytest.raises(GonutsError, match="needs about .* of memory but only 1.0 MiB is available; use --force"):
        resources.check_fits(rules)
    with pytest.raises(GonutsError) as refused:
        resources.check_fits(rules, force=None)
    assert "--force" not in str(refused.value)
    assert resources.check_fits(rules, force=True).states == 30 ** 3
    monkeypatch.setattr(resources, "available_memory", lambda: None)            # unknown: never refused
    assert resources.check_fits(rules).available is None
