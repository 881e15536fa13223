"""The page's JavaScript passes eslint (eslint.config.js; `npm run lint`; CI installs it with `npm ci`) and its
types check strictly; the Python passes ruff (the rules in pyproject.toml) and mypy --strict (both pinned in the
test extra)."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
pytestmark = pytest.mark.source
ESLINT = ROOT / "node_modules" / ".bin" / "eslint"


@pytest.mark.skipif(not ESLINT.exists() or shutil.which("node") is None,
                    reason="eslint is not installed: npm ci (CI does)")
def test_the_pages_javascript_passes_eslint():
    p = subprocess.run([str(ESLINT), "solver/site/web", "tests/js", "tests/engines", "eslint.config.js"], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-2000:]


def test_every_page_module_is_short():
    """A module per concern, a folder per tab, each a few screens long (at most 400 lines)."""
    src = ROOT / "solver" / "site" / "web" / "src"
    files = sorted(src.rglob("*.js"))
    assert len(files) > 20
    for path in files:
        assert len(path.read_text().splitlines()) <= 400, path


TSC = ROOT / "node_modules" / ".bin" / "tsc"


@pytest.mark.skipif(not TSC.exists() or shutil.which("node") is None, reason="tsc is not installed: npm ci (CI does)")
def test_the_pages_types_check_strictly():
    """tsconfig.json: checkJs with strict on over web/src; the record, the state, the values and each tab's
    interface are typed in JSDoc (`npm run types`)."""
    config = (ROOT / "tsconfig.json").read_text()
    assert '"strict": true' in config and '"checkJs": true' in config
    p = subprocess.run([str(TSC), "-p", "tsconfig.json"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-2000:]


def test_the_python_passes_ruff():
    pytest.importorskip("ruff", reason="ruff is not installed (pip install \".[test]\")")
    p = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "."], cwd=ROOT, capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-2000:]


def test_the_python_passes_mypy_strict():
    """pyproject.toml's [tool.mypy]: every flag of --strict over the whole package (the adapters may subclass the
    game-AI frameworks' classes, which ship no types); pinned in the test extra."""
    pytest.importorskip("mypy", reason="mypy is not installed (pip install \".[test]\")")
    tomllib = pytest.importorskip("tomllib", reason="reading pyproject.toml needs Python 3.11")
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert mypy["strict"] is True and mypy["files"] == ["solver"]
    loosened = [o for o in mypy["overrides"] if set(o) - {"module", "ignore_missing_imports"}]
    assert loosened == [{"module": ["solver.adapters.*"], "disallow_subclassing_any": False}]
    p = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--cache-dir", "/dev/null"], cwd=ROOT,
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-2000:]
