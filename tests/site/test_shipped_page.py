"""The shipped 4-player page data (tables/page/), checked without the 4-player tables it came from.

``bench/check_shipped_page.py`` compares it with a fresh encoding of fresh builds (two 4-player builds:
a benchmark's work, not CI's). Here, in seconds: the files are whole, everything in them that does not
need the table is recomputed, and the values are the game's: a fixed point of the independent Bellman
operator (``reference.bellman``) at sampled states, within the encoding's stated precision.
"""
from __future__ import annotations

import numpy as np
import pytest

from solver.game.payout import nuts_payout_table
from solver.game.rules import N_DICE, Rules
from solver.lab.policies import maxpoints
from solver.play.explain import nuts_means
from solver.reference.bellman import bellman
from solver.site import pagedata, pagegames, pagevalues

READINGS = ("rulebook", "summary")


@pytest.fixture(scope="module", params=READINGS)
def shipped(request):
    reading = request.param
    got = pagevalues.shipped_game(4, reading, pagegames.TARGET)
    assert got is not None, f"tables/page/{pagevalues.page_stem(4, reading, pagegames.TARGET)}.* missing or damaged"
    d, blob = got
    rules = Rules.from_options(reading=reading, players=4, target=pagegames.TARGET)
    W = pagedata.decode(d["start_win"], blob, (rules.target,) * 4 + (4,))
    return rules, d, W


def test_the_shipped_game_describes_its_rules_exactly(shipped):
    rules, d, _ = shipped
    assert (d["players"], d["target"], d["reading"], d["rules"]) == (4, 50, rules.reading_name(), rules.to_dict())
    assert d["nuts_payout"] == nuts_payout_table(rules).tolist()           # exact: the same rationals rounded once
    mp = maxpoints(rules, N_DICE).roll_tn[:rules.target]
    assert d["maxpoints"] == ["".join("1" if mp[t, n] else "0" for t in range(rules.target)) for n in range(6)]
    assert d["nuts_mean"][1:] == [nuts_means(rules)[x] for x in range(1, 6)]
    assert d["start_win"]["encoding"] == "lorenzo" and 0 < d["start_win"]["precision"] <= pagedata.BOUND
    assert d["source"]["checksum"].startswith("sha256:")


def test_the_shipped_values_are_probabilities_of_one_winner(shipped):
    _, _, W = shipped
    assert W.min() >= -pagedata.BOUND and W.max() <= 1 + pagedata.BOUND
    assert np.abs(W.sum(axis=-1) - 1).max() < 1e-12


def test_the_shipped_values_are_a_fixed_point_of_the_independent_bellman_operator(shipped):
    """T(W) = W for the mover's own component (max over actions is 1-Lipschitz, so rounding W by e moves
    T(W) by at most e): |T(W) - W| <= 2 * the precision, at the first state, the end game and 300 others."""
    rules, d, W = shipped
    G = rules.target
    rng = np.random.default_rng(20261201)
    corners = [np.ravel_multi_index(s, (G,) * 4) for s in [(0, 0, 0, 0), (49, 49, 49, 49), (0, 49, 49, 49),
                                                            (49, 0, 0, 0), (25, 30, 35, 40)]]
    states = np.unique(np.concatenate([corners, rng.integers(0, G ** 4, 300)]))
    b = bellman(rules, np.array(d["nuts_payout"]), W, states)
    own = W.reshape(-1, 4)[states, 0]
    assert np.abs(b.value[:, 0] - own).max() <= 2 * d["start_win"]["precision"] + 1e-12
    # a wrong table is far off: the values of the other reading are not this one's fixed point
    other = Rules.from_options(reading="summary" if rules.reading_name() == "rulebook" else "rulebook", players=4, target=G)
    wrong = bellman(other, nuts_payout_table(other), W, states)
    assert np.abs(wrong.value[:, 0] - own).max() > 100 * pagedata.BOUND
