"""Games whose orbits have several equilibria, or none that is pure: as 4 players under the rulebook from target 51
on, and from 71 (docs/model.md), here in games small enough for every test run: squirrel dice of two faces each
(faces 2,2,2), 4 players to 30 under the summary with a dog die of one dog and two houses (one orbit with two
pure equilibria), and to 17 under the rulebook (one orbit with none: two movers mix). The printed games are
proven at every target by bench/sweep_equilibria.py (docs/equilibria.md).

Policy iteration jumps between two equilibria of one orbit; the solver's equilibrium search finds both and
picks one by its stated rule (``engine.solve.SELECTION``). Evidence that does not come from the search itself:

* the orbit solved again in exact rational arithmetic (a turn's values as affine functions of the value after a
  turn that gains nothing, the cycle closed exactly), for every choice of the decisions in which the two
  equilibria differ: exactly two are equilibria, and they are the two the solver's picks give;
* the plain Bellman operator (``reference.bellman``) holds the table's values at every state of the orbits;
* one seat's exact best response (``engine.respond.deviate``) against the table's play of the others wins nothing
  more, at any state.
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
from tests.table_digests import CYCLING, FIXTURE
from tests.wheel_check import digests

ROOT = Path(__file__).resolve().parents[2]
RULEBOOK4 = dict(players=4, reading="rulebook")
# the game with two equilibria at one orbit (tests/table_digests.py CYCLING) and that orbit, in turn order
G2 = 30
TWO = dict(players=4, reading="summary", target=G2, faces=(2, 2, 2), dog=(1, 2))
TWO_NAME = "gonuts-4p-t30-summary-faces2-2-2-dog1-2.npz"
ORBIT = [(9, 0, 9, 1), (0, 9, 1, 9), (9, 1, 9, 0), (1, 9, 0, 9)]


@pytest.fixture(scope="module")
def game2():
    rules = Rules.from_options(**TWO)
    model = turn_model(rules)
    return rules, solve(model, 4, G2), solve(model, 4, G2, other_extreme=True)


def test_the_cycling_games_converge_with_one_orbit_of_two_equilibria(game2):
    _, picked, other = game2
    for res in (picked, other):
        assert res.converged and res.residual <= 1e-12
        assert (res.searched, res.several, len(res.mixed)) == (1, 1, 0)
        assert res.equilibrium() == {"selection": SELECTION, "orbits_searched": 1, "orbits_with_several": 1,
                                     "mixed_decisions": 0}
    # the two picks differ only on that orbit's states and the ones below it, and only a little
    assert 1e-5 < np.abs(picked.start_win - other.start_win).max() < 1e-3
    assert np.abs(picked.start_win[0, 0, 0, 0] - other.start_win[0, 0, 0, 0]).max() < 1e-9
    # the bytes the page's kernel gives too (tests/js/equilibria.test.mjs), and any compiler and thread count
    want = json.loads(FIXTURE.read_text())["cycling"][TWO_NAME]
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
        pays = {x: [F(float(v)) for v in pay[x]] for x in range(1, 6)}

        def nuts(x, t, gain=gain, pays=pays):
            """(c, b) of a Go Nuts! round of x dice at t turn points: its acorns banked, replacing the turn's
            points (the rulebook) or added to them (the summary)."""
            base = 0 if rules.nuts_costs_turn else t
            d = pays[x]
            parts = [gain(base + g) for g in range(G + 1) if d[g]]
            ds = [d[g] for g in range(G + 1) if d[g]]
            return ([sum((q * c[k] for q, (c, _) in zip(ds, parts)), F(0)) for k in range(N)],
                    sum((q * b for q, (_, b) in zip(ds, parts)), F(0)))
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
                        vc, vb = nuts(x, t)
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


def test_the_orbit_solved_exactly_has_the_two_equilibria_the_solver_found(game2):
    rules, picked, other = game2
    pay = nuts_payout_table(rules)
    roll_p = {s: unpack_roll(picked.roll_bits[s], G2, 5) for s in ORBIT}
    roll_o = {s: unpack_roll(other.roll_bits[s], G2, 5) for s in ORBIT}
    flips = sorted({(i, t, n) for i, s in enumerate(ORBIT) for t in range(G2 - s[0]) for n in range(1, 6)
                    if roll_p[s][t, n] != roll_o[s][t, n]})
    assert flips == [(0, 19, 1), (2, 19, 1)]         # the decision of a mover on 9 at 19 points and one die
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
    by_choice = {(bool(roll_p[ORBIT[0]][19, 1]), bool(roll_p[ORBIT[2]][19, 1])): picked,
                 (bool(roll_o[ORBIT[0]][19, 1]), bool(roll_o[ORBIT[2]][19, 1])): other}
    for choice, Wn in found:
        res = by_choice[choice]
        for i, s in enumerate(ORBIT):
            assert np.abs(np.array([float(v) for v in Wn[i]]) - res.start_win[s]).max() < 1e-14
    # the rule: the largest sum of the movers' own chances at their turns
    sums = {choice: sum(Wn[i][0] for i in range(4)) for choice, Wn in found}
    assert max(sums, key=lambda c: sums[c]) == (bool(roll_p[ORBIT[0]][19, 1]), bool(roll_p[ORBIT[2]][19, 1]))


def test_the_plain_bellman_operator_holds_the_table_everywhere(game2):
    rules, picked, _ = game2
    pay = nuts_payout_table(rules)
    S = G2 ** 4
    rng = np.random.default_rng(7)
    orbit = [int(np.ravel_multi_index(s, (G2,) * 4)) for s in ORBIT]
    states = np.unique(np.concatenate([orbit, rng.integers(0, S, 4000)]))
    b = bellman(rules, pay, picked.start_win, states)
    assert np.abs(b.value - picked.start_win.reshape(S, 4)[states]).max() <= 1e-12


def test_no_seat_gains_by_deviating_from_the_table(game2):
    """One seat's exact best response to the other three playing the table (``engine.respond.deviate``), at every
    state and with every seat to move: it wins nothing more anywhere. Every seat plays the same table, so by the
    rotation symmetry one seat stands for all (``respond``, the general max-n kernel, agrees with it decision for
    decision: tests/engine/test_respond.py)."""
    rules, picked, _ = game2
    dev = deviate(turn_model(rules), 4, G2, picked.roll_bits, picked.mixed, values=picked.start_win)
    assert dev.converged and dev.residual <= 1e-12
    assert dev.gain is not None and dev.gain <= 1e-12
    assert abs(dev.values[0, 0] - picked.start_win[0, 0, 0, 0][0]) <= 1e-12          # at 0-0, moving first
    assert np.abs(dev.values[0] - picked.start_win.reshape(-1, 4)[:, 0]).max() <= 1e-12


def test_no_seat_gains_by_deviating_from_a_table_that_mixes():
    """The same proof where the others mix (the game of no pure equilibrium): against the table's mix, one seat's
    best response wins nothing more anywhere."""
    rules = Rules.from_options(target=17, faces=(2, 2, 2), **RULEBOOK4)
    res = solve(turn_model(rules), 4, 17)
    assert len(res.mixed) == 2
    dev = deviate(turn_model(rules), 4, 17, res.roll_bits, res.mixed, values=res.start_win)
    assert dev.converged and dev.residual <= 1e-12
    assert dev.gain is not None and dev.gain <= 1e-12
    assert np.abs(dev.values[0] - res.start_win.reshape(-1, 4)[:, 0]).max() <= 1e-12


@pytest.mark.parametrize("options, name", CYCLING, ids=["two-equilibria", "mixed"])
def test_build_converges_says_the_equilibrium_it_picked_and_gives_the_committed_bytes(tmp_path, options, name):
    """Through the command line, as a builder runs it: the table's meta says the search and its rule, its arrays
    are the digests node's kernel gives too (tests/js/equilibria.test.mjs), and advise answers at the orbit."""
    out = tmp_path / name
    p = subprocess.run([sys.executable, str(ROOT / "cli.py"), "build", *options, "--out", str(out), "--json"],
                       capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stderr
    summary = json.loads(p.stdout)
    assert summary["converged"] and summary["residual"] <= 1e-12
    with np.load(out) as z:
        meta = json.loads(str(z["meta"][()]))
    eq = meta["equilibrium"]
    assert meta["schema"] == 2 and eq["selection"] == SELECTION and eq["orbits_searched"] == 1
    assert (eq["orbits_with_several"], eq["mixed_decisions"]) == ((1, 0) if "summary" in name else (0, 2))
    assert digests(out) == json.loads(FIXTURE.read_text())["cycling"][name]
    knobs = options[options.index("--faces"):]
    scores, want = (ORBIT[0], "optimal") if "summary" in name else ((8, 8, 7, 0), "mixed")
    ask = subprocess.run([sys.executable, str(ROOT / "cli.py"), "advise", "--table", str(out), "--players", "4",
                          "--target", options[options.index("--target") + 1], "--rules",
                          options[options.index("--rules") + 1], *knobs, "--scores", ",".join(map(str, scores)),
                          "--turn", "19" if "summary" in name else "7", "--dice", "1", "--json"],
                         capture_output=True, text=True, timeout=300)
    assert ask.returncode == 0, ask.stderr
    assert json.loads(ask.stdout)["reason"] == want


def test_a_solve_that_does_not_converge_keeps_nothing(tmp_path, monkeypatch):
    from solver.engine import solve as engine
    from solver.store import build
    monkeypatch.setattr(engine, "MAX_PI", 0)
    monkeypatch.setattr(engine, "MAX_VI", 1)
    out = tmp_path / "t.npz"
    with pytest.warns(engine.ConvergenceWarning), pytest.raises(NotConverged, match=r"did not converge \(residual"):
        build.build(Rules.from_options(players=2, target=8), out)
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_a_game_with_no_pure_equilibrium_at_an_orbit_gets_the_mixed_one():
    """4 players to 17 with squirrel dice of two faces each (2,2,2): at (0, 8, 8, 7) the two players on 8 cycle as
    in matching pennies (no pure equilibrium, none with one of them mixing), as 4 players to 71 under the printed
    rules do at (0, 26, 18, 18) (docs/model.md; the proofs in bench/ hold that game, this one holds the property in
    a tenth of a second). Both mix at 7 points with one die; solved again in exact rational arithmetic with those
    probabilities, each is indifferent there, every other decision of the orbit is greedy, and the values are the
    table's."""
    G = 17
    rules = Rules.from_options(target=G, faces=(2, 2, 2), **RULEBOOK4)
    res = solve(turn_model(rules), 4, G)
    assert res.converged and res.residual <= 1e-12
    assert res.equilibrium()["mixed_decisions"] == 2 and (res.searched, res.several) == (1, 0)
    members = [(0, 8, 8, 7), (8, 8, 7, 0), (8, 7, 0, 8), (7, 0, 8, 8)]
    flat = {int(np.ravel_multi_index(s, (G,) * 4)): s for s in members}
    mixed = {(flat[int(st)], int(q) // 6, int(q) % 6): float(p)
             for st, q, p in zip(res.mixed.state, res.mixed.decision, res.mixed.roll)}
    assert sorted(mixed) == [((8, 7, 0, 8), 7, 1), ((8, 8, 7, 0), 7, 1)]
    assert all(0 < p < 1 for p in mixed.values())
    roll = {s: unpack_roll(res.roll_bits[s], G, 5) for s in members}

    def rule(s):
        return lambda t, n: mixed.get((s, t, n), bool(roll[s][t, n]))
    Wn, greedy = _exact_orbit(rules, res.start_win, nuts_payout_table(rules), members, [rule(s) for s in members])
    assert greedy
    for i, s in enumerate(members):
        assert np.abs(np.array([float(v) for v in Wn[i]]) - res.start_win[s]).max() < 1e-13
    # a pure decision at either mixed state breaks the equilibrium: its mover, or the other, would deviate
    for (s, t, n) in mixed:
        for pure in (False, True):
            def broken(m, s=s, t=t, n=n, pure=pure):
                return lambda tt, nn: pure if (m, tt, nn) == (s, t, n) else rule(m)(tt, nn)
            assert not _exact_orbit(rules, res.start_win, nuts_payout_table(rules), members,
                                    [broken(m) for m in members])[1]
