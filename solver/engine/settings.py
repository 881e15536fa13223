"""What the solver's kernel reads from the environment, read and checked here, without numpy: the CLI
checks every variable before any work (``check_environment``), and ``kernels`` compiles and runs by it.

* ``$CC``: the C compiler, with any arguments (``ccache gcc``); else ``cc``, ``gcc`` or ``clang`` on the PATH.
  A ``$CC`` that names no program is refused, never passed over.
* ``$GONUTS_SOLVE_SIMD``: ``auto`` (the default: the AVX build of the kernel where the CPU and the
  operating system have AVX) or ``off`` (the baseline build: SSE2 on x86-64, NEON on arm64).
* ``$GONUTS_SOLVE_KERNEL``: ``auto`` (the default: the kernel compiled into the wheel, else compiled at
  first use into the cache) or ``compile`` (always the cache's, compiled with ``$CC``).
* ``$GONUTS_SOLVE_COMPILE_TIMEOUT``: seconds a compile may take (300).
* ``$GONUTS_SOLVE_THREADS``: kernel threads, 1 to 256 (default: the cores this process may use, at most 16).
"""
from __future__ import annotations

import functools
import os
import platform
import shlex
import shutil
import subprocess
import sys

from solver.errors import GonutsError, show
from solver.numbers import env_real, env_whole

FLAGS = ["-O2", "-ffp-contract=off", "-fno-fast-math", "-fPIC", "-shared", "-std=c99"]
AVX_FLAGS = ["-mavx"]
COMPILE_TIMEOUT = 300.0    # seconds a compile may take ($GONUTS_SOLVE_COMPILE_TIMEOUT)


def compiler() -> list[str] | None:
    """The compiler's command words: ``$CC`` split as a shell splits it (its first word resolved on the
    PATH), else the first of ``cc``, ``gcc``, ``clang`` found; None when there is none. A ``$CC`` whose
    program cannot be found is refused in one line that names it."""
    env = os.environ.get("CC", "")
    if env.strip():
        try:
            words = shlex.split(env)
        except ValueError as exc:
            raise GonutsError(f"environment: CC cannot be read as a command ({exc}): {show(env)}") from None
        found = shutil.which(words[0])
        if found is None:
            raise GonutsError(f"environment: CC names {show(words[0])}, which is not a program on the PATH; "
                              "set CC to a C compiler (gcc, clang) or unset it")
        return [found, *words[1:]]
    for name in ("cc", "gcc", "clang"):
        found = shutil.which(name)
        if found:
            return [found]
    return None


def simd() -> str:
    """``$GONUTS_SOLVE_SIMD``: auto or off."""
    want = os.environ.get("GONUTS_SOLVE_SIMD", "").strip().lower() or "auto"
    if want not in ("auto", "off"):
        raise GonutsError(f"environment: GONUTS_SOLVE_SIMD must be auto or off, not {show(want)}")
    return want


def kernel_source() -> str:
    """``$GONUTS_SOLVE_KERNEL``: auto (the packaged kernel if the wheel has one) or compile."""
    want = os.environ.get("GONUTS_SOLVE_KERNEL", "").strip().lower() or "auto"
    if want not in ("auto", "compile"):
        raise GonutsError(f"environment: GONUTS_SOLVE_KERNEL must be auto or compile, not {show(want)}")
    return want


def variant() -> str:
    """Which build of the kernel this process runs: ``avx`` on an x86-64 CPU whose operating system lets
    programs use AVX (unless ``$GONUTS_SOLVE_SIMD`` is off), else ``base``. Chosen at load time, never at
    build time: a wheel carries both, and an older CPU never meets an AVX instruction."""
    return "avx" if simd() == "auto" and has_avx() else "base"


def flags(which: str | None = None) -> list[str]:
    """The compiler's flags for a build of the kernel (``variant()`` unless named): ``FLAGS``, and for the
    AVX build ``AVX_FLAGS``."""
    which = which or variant()
    return FLAGS + (AVX_FLAGS if which == "avx" else [])


def _x86_64() -> bool:
    return platform.machine().lower() in ("x86_64", "amd64", "x64")


@functools.lru_cache(maxsize=1)
def has_avx() -> bool:
    """Whether this is an x86-64 CPU whose operating system lets programs use AVX: Linux's /proc/cpuinfo
    (the kernel lists avx only when it saves the AVX registers), macOS's sysctl hw.optional.avx1_0,
    Windows' IsProcessorFeaturePresent(PF_AVX_INSTRUCTIONS_AVAILABLE). Unknown counts as no: the baseline
    build gives the same bits, a little slower."""
    if not _x86_64():
        return False
    if sys.platform.startswith("linux"):
        try:
            with open("/proc/cpuinfo") as fh:
                for line in fh:
                    if line.startswith("flags"):
                        return "avx" in line.partition(":")[2].split()
        except OSError:
            pass
        return False
    if sys.platform == "darwin":
        try:
            p = subprocess.run(["/usr/sbin/sysctl", "-n", "hw.optional.avx1_0"], capture_output=True, text=True,
                               timeout=10)
            return p.returncode == 0 and p.stdout.strip() == "1"
        except (OSError, subprocess.SubprocessError):
            return False
    if sys.platform == "win32":                             # pragma: no cover - Windows
        try:
            import ctypes  # deferred for start-up: Windows only
            return bool(ctypes.windll.kernel32.IsProcessorFeaturePresent(39))   # PF_AVX_INSTRUCTIONS_AVAILABLE
        except (AttributeError, OSError):
            return False
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
    kernel_source()
    compile_timeout()
    threads()
