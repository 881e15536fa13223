import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
# The tests mirror the packages (tests/<package>/test_<name>.py; cross-cutting suites in tests/across/): a suite
# may use another's helpers (test_website's server, test_table_app's phone) and the scripts at tests/ (taps,
# literal, the fixture writers) by name, wherever it lives.
TESTS = Path(__file__).resolve().parent
for folder in [TESTS, *sorted(p for p in TESTS.iterdir() if p.is_dir() and any(p.glob("test_*.py")))]:
    if str(folder) not in sys.path:
        sys.path.append(str(folder))

from solver.game.rules import Rules  # noqa: E402
from solver.store import build as builder  # noqa: E402
from solver.store import tables  # noqa: E402

# Every test session gets a private, empty table cache (and the kernel is compiled into it): no test reads
# or writes the user's ~/.cache/gonuts-solve, so a pass or a failure never depends on what it holds.
# Set before any test runs, so that subprocesses (the CLI under test) inherit it; a test that wants a cache
# of its own still sets one.
_PRIVATE_CACHE = None


def pytest_configure(config):
    global _PRIVATE_CACHE
    _PRIVATE_CACHE = tempfile.mkdtemp(prefix="gonuts-test-cache-")
    os.environ["GONUTS_SOLVE_CACHE"] = _PRIVATE_CACHE
    # In a checkout the tests run its code, whose kernel is compiled at first use into that cache (an
    # editable install may have put a wheel's kernels beside kernels.py: not these). Where the tests are
    # copied beside an installed wheel (the wheels' workflow), they run the wheel and its own kernel.
    if (ROOT / "solver" / "engine" / "kernels.c").is_file():
        os.environ["GONUTS_SOLVE_KERNEL"] = "compile"
    # `-n 3 --dist loadfile` hands out whole files in the order collected (below), not in xdist's own order
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


# xdist's order (the files with the most tests first), but for the files that are one long test each: those go
# first, or one worker runs them alone at the end (the wheel's test: minutes of compiling and installing, little
# of it in a browser). Putting every long file first was slower (pytest 1,149 s against about 770 s in a clean
# clone's CI: three browser suites at once on two cores).
ALONE_FIRST = ["across/test_wheel.py"]


def pytest_collection_modifyitems(config, items):
    def where(item):
        path = Path(str(item.fspath))
        return path.relative_to(TESTS).as_posix() if path.is_relative_to(TESTS) else path.name
    count: dict[str, int] = {}
    for item in items:
        count[where(item)] = count.get(where(item), 0) + 1
    first = {name: k for k, name in enumerate(ALONE_FIRST)}
    items.sort(key=lambda item: (first.get(where(item), len(first)), -count[where(item)]))   # stable within a file


def pytest_unconfigure(config):
    if _PRIVATE_CACHE is not None:
        shutil.rmtree(_PRIVATE_CACHE, ignore_errors=True)


@pytest.fixture(scope="session")
def private_cache():
    """The session's own table cache (``$GONUTS_SOLVE_CACHE``)."""
    return Path(_PRIVATE_CACHE)


@pytest.fixture(scope="session")
def table_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("tables")


def _built(table_dir, rules, name):
    path = table_dir / name
    if not path.exists():
        builder.build(rules, path)
    return tables.load(path, expect=rules)


@pytest.fixture(scope="session")
def rulebook2(table_dir):
    return _built(table_dir, Rules.from_options(reading="rulebook"), "rb2.npz")


@pytest.fixture(scope="session")
def summary2(table_dir):
    return _built(table_dir, Rules.from_options(reading="summary"), "su2.npz")


@pytest.fixture(scope="session")
def rulebook3_small(table_dir):
    return _built(table_dir, Rules.from_options(reading="rulebook", players=3, target=12), "rb3s.npz")


@pytest.fixture(scope="session")
def rb2_path(table_dir, rulebook2):
    return table_dir / "rb2.npz"


# CI sets GONUTS_NO_SKIPS=1: there every optional package is installed, so a skipped test means a
# missing install step, and the run fails. Locally a missing optional package only skips its tests.
# The one skip CI allows is hardware: a CPU feature this machine does not have.
_SKIPPED = []


def pytest_runtest_logreport(report):
    if report.skipped and os.environ.get("GONUTS_NO_SKIPS") == "1":
        reason = str(report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr)
        if "this CPU lacks" not in reason:
            _SKIPPED.append(f"{report.nodeid}: {reason}")


def pytest_sessionfinish(session, exitstatus):
    if _SKIPPED:
        print(f"\nGONUTS_NO_SKIPS=1, but {len(_SKIPPED)} test(s) skipped:", *_SKIPPED[:20], sep="\n  ")
        session.exitstatus = 1


CHROMIUM = os.environ.get("GONUTS_CHROMIUM", "/usr/bin/chromium")
BROWSER_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--disable-quic"]


@pytest.fixture(scope="session")
def browser():
    """One Chromium for every browser test (playwright's sync API allows one running session per process)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no chromium at {CHROMIUM}: apt-get install -y chromium (or set GONUTS_CHROMIUM)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("playwright is missing: pip install '.[test]'")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        yield b
        b.close()


@pytest.fixture
def rl_cache(tmp_path_factory, monkeypatch):
    """The game-AI adapters' tables, built once into one cache for the session (tests/adapters/)."""
    monkeypatch.setenv("GONUTS_SOLVE_CACHE", str(tmp_path_factory.getbasetemp() / "rl-cache"))
