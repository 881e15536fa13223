"""What the page's core reads (solver/site/pagegames.py), made from the rules and the tables and never derived again
in the page: each reading's rolls are game.moves' own, the maxpoints rule of a solved game is the lab's, a round's
mean is the exact one, the solver's settings are build's, and the kernel and worker travel inside the single file
or as the site's files."""
from __future__ import annotations

import base64
import json

import numpy as np

from solver.engine.solve import EPS, MAX_PI, MAX_VI, TOLERANCE
from solver.engine.wasm import WASM
from solver.game.moves import faces_table
from solver.game.rules import N_DICE, Rules
from solver.lab.policies import maxpoints
from solver.play.explain import nuts_means
from solver.site import pagegames


def test_a_readings_rolls_are_the_rules_own():
    for reading in ("rulebook", "summary"):
        data, rules = pagegames.reading_data(reading), Rules.from_options(reading=reading)
        assert data["dice"] == N_DICE and data["nuts_gain"] == ("replaces" if reading == "rulebook" else "adds to")
        for n, rows in faces_table(rules).items():
            assert [list(r) for r in rows] == data["rolls"][str(n)]


def test_a_solved_games_rules_are_the_labs_maxpoints_and_the_exact_round_means():
    for reading, players, speed in (("rulebook", 2, 1.0), ("summary", 4, 0.5)):
        got = pagegames.turn_rules(reading, players, speed)
        rules = Rules.from_options(reading=reading, players=players, target=100, speed=speed)
        roll = maxpoints(rules, N_DICE).roll_tn
        want = np.array([[c == "1" for c in row] for row in got["maxpoints"]]).T
        assert np.array_equal(want, roll[:100])
        assert got["nuts_mean"][1:] == [nuts_means(rules)[x] for x in range(1, N_DICE + 1)]


def test_the_solvers_settings_and_where_the_kernel_and_worker_travel():
    inside = pagegames.solve_data()
    assert inside["settings"] == {"tol": TOLERANCE, "eps": EPS, "max_pi": MAX_PI, "max_vi": MAX_VI}
    assert inside["targets"] == [10, 100] and inside["speeds"] == [0.5, 1.0, 2.0]
    assert base64.b64decode(inside["kernel"]["data"]) == WASM.read_bytes()
    assert inside["kernel"]["bytes"] == len(WASM.read_bytes())
    assert inside["worker"]["text"] == pagegames.WORKER.read_text(encoding="utf-8")
    placed = {}
    site = pagegames.solve_data(lambda name, blob: placed.setdefault(name, f"data/{name}"))
    assert site["kernel"]["url"] == "data/kernels.wasm" and site["worker"]["url"] == "data/solve-worker.js"
    assert set(placed) == {"kernels.wasm", "solve-worker.js"}


def test_the_qr_readers_worker_travels_inside_the_file_and_beside_the_site():
    assert pagegames.scanner_data() == {"text": pagegames.SCANNER.read_text(encoding="utf-8")}
    placed = {}
    assert pagegames.scanner_data(lambda name, blob: placed.setdefault(name, f"data/{name}")) == {"url": "data/scanner.js"}
    assert placed == {"scanner.js": "data/scanner.js"}


def test_the_turn_rules_are_kept_in_the_cache_and_a_bad_file_is_computed_again(tmp_path, monkeypatch):
    """Every ``web`` needs 18 maxpoints solves: the first keeps them in the cache, the next reads them back
    (nothing solved), and a kept file that does not hold what it should is computed again and replaced."""
    monkeypatch.setenv("GONUTS_SOLVE_CACHE", str(tmp_path))
    first = pagegames.turn_data()
    (kept,) = (tmp_path / "page").glob("turn-*.json")

    def unsolvable(*args):
        raise AssertionError("solved again")
    with monkeypatch.context() as m:
        m.setattr(pagegames, "turn_rules", unsolvable)
        assert pagegames.turn_data() == first                  # read back, to the bit (JSON keeps every float)
    for bad in ('{"rulebook": {}}', "[1, 2]", "not json",
                kept.read_text().replace('"nuts_mean": [0.0', '"nuts_mean": [-1.0', 1),
                kept.read_text().replace('"maxpoints": ["0', '"maxpoints": ["2', 1)):
        kept.write_text(bad)
        assert pagegames.turn_data() == first
        assert json.loads(kept.read_text()) == first            # and replaced
    assert first["summary"]["3"]["2"] == pagegames.turn_rules("summary", 3, 2.0)
