"""The kernel on every compiler the wheels are built with, giving the same bits.

The C compiles without a warning under gcc and clang (vector extensions), under gcc with the portable
path (plain loops: what MSVC compiles), under MinGW-w64's gcc (Windows, both paths) and under clang-cl,
which reads C as MSVC does (against minimal headers: no Windows SDK here). Then the tables of a fixed set
of games (tests/table_digests.py), built with gcc, clang, the portable path and the baseline (SSE2) and
AVX builds, equal the committed digests bit for bit.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.table_digests import FIXTURE, build_all

ROOT = Path(__file__).resolve().parent.parent.parent
pytestmark = pytest.mark.source
SOURCE = ROOT / "solver" / "engine" / "kernels.c"
GCC_FLAGS = ["-O2", "-ffp-contract=off", "-fno-fast-math", "-shared", "-std=c99", "-Wall", "-Wextra", "-Wvla", "-Werror"]

# Just what kernels.c includes, for clang-cl's MSVC mode (the Windows SDK's headers are not on Linux).
MSVC_STUBS = {
    "math.h": "#define INFINITY (__builtin_inff())\ndouble fabs(double);\ndouble nextafter(double, double);\ndouble sqrt(double);\n",
    "stdlib.h": "typedef unsigned long long size_t;\n#define NULL ((void *)0)\n"
                "void *malloc(size_t); void *calloc(size_t, size_t); void free(void *);\n",
    "string.h": "typedef unsigned long long size_t;\nvoid *memcpy(void *, const void *, size_t);\n"
                "void *memset(void *, int, size_t);\n",
}


def _tool(name):
    found = shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed (.ci/run installs it)")
    return found


@pytest.mark.parametrize("cc, extra", [
    ("gcc", []), ("gcc", ["-mavx"]), ("gcc", ["-DGONUTS_PORTABLE"]), ("gcc", ["-DGONUTS_PORTABLE", "-mavx"]),
    ("clang", []), ("clang", ["-mavx"]), ("clang", ["-DGONUTS_PORTABLE"]),
    ("x86_64-w64-mingw32-gcc", []), ("x86_64-w64-mingw32-gcc", ["-mavx"]),
    ("x86_64-w64-mingw32-gcc", ["-DGONUTS_PORTABLE"]),
])
def test_the_kernel_compiles_without_a_warning(tmp_path, cc, extra):
    out = tmp_path / ("k.dll" if "mingw" in cc else "k.so")
    fpic = [] if "mingw" in cc else ["-fPIC"]
    p = subprocess.run([_tool(cc), *GCC_FLAGS, *fpic, *extra, "-o", str(out), str(SOURCE), "-lm"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and not p.stderr, p.stderr
    if "mingw" in cc:                  # the five functions are exported from the DLL
        dump = subprocess.run([_tool("x86_64-w64-mingw32-objdump"), "-p", str(out)], capture_output=True,
                              text=True, timeout=60).stdout
        for name in ("solve_layer", "evaluate_layer", "respond_layer", "gains_rows", "versus_pass"):
            assert f"] {name}\n" in dump


@pytest.mark.parametrize("arch", [[], ["/arch:AVX"]])
def test_the_kernel_compiles_as_msvc_reads_c(tmp_path, arch):
    """clang-cl: MSVC's command line, MSVC's C dialect (_MSC_VER, no __GNUC__): the portable path."""
    clang = _tool("clang")
    for name, text in MSVC_STUBS.items():
        (tmp_path / name).write_text(text)
    resource = subprocess.run([clang, "-print-resource-dir"], capture_output=True, text=True).stdout.strip()
    p = subprocess.run([clang, "--driver-mode=cl", "--target=x86_64-pc-windows-msvc", "/X", "-imsvc", str(tmp_path),
                        "-imsvc", f"{resource}/include", "/c", "/O2", "/fp:precise", "/std:c11", "/TC", "/W3", "/WX",
                        "-Wvla", *arch, f"/Fo{tmp_path / 'k.obj'}", "--", str(SOURCE)], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    assert (tmp_path / "k.obj").stat().st_size > 10_000


@pytest.mark.slow
@pytest.mark.parametrize("label, env", [
    # gcc's AVX build made the fixture (tests/table_digests.py); the rest must equal it
    ("gcc, baseline (SSE2)", {"CC": "gcc", "GONUTS_SOLVE_SIMD": "off"}),
    ("clang, given as a command with arguments", {"CC": "env clang"}),
    ("gcc, portable C (MSVC's path)", {"CC": "gcc -DGONUTS_PORTABLE"}),
])
def test_every_build_of_the_kernel_gives_the_committed_tables(tmp_path, label, env):
    cc = env["CC"].split()
    _tool(cc[-1] if cc[0] == "env" else cc[0])
    want = json.loads(FIXTURE.read_text())["tables"]
    full = {**{k: v for k, v in os.environ.items() if k not in ("CC", "GONUTS_SOLVE_SIMD")}, **env,
            "GONUTS_SOLVE_CACHE": str(tmp_path / "cache"), "GONUTS_SOLVE_KERNEL": "compile"}
    got = build_all([sys.executable, str(ROOT / "cli.py")], tmp_path, env=full)
    assert got == want, f"{label}: {sorted(k for k in want if got.get(k) != want[k])} differ"
    (lib,) = (tmp_path / "cache" / "kernels").iterdir()
    assert ("-avx-" in lib.name) == (env.get("GONUTS_SOLVE_SIMD") != "off" and _has_avx())


def _has_avx():
    from solver.engine.settings import has_avx
    return has_avx()
