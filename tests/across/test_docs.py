"""Every example in the README and docs/ runs as written: each `gonuts-solve ...` command of a shell block
or of inline code that names no placeholder (PATH, GAME.json, ...), and each Python block, on a private
cache, exiting 0."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
DOCS = [ROOT / "README.md", ROOT / "tables" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PLACEHOLDER = re.compile(r"\b[A-Z]{1,}[A-Z0-9_]*\b(?!\.npz)|\.\.\.|\[|\||history\.json|<")
pytestmark = [pytest.mark.slow, pytest.mark.source]


def commands():
    """(where, the command line) of every runnable example command."""
    found = []
    for doc in DOCS:
        text = doc.read_text()
        for lang, block in re.findall(r"```(\w*)\n(.*?)```", text, re.S):
            if lang in ("sh", "bash"):
                for line in block.splitlines():
                    line = line.split("  #")[0].strip()
                    if "gonuts-solve " in line:
                        found.append((doc.name, line[line.index("gonuts-solve "):]))
        for inline in re.findall(r"`(gonuts-solve [^`]+)`", text):
            rest = inline[len("gonuts-solve "):]
            if not PLACEHOLDER.search(rest) and complete(rest.split()):
                found.append((doc.name, " ".join(inline.split())))
    unique = []
    for item in found:
        if item[1] not in [u[1] for u in unique]:
            unique.append(item)
    return unique


def complete(args) -> bool:
    """Whether inline code is a whole command line, or only names a command or an option in the text
    (`gonuts-solve review`, `advise --json`): click finds no required option or value missing."""
    import click

    from cli import cli
    if "--help" in args:
        return True
    try:
        with cli.make_context("gonuts-solve", list(args), resilient_parsing=False) as ctx:
            sub = cli.get_command(ctx, args[0]) if args and not args[0].startswith("-") else None
            if sub is not None:
                sub.make_context(args[0], list(args[1:]))
    except click.exceptions.Exit:
        return True
    except (click.MissingParameter, click.BadOptionUsage):
        return False
    return True


def python_blocks():
    out = []
    for doc in DOCS:
        for lang, block in re.findall(r"```(\w*)\n(.*?)```", doc.read_text(), re.S):
            if lang == "python":
                out.append((doc, block))
    return out


@pytest.fixture(scope="module")
def shared_cache(tmp_path_factory):
    """One cache for the module's examples, as a user's is across commands (the 4-player page data decoded
    once)."""
    return tmp_path_factory.mktemp("docs-cache")


@pytest.mark.parametrize("where, line", commands(), ids=lambda x: x if isinstance(x, str) and len(x) < 70 else None)
def test_every_example_command_runs_as_written(tmp_path, shared_cache, where, line):
    (tmp_path / "docs").symlink_to(ROOT / "docs")
    (tmp_path / "tables").symlink_to(ROOT / "tables")
    args = line.split()[1:]
    env = {**os.environ, "GONUTS_SOLVE_CACHE": str(shared_cache)}
    p = subprocess.run([sys.executable, str(ROOT / "cli.py"), *args], cwd=tmp_path, env=env, input="r\n" * 120,
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, f"{where}: {line}\n{p.stderr[-2000:]}"


@pytest.mark.parametrize("doc", sorted({doc for doc, _ in python_blocks()}), ids=lambda d: d.relative_to(ROOT).as_posix())
def test_every_python_example_runs_as_written(tmp_path, doc):
    """A document's Python blocks in order, as one session (a later block uses what an earlier one loaded), in
    the folder its paths are written from: the checkout for docs/, the tables' folder (with the small
    4-player table its second block names, built as it says) for tables/README.md."""
    env = {**os.environ, "GONUTS_SOLVE_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT),
           "MPLBACKEND": "Agg"}
    cwd = ROOT
    if doc.parent == ROOT / "tables":
        cwd = tmp_path / "tables"
        cwd.mkdir()
        for table in (ROOT / "tables").glob("*.npz"):
            (cwd / table.name).symlink_to(table)
        subprocess.run([sys.executable, str(ROOT / "cli.py"), "build", "--players", "4", "--target", "12"], cwd=cwd,
                       env=env, check=True, capture_output=True, timeout=600)
    script = "\n".join(block for d, block in python_blocks() if d == doc)
    p = subprocess.run([sys.executable, "-c", script], cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, f"{doc.name}:\n{p.stderr[-2000:]}"


def test_the_examples_are_found():
    lines = [line for _, line in commands()]
    assert "gonuts-solve advise --scores 23,31 --turn 7 --dice 3 --json" in lines
    assert any(line.startswith("gonuts-solve practice --daily") for line in lines)
    assert len(python_blocks()) >= 6 and {d.name for d, _ in python_blocks()} >= {"library.md", "README.md"}


def test_the_api_reference_builds_with_warnings_as_errors(tmp_path):
    """docs/conf.py: Sphinx (autodoc, furo, MyST) over the front door's docstrings, the first hour and the library
    guide; any warning (a docstring's markup, a name that is gone) fails. Every front-door call is on it."""
    pytest.importorskip("sphinx", reason="the reference needs the docs extra (in the test extra)")
    p = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", str(ROOT / "docs"),
                        str(tmp_path / "html")], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-4000:]
    api = (tmp_path / "html" / "api.html").read_text(encoding="utf-8")
    for name in ["solver.table", "solver.Table", "solver.advise", "solver.solve", "solver.evaluate", "solver.simulate",
                 "solver.Rules", "solver.Tables", "solver.plots.boundary", "TablePolicy", "thresholds", "EvalResult",
                 "win_both_orders", "SimReport", "SolveResult", "Advice"]:
        assert f'id="{name}' in api or f'id="solver.{name}' in api or f'.{name}"' in api, name
    assert (tmp_path / "html" / "first-hour.html").is_file()
    # numpy's sections, links into Python's, numpy's and matplotlib's references (no network: docs/inventories),
    # the library's own classes linked, and the policy names defined where the examples use them
    for section in ("Parameters", "Returns", "Raises", "Examples"):
        assert f">{section}<" in api, section
    for link in ("https://numpy.org/doc/stable/reference/generated/numpy.ndarray.html#numpy.ndarray",
                 "https://matplotlib.org/stable/api/_as_gen/matplotlib.figure.Figure.html#matplotlib.figure.Figure",
                 "https://docs.python.org/3/library/pathlib.html#pathlib.Path",
                 'href="#solver.play.advise.Advice"', 'href="#solver.Table"'):
        assert link in api, link
    for term in ("term-optimal", "term-hold-K", "term-hold-K-D", "term-maxpoints", "term-best"):
        assert f'id="{term}"' in api, term
    assert "white-space: pre-wrap" in (tmp_path / "html" / "_static" / "wrap.css").read_text()
