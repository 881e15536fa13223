"""Where tables are found (solver/store/locate.py): the shipped tables under the names the README gives, a
custom game under a name of its own, and a cached table only where nobody else could have written it."""
from __future__ import annotations

import os

import pytest

from solver.game.rules import Rules
from solver.store import locate


def test_the_shipped_tables_are_found_under_the_names_the_readme_gives():
    for players in (2, 3):
        for reading in ("rulebook", "summary"):
            rules = Rules.from_options(players=players, reading=reading)
            name = f"gonuts-{players}p-t50-{reading}.npz"
            assert locate.table_name(rules) == name
            assert locate.find_table(rules) == locate.shipped_dir() / name
            assert (locate.shipped_dir() / name).is_file()


def test_a_game_s_file_name_says_its_knobs_as_describe_does():
    base = Rules.from_options(players=2, target=30)
    fast = Rules.from_options(players=2, target=30, speed=2.0)
    assert locate.table_name(base) == "gonuts-2p-t30-rulebook.npz"
    assert locate.table_name(fast) == "gonuts-2p-t30-rulebook-speed2.npz" and "speed 2" in fast.describe()
    odd = Rules.from_options(players=3, reading="summary", faces=(3, 2, 1), dog=(1, 6), speed=0.5)
    assert locate.table_name(odd) == "gonuts-3p-t50-summary-faces3-2-1-dog1-6-speed0.5.npz"
    mixed = Rules(players=2, target=30, nuts_costs_turn=False)             # of neither reading: custom, hashed
    assert mixed.reading_name() is None and locate.table_name(mixed).startswith("gonuts-2p-t30-custom-")
    assert locate.table_name(fast) == locate.table_name(Rules.from_options(players=2, target=30, speed=2.0))
    assert locate.table_name(fast) != locate.table_name(Rules.from_options(players=2, target=30, speed=0.5))
    assert locate.table_name(Rules.from_options(game="pig", players=2, target=30)) == "pig-2p-t30.npz"


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="owners and modes are POSIX")
def test_a_cached_table_that_others_could_have_written_is_not_found(tmp_path, monkeypatch):
    monkeypatch.setenv("GONUTS_SOLVE_CACHE", str(tmp_path))
    tmp_path.chmod(0o700)
    rules = Rules.from_options(players=2, target=12)
    cached = tmp_path / locate.table_name(rules)
    assert locate.find_table(rules) is None
    cached.write_bytes(b"a table")
    cached.chmod(0o600)
    assert locate.find_table(rules) == cached
    cached.chmod(0o666)
    assert locate.find_table(rules) is None
