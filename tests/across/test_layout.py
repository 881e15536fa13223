"""The architecture as checks: the import contracts (import-linter), no private names across modules,
function-local imports only where they buy start-up time, a thin cli.py, and a README map that matches
the folders."""
from __future__ import annotations

import ast
import importlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
pytestmark = pytest.mark.source
PACKAGE = ROOT / "solver"
MODULES = sorted(p for p in PACKAGE.rglob("*.py"))
# The command line: the one module that exits (with the code of what it ran), and whose commands each import
# what they need when they run (its header says why: advise must not pay for numpy at start-up).
CLI = PACKAGE / "commands" / "cli.py"
LIBRARY = [p for p in MODULES if p != CLI]


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_the_import_contracts_hold():
    """Layers (game < engine | reference < store < lab < play | adapters < commands), reference never
    importing engine, no cycles at any depth, click only in the command line, advise's path numpy-free."""
    pytest.importorskip("importlinter", reason="the import contracts need import-linter (pip install '.[test]')")
    exe = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    assert exe, "import-linter is installed but its lint-imports command is not on the PATH"
    p = subprocess.run([exe, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-2000:]
    assert re.search(r"Contracts: 5 kept, 0 broken", p.stdout), p.stdout[-1500:]


def test_no_module_imports_another_modules_private_name():
    found = []
    for path in MODULES + [ROOT / "cli.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("solver"):
                found += [f"{path.relative_to(ROOT)}: {node.module}.{a.name}" for a in node.names
                          if a.name.startswith("_") and a.name != "__version__"]
    assert found == []


def test_function_local_imports_say_they_are_deferred_for_start_up():
    """A deferred import hides the graph; each one left says why (start-up, or an optional package)."""
    found = []
    for path in LIBRARY:
        src = path.read_text(encoding="utf-8")
        lines = src.splitlines()
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for sub in ast.walk(node):
                    if isinstance(sub, (ast.Import, ast.ImportFrom)) and "deferred" not in lines[sub.lineno - 1]:
                        found.append(f"{path.relative_to(ROOT)}:{sub.lineno}: {lines[sub.lineno - 1].strip()}")
    assert found == []


def test_the_library_never_exits_and_the_command_line_stays_thin():
    exits = [f"{p.relative_to(ROOT)}:{n.lineno}" for p in LIBRARY for n in ast.walk(ast.parse(p.read_text()))
             if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "exit"
             and isinstance(n.func.value, ast.Name) and n.func.value.id == "sys"]
    assert exits == []
    assert len(CLI.read_text().splitlines()) <= 300
    assert len((ROOT / "cli.py").read_text().splitlines()) <= 12                # the checkout's entry: an import


def test_the_layout_map_matches_the_folders():
    """CONTRIBUTING.md's map of the folders names every package and top-level module."""
    guide = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    block = guide.split("## Layout", 1)[1].split("```")[1]
    mapped = set(re.findall(r"^solver/(\w+)/", block, flags=re.M))
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert mapped == folders
    top = set(re.findall(r"^solver/(\w+\.py)", block, flags=re.M)) | set(re.findall(r", (\w+\.py)", block))
    assert top == {p.name for p in PACKAGE.glob("*.py") if p.name != "__init__.py"}


def test_the_docs_python_imports_resolve():
    """Every `from solver... import ...` in the README and docs/ names something that exists."""
    seen = 0
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for mod, names in re.findall(r"^from (solver[\w.]*) import ([\w, ]+)", doc.read_text(), flags=re.M):
            m = importlib.import_module(mod)
            for name in names.replace(" ", "").split(","):
                assert hasattr(m, name) or importlib.util.find_spec(f"{mod}.{name}"), f"{doc.name}: {mod}.{name}"
                seen += 1
    assert seen >= 8


@pytest.mark.parametrize("path", ["README.md", "CONTRIBUTING.md", "docs/players.md", "docs/results.md",
                                  "docs/library.md", "docs/model.md", "docs/performance.md", "docs/page.md",
                                  "docs/commands.md", "docs/install.md", "docs/first-hour.md"])
def test_the_docs_links_point_at_files_that_exist(path):
    doc = ROOT / path
    for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", doc.read_text()):
        assert (doc.parent / target).exists(), f"{path} links to {target}"


def test_the_tests_mirror_the_packages_and_name_no_issue():
    """Every Python test lives in tests/<package>/ for a package of solver (or tests/across/ when it crosses them,
    or tests/test_<module>.py for a module at solver's top), and names what it checks, never an issue of the tracker."""
    tests = ROOT / "tests"
    packages = {p.name for p in (ROOT / "solver").iterdir() if (p / "__init__.py").exists()}
    for path in tests.rglob("test_*.py"):
        folder = path.parent.relative_to(tests).as_posix()
        assert folder in packages | {"across"} or path.parent == tests, f"{path.relative_to(ROOT)}"
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\b[Ii]ssues? \d+", text), f"{path.relative_to(ROOT)} names an issue"


NO_LOGIC = {"version.py"}                   # a version string


def test_every_test_module_has_a_name_of_its_own():
    """The suites import each other's helpers by module name (tests/conftest.py puts every folder on the path), and
    pytest imports each test file by its basename: two files of one name in two folders, or a second conftest.py,
    would shadow each other."""
    tests = ROOT / "tests"
    names = [p.name for p in tests.rglob("*.py") if "fixtures" not in p.parts]
    assert sorted({n for n in names if names.count(n) > 1}) == []
    assert [p.relative_to(tests).as_posix() for p in tests.rglob("conftest.py")] == ["conftest.py"]


def test_every_module_has_a_test_file_a_newcomer_finds_by_its_path():
    """solver/<package>/<module>.py is tested in tests/<package>/test_<module>.py (solver/<module>.py in
    tests/test_<module>.py)."""
    tests = ROOT / "tests"
    missing = [f"solver/{rel} has no tests/{Path(rel).parent / ('test_' + Path(rel).name)}"
               for path in sorted((ROOT / "solver").rglob("*.py"))
               if path.name != "__init__.py" and (rel := path.relative_to(ROOT / "solver").as_posix()) not in NO_LOGIC
               and not (tests / Path(rel).parent / f"test_{path.name}").exists()]
    assert not missing, "\n".join(missing)


def test_no_definition_has_a_second_docstring_left_as_a_dead_string():
    """A docstring added above an existing one leaves the old one a statement that does nothing."""
    twice = []
    for path in sorted((ROOT / "solver").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            body = getattr(node, "body", None)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and len(body) > 1 \
                    and all(isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str)
                            for s in body[:2]):
                twice.append(f"{path.relative_to(ROOT)}:{body[1].lineno}")
    assert not twice, twice
