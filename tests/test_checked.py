"""Tables checked once per file content (solver/checked.py): fast later, never weaker."""
import os

import pytest

from solver.errors import TableError
from solver.game.rules import preset
from solver.play.advise import advise, advise_path
from solver.store import checked


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GONUTS_SOLVE_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _kept(cache):
    root = cache / "checked"
    return sorted(p.name for p in root.iterdir()) if root.is_dir() else []


def test_a_second_question_reads_the_kept_copy_and_answers_the_same(rulebook2, rb2_path, cache, monkeypatch):
    first, _ = advise_path(rb2_path, (10, 20), 5, 3)
    assert _kept(cache) == [checked.file_digest(rb2_path)]

    def no_full_check(*a, **k):
        raise AssertionError("checked in full again")
    monkeypatch.setattr(checked, "Archive", no_full_check)
    for scores, turn, dice in [((10, 20), 5, 3), ((0, 0), 0, 5), ((49, 3), 0, 2), ((30, 31), 12, 1)]:
        a, rules = advise_path(rb2_path, scores, turn, dice)
        assert a == advise(rulebook2, scores, turn, dice)
    assert first == advise(rulebook2, (10, 20), 5, 3)


def test_three_players_from_the_kept_copy_equal_the_loaded_table(rulebook3_small, table_dir, cache):
    path = table_dir / "rb3s.npz"
    for _ in range(2):                                   # checked in full, then from the copy
        for scores, turn, dice in [((3, 5, 7), 2, 4), ((0, 0, 0), 0, 5), ((11, 0, 4), 0, 1)]:
            assert advise_path(path, scores, turn, dice)[0] == advise(rulebook3_small, scores, turn, dice)
    assert len(_kept(cache)) == 1


def test_a_changed_byte_is_a_new_file_and_is_refused(rb2_path, tmp_path, cache):
    advise_path(rb2_path, (10, 20), 5, 3)
    bad = tmp_path / "bad.npz"
    data = bytearray(rb2_path.read_bytes())
    data[len(data) // 2] ^= 0x01                         # inside some member's compressed data
    bad.write_bytes(bytes(data))
    with pytest.raises(TableError, match="corrupted|not a readable"):
        advise_path(bad, (10, 20), 5, 3)
    assert _kept(cache) == [checked.file_digest(rb2_path)]


def test_a_damaged_kept_copy_is_ignored_and_checked_again(rb2_path, cache):
    advise_path(rb2_path, (10, 20), 5, 3)
    folder = cache / "checked" / checked.file_digest(rb2_path)
    with open(folder / "roll_win.raw", "r+b") as fh:
        fh.truncate(100)
    a, _ = advise_path(rb2_path, (10, 20), 5, 3)         # full check, copy written again
    assert (folder / "roll_win.raw").stat().st_size > 100
    assert a.win_if_roll == advise_path(rb2_path, (10, 20), 5, 3)[0].win_if_roll


def test_the_rules_asked_for_are_enforced_from_the_copy_too(rb2_path, cache):
    for _ in range(2):
        with pytest.raises(TableError, match="was built for"):
            advise_path(rb2_path, (10, 20), 5, 3, expect=preset("summary"))


def test_an_unusable_cache_folder_only_costs_time(rb2_path, cache):
    cache.mkdir()
    (cache / "checked").write_text("a file where the folder should be")
    assert advise_path(rb2_path, (10, 20), 5, 3)[0].action in ("roll", "stop")


def test_only_the_most_recently_used_copies_are_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(checked, "KEPT", 2)
    root = tmp_path / "checked"
    for i, name in enumerate(["old", "newest", "middle", "oldest"]):
        (root / name).mkdir(parents=True)
        (root / name / checked.STAMP).write_text("{}")
        age = {"newest": 0, "middle": 10, "old": 20, "oldest": 30}[name]
        os.utime(root / name / checked.STAMP, (1e9 - age, 1e9 - age))
    checked._prune(root)
    assert sorted(p.name for p in root.iterdir()) == ["middle", "newest"]


def test_a_large_file_has_its_structure_refused_before_it_is_hashed(tmp_path, cache, monkeypatch):
    import zipfile
    bad = tmp_path / "big.npz"
    with zipfile.ZipFile(bad, "w") as z:
        z.writestr("payload.bin", b"x" * 4096)       # not a table member
    monkeypatch.setattr(checked, "HASH_FIRST_BYTES", 1024)

    def never(path):
        raise AssertionError("hashed before its structure was checked")
    monkeypatch.setattr(checked, "file_digest", never)
    with pytest.raises(TableError, match="unexpected member"):
        advise_path(bad, (10, 20), 5, 3)
