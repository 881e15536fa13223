"""Games whose orbits have several equilibria: 4 players under the rulebook from target 51 on.

Policy iteration jumps between two equilibria of one orbit there; the solver's equilibrium search finds both and
picks one by its stated rule (``engine.solve.SELECTION``). Evidence that does not come from the search itself:

* the orbit solved again in exact rational arithmetic (a turn's values as affine functions of the value after a
  turn that gains nothing, the cycle closed exactly), for every choice of the decisions in which the two
  equilibria differ: exactly two are equilibria, and they are the two the solver's picks give;
* the plain Bellman operator (``reference.bellman``) holds the table's values at every state of the orbits;
* one seat's exact best response (``engine.respond.deviate``) against the table's play of the others wins nothing
  more, at any state.

Targets 51 (solved here) and 52 (built through the command line; every target from 51 to 70 has the one orbit with
two equilibria) are the slice of bench/sweep_equilibria.py that CI runs.
"""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from solver.engine.respond import deviate
from solver.engine.solve import SELECTION, NotConverged, solve, unpack_roll
from solver.game.moves import BUST, NUTS, roll_table
from solver.game.payout import nuts_payout_table
from solver.game.rules import Rules
from solver.game.turn import turn_model
from solver.reference.bellman import bellman
from tests.table_digests import FIXTURE

ROOT = Path(__file__).resolve().parents[2]
RULEBOOK4 = dict(players=4, reading="rulebook")
ORBIT = [(39, 39, 19, 0), (39, 19, 0, 39), (19, 0, 39, 39), (0, 39, 39, 19)]   # at target 51, in turn order


@pytest.fixture(scope="module")
def game51():
    rules = Rules.from_options(target=51, **RULEBOOK4)
    model = turn_model(rules)
    return rules, solve(model, 4, 51), solve(model, 4, 51, other_extreme=True)


def test_the_cycling_games_converge_with_one_orbit_of_two_equilibria(game51):
    _, picked, other = game51
    for res in (picked, other):
        assert res.converged and res.residual <= 1e-12
        assert (res.searched, res.several, len(res.mixed)) == (1, 1, 0)
        assert res.equilibrium() == {"selection": SELECTION, "orbits_searched": 1, "orbits_with_several": 1,
                                     "mixed_decisions": 0}
    # the two picks differ only on that orbit's states and the ones below it, and only a little
    assert 1e-5 < np.abs(picked.start_win - other.start_win).max() < 1e-3
    assert np.abs(picked.start_win[0, 0, 0, 0] - other.start_win[0, 0, 0, 0]).max() < 1e-9
    # the bytes the page's kernel gives too (tests/js/equilibria.test.mjs), and any compiler and thread count
    want = json.loads(FIXTURE.read_text())["cycling"]["gonuts-4p-t51-rulebook.npz"]
    for name in ("start_win", "roll_bits"):
        assert hashlib.sha256(getattr(picked, name).tobytes()).hexdigest() == want[name].split()[-1], name


def _exact_orbit(rules, W, pay, members, rolls_at):
    """Exact values of an orbit whose members follow ``rolls_at[i](t, n)`` (True, False, or a float: the probability
    of rolling), everything else held at W (floats read exactly): each turn's values as c + b x, x the value after
    a turn that gains nothing, the cycle closed exactly. Returns (values per member, whether every decision of
    every member is greedy: a pure one strictly, a mixed one indifferent within 1e-12)."""
    N, G = rules.players, rules.target
    D, rolls = roll_table(rules)
    F = Fraction

    def after(scores, g):                       # every seat's value after a turn gaining g, old frame (P W(s'))
        s0 = scores[0] + g
        if s0 >= G:
            return [F(1)] + [F(0)] * (N - 1)
        nxt = tuple(scores[1:]) + (s0,)
        w = [F(float(v)) for v in W[nxt]]
        return [w[(k - 1) % N] for k in range(N)]

    turns = []
    for i, scores in enumerate(members):
        h = G - scores[0]
        C = {g: after(scores, g) for g in range(1, h)}
        win = [F(1)] + [F(0)] * (N - 1)
        zero = [F(0)] * N

        def gain(g, C=C, h=h, win=win, zero=zero):  # (c, b) of banking g
            return (zero, F(1)) if g == 0 else ((win, F(0)) if g >= h else (C[g], F(0)))
        nuts = {}
        for x in range(1, 6):
            d = [F(float(v)) for v in pay[x]]
            c = [sum((d[g] * gain(g)[0][k] for g in range(1, G + 1)), F(0)) for k in range(N)]
            nuts[x] = (c, d[0])
        V = {}
        parts = {}
        for t in range(h - 1, -1, -1):
            for n in range(1, D + 1):
                rc, rb = [F(0)] * N, F(0)
                for kind, p, x, dst in rolls[n]:
                    p = F(p)
                    if kind == BUST:
                        vc, vb = zero, F(1)
                    elif kind == NUTS:
                        vc, vb = nuts[x]
                    else:
                        vc, vb = (win, F(0)) if t + x >= h else V[(t + x, dst)]
                    rc = [a + p * v for a, v in zip(rc, vc)]
                    rb += p * vb
                sc, sb = gain(t)
                parts[(t, n)] = (rc, rb, sc, sb)
                act = True if (t == 0 and n == D) else rolls_at[i](t, n)
                if isinstance(act, float):                  # mixed: roll with probability act
                    pr = F(act)
                    V[(t, n)] = ([pr * u + (1 - pr) * v for u, v in zip(rc, sc)], pr * rb + (1 - pr) * sb)
                else:
                    V[(t, n)] = (rc, rb) if act else (sc, sb)
        turns.append((V[(0, D)], parts))
    # close the cycle: W_i = c_i + b_i P W_{i+1}
    L = len(members)
    coef, num = F(1), [F(0)] * N
    for j in range(L):
        (c, b), _ = turns[j]
        num = [num[k] + coef * c[(k - j) % N] for k in range(N)]
        coef *= b
    Wn = [None] * L
    Wn[0] = [v / (1 - coef) for v in num]
    for i in range(L - 1, 0, -1):
        (c, b), _ = turns[i]
        nxt = Wn[(i + 1) % L]
        Wn[i] = [c[k] + b * nxt[(k - 1) % N] for k in range(N)]
    greedy = True
    for i in range(L):
        y = Wn[(i + 1) % L][N - 1]                   # the mover's own chance after a turn that gains nothing
        for (t, n), (rc, rb, sc, sb) in turns[i][1].items():
            if t == 0 and n == D:
                continue
            act = rolls_at[i](t, n)
            if isinstance(act, float):               # a mixed decision: the mover is indifferent (to rounding of p)
                greedy &= abs((rc[0] + rb * y) - (sc[0] + sb * y)) <= F(1, 10 ** 12)
                continue
            rolls_better = rc[0] + rb * y > sc[0] + sb * y
            greedy &= rolls_better == bool(act)
    return Wn, greedy


def test_the_orbit_solved_exactly_has_the_two_equilibria_the_solver_found(game51):
    rules, picked, other = game51
    pay = nuts_payout_table(rules)
    # the orbit's decisions only (the whole unpacked table is gigabytes)
    roll_p = {s: unpack_roll(picked.roll_bits[s], 51, 5) for s in ORBIT}
    roll_o = {s: unpack_roll(other.roll_bits[s], 51, 5) for s in ORBIT}
    flips = sorted({(i, t, n) for i, s in enumerate(ORBIT) for t in range(51 - s[0]) for n in range(1, 6)
                    if roll_p[s][t, n] != roll_o[s][t, n]})
    assert flips == [(0, 7, 1), (1, 7, 1)]           # the decision of the mover on 39 at 7 points and one die
    found = []
    for choice in [(a, b) for a in (False, True) for b in (False, True)]:
        def rule(i, choice=choice):
            over = {(m, t, n): c for (m, t, n), c in zip(flips, choice)}
            return lambda t, n: over.get((i, t, n), bool(roll_p[ORBIT[i]][t, n]))
        Wn, greedy = _exact_orbit(rules, picked.start_win, pay, ORBIT, [rule(i) for i in range(4)])
        if greedy:
            found.append((choice, Wn))
    assert [c for c, _ in found] == [(False, True), (True, False)]
    # each is one of the solver's two picks, to rounding
    by_choice = {(bool(roll_p[ORBIT[0]][7, 1]), bool(roll_p[ORBIT[1]][7, 1])): picked,
                 (bool(roll_o[ORBIT[0]][7, 1]), bool(roll_o[ORBIT[1]][7, 1])): other}
    for choice, Wn in found:
        res = by_choice[choice]
        for i, s in enumerate(ORBIT):
            assert np.abs(np.array([float(v) for v in Wn[i]]) - res.start_win[s]).max() < 1e-14
    # the rule: the largest sum of the movers' own chances at their turns
    sums = {choice: sum(Wn[i][0] for i in range(4)) for choice, Wn in found}
    assert max(sums, key=lambda c: sums[c]) == (bool(roll_p[ORBIT[0]][7, 1]), bool(roll_p[ORBIT[1]][7, 1]))


def test_the_plain_bellman_operator_holds_the_table_everywhere(game51):
    rules, picked, _ = game51
    pay = nuts_payout_table(rules)
    S = 51 ** 4
    rng = np.random.default_rng(7)
    orbit = [int(np.ravel_multi_index(s, (51,) * 4)) for s in ORBIT]
    states = np.unique(np.concatenate([orbit, rng.integers(0, S, 4000)]))
    b = bellman(rules, pay, picked.start_win, states)
    assert np.abs(b.value - picked.start_win.reshape(S, 4)[states]).max() <= 1e-12


@pytest.mark.slow
def test_no_seat_gains_by_deviating_from_the_table(game51):
    """One seat's exact best response to the other three playing the table (``engine.respond.deviate``), at every
    state and with every seat to move: it wins nothing more anywhere. Every seat plays the same table, so by the
    rotation symmetry one seat stands for all (``respond``, the general max-n kernel, agrees with it decision for
    decision: tests/engine/test_respond.py)."""
    rules, picked, _ = game51
    dev = deviate(turn_model(rules), 4, 51, picked.roll_bits, picked.mixed, values=picked.start_win)
    assert dev.converged and dev.residual <= 1e-12
    assert dev.gain is not None and dev.gain <= 1e-12
    assert abs(dev.values[0, 0] - picked.start_win[0, 0, 0, 0][0]) <= 1e-12          # at 0-0, moving first
    assert np.abs(dev.values[0] - picked.start_win.reshape(-1, 4)[:, 0]).max() <= 1e-12


@pytest.mark.slow
@pytest.mark.parametrize("target", [52])
def test_build_converges_and_says_the_equilibrium_it_picked(tmp_path, target):
    out = tmp_path / f"g{target}.npz"
    p = subprocess.run([sys.executable, str(ROOT / "cli.py"), "build", "--players", "4", "--target", str(target),
                        "--out", str(out), "--json"], capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stderr
    summary = json.loads(p.stdout)
    assert summary["converged"] and summary["residual"] <= 1e-12
    with np.load(out) as z:
        meta = json.loads(str(z["meta"][()]))
    assert meta["schema"] == 2 and meta["equilibrium"]["selection"] == SELECTION
    assert meta["equilibrium"]["orbits_with_several"] >= 1 and meta["equilibrium"]["mixed_decisions"] == 0
    ask = subprocess.run([sys.executable, str(ROOT / "cli.py"), "advise", "--table", str(out), "--scores",
                          f"{target - 12},{target - 32},{target - 51},{target - 12}", "--turn", "7", "--dice", "1",
                          "--json"], capture_output=True, text=True, timeout=300)
    assert ask.returncode == 0 and json.loads(ask.stdout)["action"] in ("roll", "stop"), ask.stderr


def test_a_solve_that_does_not_converge_keeps_nothing(tmp_path, monkeypatch):
    from solver.engine import solve as engine
    from solver.store import build
    monkeypatch.setattr(engine, "MAX_PI", 0)
    monkeypatch.setattr(engine, "MAX_VI", 1)
    out = tmp_path / "t.npz"
    with pytest.warns(engine.ConvergenceWarning), pytest.raises(NotConverged, match=r"did not converge \(residual"):
        build.build(Rules.from_options(players=2, target=8), out)
    assert not out.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_a_game_with_no_pure_equilibrium_at_an_orbit_gets_the_mixed_one():
    """4 players to 71: at (0, 26, 18, 18) the two players on 18 cycle as in matching pennies (no pure equilibrium,
    none with one of them mixing). Both mix at 7 points with one die; solved again in exact rational arithmetic
    with those probabilities, each is indifferent there, every other decision of the orbit is greedy, and the
    values are the table's."""
    rules = Rules.from_options(target=71, **RULEBOOK4)
    res = solve(turn_model(rules), 4, 71)
    assert res.converged and res.residual <= 1e-12
    assert res.equilibrium()["mixed_decisions"] == 2 and res.several >= 1
    members = [(0, 26, 18, 18), (26, 18, 18, 0), (18, 18, 0, 26), (18, 0, 26, 18)]
    flat = {int(np.ravel_multi_index(s, (71,) * 4)): s for s in members}
    mixed = {(flat[int(st)], int(q) // 6, int(q) % 6): float(p)
             for st, q, p in zip(res.mixed.state, res.mixed.decision, res.mixed.roll)}
    assert sorted(k[:1] + k[1:] for k in mixed) == [((18, 0, 26, 18), 7, 1), ((18, 18, 0, 26), 7, 1)]
    assert all(0 < p < 1 for p in mixed.values())
    roll = {s: unpack_roll(res.roll_bits[s], 71, 5) for s in members}     # not res.roll: gigabytes

    def rule(s):
        return lambda t, n: mixed.get((s, t, n), bool(roll[s][t, n]))
    Wn, greedy = _exact_orbit(rules, res.start_win, nuts_payout_table(rules), members, [rule(s) for s in members])
    assert greedy
    for i, s in enumerate(members):
        assert np.abs(np.array([float(v) for v in Wn[i]]) - res.start_win[s]).max() < 1e-13
