"""Tables checked once per file content (solver/checked.py): fast later, never weaker."""
import hashlib
import os

import pytest

from solver.errors import TableError
from solver.game.rules import Rules
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
            advise_path(rb2_path, (10, 20), 5, 3, expect=Rules.from_options(reading="summary"))


def test_an_unusable_cache_folder_only_costs_time(rb2_path, cache):
    cache.mkdir()
    (cache / "checked").write_text("a file where the folder should be")
    assert advise_path(rb2_path, (10, 20), 5, 3)[0].action in ("roll", "stop")


def test_only_the_most_recently_used_copies_are_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(checked, "KEPT", 2)
    root = tmp_path / "checked"
    ages = {"newest": 0, "middle": 10, "old": 20, "oldest": 30}
    names = {name: hashlib.sha256(name.encode()).hexdigest() for name in ages}
    for name, age in ages.items():
        (root / names[name]).mkdir(parents=True)
        (root / names[name] / checked.STAMP).write_text("{}")
        os.utime(root / names[name] / checked.STAMP, (1e9 - age, 1e9 - age))
    checked._prune(root)
    assert sorted(p.name for p in root.iterdir()) == sorted([names["middle"], names["newest"]])


def test_pruning_deletes_only_folders_it_wrote(tmp_path, monkeypatch):
    """Ten folders of somebody else's, older than a day, and folders of our pattern without our marker: kept."""
    monkeypatch.setattr(checked, "KEPT", 1)
    root = tmp_path / "checked"
    foreign = [f"photos-{i}" for i in range(1, 11)] + ["0" * 64, "f" * 64]   # the last two: no marker
    for name in foreign:
        (root / name).mkdir(parents=True)
        (root / name / "holiday.jpg").write_bytes(b"jpeg")
        os.utime(root / name, (1e9, 1e9))
    ours = ["a" * 64, "b" * 64, "c" * 64]
    for age, name in enumerate(ours):
        (root / name).mkdir()
        (root / name / checked.MARK).write_text("")
        os.utime(root / name, (1e9 - age, 1e9 - age))                     # half-written: no stamp, old
    checked._prune(root)
    left = {p.name for p in root.iterdir()}
    assert set(foreign) <= left and len(left - set(foreign)) == 1 and left - set(foreign) <= set(ours)
    assert all((root / name / "holiday.jpg").is_file() for name in foreign)


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


def _forged(cache, shipped, uid=None):
    """Ask once (a checked copy is kept), then swap its roll and stop values and open its folder to anyone."""
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent.parent
    env = {**os.environ, "GONUTS_SOLVE_CACHE": str(cache)}

    def ask():
        return subprocess.run([sys.executable, "-m", "cli", "advise", "--scores", "23,31", "--turn", "7", "--dice",
                               "3", "--json"], cwd=root, env=env, capture_output=True, text=True, timeout=120)
    first = ask()
    assert first.returncode == 0, first.stderr
    (copy,) = (cache / "checked").iterdir()
    roll, stop = (copy / "roll_win.raw").read_bytes(), (copy / "stop_win.raw").read_bytes()
    (copy / "roll_win.raw").write_bytes(stop)
    (copy / "stop_win.raw").write_bytes(roll)
    return first, copy, ask


POSIX = pytest.mark.skipif(os.name != "posix", reason="owners and modes are POSIX's")


@POSIX
def test_a_checked_copy_anybody_could_have_written_is_never_read(tmp_path):
    """The forged copy (roll and stop swapped) in a folder anyone can write, or another user's: the answer is
    the table's, and one line says the copy was not used."""
    import json
    first, copy, ask = _forged(tmp_path / "cache", None)
    os.chmod(copy, 0o777)
    again = ask()
    assert again.returncode == 0 and json.loads(again.stdout) == json.loads(first.stdout)
    assert json.loads(again.stdout)["action"] == "roll"
    assert again.stderr.strip().splitlines() == [
        f"gonuts-solve: note: a checked copy of gonuts-2p-t50-rulebook.npz in the cache is not used ({copy} is "
        "writable by others (mode 777)): checking it in full"]
    if os.geteuid() == 0:                         # another user's folder, not writable by others
        os.chmod(copy, 0o700)
        os.chown(copy, 12345, 12345)
        again = ask()
        assert json.loads(again.stdout) == json.loads(first.stdout) and "belongs to user 12345" in again.stderr


@POSIX
def test_a_cache_root_anybody_can_write_is_not_used(tmp_path):
    import json
    first, copy, ask = _forged(tmp_path / "cache", None)
    os.chmod(tmp_path / "cache", 0o777)
    again = ask()
    assert again.returncode == 0 and json.loads(again.stdout) == json.loads(first.stdout)
    (line,) = again.stderr.strip().splitlines()
    assert line.startswith("gonuts-solve: note: the cache folder is not safe to read (") and \
        "writable by others (mode 777)): working in a private temporary folder" in line
