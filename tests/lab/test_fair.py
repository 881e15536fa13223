"""Fair head starts: the search against a plain loop, and the answer against literal games."""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from solver.game.rules import Rules
from solver.lab.fair import fair_start
from solver.lab.policies import TablePolicy
from solver.reference.simulate import simulate
from solver.store import tables
from solver.store.locate import find_table

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.mark.parametrize("players", [2, 3])
def test_the_search_is_the_best_of_a_plain_loop(players):
    table = tables.load(find_table(Rules.from_options(reading="rulebook", players=players)))
    res = fair_start(table)
    sw, G, N = table.arrays["start_win"], table.target, players
    best = None
    for heads in np.ndindex(*(G,) * (N - 1)):
        dev = max(abs(float(p) - 1 / N) for p in sw[(0, *heads)])
        key = (dev, sum(heads), heads)
        if best is None or key < best:
            best = key
    assert res.head_starts == best[2] and res.deviation == best[0]
    assert res.deviation < max(abs(p - 1 / N) for p in res.before)


@pytest.mark.slow
def test_head_started_games_played_literally_win_as_the_table_says():
    table = tables.load(find_table(Rules.from_options(reading="rulebook")))
    res = fair_start(table)
    policy = TablePolicy(table)
    games = 40_000
    sim = simulate(table.rules, [policy, policy], games, np.random.default_rng(5), start=(0,) + res.head_starts)
    for k in range(2):
        assert abs(sim.win_rate[k] - res.after[k]) < 4 * sim.stderr[k]


@pytest.mark.slow
def test_fair_command_json_and_bad_input():
    p = subprocess.run([sys.executable, "-m", "cli", "fair", "--players", "3", "--json"], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["head_starts"][0] == 0 and len(out["head_starts"]) == 3
    assert abs(sum(out["win_after"]) - 1) < 1e-9 and out["max_deviation"] < out["max_deviation_before"]
    for args, code, text in ((["--head-starts", "50"], 1, "already won"), (["--head-starts", "-1"], 1, "outside"),
                             (["--rules", "house"], 2, "house"), (["--head-starts", "1,2"], 1, "give 1 head")):
        p = subprocess.run([sys.executable, "-m", "cli", "fair", *args], cwd=ROOT, capture_output=True, text=True,
                           timeout=120)
        assert p.returncode == code and text in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr
