"""The front door (``solver.api``, exported by ``solver``): every example in its docstrings runs as written
(doctest), with those of ``Rules.from_options``, ``store.library``, ``store.tables.Table``, the strategy lab and
the plots; ``import solver``
imports nothing heavy; the one-line example of the README is the whole program; a wrong option names the right
ones; and the numbers agree with independent evidence (simulation; the command line's ``advise --json``)."""
from __future__ import annotations

import doctest
import inspect
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import solver
from solver import api
from solver.engine import evaluate as evaluate_module
from solver.engine import respond as respond_module
from solver.engine import solve as solve_module
from solver.errors import GonutsError
from solver.game import rules as rules_module
from solver.lab import plots, policies, strategy
from solver.play import advise as advise_module
from solver.play import dice as dice_module
from solver.store import library, locate, tables

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("module", [solver, api, rules_module, library, tables, strategy, plots,
                                    advise_module, dice_module, policies, evaluate_module, locate,
                                    solve_module, respond_module],
                         ids=lambda m: m.__name__)
def test_every_docstring_example_runs_as_written(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, raise_on_error=False, verbose=False)
    assert result.attempted > 0 and result.failed == 0, result


def test_every_name_of_the_front_door_shows_its_call():
    """What ``solver`` exports has a docstring with an example (run by the test above), and so do the methods of
    its classes that a researcher calls first."""
    import inspect
    for name in solver.__all__:
        obj = getattr(solver, name)
        if callable(obj):
            assert ">>>" in (inspect.getdoc(obj) or ""), name
    for method in (solver.Rules.from_options, solver.Rules.describe, solver.Rules.to_dict, solver.Rules.reading_name,
                   solver.Table.advise, solver.Tables.find):
        assert ">>>" in (inspect.getdoc(method) or ""), method.__qualname__


def test_import_solver_is_cheap_and_the_readme_line_is_the_whole_program(tmp_path):
    code = ("import sys, solver; heavy = [m for m in ('numpy', 'scipy', 'click') if m in sys.modules]; "
            "a = solver.table(players=2).advise(scores=(23, 31), turn=7, dice=3); print(heavy, a.action)")
    env = {**os.environ, "GONUTS_SOLVE_CACHE": str(tmp_path)}
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "[] roll"


def test_the_front_door_agrees_with_advise_json_and_with_simulation(tmp_path):
    env = {**os.environ, "GONUTS_SOLVE_CACHE": str(tmp_path)}
    p = subprocess.run([sys.executable, "-m", "cli", "advise", "--scores", "23,31", "--turn", "7", "--dice", "3",
                        "--json"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    cli, lib = json.loads(p.stdout), solver.advise((23, 31), turn=7, dice=3).to_dict()
    assert {k: cli[k] for k in lib} == lib                     # every field, to the last bit
    exact = solver.evaluate(["hold:20", "optimal"], players=2).win
    played = solver.simulate(["hold:20", "optimal"], games=20_000, seed=7, players=2)
    assert abs(played.win[0] - exact[0]) < 4 * played.stderr[0]
    assert abs(sum(exact) - 1) < 1e-12


def test_a_python_function_is_a_policy_and_plays_as_its_named_twin():
    """``evaluate`` and ``simulate`` take functions as they take names: "roll below 20 turn points" is hold:20."""
    def below_20(scores, turn, dice):
        return turn < 20

    named = solver.evaluate(["hold:20", "optimal"], players=2).win
    assert list(solver.evaluate([below_20, "optimal"], players=2).win) == list(named)
    played = solver.simulate([below_20, "optimal"], games=2_000, seed=3, players=2)
    assert abs(played.win[0] - named[0]) < 4 * played.stderr[0]


def test_a_wrong_option_names_the_right_ones_and_bad_values_are_refused_by_name():
    with pytest.raises(TypeError, match="unknown option taget: the options are game, players, target, reading"):
        solver.table(taget=30)
    from solver.errors import RulesError
    for options, message in (({"players": 5}, "players must be from 2 to 4, not 5"),
                             ({"target": 0}, "target must be at least 1, not 0"),
                             ({"reading": "house"}, "reading must be one of rulebook, summary, not 'house'"),
                             ({"game": "pig", "reading": "summary"}, "pig takes only players and target"),
                             ({"players": True}, "players must be a whole number, not True")):
        with pytest.raises(RulesError, match=message):
            solver.Rules.from_options(**options)


def test_a_table_says_where_its_file_is_and_a_build_reports_progress(tmp_path):
    t = solver.table(players=2, target=50, reading="summary")
    assert t.path is not None and t.path.name == "gonuts-2p-t50-summary.npz" and t.path.is_file()
    seen = []
    built = solver.table(players=3, target=12, speed=2, cache=tmp_path,             # no larger table to read it off
                         progress=lambda done, total: seen.append((done, total)))
    assert built.path == tmp_path / "gonuts-3p-t12-rulebook-speed2.npz" and built.path.is_file()
    assert seen and seen[-1][0] == seen[-1][1] and all(a[0] <= b[0] for a, b in zip(seen, seen[1:]))
    again = solver.Tables(cache=tmp_path).find(built.rules)
    assert again == built.path                                    # found in that cache: nothing built twice


def test_too_long_a_build_is_refused_before_any_work_with_the_command_that_builds_it(tmp_path):
    with pytest.raises(library.TooLong, match="gonuts-solve build --players 4 --target 60"):
        solver.table(players=4, target=60, cache=tmp_path, max_build_seconds=1)
    assert list(tmp_path.iterdir()) == []


def test_a_solve_that_does_not_converge_raises_naming_the_game(monkeypatch):
    from solver.engine import solve as engine
    monkeypatch.setattr(engine, "MAX_PI", 0)
    monkeypatch.setattr(engine, "MAX_VI", 1)
    with pytest.warns(engine.ConvergenceWarning), \
            pytest.raises(engine.NotConverged, match=r"Go Nuts!, 2 players, target 8.*did not converge \(residual"):
        solver.solve(players=2, target=8)


@pytest.mark.parametrize("scores, says", [
    ((-1, 0), "score -1 is outside 0..49"), ((50, 0), "score 50 is outside"), ((True, False), "not True"),
    ((1.0, 0), "not 1.0"), ((0,), "expected 2 scores"), ("12", "scores must be a list of 2"),
])
def test_a_table_refuses_scores_that_are_no_state_naming_them(scores, says):
    from solver.errors import StateError
    with pytest.raises(StateError, match=says):
        solver.table(players=2).win(scores)


@pytest.mark.parametrize("state, says", [
    (dict(scores=(1.5, 2)), "a score must be a whole number, not 1.5"),
    (dict(scores=(1, 2), turn=float("nan")), "turn points must be a whole number, not nan"),
    (dict(scores=(1, 2), turn=2.5), "turn points must be a whole number"),
    (dict(scores=(1, 2), turn=3, dice=2.0), "live dice must be a whole number, not 2.0"),
    (dict(scores=(1, 2), turn=3, dice=True), "live dice must be a whole number, not True"),
    (dict(scores="12"), "scores must be a list of 2"),
])
def test_advise_refuses_a_state_of_the_wrong_kind_naming_the_field(state, says):
    from solver.errors import StateError
    with pytest.raises(StateError, match=says):
        solver.table(players=2).advise(**state)


@pytest.mark.parametrize("options, says", [
    (dict(max_build_seconds=float("nan")), "max_build_seconds must be a number of seconds above 0"),
    (dict(max_build_seconds="10"), "max_build_seconds must be"), (dict(max_build_seconds=0), "above 0"),
    (dict(progress=5), "progress must be a function"),
])
def test_table_refuses_its_own_options_before_any_work(options, says):
    from solver.errors import GonutsError
    with pytest.raises(GonutsError, match=says):
        solver.table(players=3, target=23, **options)


def test_rules_and_options_together_are_refused_naming_what_would_be_ignored():
    from solver.errors import GonutsError
    rules = solver.Rules.from_options(players=2)
    with pytest.raises(GonutsError, match="target would be ignored"):
        solver.solve(rules, target=13)
    with pytest.raises(GonutsError, match="players would be ignored"):
        solver.table(rules=rules, players=2)
    assert solver.table(rules=rules).rules == rules


MYPY_SCRIPT = """from typing import Literal

import numpy as np
import numpy.typing as npt

import solver

t = solver.table(players=2)
a = t.advise(scores=(23, 31), turn=7, dice=3)
action: Literal["roll", "stop"] = a.action
win: float | None = a.win_if_roll
chances: tuple[float, ...] = t.win((0, 0))
result = solver.evaluate(["hold:20", "optimal"], players=2, both_orders=True)
turns: float = result.expected_turns
seats: npt.NDArray[np.float64] = result.win
report = solver.simulate(["hold:20", "optimal"], games=100, players=2)
stderr: npt.NDArray[np.float64] = report.stderr
decision: Literal["roll", "stop"] = t.policy.action((0, 0), 0, 5)
plane: npt.NDArray[np.bool_] | np.bool_ = t.policy.roll[:, :, 0]
stop_at: npt.NDArray[np.int64] = t.policy.thresholds().stop_at
start: npt.NDArray[np.generic] = t.arrays["start_win"]
figure = solver.plots.boundary(t)
players: int = t.players
reading: Literal["rulebook", "summary"] | None = t.rules.reading_name()
"""
# each line is an error under mypy --strict naming what is wrong: a misspelt name or option, a wrong type
MYPY_WRONG = {"solver.tabel(players=2)": '"tabel"', "solver.table(players=2).advise((1, 2)).acton": '"acton"',
              "solver.table(players=2).wn((0, 0))": '"wn"', "solver.solve(players=2, target=12).wins": '"wins"',
              "solver.evaluate(['optimal', 'optimal'], players=2).wins": '"wins"',
              "solver.table(player=2)": '"player"', "solver.table(players=2, taget=30)": '"taget"',
              "solver.evaluate(['optimal', 'optimal'], both_order=True, players=2)": '"both_order"',
              "solver.simulate(['optimal', 'optimal'], gmes=100, players=2)": '"gmes"',
              "solver.table(players=2, reading='sumary')": "Literal['sumary']",
              "solver.table(players='2')": '"players" to "table" has incompatible type "str"',
              "y: str = solver.table(players=2).policy.roll[...]": "ndarray",
              "y: str = solver.table(players=2).arrays['start_win']": "ndarray",
              "y: str = solver.evaluate(['optimal', 'optimal'], players=2).win": "ndarray",
              "y: int = solver.advise((1, 2)).action": "Literal['roll', 'stop']"}
# the modules whose docstring examples are the reference's (run by the doctests above, typed here)
DOCSTRING_MODULES = ["solver.api", "solver.game.rules", "solver.store.library", "solver.store.tables",
                     "solver.lab.strategy", "solver.lab.plots", "solver.play.advise", "solver.lab.policies",
                     "solver.lab.decisions", "solver.engine.evaluate", "solver.engine.solve", "solver.engine.respond"]
DOCUMENTS = ["README.md", "docs/first-hour.md", "docs/library.md"]


def docs_as_scripts(folder: Path) -> list[Path]:
    """The examples a researcher copies, as scripts for mypy: each document's Python blocks and ``>>>`` lines in
    order (one session), and each module's docstring examples, one function per docstring, with the names the
    module's own doctests see imported from where they are defined."""
    import ast
    import importlib
    import re
    import textwrap
    out = []
    for doc in DOCUMENTS:
        text = (ROOT / doc).read_text()
        blocks = re.findall(r"```python\n(.*?)```", text, re.S)
        lines = [ln.strip()[4:] for ln in text.splitlines() if ln.strip().startswith((">>> ", "... "))]
        out.append((re.sub(r"\W", "_", doc), "\n".join(blocks) + "\n" + "\n".join(lines) + "\n"))
    for name in DOCSTRING_MODULES:
        module = importlib.import_module(name)
        functions, used = [], set()
        for test in doctest.DocTestFinder(exclude_empty=True).find(module):
            body = "".join(ex.source for ex in test.examples)
            if body:
                used |= {n.id for n in ast.walk(ast.parse(body)) if isinstance(n, ast.Name)}
                stem = re.sub(r"\W", "_", test.name)
                functions.append(f"def _{stem}() -> None:\n" + textwrap.indent(body, "    "))
        imports = []
        for n in sorted(used):
            obj = getattr(module, n, None)
            if obj is not None and not inspect.ismodule(obj) and n != "solver":
                home = getattr(obj, "__module__", name) or name
                imports.append(f"from {home if home.startswith('solver') else name} import {n}")
        out.append((name.replace(".", "_"), "\n".join(imports) + "\n\n\n" + "\n\n\n".join(functions) + "\n"))
    paths = []
    for stem, text in out:
        path = folder / f"example_{stem}.py"
        path.write_text(text)
        paths.append(path)
    return paths


def test_the_front_door_is_typed_and_a_misspelt_name_fails_mypy_strict(tmp_path):
    """Every example of the documents and the reference passes ``mypy --strict``, with the arrays' dtypes and the
    actions' literals; each wrong line is an error that names what is wrong."""
    pytest.importorskip("mypy", reason="mypy is in the test extra")
    good = tmp_path / "good.py"
    good.write_text(MYPY_SCRIPT)
    examples = docs_as_scripts(tmp_path)
    bad = []
    for i, (line, says) in enumerate(MYPY_WRONG.items()):
        f = tmp_path / f"wrong{i}.py"
        f.write_text(f"import solver\n\n{line if line.startswith('y:') else 'x = ' + line}\n")
        bad.append((f, says))

    def run(*files):          # one cache for both runs: the second reads the package and numpy's stubs from it
        return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / "mypy-cache"),
                               "--follow-imports=silent", *map(str, files)], cwd=ROOT, capture_output=True, text=True,
                              timeout=600)
    p = run(good, *examples)
    assert p.returncode == 0, p.stdout
    p = run(*(f for f, _ in bad))
    for f, says in bad:
        said = [ln for ln in p.stdout.splitlines() if ln.startswith(f"{f}:3: error:")]
        assert said and says in said[0], (f.read_text(), p.stdout)


def test_the_policy_is_data_a_researcher_can_hold():
    t = solver.table(players=3, reading="summary")
    p = t.policy
    assert p.axes == ("score 0", "score 1", "score 2", "turn", "dice") and p.roll.shape == (50,) * 4 + (5,)
    rng = np.random.default_rng(5)
    for _ in range(200):
        scores = tuple(int(x) for x in rng.integers(0, 50, 3))
        turn, dice = int(rng.integers(0, 40)), int(rng.integers(1, 6))
        a = t.advise(scores, turn, dice)
        assert p.action(scores, turn, dice) == a.action
        if scores[0] + turn < 50:
            assert p.roll[scores + (turn, dice - 1)] == (a.action == "roll")
    with pytest.raises(GonutsError, match="live dice must be from 1 to 5, not 6"):
        p.action((0, 0, 0), 0, 6)
    # the policy goes back into evaluate as a seat: optimal play against itself, bit for bit
    assert list(solver.evaluate([p, "optimal", "optimal"], players=3, reading="summary").win) == \
        list(solver.evaluate(["optimal"] * 3, players=3, reading="summary").win)


def test_evaluate_and_simulate_both_orders_and_what_they_refuse():
    one = solver.evaluate(["hold:20", "optimal"], players=2)
    both = solver.evaluate(["hold:20", "optimal"], players=2, both_orders=True)
    mean = (one.win_when_starting(0) + one.win_when_starting(1)) / 2
    assert np.allclose(both.win, mean, atol=1e-15) and both.win[0] < one.win[0]
    played = solver.simulate(["hold:20", "optimal"], games=20_000, seed=11, players=2, both_orders=True)
    assert abs(played.win[0] - both.win[0]) < 4 * played.stderr[0] and played.both_orders
    assert one.probabilities.shape == (2, 2500, 2) and one.turns.shape == (2, 2500)
    assert np.array_equal(one.probabilities[0, 0], one.win)
    with pytest.raises(GonutsError, match="give a list of policies, one per seat"):
        solver.evaluate("hold:20", players=2)
    with pytest.raises(GonutsError, match="give a list of policies, one per seat"):
        solver.simulate("optimal", players=2)

    def words(scores, turn, dice):
        return "roll" if turn < 20 else "stop"
    assert list(solver.evaluate([words, "optimal"], players=2).win) == list(one.win)


def test_a_researcher_s_first_hour_runs_as_written(tmp_path, monkeypatch):
    """docs/first-hour.md: the seven questions, each example run as written (one built table, in a private cache)."""
    monkeypatch.setenv("GONUTS_SOLVE_CACHE", str(tmp_path))
    pytest.importorskip("matplotlib", reason="question 5 draws a plot (pip install \".[plot]\")")
    result = doctest.testfile(str(ROOT / "docs" / "first-hour.md"), module_relative=False, optionflags=doctest.ELLIPSIS,
                              raise_on_error=False, verbose=False)
    assert result.attempted >= 15 and result.failed == 0, result


def test_every_name_on_the_reference_has_its_example():
    """docs/api.rst's front door and result classes: each docstring carries a ``>>>`` example (run above)."""
    from solver.engine.solve import SolveResult
    from solver.lab.policies import TablePolicy, Thresholds
    from solver.lab.strategy import SimReport
    from solver.play.advise import Advice
    named = [solver.table, solver.Table, solver.advise, solver.solve, solver.evaluate, solver.simulate, solver.Rules,
             solver.Tables, plots.boundary, plots.win, plots.payout, Advice, TablePolicy, Thresholds,
             evaluate_module.EvalResult, SimReport, SolveResult, respond_module.deviate]
    assert [o.__name__ for o in named if ">>>" not in (inspect.getdoc(o) or "")] == []
