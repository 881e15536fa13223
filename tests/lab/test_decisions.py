"""A table's decisions read where indexed (solver/lab/decisions.py): every form of numpy indexing gives what numpy
gives on the table's own stored bool array, memory follows what is read, and an index out of range names its
axis."""
import re
import tracemalloc

import numpy as np
import pytest

import solver
from solver.errors import GonutsError
from solver.lab import decisions
from solver.lab.decisions import PolicyIndexError
from solver.store.library import Tables


@pytest.fixture(scope="module")
def three():
    """The shipped 3-player table and, independently of Decisions, its decisions from the file's own ``roll``
    array (stored unpacked at 3 players), stopping wins masked as the format says."""
    t = solver.table(players=3)
    G = t.target
    stored = np.asarray(t.arrays["roll"])[..., 1:]
    own = np.arange(G)[:, None, None, None, None] + np.arange(G)[None, None, None, :, None]
    return t, stored & (own < G)


KEYS = [5, -1, slice(3, 5), (1, 2, 3, 4, 0), (1, 2, 3, 4, -5), (slice(None), 3), (Ellipsis, 2),
        (slice(2, 9, 3), Ellipsis, slice(None, None, -1)), (np.int64(4), [1, 2]), (1, 2, 3, 4, np.array(0)),
        (np.array([1, 2, 3]),), (np.array([1, 2]), slice(None), np.array([3, 4])), (None, 4),
        (slice(None), None, 3, Ellipsis, 1), (None, 2, None, Ellipsis, None), (3, Ellipsis, np.array([0, 4])), (0, 0, np.array([[1, 2], [3, 4]])),
        (Ellipsis, np.eye(50, 5, dtype=bool))]


@pytest.mark.parametrize("key", KEYS, ids=[str(i) for i in range(len(KEYS))])
def test_an_index_reads_what_numpy_reads_of_the_whole_array(three, key):
    t, whole = three
    got, want = t.policy.roll[key], whole[key]
    assert type(got) is type(want) and np.shape(got) == np.shape(want) and np.array_equal(got, want)


def test_the_whole_array_and_the_thresholds_equal_those_of_the_stored_array(three):
    t, whole = three
    p = t.policy
    assert p is t.policy and p.roll is p.roll                 # made once a table
    assert p.roll.shape == whole.shape and p.roll.ndim == 5 and len(p.roll) == 50 and p.roll.size == whole.size
    assert np.array_equal(p.roll.full(), whole) and np.array_equal(np.asarray(p.roll), whole)
    assert all(np.array_equal(a, b) for a, b in zip(p.roll, whole))
    # the thresholds, read a plane at a time, against the whole-array reading of them
    G, D = 50, 5
    stops = ~whole
    stops[..., 0, D - 1] = False
    stop_at = np.where(stops.any(axis=-2), stops.argmax(axis=-2), G)
    above = whole & (np.arange(G)[:, None] > stop_at[..., None, :])
    thr = p.thresholds()
    assert thr.stop_at.dtype == np.int64 and np.array_equal(thr.stop_at, stop_at)
    where = np.argwhere(above)
    where[:, -1] += 1
    assert np.array_equal(thr.rolls_above, where) and list(thr.count_above) == list(above.reshape(-1, D).sum(0))


@pytest.mark.parametrize("key, message", [
    (50, "index 50 is out of range for axis 0 (score 0): 0 to 49"),
    ((0, 0, 0, 0, 5), "index 5 is out of range for axis 4 (dice): 0 to 4"),
    ((0, -51), "index -51 is out of range for axis 1 (score 1)"),
    ((np.array([0, 60]),), "index 60 is out of range for axis 0 (score 0)"),
    ((0, 0, 0, 0, 0, 0), "too many indices: the decisions have 5 axes"),
    ((Ellipsis, Ellipsis), "a single ellipsis"),
])
def test_an_index_out_of_range_names_its_axis_and_range(three, key, message):
    t, _ = three
    with pytest.raises(PolicyIndexError, match=re.escape(message)) as info:
        t.policy.roll[key]
    assert isinstance(info.value, IndexError) and isinstance(info.value, GonutsError)
    assert "\n" not in str(info.value)


def test_memory_follows_what_is_read_at_four_players(tmp_path, monkeypatch):
    """At 4 players the decisions are packed 8 to a byte: one decision, a plane and the thresholds cost memory for
    what they give, never the whole bool array (here 20**5 x 5 = 16 MB; at 71, 9 GB)."""
    t = solver.Table.of(Tables(cache=tmp_path).get(solver.Rules.from_options(players=4, target=20)))
    p = t.policy
    whole = p.roll.nbytes
    assert whole == 20 ** 5 * 5

    def peak(read):
        tracemalloc.start()
        try:
            read()
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert peak(lambda: p.roll[1, 2, 3, 4, 5, 2]) < 20_000
    assert peak(lambda: p.roll[:, :, 0, 0]) < 20 * whole // 20 ** 2          # a plane: 400 states
    assert peak(lambda: p.roll[:, :, 0, 0, 7, 2]) < 10 * 20 ** 2 * 20 * 6   # 400 states' rows, unpacked
    answer = 20 ** 4 * 5 * 8                                                  # stop_at, int64
    monkeypatch.setattr(decisions, "READ_CHUNK", 20 ** 3 * 100)               # blocks of a twentieth
    assert peak(p.thresholds) < answer + 10 * decisions.READ_CHUNK + 2 * len(p.thresholds().rolls_above) * 48
    # the whole array only by name, and refused where it would not fit
    monkeypatch.setattr(decisions, "available_memory", lambda: whole - 1)
    with pytest.raises(GonutsError, match=r"takes 15\.3 MiB but only 15\.3 MiB is available: index it instead"):
        p.roll.full()
    with pytest.raises(GonutsError, match=r"reading 160,000 states' decisions at once takes about 54\.9 MiB but only"):
        p.roll[...]                                                              # the whole array by another name
    assert p.roll[1, 2].shape == (20, 20, 20, 5)                                 # a smaller read still answers
