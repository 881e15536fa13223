"""Practice: the draw's promises, checked against advise; the daily set; the command's refusals and
its questions. That the page draws the same decisions is tests/js/practice.test.mjs (against the committed
tests/fixtures/practice.json, which tests/site/test_shared_rules.py holds to today's Python)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from solver.game.rules import Rules
from solver.play.advise import advise
from solver.play.practice import CLOSE, CLOSE_ROUND_ADDS, SKIP, close_count, daily_seed, draw, page_values
from solver.site import pagevalues
from solver.store import build as builder
from solver.store import tables

ROOT = Path(__file__).resolve().parent.parent.parent


def cli(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "cli", *map(str, args)], cwd=ROOT, input=stdin, capture_output=True,
                          text=True, timeout=300)


def check_promises(decisions, count, target=50, reading="rulebook"):
    assert len(decisions) == count
    keys = {(tuple(d["scores"]), d["turn"], d["dice"]) for d in decisions}
    assert len(keys) == count                                          # never the same state twice
    for d in decisions:
        gap = abs(d["win_if_roll"] - d["win_if_stop"])
        near = CLOSE if reading == "rulebook" else CLOSE_ROUND_ADDS
        assert gap >= SKIP and d["close"] == (gap < near)               # no coin flip
        assert d["scores"][0] + d["turn"] < target                     # stopping does not reach the target
        assert not (d["turn"] == 0 and d["dice"] == 5)                  # never the forced opening roll
        assert d["reason"] == "optimal"


@pytest.mark.parametrize("players, reading, seed", [(2, "rulebook", 1), (2, "summary", 99), (3, "rulebook", 7)])
def test_every_drawn_decision_is_advises_answer(players, reading, seed):
    p = cli("practice", "--seed", seed, "--count", 12, "--players", players, "--rules", reading, "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert (out["seed"], out["count"], out["players"], out["reading"], out["daily"]) == (seed, 12, players, reading, None)
    check_promises(out["decisions"], 12, reading=reading)
    close = sum(d["close"] for d in out["decisions"])
    assert close == 6 == out["close_calls"]                             # half close calls, half clear
    assert out["close_within_points"] == (2 if reading == "rulebook" else 5)
    for d in out["decisions"]:
        q = cli("advise", "--scores", ",".join(map(str, d["scores"])), "--turn", d["turn"], "--dice", d["dice"],
                "--rules", reading, "--json")
        a = json.loads(q.stdout)
        assert a["action"] == d["action"] and a["rules"] == d["rules"]
        assert set(a) | {"close"} == set(d)                             # the keys of advise --json
        for k in ("win_if_roll", "win_if_stop", "players_if_roll", "players_if_stop"):
            assert a[k] == pytest.approx(d[k], abs=1e-12)


def test_four_player_draws_from_the_pages_values_agree_with_the_exact_table(tmp_path):
    """The page's 4-player values are quantised; every drawn action is still the exact table's, and the
    chances are within the stated precision (1e-5)."""
    for reading in ("rulebook", "summary"):
        rules = Rules.from_options(reading=reading, players=4, target=16)
        builder.build(rules, tmp_path / f"{reading}.npz")
        table = tables.load(tmp_path / f"{reading}.npz")
        decisions = [p.to_dict(rules) for p in draw(page_values(*pagevalues.page_game(table)), 3, 6)]
        check_promises(decisions, 6, target=16)
        for d in decisions:
            a = advise(table, d["scores"], d["turn"], d["dice"])
            assert a.action == d["action"]
            assert abs(a.win_if_roll - d["win_if_roll"]) <= 1e-5 and abs(a.win_if_stop - d["win_if_stop"]) <= 1e-5


def test_the_daily_set_is_the_same_for_a_date_and_another_the_next_day():
    day = cli("practice", "--daily", "--date", "2026-12-01", "--json")
    assert day.returncode == 0, day.stderr
    again = cli("practice", "--daily", "--date", "2026-12-01", "--json")
    same = cli("practice", "--seed", 20261201, "--count", 10, "--players", 2, "--rules", "rulebook", "--json")
    nxt = cli("practice", "--daily", "--date", "2026-12-02", "--json")
    a, b, c, d = (json.loads(p.stdout) for p in (day, again, same, nxt))
    assert a == b and a["daily"] == "2026-12-01" and a["seed"] == 20261201
    assert a["decisions"] == c["decisions"] and a["decisions"] != d["decisions"]
    assert daily_seed(__import__("datetime").date(2026, 12, 1)) == 20261201


AWKWARD_DAYS = ["2000-01-01", "2026-12-05", "2027-12-31", "2028-01-01", "2028-02-29", "2100-03-01", "9999-12-31"]


@pytest.mark.slow
def test_every_date_of_a_leap_year_and_awkward_ones_draw_a_daily_set():
    """The daily set takes its date as an input: every day of 2028 (and the edges above) gives ten different
    decisions that keep practice's promises, under a seed that is that date and no other's."""
    import datetime as dt
    values = page_values(*pagevalues.page_game(tables.load(ROOT / "tables" / "gonuts-2p-t50-rulebook.npz")))
    rules = values.rules
    days = [dt.date(2028, 1, 1) + dt.timedelta(days=k) for k in range(366)]
    days += [dt.date.fromisoformat(d) for d in AWKWARD_DAYS]
    assert days[365] == dt.date(2028, 12, 31)
    seeds = {daily_seed(day) for day in days}
    assert len(seeds) == len(set(days)) and all(int(day.isoformat().replace("-", "")) == daily_seed(day) for day in days)
    for day in days:
        check_promises([p.to_dict(rules) for p in draw(values, daily_seed(day), 10)], 10)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("reading", ["rulebook", "summary"])
def test_every_player_count_and_reading_has_its_close_calls_and_never_two_from_one_turn(players, reading):
    """Under the summary a set of 20 decisions once had 0 close calls. Now half of a set are close, for every
    game; and a set never asks two decisions of one turn."""
    from solver.commands import drills
    values = drills.values_for(players, reading)
    picks = draw(values, 1, 20)
    assert close_count(picks) == 10
    assert len({(p.game, p.turn_of_game) for p in picks}) == 20


def test_a_draw_with_too_few_close_calls_says_so():
    p = cli("practice", "--seed", 3, "--count", 20, "--players", 3, "--rules", "summary", stdin="")
    first = p.stdout.splitlines()[0]
    assert "9 of them close calls (the two actions within 5 points of win probability)" in first, first
    assert "clear ones fill the rest" in first
