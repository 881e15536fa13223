"""The page's JavaScript passes eslint (eslint.config.js; `npm run lint`). CI installs it with `npm ci`."""
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.source
ESLINT = ROOT / "node_modules" / ".bin" / "eslint"


@pytest.mark.skipif(not ESLINT.exists() or shutil.which("node") is None,
                    reason="eslint is not installed: npm ci (CI does)")
def test_the_pages_javascript_passes_eslint():
    p = subprocess.run([str(ESLINT), "solver/play/web", "tests/js", "tests/engines", "eslint.config.js"], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-2000:]


def test_every_ui_module_is_on_the_page_and_short():
    """One module per tab and one shared part, each a few screens long (issue 26: at most about 400 lines)."""
    from solver.play import webpage
    on_disk = sorted(p.name for p in (ROOT / "solver" / "play" / "web" / "ui").glob("*.js"))
    assert sorted(webpage.UI_MODULES) == on_disk
    for name in on_disk:
        assert len((ROOT / "solver" / "play" / "web" / "ui" / name).read_text().splitlines()) <= 400, name
