"""The one way to a table (solver/store/library.py ``Tables``): a shipped one is found and nothing is built; a
missing one is built once into the cache asked, its progress followed to the end, and found there the next time; a
cached file that is damaged is built again, said in one line; one estimated past the limit is refused before any
work with the command that builds it."""
from __future__ import annotations

import pytest

from solver.game.rules import Rules
from solver.store.library import Tables, TooLong
from solver.store.locate import shipped_dir


def test_a_shipped_table_is_found_and_nothing_is_built(tmp_path):
    said, seen = [], []
    t = Tables(cache=tmp_path, note=said.append, progress=lambda d, n: seen.append((d, n))).get(
        Rules.from_options(players=2))
    assert t.path == shipped_dir() / "gonuts-2p-t50-rulebook.npz" and said == seen == [] and not list(tmp_path.iterdir())


def test_a_missing_table_is_built_once_into_the_cache_with_its_progress(tmp_path):
    rules, said, seen = Rules.from_options(players=2, target=14, reading="summary", speed=2), [], []   # no corner
    tables = Tables(cache=tmp_path, note=said.append, progress=lambda d, n: seen.append((d, n)))
    t = tables.get(rules)
    assert t.rules == rules and t.path.parent == tmp_path and tables.find(rules) == t.path
    assert seen and seen[-1][0] == seen[-1][1] and all(a[0] <= b[0] for a, b in zip(seen, seen[1:]))
    assert any("building it once" in line for line in said)
    said.clear()
    seen.clear()
    assert tables.get(rules).path == t.path and said == seen == []               # found: nothing built again

    t.path.write_bytes(b"not a table")                                           # a damaged cached file
    again = tables.get(rules)
    assert any("unusable" in line for line in said) and again.rules == rules


def test_a_build_past_the_limit_is_refused_naming_the_command_that_builds_it(tmp_path):
    rules = Rules.from_options(players=4, target=40)
    with pytest.raises(TooLong, match=r"build it first: gonuts-solve build .*--players 4 .*--target 40"):
        Tables(cache=tmp_path, max_build_seconds=0.01).get(rules)
    assert not list(tmp_path.iterdir())
