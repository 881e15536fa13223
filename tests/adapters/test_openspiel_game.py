"""The OpenSpiel game (solver/adapters/openspiel_game.py): OpenSpiel's value iteration reproduces our tables, its
random simulation checks pass, chance nodes are exact distributions, and bad parameters are refused."""
import re
import sys
import threading

import pytest

pytestmark = [pytest.mark.rl, pytest.mark.usefixtures("rl_cache")]
pyspiel = pytest.importorskip("pyspiel", reason="the adapters' tests need the rl extra (pip install \".[rl]\")")

from solver.adapters import openspiel_game  # noqa: E402,F401 (registers python_gonuts)
from solver.engine.solve import solve  # noqa: E402
from solver.game.rules import Rules  # noqa: E402
from solver.game.turn import turn_model  # noqa: E402


def _openspiel_values(game):
    """OpenSpiel's own value iteration. Its state enumeration is a deep recursion: give it room."""
    from open_spiel.python.algorithms import value_iteration
    out = {}
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(1_000_000)
    size = threading.stack_size(1 << 29)
    try:
        th = threading.Thread(target=lambda: out.update(value_iteration.value_iteration(
            game, depth_limit=-1, threshold=1e-10, cyclic_game=True)))
        th.start()
        th.join()
    finally:
        threading.stack_size(size)
        sys.setrecursionlimit(old)
    return out


@pytest.mark.parametrize("reading, target", [("rulebook", 3), ("rulebook", 6), ("rulebook", 10), ("summary", 3),
                                             ("summary", 8)])
@pytest.mark.slow
def test_openspiel_value_iteration_reproduces_our_tables(reading, target):
    game = pyspiel.load_game(f"python_gonuts(players=2,target={target},reading={reading})")
    values = _openspiel_values(game)
    res = solve(turn_model(Rules.from_options(reading=reading, target=target)), 2, target)
    checked = 0
    for key, v in values.items():
        m = re.match(r"scores=\[(\d+), (\d+)\] seat=(\d) t=(\d+) n=(\d) decide", key)
        if not m:
            continue
        s0, s1, seat, t, n = map(int, m.groups())
        frame = (s0, s1) if seat == 0 else (s1, s0)
        own = max(res.roll_win[frame + (t, n)], res.stop_win[frame + (t, n)])
        p0 = own if seat == 0 else 1 - own
        assert abs(v - (2 * p0 - 1)) < 1e-8, key          # OpenSpiel's value is player 0's return
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("params", ["players=2,target=30", "players=3,target=20,reading=summary",
                                    "players=4,target=12", "players=2,target=40,game=pig"])
def test_openspiel_random_simulation_checks(params):
    pyspiel.random_sim_test(pyspiel.load_game(f"python_gonuts({params})"), num_sims=30, serialize=False,
                            verbose=False)


def test_openspiel_chance_nodes_are_exact_distributions():
    game = pyspiel.load_game("python_gonuts(players=3,target=20)")
    state = game.new_initial_state()
    state.apply_action(1)                                   # the forced first roll
    outcomes = state.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-12
    assert len(outcomes) <= game.max_chance_outcomes()
    # the Go Nuts! round of five dice (all squirrels, 1/32) is spread over its exact payouts
    model = turn_model(Rules.from_options(reading="rulebook", players=3, target=20))
    labels = [state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a, _ in outcomes]
    assert len(set(labels)) == len(labels)
    ends = sum(p for (a, p), label in zip(outcomes, labels) if "lost" in label or "Go Nuts!" in label)
    e5 = model.endings[model.endings["src"] == 5]["p"].sum()
    assert ends == pytest.approx(e5, abs=1e-12)


def test_openspiel_refuses_bad_parameters():
    for bad, name in (("players=5", "players"), ("reading=house", "reading"), ("colour=3", "colour"),
                      ("reading=summary,rules=summary", "reading once")):
        with pytest.raises(Exception, match=name):
            pyspiel.load_game(f"python_gonuts({bad})")
