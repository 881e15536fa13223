"""Luck against skill: the split of a game's change in win probability, against an independent
replay.

The games here are played by the test's own literal dice (numpy), with its own score keeping, Go Nuts!
rounds, turns entered as banked totals and mistakes; each state's values come from the table through the
reference Bellman operator (``reference.bellman``, not the ``backup`` that ``play.luck`` uses), the Go Nuts!
round's value from the table's payout written out here. The split must equal this replay's, add up to
end - start, and its decisions part must be minus the losses ``review`` reports."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from solver.game.rules import Rules
from solver.play.record import review, reviews
from solver.reference.bellman import bellman
from solver.store import build as builder
from solver.store import tables

sys.path.insert(0, str(Path(__file__).parent.parent))
from literal import live_after, throw  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """Tables of 3 and 4 players at small targets (each under a second to build)."""
    folder = tmp_path_factory.mktemp("luck")
    out = {}
    for players, reading, target in ((3, "rulebook", 14), (3, "summary", 14), (4, "rulebook", 12),
                                     (4, "summary", 12)):
        rules = Rules.from_options(reading=reading, players=players, target=target)
        path = folder / f"{players}{reading}.npz"
        builder.build(rules, path)
        out[(players, reading)] = tables.load(path, expect=rules)
    return out


class Oracle:
    """Every seat's win probability at a state, seat order, from the table by the reference operator."""

    def __init__(self, table):
        self.t, self.r = table, table.rules
        self.W, self.pay = table.arrays["start_win"], table.arrays["nuts_payout"]
        self.memo = {}

    def frame(self, scores, seat):
        N = len(scores)
        return tuple(scores[(seat + k) % N] for k in range(N))

    def seats(self, vec, seat):
        N = len(vec)
        return np.array([vec[(k - seat) % N] for k in range(N)])

    def backup(self, frame):
        if frame not in self.memo:
            state = np.ravel_multi_index(frame, (self.r.target,) * self.r.players)
            self.memo[frame] = bellman(self.r, self.pay, self.W, [state], keep_vectors=True)
        return self.memo[frame]

    def start(self, scores, seat):
        return self.seats(self.W[self.frame(scores, seat)], seat)

    def ending(self, scores, seat, gain):
        """The value of the turn ending with ``gain``: a win, or the next player's start."""
        N, G = len(scores), self.r.target
        if scores[seat] + gain >= G:
            return np.eye(N)[seat]
        after = list(scores)
        after[seat] += gain
        return self.start(after, (seat + 1) % N)

    def decide(self, scores, seat, t, n):
        """(value of rolling, value of stopping, the greedy choice) at a decision."""
        b = self.backup(self.frame(scores, seat))
        return (self.seats(b.roll_vec[0, t, n], seat), self.seats(b.stop_vec[0, t, n], seat),
                bool(b.roll[0, t, n]))

    def nuts(self, scores, seat, t, dice):
        base = 0 if self.r.nuts_costs_turn else t
        return sum(p * self.ending(scores, seat, base + g) for g, p in enumerate(self.pay[dice]) if p)


def literal_game(table, seed, mode):
    """A game with literal dice; mistakes one decision in four, banked turns for others' turns (coach) or
    anyone's (table). Returns the record and the split the literal replay computes."""
    rules = table.rules
    N, G = rules.players, rules.target
    rolled, costs = rules.one_die == "rolled", rules.nuts_costs_turn
    rng = np.random.default_rng(seed)
    oracle = Oracle(table)
    scores, seat, events = [0] * N, 0, []
    parts = {k: np.zeros(N) for k in ("luck", "own", "others", "banked")}
    first = before = oracle.start(scores, seat)
    counts = {"nuts": 0, "banked": 0, "mistakes": 0}

    def move(part, after, mover=None):
        nonlocal before
        d = after - before
        if mover is None:
            parts[part] += d
        else:
            parts["own"][mover] += d[mover]
            mask = np.arange(N) != mover
            parts["others"][mask] += d[mask]
        before = after

    while True:
        if (mode == "table" or seat != 0) and rng.random() < 0.15:
            gain = int(rng.integers(0, 8))
            events.append({"seat": seat, "banked": gain})
            counts["banked"] += 1
            move("banked", oracle.ending(scores, seat, gain))
        else:
            t, n = 0, 5
            while True:
                a, s, c = throw(rng, n)
                events.append({"seat": seat, "roll": [a, s, c]})
                if c == n:
                    gain = 0
                    move("luck", oracle.ending(scores, seat, 0))
                    break
                if s == n:
                    move("luck", oracle.nuts(scores, seat, t, n))
                    acorns = int(rng.integers(0, 20))
                    events.append({"seat": seat, "nuts": acorns})
                    counts["nuts"] += 1
                    gain = acorns + (0 if costs else t)
                    move("luck", oracle.ending(scores, seat, gain))
                    break
                t += a
                n = live_after(n, a, c, rolled)
                if scores[seat] + t >= G:
                    gain = t
                    move("luck", np.eye(N)[seat])
                    break
                roll_v, stop_v, best = oracle.decide(scores, seat, t, n)
                move("luck", roll_v if best else stop_v)
                wrong = rng.random() < 0.25
                counts["mistakes"] += wrong
                go = best != wrong
                events.append({"seat": seat, "choice": "roll" if go else "stop"})
                if go:
                    move(None, roll_v, seat)
                else:
                    gain = t
                    move(None, oracle.ending(scores, seat, t), seat)
                    break
        scores[seat] += gain
        if scores[seat] >= G:
            break
        seat = (seat + 1) % N
    record = {"format": "gonuts-game", "version": 1, "reading": rules.reading_name(), "players": N, "target": G,
              "you": 0, "mode": mode, "events": events}
    return record, first, before, parts, counts


def check_split(table, seed, mode):
    record, first, last, parts, counts = literal_game(table, seed, mode)
    rvs = reviews(record, table, range(table.rules.players))
    for k, rv in enumerate(rvs):
        sp = rv.split
        assert sp.start == pytest.approx(first[k], abs=1e-12)
        assert sp.end == last[k] and sp.end in (0.0, 1.0)
        assert sp.luck == pytest.approx(parts["luck"][k], abs=1e-9)
        assert sp.own_decisions == pytest.approx(parts["own"][k], abs=1e-9)
        assert sp.others_decisions == pytest.approx(parts["others"][k], abs=1e-9)
        assert sp.banked_turns == pytest.approx(parts["banked"][k], abs=1e-9)
        total = sp.luck + sp.own_decisions + sp.others_decisions + sp.banked_turns
        assert total == pytest.approx(sp.end - sp.start, abs=1e-9)
        assert sp.own_decisions == pytest.approx(-rv.total_loss_points / 100, abs=1e-9)
        assert sp.own_decisions <= 1e-12
    assert sum(rv.split.end for rv in rvs) == 1.0
    return counts


@pytest.mark.parametrize("seed", range(4))
def test_the_split_equals_a_literal_replay_with_two_players(rulebook2, summary2, seed):
    table = (rulebook2, summary2)[seed % 2]
    counts = check_split(table, seed, ("table", "coach")[seed // 2])
    assert counts["mistakes"] > 0


def test_the_split_equals_a_literal_replay_with_three_and_four_players(small):
    seen = {"nuts": 0, "banked": 0, "mistakes": 0}
    for i, table in enumerate(small.values()):
        for seed in range(3):
            counts = check_split(table, 10 * i + seed, ("table", "coach", "play")[seed])
            seen = {k: seen[k] + counts[k] for k in seen}
    assert all(v > 0 for v in seen.values()), seen       # the games had Go Nuts! rounds, banked turns, mistakes


def test_chance_has_expectation_zero_at_the_start_of_a_turn(rulebook2):
    """The table's start value is the mean over the first roll of what it leads to (the luck of a roll is 0
    in expectation): the reference operator applied to the table returns the table."""
    oracle = Oracle(rulebook2)
    for scores in ((0, 0), (23, 31), (45, 10)):
        b = oracle.backup(scores)
        assert np.allclose(b.value[0], rulebook2.arrays["start_win"][scores], atol=1e-12)


def test_a_game_without_events_has_nothing_to_split(rulebook2):
    rv = review({"format": "gonuts-game", "version": 1, "reading": "rulebook", "players": 2, "you": 1,
                 "events": []}, rulebook2)
    sp = rv.split
    assert sp.start == sp.end == pytest.approx(float(rulebook2.arrays["start_win"][0, 0, 1]))
    assert (sp.luck, sp.own_decisions, sp.others_decisions, sp.banked_turns) == (0, 0, 0, 0)


def test_review_prints_the_split_in_points_and_json_in_probabilities(tmp_path, rulebook2):
    record, first, last, parts, _ = literal_game(rulebook2, 7, "table")
    record["names"] = ["Ann", "Bo"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))

    def run(*args):
        return subprocess.run([sys.executable, "-m", "cli", "review", str(path), *args], cwd=ROOT, env=os.environ,
                              capture_output=True, text=True, timeout=120)
    p = run("--all-seats", "--json")
    assert p.returncode == 0, p.stderr
    seats = json.loads(p.stdout)["seats"]
    for k, s in enumerate(seats):
        assert s["start"] == pytest.approx(first[k], abs=1e-12) and s["end"] == last[k]
        assert s["luck"] + s["own_decisions"] + s["others_decisions"] + s["banked_turns"] == \
            pytest.approx(s["end"] - s["start"], abs=1e-9)
        assert 0 <= s["start"] <= 1 and s["own_decisions"] <= 1e-12
    p = run("--seat", "2")                        # the second seat: seats count from 1 on the command line
    assert p.returncode == 0, p.stderr
    line = p.stdout.strip().splitlines()[-1]
    s = seats[1]
    assert line.startswith(f"Bo: {100 * s['start']:.1f}% to {100 * s['end']:.1f}%")
    assert f"the dice gave {100 * s['luck']:+.1f}" in line
    assert f"Bo's decisions cost {-100 * s['own_decisions']:.1f}" in line
    assert f"the others' decisions gave {100 * s['others_decisions']:+.1f}" in line
