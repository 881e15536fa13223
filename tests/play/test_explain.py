"""Why (advise --explain): the next roll's chances against closed forms, stop_at against the advice, and the
turn's gain against a literal simulation of the turn (dice and dog dice thrown, fixed seed)."""
from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from math import comb
from pathlib import Path

import numpy as np
import pytest

from solver.game.rules import Rules
from solver.play.advise import advise_path
from solver.play.explain import explain_path
from solver.reference.simulate import simulate_nuts_round
from solver.store.library import Tables
from solver.store.locate import find_table

ROOT = Path(__file__).resolve().parent.parent.parent
SHIPPED = {2: ROOT / "tables" / "gonuts-2p-t50-rulebook.npz", 3: ROOT / "tables" / "gonuts-3p-t50-rulebook.npz"}


def nuts_mean_closed_form(n, k, p_dog, p_acorn):
    """n p_acorn E[T], E[T] = sum_j C(k, j) (-1)^(j+1) / (1 - q^j): the expected maximum of k geometric races."""
    q = 1 - p_dog
    return n * p_acorn * sum(comb(k, j) * (-1) ** (j + 1) / (1 - q ** j) for j in range(1, k + 1))


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("dice", [1, 2, 3, 4, 5])
def test_the_next_roll_matches_closed_forms(players, dice):
    e = explain_path(SHIPPED[players], (10, 20, 30)[:players], 4, dice)
    assert e["p_all_cars"] == pytest.approx((1 / 6) ** dice, rel=1e-15)
    assert e["p_all_squirrels"] == pytest.approx((1 / 2) ** dice, rel=1e-15)
    # rulebook: a single die rolled that shows an acorn brings all five back
    assert e["p_one_die_refill"] == pytest.approx(1 / 3 if dice == 1 else 0.0, abs=1e-16)
    want = nuts_mean_closed_form(dice, players - 1, Fraction(1, 6), Fraction(1, 3))
    assert e["nuts_mean"] == pytest.approx(float(want), rel=1e-14)


@pytest.mark.parametrize("dice", [1, 2, 5])
def test_the_summary_reading_refills_when_one_die_is_left(dice, tmp_path):
    """Summary: a roll that leaves one live die showing an acorn: n (1/3) (1/6)^(n-1); its rounds use five dice."""
    rules = Rules.from_options(reading="summary")
    Tables().get(rules)                               # built once into the cache if it is not there (0.5 s)
    e = explain_path(find_table(rules), (10, 20), 4, dice)
    assert e["p_one_die_refill"] == pytest.approx(dice * (1 / 3) * (1 / 6) ** (dice - 1), rel=1e-14)
    assert e["nuts_mean"] == pytest.approx(float(nuts_mean_closed_form(5, 1, Fraction(1, 6), Fraction(1, 3))))


@pytest.mark.parametrize("scores, turn, dice", [((23, 31), 7, 3), ((45, 10), 2, 5), ((0, 0), 0, 5)])
def test_stop_at_is_where_the_advice_turns_to_stop(scores, turn, dice):
    e = explain_path(SHIPPED[2], scores, turn, dice)
    h = 50 - scores[0]
    for t in range(turn, min(e["stop_at"] + 1, h)):
        a, _ = advise_path(SHIPPED[2], scores, t, dice)
        want = "stop" if t == e["stop_at"] else "roll"
        assert a.action == want or abs(a.win_if_roll - a.win_if_stop) < 1e-12 or (t, dice) == (0, 5), (t, a)
    assert sum(e["turn_gain_if_roll"]) == pytest.approx(1.0, abs=1e-12) and len(e["turn_gain_if_roll"]) == h + 1


def literal_turn_gains(rules, decide, s0, turn, dice, count, rng):
    """Play the rest of the turn literally: roll the live dice (faces 2 acorn, 3 squirrel, 1 car), cars leave,
    the one-die rule, a Go Nuts! round raced tick by tick against the dog dice; stop where ``decide`` stops."""
    h = rules.target - s0
    out = np.empty(count, dtype=np.int64)
    nuts = {n: iter(simulate_nuts_round(rules, n, count, rng)) for n in range(1, 6)}
    for i in range(count):
        t, n, first = turn, dice, True
        while True:
            if not first and not decide[(t, n)]:
                out[i] = t
                break
            first = False
            faces = rng.choice(3, size=n, p=[1 / 3, 1 / 2, 1 / 6])
            a, s, c = (faces == 0).sum(), (faces == 1).sum(), (faces == 2).sum()
            if c == n:
                out[i] = 0
                break
            if s == n:
                x = 5 if rules.nuts_all_dice else n
                out[i] = min(int(next(nuts[x])) + (0 if rules.nuts_costs_turn else t), h)
                break
            t += a
            lone = n == 1 if rules.one_die == "rolled" else n - c == 1
            n = 5 if (a == 1 and lone) else n - c
            if t >= h:
                out[i] = h
                break
    return np.bincount(out, minlength=h + 1) / count


@pytest.mark.slow
@pytest.mark.parametrize("players, scores, turn, dice", [(2, (23, 31), 7, 3), (3, (30, 31, 12), 2, 4)])
def test_the_turns_gain_matches_a_literal_simulation(players, scores, turn, dice):
    from solver.play.advise import turn_inputs
    from solver.play.backup import turn_decisions
    from solver.store.checked import open_table
    with open_table(SHIPPED[players]) as tab:
        rules = tab.rules
        run, payouts = turn_inputs(tab, scores)
    decide = turn_decisions(rules, payouts, lambda g: run[g * players:(g + 1) * players], scores[0])
    e = explain_path(SHIPPED[players], scores, turn, dice)
    count = 20_000
    sim = literal_turn_gains(rules, decide, scores[0], turn, dice, count, np.random.default_rng(2026))
    P = np.array(e["turn_gain_if_roll"])
    se = np.sqrt(P * (1 - P) / count)
    assert np.all(np.abs(sim - P) <= 4 * se + 1e-4), np.max(np.abs(sim - P) / (se + 1e-12))
    gains = np.arange(len(P))
    mean_se = np.sqrt((P * gains ** 2).sum() - e["turn_gain_mean_if_roll"] ** 2) / np.sqrt(count)
    assert abs((sim * gains).sum() - e["turn_gain_mean_if_roll"]) <= 4 * mean_se


def run(*args):
    return subprocess.run([sys.executable, "-m", "cli", *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_advise_explain_in_words_and_json():
    p = run("advise", "--scores", "23,31", "--turn", "7", "--dice", "3", "--explain")
    assert p.returncode == 0, p.stderr
    assert "why: with 3 dice here, optimal play stops at 15." in p.stdout
    assert "1 in 216 all cars (the turn's 7 points lost); 1 in 8 a Go Nuts! round" in p.stdout
    q = json.loads(run("advise", "--scores", "23,31", "--turn", "7", "--dice", "3", "--explain", "--json").stdout)
    assert set(q["explain"]) == {"stop_at", "p_all_cars", "p_all_squirrels", "p_one_die_refill", "nuts_mean",
                                 "turn_gain_if_roll", "turn_gain_mean_if_roll"}
    assert "explain" not in json.loads(run("advise", "--scores", "23,31", "--json").stdout)
    p = run("advise", "--game", "pig", "--scores", "3,4", "--explain")
    assert p.returncode == 1 and p.stderr.strip() == (
        "gonuts-solve: error: --explain is for Go Nuts! (Pig's turn has no dice to explain)")


def test_explain_where_stopping_already_wins():
    """At 45 with 6 turn points stopping wins; rolling still risks it, and the numbers say how much."""
    e = explain_path(SHIPPED[2], (45, 10), 6, 2)
    P = e["turn_gain_if_roll"]
    assert e["stop_at"] == 6 and len(P) == 6 and sum(P) == pytest.approx(1.0, abs=1e-12)
    # every move reaches the target at once; all cars lose the turn; all squirrels start a 2-dice round
    from solver.game.payout import nuts_payout_table
    pay = nuts_payout_table(Rules.from_options(reading="rulebook"))[2]
    assert P[0] == pytest.approx(1 / 36 + pay[0] / 4, abs=1e-15)
    assert P[-1] == pytest.approx(1 - 1 / 36 - 1 / 4 + pay[5:].sum() / 4, abs=1e-15)
    assert P[1:5] == pytest.approx([x / 4 for x in pay[1:5]], abs=1e-15)
    p = run("advise", "--scores", "45,10", "--turn", "6", "--dice", "2", "--explain")
    assert "why: with 2 dice here, stopping now reaches the target: you win." in p.stdout
