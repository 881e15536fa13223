"""The engine against independent oracles: published values, closed forms, a plain solver."""
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from solver import engine
from solver.bellman import bellman, plain_value_iteration
from solver.engine import ConvergenceWarning, solve
from solver.payout import nuts_payout_table
from solver.rules import Rules, preset
from solver.turn import turn_model


def test_pig_reproduces_neller_presser_2004():
    """Neller & Presser, "Optimal Play of the Dice Game Pig", UMAP Journal 25(1), 2004:
    the first player wins with probability 0.5306 under optimal play (target 100)."""
    res = solve(turn_model(Rules(game="pig", target=100)), 2, 100)
    assert round(res.first_player_win, 4) == 0.5306
    assert res.converged and res.residual <= 1e-12


def _turn_win_prob_target1(rules):
    """Target 1 by hand: P(the turn scores at least one point) when always rolling.

    From n live dice with 0 turn points: any acorn wins; all squirrels start a
    Go Nuts! round that wins unless it yields no acorn; a mix of cars and
    squirrels goes on with the squirrels. Exact fractions throughout.
    """
    F = sum(rules.faces)
    pa, ps, pc = (Fraction(x, F) for x in rules.faces)
    pd = Fraction(rules.dog[0], sum(rules.dog))
    k = rules.players - 1

    def nuts_zero(n):
        q, z = 1 - pd, (1 - pa) ** n
        return sum(comb(k, j) * (-1) ** j * (q ** j - 1) * z / (1 - q ** j * z) for j in range(1, k + 1))

    q = {}
    for n in range(1, 6):
        nuts_n = 5 if rules.nuts_all_dice else n
        win = 1 - (1 - pa) ** n + ps ** n * (1 - nuts_zero(nuts_n))
        for c in range(1, n):
            win += comb(n, c) * pc ** c * ps ** (n - c) * q[n - c]
        q[n] = win
    return q[5]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", ["rulebook", "summary"])
def test_target_one_closed_form(players, name):
    """With target 1 the player to move wins with prob q, else play passes: w_k = q(1-q)^k / (1-(1-q)^N)."""
    r = preset(name, players=players, target=1)
    q = _turn_win_prob_target1(r)
    res = solve(turn_model(r), players, 1)
    want = [float(q * (1 - q) ** k / (1 - (1 - q) ** players)) for k in range(players)]
    assert res.start_win[(0,) * players] == pytest.approx(want, abs=1e-14)


CASES = [
    preset("rulebook"), preset("summary"),
    preset("rulebook", players=3, target=12), preset("summary", players=3, target=12),
    preset("rulebook", players=4, target=6), preset("summary", players=4, target=6),
    preset("rulebook", players=3, target=10, faces=(1, 3, 2), speed=0.5),
    preset("summary", players=2, target=25, faces=(3, 1, 2), dog=(2, 3), speed=2.0),
    Rules(game="pig", target=30), Rules(game="pig", players=3, target=15),
]


@pytest.mark.parametrize("rules", CASES, ids=lambda r: r.describe())
def test_engine_agrees_with_plain_global_value_iteration(rules):
    """Every start state to 1e-9 and every decision identical, except where the two actions tie within 1e-9."""
    res = solve(turn_model(rules), rules.players, rules.target)
    W, roll, sweeps, resid = plain_value_iteration(rules, tol=1e-13)
    assert resid <= 1e-13
    assert np.abs(W - res.start_win).max() < 1e-9
    differ = roll != res.roll
    if differ.any():
        pay = nuts_payout_table(rules) if rules.game == "gonuts" else None
        b = bellman(rules, pay, res.start_win, np.arange(rules.target ** rules.players))
        gap = np.abs(b.roll_own - b.stop_own).reshape(differ.shape)
        assert gap[differ].max() < 1e-9


@pytest.mark.parametrize("name", ["rulebook", "summary"])
def test_bellman_equations_hold_at_every_state_of_a_built_table(name, rulebook2, summary2):
    """Recompute every state of the target-50 tables with the independent operator."""
    t = rulebook2 if name == "rulebook" else summary2
    G, N = t.target, t.players
    b = bellman(t.rules, t.arrays["nuts_payout"], t.arrays["start_win"], np.arange(G ** N))
    assert np.abs(b.value - t.arrays["start_win"].reshape(-1, N)).max() < 1e-12
    rw = t.arrays["roll_win"].reshape(b.roll_own.shape)
    sw = t.arrays["stop_win"].reshape(b.stop_own.shape)
    assert np.abs(b.roll_own[..., 1:] - rw[..., 1:]).max() < 1e-12
    assert np.abs(b.stop_own[..., 1:] - sw[..., 1:]).max() < 1e-12
    differ = b.roll != t.arrays["roll"].reshape(b.roll.shape)
    assert not differ.any() or np.abs(b.roll_own - b.stop_own)[differ].max() < 1e-12
    assert t.meta["solver"]["converged"] and t.meta["solver"]["residual"] <= 1e-12


def test_table_conventions(rulebook2):
    t = rulebook2
    G = t.target
    roll, rw, sw = t.arrays["roll"], t.arrays["roll_win"], t.arrays["stop_win"]
    s0 = np.arange(G)[:, None, None, None]
    tt = np.arange(G)[None, None, :, None]
    over = np.broadcast_to(s0 + tt >= G, roll.shape).copy()
    over[..., 0] = False
    assert not roll[over].any() and np.all(rw[over] == 1) and np.all(sw[over] == 1)
    assert not roll[..., 0].any() and np.all(rw[..., 0] == 0) and np.all(sw[..., 0] == 0)
    assert np.all(roll[:, :, 0, 5])                          # the opening roll is forced
    assert np.allclose(rw[:, :, 0, 5], t.arrays["start_win"][..., 0], atol=1e-15, rtol=0)
    np.testing.assert_allclose(t.arrays["start_win"].sum(-1), 1.0, atol=1e-12)


def test_symmetric_orbit_and_first_player_advantage(rulebook2):
    sw = rulebook2.arrays["start_win"]
    # More banked points never hurt the player to move, and moving first is an advantage.
    assert np.all(np.diff(sw[..., 0], axis=0) >= -1e-12)
    assert np.all(np.diff(sw[..., 0], axis=1) <= 1e-12)
    assert sw[0, 0, 0] > 0.5


def test_value_iteration_fallback_agrees(monkeypatch):
    r = preset("rulebook", players=3, target=10)
    ref = solve(turn_model(r), 3, 10)
    monkeypatch.setattr(engine, "MAX_PI", 0)
    vi = solve(turn_model(r), 3, 10)
    assert vi.converged and vi.residual <= 1e-12
    assert np.abs(vi.start_win - ref.start_win).max() < 1e-10


def test_non_convergence_is_reported_and_warned(monkeypatch):
    monkeypatch.setattr(engine, "MAX_PI", 0)
    monkeypatch.setattr(engine, "MAX_VI", 1)
    with pytest.warns(ConvergenceWarning):
        res = solve(turn_model(preset(target=8)), 2, 8)
    assert not res.converged and res.residual > 1e-12


@pytest.mark.parametrize("players", [2, 3])
def test_builds_reproduce_the_shipped_tables_bit_for_bit(players, tmp_path):
    """The shipped tables were built by the earlier (numba) kernel: the C kernel must give the same bytes."""
    from pathlib import Path

    from solver import build as builder, tables
    rules = preset("rulebook", players=players)
    out = tmp_path / "t.npz"
    builder.build(rules, out)
    shipped = Path(__file__).resolve().parent.parent / "tables" / f"gonuts-{players}p-t50-rulebook.npz"
    assert tables.read_meta(out)["checksum"] == tables.read_meta(shipped)["checksum"]
    a, b = tables.load(out), tables.load(shipped)
    for name in b.arrays:
        assert np.array_equal(a.arrays[name], b.arrays[name]), name


def test_the_compile_message_appears_only_when_compiling(tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "GONUTS_SOLVE_CACHE": str(tmp_path / "cache")}
    runs = [subprocess.run([sys.executable, "-m", "cli", "build", "--target", "12", "--out", str(tmp_path / "t.npz")],
                           cwd=root, env=env, capture_output=True, text=True, timeout=300) for _ in range(2)]
    assert all(p.returncode == 0 for p in runs), runs[0].stderr
    assert "compiling the solver" in runs[0].stderr
    assert "compiling" not in runs[1].stderr
