"""The values the page plays with (solver/site/pagevalues.py): a 2- or 3-player table's exactly (bit for bit as the
page subtracts the last seat's share), the shipped 4-player page data found by its game and checked (a damaged
copy is not read), and a page game read back from either within the precision it states."""
from __future__ import annotations

import json
import shutil
import zlib

import numpy as np

from solver.site import pagevalues
from solver.store import tables
from solver.store.locate import shipped_dir


def test_a_small_tables_values_are_the_pages_exactly():
    t = tables.load(shipped_dir() / "gonuts-3p-t50-rulebook.npz")
    assert pagevalues.is_encoded(t)                                   # float64 needs no cache
    rules, start_win, payouts = pagevalues.page_game(t)
    assert rules == t.rules and payouts == t.arrays["nuts_payout"].tolist()
    assert np.array_equal(start_win[..., :2], t.arrays["start_win"][..., :2])
    assert np.array_equal(start_win[..., 2], 1.0 - t.arrays["start_win"][..., 0] - t.arrays["start_win"][..., 1])


def test_the_shipped_four_player_data_is_found_checked_and_read_within_its_precision(tmp_path, monkeypatch):
    assert pagevalues.page_stem(4, "summary", 50) == "gonuts-4p-t50-summary"
    assert pagevalues.is_shipped(4, "summary", 50) and not pagevalues.is_shipped(4, "summary", 30)
    assert pagevalues.shipped_game(2, "rulebook", 50) is None              # its table is shipped instead
    desc, blob = pagevalues.shipped_game(4, "summary", 50)
    precision = desc["start_win"]["precision"]
    monkeypatch.setenv("GONUTS_SOLVE_CACHE", str(tmp_path / "cache"))
    rules, start_win, _ = pagevalues.page_game((desc, blob))
    assert rules.players == 4 and 0 < precision < 1e-5
    w = start_win[10, 20, 30, 40]
    assert abs(w.sum() - 1) < 1e-12 and (w >= -precision).all()
    # a copy whose bytes do not match its descriptor is not read
    folder = tmp_path / "shipped" / pagevalues.SHIPPED_PAGE
    folder.mkdir(parents=True)
    stem = pagevalues.page_stem(4, "summary", 50)
    shutil.copy(shipped_dir() / pagevalues.SHIPPED_PAGE / f"{stem}.json", folder / f"{stem}.json")
    (folder / f"{stem}.bin").write_bytes(blob[:-1] + bytes([blob[-1] ^ 1]))
    assert json.loads((folder / f"{stem}.json").read_text())["start_win"]["crc32"] == zlib.crc32(blob)
    monkeypatch.setattr(pagevalues, "shipped_dir", lambda: tmp_path / "shipped")
    assert pagevalues.shipped_game(4, "summary", 50) is None
    (folder / f"{stem}.bin").write_bytes(blob)                             # whole again: read
    assert pagevalues.shipped_game(4, "summary", 50) == (desc, blob)
