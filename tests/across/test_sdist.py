"""The source distribution, built as PyPA's front end builds it: it holds every file a clone holds (the
license, the tests with their fixtures and helpers, the page's sources), and its tests collect from it as
they do from a clone."""
from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.source]
ROOT = Path(__file__).resolve().parent.parent.parent
MADE = {"PKG-INFO", "setup.cfg"}                  # what the build adds beside the tracked files (and *.egg-info/)


@pytest.fixture(scope="module")
def unpacked(tmp_path_factory):
    out = tmp_path_factory.mktemp("sdist")
    p = subprocess.run([sys.executable, "-m", "build", "--sdist", "--outdir", str(out / "dist"), str(ROOT)],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    (archive,) = (out / "dist").glob("gonuts_solve-*.tar.gz")
    with tarfile.open(archive) as tar:
        tar.extractall(out / "src", filter="data")
    (top,) = (out / "src").iterdir()
    return top


def test_the_sdist_holds_every_tracked_file_and_the_license(unpacked):
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    held = {str(f.relative_to(unpacked)) for f in unpacked.rglob("*") if f.is_file()}
    assert sorted(set(tracked) - held) == []
    extra = {f for f in held - set(tracked) if f not in MADE and not f.startswith("gonuts_solve.egg-info/")}
    assert sorted(extra) == []
    assert "Permission is hereby granted" in (unpacked / "LICENSE").read_text()
    for needed in ("tests/conftest.py", "tests/fixtures/advice.json", "tests/taps.py", "solver/site/web/src/main.js"):
        assert needed in held


def test_the_tests_collect_from_the_sdist(unpacked, tmp_path):
    env = {**os.environ, "GONUTS_SOLVE_CACHE": str(tmp_path / "cache")}
    p = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "tests"],
                       cwd=unpacked, env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-2000:]
    assert " error" not in p.stdout.splitlines()[-1] and "collected" in p.stdout.splitlines()[-1], p.stdout[-500:]
