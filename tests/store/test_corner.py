"""A smaller target read off a larger table: the same file a solve writes, and one line for what is no corner."""
import numpy as np
import pytest

from solver.engine.solve import solve
from solver.errors import TableError
from solver.game.rules import Rules
from solver.game.turn import turn_model
from solver.store import build, corner, tables
from solver.store.library import Tables
from solver.store.locate import shipped_dir


def _solved_arrays(rules, tmp_path):
    """The arrays a solve of ``rules`` writes (a build into its own folder, nothing read off another table)."""
    out = tmp_path / "solved" / "t.npz"
    out.parent.mkdir()
    build.build(rules, out)
    return tables.load(out)


@pytest.mark.parametrize("players, reading, target", [(2, "rulebook", 30), (2, "summary", 17), (3, "rulebook", 20),
                                                      (3, "summary", 41)])
def test_a_corner_of_a_shipped_table_is_the_table_a_solve_writes(players, reading, target, tmp_path):
    big = tables.load(shipped_dir() / f"gonuts-{players}p-t50-{reading}.npz")
    small = corner.corner(big, target)
    want = _solved_arrays(Rules.from_options(players=players, reading=reading, target=target), tmp_path)
    assert small.meta["checksum"] == want.meta["checksum"]
    assert sorted(small.arrays) == sorted(want.arrays)
    for name, a in want.arrays.items():
        assert small.arrays[name].tobytes() == a.tobytes(), name
    assert small.meta["solver"]["corner_of"] == {"target": 50, "checksum": big.meta["checksum"]}


def test_a_corner_of_a_packed_four_player_table_cuts_each_row_of_bits(tmp_path):
    rules = Rules.from_options(players=4, target=13, speed=2)
    build.build(rules, tmp_path / "big.npz")
    big = tables.load(tmp_path / "big.npz")
    for target in (9, 11, 13):                     # 9 * 6 = 54 bits: a byte cut short; 13: the table itself
        small = corner.corner(big, target)
        r = solve(turn_model(Rules.from_options(players=4, target=target, speed=2)), 4, target)
        assert small.arrays["roll_bits"].tobytes() == r.roll_bits.tobytes()
        assert small.arrays["start_win"].tobytes() == r.start_win.tobytes()


def test_a_corner_keeps_the_mixed_decisions_inside_it_shifted_to_its_scores(tmp_path):
    """Mixed decisions are read off by their scores: those in the corner stay, moved by L - T, in table order."""
    rules = Rules.from_options(players=3, target=12)
    r = solve(turn_model(rules), 3, 12)
    roll = r.roll.copy()                  # the roll bit at a mixed decision is its likelier action
    roll[1, 5, 7, 2, 3], roll[4, 4, 4, 0, 2], roll[9, 3, 11, 1, 1] = False, True, True
    arrays = {"start_win": r.start_win, "roll": roll, "nuts_payout": tables.load(
        shipped_dir() / "gonuts-3p-t50-rulebook.npz").arrays["nuts_payout"][:, :13].copy(),
        "mixed_at": np.array([[1, 5, 7, 2, 3], [4, 4, 4, 0, 2], [9, 3, 11, 1, 1]], dtype=np.int64),
        "mixed_roll": np.array([0.25, 0.5, 0.75])}
    from solver.game.payout import nuts_payout_table
    arrays["nuts_payout"] = nuts_payout_table(rules)
    meta = {"method": "m", "tolerance": 1e-12, "residual": 1e-16, "iterations": 2, "converged": True}
    tables.save(tmp_path / "mixed.npz", rules, arrays, meta, 5)
    small = corner.corner(tables.load(tmp_path / "mixed.npz"), 9)       # scores >= 3 stay
    assert small.arrays["mixed_at"].tolist() == [[1, 1, 1, 0, 2], [6, 0, 8, 1, 1]]
    assert small.arrays["mixed_roll"].tolist() == [0.5, 0.75]
    assert small.equilibrium["mixed_decisions"] == 2
    assert "mixed_at" not in corner.corner(tables.load(tmp_path / "mixed.npz"), 2).arrays   # none inside


@pytest.mark.parametrize("target, says", [(51, "target 51 is not a corner of the table to 50"),
                                          (0, "target 0 is not a corner of the table to 50"),
                                          (-3, "target -3 is not a corner"),
                                          (30.0, "a whole number from 1 to 50"), (True, "not True"),
                                          ("30", "not '30'"),
                                          (Rules.from_options(players=2, target=30, reading="summary"),
                                           "another game than the table's"),
                                          (Rules.from_options(players=3, target=30), "another game")])
def test_what_is_no_corner_gets_one_line_naming_the_target_and_the_tables(target, says):
    big = tables.load(shipped_dir() / "gonuts-2p-t50-rulebook.npz")
    with pytest.raises(TableError, match=says) as err:
        corner.corner(big, target)
    assert "\n" not in str(err.value)


def test_the_same_game_as_rules_is_a_corner_too():
    big = tables.load(shipped_dir() / "gonuts-2p-t50-rulebook.npz")
    assert corner.corner(big, Rules.from_options(players=2, target=30)).target == 30


def test_the_library_answers_a_smaller_target_from_a_larger_table_with_no_solve(tmp_path, monkeypatch):
    said = []
    monkeypatch.setattr(build, "solve", lambda *a, **k: pytest.fail("solved instead of reading the corner"))
    t = Tables(cache=tmp_path, note=said.append).get(Rules.from_options(players=3, target=25, reading="summary"))
    assert t.target == 25 and t.path == tmp_path / "gonuts-3p-t25-summary.npz"
    assert said == ["Go Nuts!, 3 players, target 25, summary reading: from the table to 50 "
                    "(gonuts-3p-t50-summary.npz), with no solve"]
    assert t.meta["solver"]["corner_of"]["target"] == 50


def test_a_larger_table_that_fails_its_checks_is_never_read_and_the_line_says_why(tmp_path):
    rules = Rules.from_options(players=2, target=20, speed=2)
    bad = tmp_path / "gonuts-2p-t40-rulebook-speed2.npz"
    bad.write_bytes(b"PK\x03\x04 not a table")
    said = []
    t = Tables(cache=tmp_path, note=said.append).get(rules)
    assert t.target == 20 and "corner_of" not in t.meta["solver"]          # solved, not read off the bad one
    assert said[0].startswith(f"the table to 40 ({bad}) is unusable (") and "not reading the game to 20" in said[0]
    assert any(line.startswith("no table for") for line in said[1:])


def test_a_larger_table_of_other_knobs_is_no_source(tmp_path):
    """Only the same game: another speed's or another reading's table to a larger target is not read."""
    said = []
    Tables(cache=tmp_path, note=said.append).build(Rules.from_options(players=2, target=12, speed=0.5),
                                                   tmp_path / "a.npz", quiet=True)
    assert Tables(cache=tmp_path).larger(Rules.from_options(players=2, target=12, speed=2)) == []
