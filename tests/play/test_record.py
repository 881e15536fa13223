"""Game records: the rules applied event by event, refusals that name the first bad entry, and
reviews valued against the independent Bellman operator."""
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from solver.game.rules import N_DICE, Rules
from solver.play.record import RecordError, replay, review, rules_of
from solver.reference.bellman import bellman

sys.path.insert(0, str(Path(__file__).parent.parent))
from literal import live_after, throw  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent


def record(events, reading="rulebook", players=2, you=0, **extra):
    return {"format": "gonuts-game", "version": 1, "reading": reading, "players": players, "target": 50,
            "you": you, "mode": "coach", "events": events, **extra}


def ev(seat, **kw):
    return {"seat": seat, **kw}


# -- the rules, worked by hand ----------------------------------------------------------------------

def test_a_stop_banks_the_turn_and_passes_play():
    r = replay(record([ev(0, roll=[2, 2, 1]), ev(0, choice="roll"), ev(0, roll=[1, 2, 1]), ev(0, choice="stop"),
                       ev(1, banked=7)]))
    assert r.scores == (3, 7) and r.winner is None
    assert [(d.scores, d.turn, d.dice, d.taken) for d in r.decisions] == [((0, 0), 2, 4, "roll"), ((0, 0), 3, 3, "stop")]


def test_all_cars_lose_the_turn():
    r = replay(record([ev(0, roll=[3, 1, 1]), ev(0, choice="roll"), ev(0, roll=[0, 0, 4]), ev(1, banked=0)]))
    assert r.scores == (0, 0)


@pytest.mark.parametrize("reading, gain", [("rulebook", 6), ("summary", 3 + 6)])
def test_go_nuts_round_replaces_or_adds_to_the_turn(reading, gain):
    # 3 acorns and 2 cars leave 3 live dice; then all three show squirrels: Go Nuts!
    r = replay(record([ev(0, roll=[3, 0, 2]), ev(0, choice="roll"), ev(0, roll=[0, 3, 0]), ev(0, nuts=6)],
                      reading=reading))
    assert r.scores == (gain, 0)


@pytest.mark.parametrize("reading", ["rulebook", "summary"])
def test_one_die_rule_under_each_reading(reading):
    # Two live dice show an acorn and a car: one die is left and it shows an acorn. Only the
    # summary reading brings all five back; the rulebook's needs a single die rolled.
    r = replay(record([ev(0, roll=[1, 2, 2]), ev(0, choice="roll"), ev(0, roll=[1, 1, 1]), ev(0, choice="roll"),
                       ev(0, roll=[1, 0, 1]), ev(0, choice="stop")], reading=reading))
    assert r.decisions[-1].dice == (N_DICE if reading == "summary" else 1)


def test_one_die_rule_of_the_rulebook_brings_five_dice_back():
    r = replay(record([ev(0, roll=[1, 1, 3]), ev(0, choice="roll"), ev(0, roll=[0, 1, 1]), ev(0, choice="roll"),
                       ev(0, roll=[1, 0, 0]), ev(0, choice="stop")]))
    assert [(d.turn, d.dice) for d in r.decisions] == [(1, 2), (1, 1), (2, N_DICE)]


def test_reaching_the_target_wins_at_once():
    r = replay(record([ev(0, roll=[0, 0, 5]), ev(1, banked=45), ev(0, roll=[1, 1, 3]), ev(0, choice="stop"),
                       ev(1, roll=[5, 0, 0])]))
    assert r.winner == 1 and r.scores == (1, 50)
    with pytest.raises(RecordError, match="event 5: the game is already over"):
        replay(record([ev(0, roll=[0, 0, 5]), ev(1, banked=45), ev(0, roll=[1, 1, 3]), ev(0, choice="stop"),
                       ev(1, roll=[5, 0, 0]), ev(0, roll=[1, 1, 3])]))


def test_three_players_frames_start_with_the_reviewed_seat():
    r = replay(record([ev(0, banked=10), ev(1, roll=[2, 2, 1]), ev(1, choice="stop"), ev(2, banked=5),
                       ev(0, banked=4), ev(1, roll=[1, 3, 1]), ev(1, choice="roll")], players=3, you=1))
    assert r.scores == (14, 2, 5)
    assert [d.scores for d in r.decisions] == [(0, 0, 10), (2, 5, 14)]


# -- a second, literal implementation of the rules ---------------------------------------------------

def _literal_game(seed, reading, players):
    """Plays a random game with numpy's dice, writing the events and the scores it keeps itself."""
    rng = np.random.default_rng(seed)
    costs = rolled = reading == "rulebook"
    scores, events, seat = [0] * players, [], 0
    while True:
        t, n = 0, 5
        while True:
            a, s, c = throw(rng, n)
            events.append({"seat": seat, "roll": [a, s, c]})
            if c == n:
                gain = 0
                break
            if s == n:
                acorns = int(rng.integers(0, 25))
                events.append({"seat": seat, "nuts": acorns})
                gain = acorns + (0 if costs else t)
                break
            t += a
            n = live_after(n, a, c, rolled)
            if scores[seat] + t >= 50:
                gain = t
                break
            stop = rng.random() < 0.3
            events.append({"seat": seat, "choice": "stop" if stop else "roll"})
            if stop:
                gain = t
                break
        scores[seat] += gain
        if scores[seat] >= 50:
            return events, tuple(scores), seat
        seat = (seat + 1) % players


@pytest.mark.parametrize("seed", range(12))
def test_replay_agrees_with_a_literal_game(seed):
    reading = ("rulebook", "summary")[seed % 2]
    players = 2 + seed % 3 if seed % 3 < 2 else 4
    events, scores, winner = _literal_game(seed, reading, players)
    r = replay(record(events, reading=reading, players=players, you=seed % players))
    assert r.scores == scores and r.winner == winner


# -- refusals name the first bad entry --------------------------------------------------------------

@pytest.mark.parametrize("events, message", [
    ([ev(0, roll=[2, 2, 2])], "event 0: 2\\+2\\+2 = 6 dice, but 5 dice are live"),
    ([ev(0, roll=[2, 2, 1]), ev(0, choice="roll"), ev(0, roll=[2, 2, 1])], "event 2: .* 4 dice are live"),
    ([ev(0, roll=[-1, 5, 1])], "event 0: a roll is \\[acorns, squirrels, cars\\]"),
    ([ev(0, roll=[2, 2, 1]), ev(0, roll=[2, 1, 1])], "event 1: expected a choice, not a roll"),
    ([ev(1, roll=[2, 2, 1])], "event 0: seat 1 is not the player to move \\(seat 0 is\\)"),
    ([ev(0, banked=5)], "event 0: your own turns are entered roll by roll"),
    ([ev(0, roll=[0, 5, 0]), ev(0, choice="stop")], "event 1: expected the acorns of the Go Nuts! round"),
    ([ev(0, roll=[0, 5, 0]), ev(0, nuts=-2)], "event 1: the acorns of a Go Nuts! round are a whole number"),
    ([ev(0, roll=[2, 2, 1]), ev(0, choice="maybe")], "event 1: a choice is \"roll\" or \"stop\""),
    ([ev(0, roll=[2, 2, 1]), ev(0, choice="stop"), ev(1, banked=2.5)], "event 2: banked points must be a whole"),
    ([ev(0, roll=[2, 2, 1], choice="roll")], "event 0: needs \"seat\" and exactly one of"),
    (["roll"], "event 0: must be an object"),
])
def test_inconsistent_records_are_refused_naming_the_event(events, message):
    with pytest.raises(RecordError, match=message):
        replay(record(events))


@pytest.mark.parametrize("change, message", [
    ({"format": "x"}, "not a game record"),
    ({"version": 2}, "unknown record version 2"),
    ({"reading": "house"}, "\"reading\" must be one of rulebook, summary"),
    ({"players": 5}, "\"players\" must be 2, 3 or 4"),
    ({"you": 2}, "\"you\" must be a seat from 0 to 1"),
    ({"events": {}}, "\"events\" must be a list"),
])
def test_malformed_headers_are_refused(change, message):
    with pytest.raises(RecordError, match=message):
        replay({**record([]), **change})


# -- the review, against the independent Bellman operator -------------------------------------------

def _oracle(table, scores, turn, dice):
    """Both actions' win probability for the player to move, from start_win by solver.reference.bellman."""
    rules = table.rules
    state = np.ravel_multi_index(tuple(scores), (rules.target,) * rules.players)
    b = bellman(rules, table.arrays.get("nuts_payout"), table.arrays["start_win"], [state])
    return float(b.roll_own[0, turn, dice]), float(b.stop_own[0, turn, dice])


def test_review_losses_equal_the_bellman_difference(rulebook2):
    events, _, _ = _literal_game(3, "rulebook", 2)
    rv = review(record(events), rulebook2)
    assert len(rv.decisions) >= 3
    for d in rv.decisions:
        roll, stop = _oracle(rulebook2, d.scores, d.turn, d.dice)
        took = roll if d.taken == "roll" else stop
        assert d.loss_points == pytest.approx(100 * (max(roll, stop) - took), abs=1e-10)
        assert d.optimal == ("roll" if roll > stop else "stop") or abs(roll - stop) < 1e-12
    assert rv.total_loss_points == pytest.approx(sum(d.loss_points for d in rv.decisions), abs=1e-12)
    worst = rv.costliest()
    assert len(worst) <= 3 and all(d.loss_points > 0 for d in worst)
    assert [d.loss_points for d in worst] == sorted((d.loss_points for d in rv.decisions if d.loss_points > 0),
                                                    reverse=True)[:3]


def test_review_refuses_a_table_for_other_rules(rulebook2):
    with pytest.raises(RecordError, match="the record is for"):
        review(record([], reading="summary"), rulebook2)


# -- the command ---------------------------------------------------------------------------------------

def _cli(*args, cache):
    env = {**os.environ, "GONUTS_SOLVE_CACHE": str(cache)}
    env.pop("GONUTS_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "cli", *map(str, args)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)


def test_a_record_says_its_go_nuts_speed_and_the_rules_follow_it():
    """The page writes "speed" into every record (its setup's More fold); an older record without it is at the
    printed speed; anything but a number above 0 and at most 100 is refused by name."""
    assert rules_of(record([], target=20, speed=2))[0] == Rules.from_options(reading="rulebook", players=2, target=20, speed=2.0)
    assert rules_of(record([], speed=0.5))[0].speed == 0.5
    without = record([])
    assert "speed" not in without and rules_of(without)[0].speed == 1.0
    for bad in ("2", 0, -1, 101, True, None, float("inf")):
        with pytest.raises(RecordError, match='"speed" must be a number above 0 and at most 100'):
            rules_of(record([], speed=bad))
