"""The engine's compiled inner loops: ``kernels.c``, as a plain shared library called through ctypes.

Where it comes from, in this order:

* **The wheel.** A platform wheel carries the kernel compiled when the wheel was built (``setup.py``):
  ``_kernels_base`` (baseline instructions: SSE2 on x86-64, NEON on arm64) and, on x86-64,
  ``_kernels_avx``. It is loaded from beside this file, trusted as this file's own Python is. No
  compiler is needed.
* **A first-use compile** (a source or editable install without them, or ``$GONUTS_SOLVE_KERNEL`` set
  to ``compile``): compiled once with ``$CC`` (any command, ``ccache gcc`` too; else ``cc``, ``gcc`` or
  ``clang``) into the table cache, named by a hash of the source, the flags, the compiler's command and
  version and the machine, and loaded with ctypes only if this user owns it and nobody else can write it
  or its folder (``trusted``). It is compiled once; every later process only loads it.

Which build runs is chosen when it is loaded (``settings.variant``): the AVX build where the CPU and the
operating system have AVX, else the baseline build. Both do the same IEEE operations in the same order
(4-wide or 2-wide vectors, or plain loops under MSVC), so the tables' bits do not depend on it: a test
compares every output of both, of gcc and clang, and of the portable C path.

Flags: ``-O2 -ffp-contract=off`` and no fast-math (MSVC: ``/O2 /fp:precise``), so that every operation
is the IEEE operation the source writes, in its order: tables are bit-for-bit reproducible.

ctypes releases the GIL during a call, so a layer's orbits are shared among threads (one per core):
orbits of one layer read only finished layers and write only their own states.
"""
from __future__ import annotations

import ctypes
import functools
import hashlib
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO, Any, TypeVar

import numpy as np

from solver.engine.libformat import not_a_library
from solver.engine.settings import (  # noqa: F401 (the kernel's settings)
    compile_timeout,
    compiler,
    flags,
    has_avx,
    kernel_source,
    threads,
    variant,
)
from solver.errors import CompileError, GonutsError  # noqa: F401 (CompileError: raised here)
from solver.files import atomic_write, cache_dir, cache_folder, reason, untrusted

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "kernels.c"
LIBRARY_SUFFIX = ".dll" if sys.platform == "win32" else ".so"
MIN_PARALLEL = 64          # orbits in a layer below which one thread does it all
PARTS_PER_THREAD = 8       # a layer's orbits in this many parts per thread, for balance

ModelArrays = tuple[np.ndarray, ...]
"""A turn model as the kernel's twelve arrays (``solve.model_arrays``; the order of ``Model``'s pointers)."""
Mixes = tuple[np.ndarray, np.ndarray, np.ndarray]
"""Fixed policies' mixed decisions for the kernel: (key, q, p), key = seat S + state ascending (int64), the decision
q = t (D + 1) + n (int64) and the probability of rolling there (float64). ``NO_MIXES`` is none."""
NO_MIXES: Mixes = (np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros(1, np.float64))
STATS = 11
"""Columns of a solve's per-orbit stats: passes, residual, converged, the pure equilibria an equilibrium search
found (0 where iteration settled), the mixed state (-1: none), its decision q, its probability of rolling, the
largest difference between the equilibria found of any member's chance of any seat, and a second mixed state, its
decision and probability (where two members mix, each making the other indifferent)."""
VersusJob = tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""One ``versus_pass``: (K, dopt, obase, dcand, coff, W, gap)."""
_T = TypeVar("_T")
_i64, _f64, _u8 = ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_uint8)


class Model(ctypes.Structure):
    _fields_ = [("N", ctypes.c_int64), ("K", ctypes.c_int64), ("G", ctypes.c_int64), ("Gpow", ctypes.c_int64),
                ("D", ctypes.c_int64), ("start", ctypes.c_int64), ("nd", ctypes.c_int64), ("nbytes", ctypes.c_int64),
                ("mv_ptr", _i64), ("mv_p", _f64), ("mv_da", _i64), ("mv_dst", _i64),
                ("en_ptr", _i64), ("en_p", _f64), ("en_dist", _i64), ("en_rel", _u8),
                ("dists", _f64), ("tails", _f64), ("abs_used", _u8), ("rel_used", _u8)]


@functools.lru_cache(maxsize=8)
def compiler_version(cc: str) -> str:
    """The first line of ``cc --version`` (part of the library's key: a new compiler compiles anew)."""
    try:
        p = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=30)
        return (p.stdout.strip().splitlines() or ["unknown"])[0]
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def packaged(which: str | None = None) -> Path | None:
    """The kernel the wheel carries for this build (``variant()`` unless named), or None."""
    path = HERE / f"_kernels_{which or variant()}{LIBRARY_SUFFIX}"
    return path if kernel_source() == "auto" and path.is_file() else None


def library_path(cc: list[str] | str | None = None) -> Path:
    """Where the compiled kernel lives in the cache, named by a hash of everything that makes its bytes: the
    source, the flags, the compiler's command and version, the operating system and the architecture."""
    words = [cc] if isinstance(cc, str) else (cc or compiler() or ["cc"])
    key_text = " ".join(flags() + words + [compiler_version(words[0]), sys.platform, platform.machine()])
    key = hashlib.sha256(SOURCE.read_bytes() + key_text.encode()).hexdigest()[:16]
    return cache_dir() / "kernels" / f"gonuts-kernels-{variant()}-{key}{LIBRARY_SUFFIX}"


def needs_compile() -> bool:
    """Whether loading the kernel will compile it first (so a build can say so before it starts). Refuses,
    before any work, a machine where it cannot: no compiler, or a ``$CC`` that names none."""
    if _lib is not None or packaged() is not None:
        return False
    cc = compiler()
    if cc is None:
        if trusted(library_path()) is None:
            return False
        raise CompileError(no_compiler())
    path = library_path(cc)
    if trusted(path) is None:
        return False
    try:
        cache_folder(path.parent.name)          # where it will be compiled: refused now if not safe
    except GonutsError as exc:
        raise CompileError(str(exc)) from None
    return True


def no_compiler() -> str:
    """The refusal where a compile is needed and there is no compiler, with this platform's remedy."""
    remedy = {"darwin": "xcode-select --install (Apple's command line tools)",
              "win32": "install the wheel from PyPI (pip install gonuts-solve), which needs no compiler, or "
                       "MinGW-w64's gcc or Visual Studio's Build Tools and set CC"}.get(
        sys.platform, "install gcc or clang with your package manager (apt-get install gcc, dnf install gcc, "
                      "apk add gcc musl-dev)")
    return (f"building a table needs the solver's compiled kernel, and this install has none and no C compiler "
            f"to make it (cc, gcc or clang, or set CC): {remedy}")


def trusted(path: Path) -> str | None:
    """None if ``path`` is a library this process may load: a regular file (not a link) owned by this user
    and writable by nobody else, in a folder of the same kind (``files.untrusted``). Otherwise why not."""
    return untrusted(path.parent, folder=True) or untrusted(path, folder=False)


_lib = None


def load() -> ctypes.CDLL:
    """The kernel library: the wheel's, else the cache's, compiled first if needed. A cache's library is
    loaded only when ``trusted``: one that anybody else could have written is compiled anew, or refused
    when its folder is not safe either."""
    global _lib
    if _lib is not None:
        return _lib
    path = packaged()
    if path is None:
        cc = compiler()
        path = library_path(cc)
        if needs_compile():                     # refuses a machine with no kernel and no compiler
            assert cc is not None               # needs_compile refused a machine with none
            _compile(cc, path)
        why = trusted(path)
        if why is not None:
            raise CompileError(f"the compiled kernel is not safe to load: {why}; set GONUTS_SOLVE_CACHE to a "
                               "folder of your own")
    try:
        lib = ctypes.CDLL(str(path))
    except OSError as exc:
        raise CompileError(f"cannot load the compiled kernel {path}: {_first_line(exc)}; remove it to "
                           "compile it again") from None
    # Every array argument is declared with its dtype, C order and, where the C side writes, WRITEABLE:
    # ctypes refuses anything else with an ArgumentError before the call, so a wrong array cannot
    # reach the kernel and corrupt memory.
    M, i64, i32, cf = ctypes.POINTER(Model), ctypes.c_int64, ctypes.c_int, ctypes.c_double
    signatures = {
        "solve_layer": [M, _in(np.int64), i64, i64, _out(np.float64), _out(np.uint8), _out(np.float64),
                        _out(np.float64), i32, cf, cf, i64, i64, i64, _out(np.float64)],
        "evaluate_layer": [M, _in(np.int64), i64, i64, _out(np.float64), _in(np.uint8), i64, _in(np.int64),
                           _in(np.int64), _in(np.float64), _out(np.float64)],
        "respond_layer": [M, _in(np.int64), i64, i64, _out(np.float64), _in(np.uint8), i64, _in(np.int64),
                          _in(np.int64), _in(np.float64), _in(np.uint8), _out(np.uint8), cf, cf, i64, i64,
                          _out(np.float64)],
        "deviate_layer": [M, _in(np.int64), i64, i64, _out(np.float64), _in(np.uint8), i64, _in(np.int64),
                          _in(np.int64), _in(np.float64), ctypes.c_void_p, ctypes.c_void_p, cf, i64,
                          _out(np.float64)],
        "gains_rows": [M, i64, i64, _in(np.int64), _in(np.uint8), _in(np.int64), _out(np.float64)],
        "versus_pass": [i64, i64, i64, _in(np.float64), _in(np.int64), _in(np.float64), _in(np.int64),
                        _out(np.float64), _out(np.float64)],
    }
    try:
        for name, argtypes in signatures.items():
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = ctypes.c_int, argtypes
    except AttributeError as exc:
        raise CompileError(f"the compiled kernel {path} lacks a function ({_first_line(exc)}); remove it to "
                           "compile it again") from None
    _lib = lib
    return lib


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def _compile(cc: list[str], path: Path) -> float:
    """Compile into a scratch folder, then write the library into place atomically (``files.atomic_write``),
    readable and writable by its owner only, in a cache folder of mode 0700."""
    t0 = time.perf_counter()
    limit = compile_timeout()
    name = os.path.basename(cc[0])
    try:
        cache_folder(path.parent.name)
    except GonutsError as exc:
        raise CompileError(f"{exc}") from None
    with tempfile.TemporaryDirectory(prefix="gonuts-kernel-") as scratch:
        built = Path(scratch) / path.name
        try:
            p = subprocess.run([*cc, *flags(), "-o", str(built), str(SOURCE), "-lm"], capture_output=True, text=True,
                               timeout=limit)
        except OSError as exc:
            raise CompileError(f"compiling the solver kernel with {name} failed: {reason(exc)}") from None
        except subprocess.TimeoutExpired:
            raise CompileError(f"compiling the solver kernel with {name} took more than {limit:g} s and "
                               "was stopped (set $GONUTS_SOLVE_COMPILE_TIMEOUT to wait longer)") from None
        if p.returncode != 0:
            first = (p.stderr.strip().splitlines() or ["no message"])[0]
            raise CompileError(f"compiling the solver kernel with {name} failed: {first}")
        wrong = not_a_library(built)
        if wrong is not None:
            raise CompileError(f"compiling the solver kernel with {name} exited 0 but {wrong}: set CC to a C "
                               "compiler (gcc, clang) or unset it")

        def write(fh: IO[bytes]) -> None:
            if hasattr(os, "fchmod"):                   # POSIX: readable and runnable by its owner only
                os.fchmod(fh.fileno(), 0o700)
            fh.write(built.read_bytes())
        atomic_write(path, write, error=CompileError)
    return time.perf_counter() - t0


def _ptr(a: np.ndarray, kind: type[ctypes._Pointer[Any]]) -> Any:
    return a.ctypes.data_as(kind)


def _in(dtype: type[np.generic]) -> type[np.ctypeslib._ndptr[Any]]:
    """An array the kernel reads: this dtype, C-contiguous."""
    return np.ctypeslib.ndpointer(dtype=dtype, flags=("C_CONTIGUOUS", "ALIGNED"))


def _out(dtype: type[np.generic]) -> type[np.ctypeslib._ndptr[Any]]:
    """An array the kernel writes: this dtype, C-contiguous and writeable."""
    return np.ctypeslib.ndpointer(dtype=dtype, flags=("C_CONTIGUOUS", "ALIGNED", "WRITEABLE"))


class Kernel:
    """One game's model arrays bound for the C functions (kept alive while the kernel runs)."""

    def __init__(self, N: int, K: int, G: int, D: int, start: int, nbytes: int, arrays: ModelArrays) -> None:
        if N > 8:
            raise GonutsError(f"the solver kernel handles up to 8 players, not {N}")
        (mv_ptr, mv_p, mv_da, mv_dst, en_ptr, en_p, en_dist, en_rel, dists, tails, abs_used, rel_used) = arrays
        self.keep: list[np.ndarray] = [np.ascontiguousarray(mv_ptr, np.int64), np.ascontiguousarray(mv_p, np.float64),
                     np.ascontiguousarray(mv_da, np.int64), np.ascontiguousarray(mv_dst, np.int64),
                     np.ascontiguousarray(en_ptr, np.int64), np.ascontiguousarray(en_p, np.float64),
                     np.ascontiguousarray(en_dist, np.int64), np.ascontiguousarray(en_rel, np.uint8),
                     np.ascontiguousarray(dists, np.float64), np.ascontiguousarray(tails, np.float64),
                     np.ascontiguousarray(abs_used, np.uint8), np.ascontiguousarray(rel_used, np.uint8)]
        kinds: list[type[ctypes._Pointer[Any]]] = [_i64, _f64, _i64, _i64, _i64, _f64, _i64, _u8, _f64, _f64, _u8, _u8]
        self.model = Model(N, K, G, G ** (N - 1), D, start, len(self.keep[8]), nbytes,
                           *[_ptr(a, k) for a, k in zip(self.keep, kinds)])
        self.lib = load()
        self.threads = threads()
        self.pool = ThreadPoolExecutor(self.threads) if self.threads > 1 else None

    def close(self) -> None:
        """Let the threads go."""
        if self.pool is not None:
            self.pool.shutdown()

    def __enter__(self) -> Kernel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _split(self, reps: Sequence[int] | np.ndarray, call: Callable[[int, int], int]) -> None:
        """Run call(lo, hi) over reps in contiguous parts, in parallel: ``PARTS_PER_THREAD`` parts per
        thread, taken by whichever thread is free, so that no thread waits long at the layer's end
        for another's costlier orbits."""
        nr = len(reps)
        parts = 1 if (self.pool is None or nr < MIN_PARALLEL) else min(self.threads * PARTS_PER_THREAD,
                                                                         nr // (MIN_PARALLEL // 2))
        bounds = [(i * nr // parts, (i + 1) * nr // parts) for i in range(parts)]
        self._each(lambda b: call(*b), bounds)

    def _each(self, call: Callable[[_T], int], items: Sequence[_T]) -> None:
        """call(item) for every item, in parallel on the pool when there are several; a C function's
        non-zero return (out of memory) becomes a MemoryError."""
        if self.pool is not None and len(items) > 1:
            codes = list(self.pool.map(call, items))
        else:
            codes = [call(item) for item in items]
        if any(codes):
            raise MemoryError("the solver kernel ran out of memory")

    def solve_layer(self, reps: np.ndarray, W: np.ndarray, bits: np.ndarray, rw: np.ndarray, sw: np.ndarray,
                    store_values: bool, tol: float, eps: float, max_pi: int, max_vi: int, stats: np.ndarray,
                    select: int = 0) -> None:
        """Solve one layer's orbits ``reps`` in place (``W``, ``bits``, ``rw``/``sw``, ``stats``): kernels.c's
        solve_layer."""
        reps = np.ascontiguousarray(reps, np.int64)
        args = (W, bits, rw, sw, int(store_values), float(tol), float(eps), int(max_pi), int(max_vi), int(select),
                stats)
        self._split(reps, lambda lo, hi: self.lib.solve_layer(ctypes.byref(self.model), reps, lo, hi, *args))

    def respond_layer(self, reps: np.ndarray, V: np.ndarray, pbits: np.ndarray, mixes: Mixes, greedy: np.ndarray,
                      bits: np.ndarray, tol: float, eps: float, max_pi: int, max_vi: int, stats: np.ndarray) -> None:
        """The best response of one layer against fixed decisions ``pbits`` (mixed where ``mixes`` say):
        kernels.c's respond_layer."""
        reps = np.ascontiguousarray(reps, np.int64)
        args = (V, pbits, *_mix_args(mixes), greedy, bits, float(tol), float(eps), int(max_pi), int(max_vi), stats)
        self._split(reps, lambda lo, hi: self.lib.respond_layer(ctypes.byref(self.model), reps, lo, hi, *args))

    def deviate_layer(self, reps: np.ndarray, V: np.ndarray, bits: np.ndarray, mixes: Mixes, W0: np.ndarray | None,
                      dbits: np.ndarray | None, eps: float, max_pi: int, stats: np.ndarray) -> None:
        """One seat's best response, one layer, to the others all playing ``bits`` (mixed where ``mixes`` say,
        keyed by state), starting from their values ``W0`` if given: kernels.c's deviate_layer; ``dbits``, if
        given, receives its decisions."""
        reps = np.ascontiguousarray(reps, np.int64)
        for a, shape in ((W0, (V.shape[1], V.shape[0])), (dbits, (V.shape[1], bits.shape[1]))):
            if a is not None and (a.shape != shape or not a.flags.c_contiguous):
                raise ValueError(f"deviate_layer wants C-contiguous arrays of shape {shape}, not {a.shape}")
        w0 = None if W0 is None else W0.ctypes.data
        out = None if dbits is None else dbits.ctypes.data
        args = (V, bits, *_mix_args(mixes), w0, out, float(eps), int(max_pi), stats)
        self._split(reps, lambda lo, hi: self.lib.deviate_layer(ctypes.byref(self.model), reps, lo, hi, *args))

    def gains_rows(self, room: np.ndarray, rows: np.ndarray, off: np.ndarray, out: np.ndarray) -> None:
        """The turn's gain distribution under each packed decisions row (see versus.py)."""
        room = np.ascontiguousarray(room, np.int64)
        rows = np.ascontiguousarray(rows, np.uint8)
        off = np.ascontiguousarray(off, np.int64)
        self._split(room, lambda lo, hi: self.lib.gains_rows(ctypes.byref(self.model), lo, hi, room, rows, off, out))

    def versus(self, jobs: Sequence[VersusJob]) -> None:
        """Run ``versus_pass`` on each job (K, dopt, obase, dcand, coff, W, gap) in parallel, one thread
        each: the passes share nothing they write."""
        N, G = self.model.N, self.model.G

        def run(job: VersusJob) -> int:
            K, dopt, obase, dcand, coff, W, gap = job
            return int(self.lib.versus_pass(N, G, K, dopt, obase, dcand, coff, W, gap))
        self._each(run, jobs)

    def evaluate_layer(self, reps: np.ndarray, V: np.ndarray, pbits: np.ndarray, mixes: Mixes,
                       gaps: np.ndarray) -> None:
        """The values of one layer under fixed decisions ``pbits`` (mixed where ``mixes`` say): kernels.c's
        evaluate_layer."""
        reps = np.ascontiguousarray(reps, np.int64)
        margs = _mix_args(mixes)
        self._split(reps, lambda lo, hi: self.lib.evaluate_layer(ctypes.byref(self.model), reps, lo, hi, V, pbits,
                                                                 *margs, gaps))


def _mix_args(mixes: Mixes) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """``Mixes`` as the kernel takes them: the count, then the three arrays (never empty: ctypes wants memory)."""
    key, q, p = (np.ascontiguousarray(a, dt) for a, dt in zip(mixes, (np.int64, np.int64, np.float64)))
    n = 0 if mixes is NO_MIXES else len(key)
    if n and np.any(np.diff(key) <= 0):
        raise ValueError("mixed decisions must be keyed in ascending order, once each")
    if n == 0:
        key, q, p = NO_MIXES
    return n, key, q, p
