"""What the solver's kernel reads from the environment, read and checked here, without numpy: the CLI
checks every variable before any work (``check_environment``), and ``kernels`` compiles and runs by it.

* ``$CC``: the C compiler (else ``cc``, ``gcc`` or ``clang`` on the PATH).
* ``$GONUTS_SOLVE_SIMD``: ``auto`` (the default: ``-mavx`` where the CPU has AVX) or ``off``.
* ``$GONUTS_SOLVE_COMPILE_TIMEOUT``: seconds a compile may take (300).
* ``$GONUTS_SOLVE_THREADS``: kernel threads, 1 to 256 (default: the cores this process may use, at most 16).
"""
from __future__ import annotations

import functools
import os
import platform
import shutil

from solver.errors import GonutsError, show
from solver.numbers import env_real, env_whole

FLAGS = ["-O2", "-ffp-contract=off", "-fno-fast-math", "-fPIC", "-shared", "-std=c99"]
COMPILE_TIMEOUT = 300.0    # seconds a compile may take ($GONUTS_SOLVE_COMPILE_TIMEOUT)


def compiler() -> str | None:
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def flags() -> list[str]:
    """The compiler's flags: ``FLAGS``, and ``-mavx`` where this CPU has AVX unless ``$GONUTS_SOLVE_SIMD`` is off."""
    want = os.environ.get("GONUTS_SOLVE_SIMD", "").strip().lower() or "auto"
    if want not in ("auto", "off"):
        raise GonutsError(f"environment: GONUTS_SOLVE_SIMD must be auto or off, not {show(want)}")
    return FLAGS + (["-mavx"] if want == "auto" and has_avx() else [])


@functools.lru_cache(maxsize=1)
def has_avx() -> bool:
    """Whether this is an x86-64 CPU whose operating system lets programs use AVX (Linux: /proc/cpuinfo)."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("flags"):
                    return "avx" in line.partition(":")[2].split()
    except OSError:
        pass
    return False


def compile_timeout() -> float:
    """Seconds a compile may take: ``$GONUTS_SOLVE_COMPILE_TIMEOUT``, else ``COMPILE_TIMEOUT``."""
    return env_real("GONUTS_SOLVE_COMPILE_TIMEOUT", COMPILE_TIMEOUT, hi=1e6, above=0.0)


def threads() -> int:
    """Kernel threads: ``$GONUTS_SOLVE_THREADS`` if set, else the cores this process may run on (at most 16).

    Orbits of a layer are independent and each writes only its own states, so
    the tables' bits do not depend on this number (the rebuild test checks it).
    """
    want = env_whole("GONUTS_SOLVE_THREADS", 0, 1, 256)
    if want:
        return want
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):                       # pragma: no cover - not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, 16))


def check_environment() -> None:
    """Read every variable the kernel reads, so that a bad one is refused before any work."""
    flags()
    compile_timeout()
    threads()
