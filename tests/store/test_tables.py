"""The .npz contract: round trip, integrity checks, refusals, atomic writes."""
import json
import zipfile

import numpy as np
import pytest

from solver.errors import TableError
from solver.game.rules import Rules
from solver.store import contract, tables


def _copy_arrays(t):
    return {k: v.copy() for k, v in t.arrays.items()}


def test_round_trip_preserves_arrays_and_meta(rulebook2, rb2_path, tmp_path):
    path = tmp_path / "copy.npz"
    tables.save(path, rulebook2.rules, _copy_arrays(rulebook2), rulebook2.meta["solver"], 5)
    back = tables.load(path, expect=Rules.from_options())
    for k, v in rulebook2.arrays.items():
        assert np.array_equal(back.arrays[k], v)
    assert back.meta["checksum"] == rulebook2.meta["checksum"]
    with np.load(path, allow_pickle=False) as z:       # numpy alone reads it
        meta = json.loads(str(z["meta"][()]))
        assert meta["schema"] == tables.SCHEMA and meta["rules"]["target"] == 50
        assert z["start_win"].shape == (50, 50, 2)


def test_detects_corruption(rulebook2, rb2_path, tmp_path):
    src = rb2_path.read_bytes()
    bad = bytearray(src)
    bad[len(bad) // 2] ^= 0xFF
    p = tmp_path / "bad.npz"
    p.write_bytes(bytes(bad))
    with pytest.raises(TableError):
        tables.load(p)


def test_detects_truncation(rulebook2, rb2_path, tmp_path):
    src = rb2_path.read_bytes()
    p = tmp_path / "short.npz"
    p.write_bytes(src[: len(src) // 3])
    with pytest.raises(TableError):
        tables.load(p)


def test_detects_tampered_values_by_checksum(rulebook2, rb2_path, tmp_path):
    """A well-formed file whose numbers changed after it was written."""
    p = tmp_path / "tampered.npz"
    arrays = _copy_arrays(rulebook2)
    with np.load(rb2_path, allow_pickle=False) as z:
        meta = str(z["meta"][()])
    arrays["start_win"][3, 4] = [0.5, 0.5]
    np.savez(p, meta=np.array(meta), **arrays)
    with pytest.raises(TableError, match="checksum"):
        tables.load(p)


def test_refuses_pickles_unknown_schema_and_foreign_files(rulebook2, rb2_path, tmp_path):
    with np.load(rb2_path, allow_pickle=False) as z:
        meta = json.loads(str(z["meta"][()]))
    p = tmp_path / "pickle.npz"
    np.savez(p, meta=np.array(json.dumps(meta)), start_win=np.array([{"a": 1}], dtype=object))
    with pytest.raises(TableError, match="pickle"):
        tables.load(p)
    meta2 = dict(meta, schema=99)
    p2 = tmp_path / "schema.npz"
    np.savez(p2, meta=np.array(json.dumps(meta2)), **_copy_arrays(rulebook2))
    with pytest.raises(TableError, match="schema"):
        tables.load(p2)
    p3 = tmp_path / "other.npz"
    np.savez(p3, x=np.zeros(3))
    with pytest.raises(TableError, match="not a gonuts-solve table"):
        tables.load(p3)
    p4 = tmp_path / "text.npz"
    p4.write_text("hello")
    with pytest.raises(TableError):
        tables.load(p4)
    with pytest.raises(TableError, match="no table"):
        tables.load(tmp_path / "missing.npz")
    with pytest.raises(TableError, match="not a regular file"):
        tables.load(tmp_path)


def test_save_checks_invariants_before_writing(rulebook2, rb2_path, tmp_path):
    arrays = _copy_arrays(rulebook2)
    arrays["roll"][49, 0, 3, 2] = True          # rolling where stopping already wins
    p = tmp_path / "never.npz"
    with pytest.raises(TableError, match="roll"):
        tables.save(p, rulebook2.rules, arrays, rulebook2.meta["solver"], 5)
    assert not p.exists() and not list(tmp_path.iterdir())


def test_a_solve_that_did_not_converge_is_neither_written_nor_read(rulebook2, tmp_path):
    unconverged = {**rulebook2.meta["solver"], "converged": False, "residual": 4.7e-4}
    p = tmp_path / "never.npz"
    with pytest.raises(TableError, match=r"did not converge \(residual 0.00047"):
        tables.save(p, rulebook2.rules, _copy_arrays(rulebook2), unconverged, 5)
    assert not p.exists()
    # a stranger's table that says so is refused before any array is read
    meta = {**rulebook2.meta, "solver": unconverged, "converged": False, "residual": 4.7e-4}
    with pytest.raises(TableError, match="did not converge"):
        contract.contract(meta, "theirs.npz")


def test_save_into_missing_folder_is_refused(rulebook2, rb2_path, tmp_path):
    with pytest.raises(TableError, match="does not exist"):
        tables.save(tmp_path / "no" / "t.npz", rulebook2.rules, _copy_arrays(rulebook2), rulebook2.meta["solver"], 5)


def test_npz_is_a_zip_with_the_documented_members(rulebook2, rb2_path):
    with zipfile.ZipFile(rb2_path) as z:
        names = sorted(z.namelist())
    assert names == sorted(f"{k}.npy" for k in ["meta", "start_win", "roll", "roll_win", "stop_win",
                                                 "nuts_payout"])


def test_refuses_other_rules(rulebook2, rb2_path):
    with pytest.raises(TableError, match="summary"):
        tables.load(rb2_path, expect=Rules.from_options(reading="summary"))
    with pytest.raises(TableError, match="target"):
        tables.load(rb2_path, expect=Rules.from_options(target=40))


def test_arrays_deflate_hardly_shrinks_are_stored_and_read_back_the_same(rulebook2, tmp_path):
    """Win probabilities are stored (deflate saves 6% of them for most of a write's time); decisions and the
    metadata are deflated; the table reads back with the same arrays and checksum."""
    rng = np.random.default_rng(7)
    assert not tables.worth_deflating(rng.random(300_000))           # sampled: 2.4 MB of random doubles
    assert tables.worth_deflating(np.zeros(300_000))
    assert tables.worth_deflating(np.zeros(0))
    out = tmp_path / "t.npz"
    tables.save(out, rulebook2.rules, dict(rulebook2.arrays), rulebook2.meta["solver"], 5)
    kinds = {i.filename: i.compress_type for i in zipfile.ZipFile(out).infolist()}
    assert kinds["start_win.npy"] == zipfile.ZIP_STORED
    assert kinds["roll.npy"] == kinds["meta.npy"] == zipfile.ZIP_DEFLATED
    again = tables.load(out)
    assert again.meta["checksum"] == rulebook2.meta["checksum"]
    for name, a in rulebook2.arrays.items():
        assert np.array_equal(again.arrays[name], a), name
    with np.load(out, allow_pickle=False) as z:                       # any zip reader: numpy's own
        assert np.array_equal(z["start_win"], rulebook2.arrays["start_win"])


def _with_mixes(table, rows, roll):
    """The table's arrays with these mixed decisions, the roll bit at each the likelier action (as a solve stores
    it), where the row names a cell of the table."""
    arrays = _copy_arrays(table)
    arrays["mixed_at"] = np.array(rows, dtype=np.int64).reshape(len(rows), table.players + 2)
    arrays["mixed_roll"] = np.array(roll, dtype=np.float64)
    G, D = table.target, table.substates
    for row, p in zip(rows, roll):
        *scores, t, n = row
        if not (all(0 <= x < G for x in scores) and 0 <= t < G and 0 <= n <= D):
            continue
        if "roll" in arrays:
            arrays["roll"][tuple(scores) + (t, n)] = p >= 0.5
        else:
            state, q = int(np.ravel_multi_index(tuple(scores), (G,) * len(scores))), t * (D + 1) + n
            flat = arrays["roll_bits"].reshape(G ** len(scores), -1)
            flat[state, q >> 3] = (flat[state, q >> 3] & ~np.uint8(128 >> (q & 7))) | np.uint8((p >= 0.5) << 7 >> (q & 7))
    return arrays


def test_mixed_decisions_round_trip_and_are_advised_as_such(rulebook3_small, tmp_path):
    """A table with a mixed decision (written here: no game offered needs one) keeps it through save and load, and
    advise says it, from the loaded table and from the file read without numpy, in text and JSON."""
    from solver.commands import text
    from solver.play.advise import advise, advise_path
    t = rulebook3_small
    rows = [(3, 5, 1, 2, 1), (4, 0, 0, 7, 2)]
    path = tmp_path / "mixed.npz"
    meta = tables.save(path, t.rules, _with_mixes(t, rows, [0.25, 0.75]), t.meta["solver"], 5)
    assert meta["schema"] == 2 and meta["equilibrium"]["mixed_decisions"] == 2
    back = tables.load(path)
    assert back.mix_at((4, 0, 0), 7, 2) == 0.75 and back.mix_at((4, 0, 0), 7, 3) is None
    m = back.mixed
    assert list(m.roll) == [0.25, 0.75] and list(m.state) == [3 * 144 + 5 * 12 + 1, 4 * 144]
    for a in (advise(back, (3, 5, 1), 2, 1), advise_path(path, (3, 5, 1), 2, 1)[0]):
        assert a.reason == "mixed" and a.roll_probability == 0.25 and a.to_dict()["roll_probability"] == 0.25
        assert "EITHER" in text.advice(t.rules, a) and "0.2500" in text.advice(t.rules, a)
    plain = advise(back, (3, 5, 1), 2, 2)
    assert plain.reason == "optimal" and "roll_probability" not in plain.to_dict()


@pytest.mark.parametrize("rows, roll, why", [
    ([(3, 5, 1, 2, 0)], [0.5], "no decision"),              # n = 0 is no decision
    ([(11, 5, 1, 2, 1)], [0.5], "no decision"),             # 11 + 2 >= 12: stopping wins there
    ([(3, 5, 1, 2, 1), (3, 5, 1, 2, 1)], [0.5, 0.5], "once each"),
    ([(4, 0, 0, 7, 2), (3, 5, 1, 2, 1)], [0.5, 0.5], "table order"),
    ([(3, 5, 1, 2, 1)], [1.0], "strictly between"),
    ([(3, 5, 1, 2, 1)], [float("nan")], "strictly between"),
])
def test_mixed_decisions_that_are_not_decisions_or_probabilities_are_refused(rulebook3_small, tmp_path, rows, roll,
                                                                              why):
    t = rulebook3_small
    with pytest.raises(TableError, match=why):
        tables.save(tmp_path / "bad.npz", t.rules, _with_mixes(t, rows, roll), t.meta["solver"], 5)
    assert not (tmp_path / "bad.npz").exists()


def test_a_schema_1_table_is_still_read(rulebook3_small, tmp_path):
    """Tables written before schema 2 (no equilibrium in meta, no mixed arrays: the shipped ones were, until the
    tails became exact) load, with no equilibrium recorded."""
    import json

    from solver.store.locate import shipped_dir
    now = tables.load(shipped_dir() / "gonuts-2p-t50-rulebook.npz")
    meta = {k: v for k, v in now.meta.items() if k != "equilibrium"}
    meta.update(schema=1, package_version="0.1.0")
    with (tmp_path / "old.npz").open("wb") as fh:
        tables.write_npz(fh, {"meta": np.array(json.dumps(meta, sort_keys=True)), **now.arrays})
    old = tables.load(tmp_path / "old.npz")
    assert old.meta["schema"] == 1 and old.equilibrium["selection"] is None
    assert len(old.mixed) == 0 and old.mix_at((0, 0), 3, 4) is None
