"""The solver's kernel for the web page: the same ``kernels.c``, compiled to WebAssembly, and what a driver in
the page needs to run it (the turn model's arrays as data).

WebAssembly's doubles are IEEE binary64 with no fused multiply-add unless asked for, so the flags that keep
the native builds bit for bit the same (no contraction, no fast-math) keep this one the same too: the page's
driver (``web/src/core/solve.js``, the twin of ``solve.py``) gives the bytes of ``gonuts-solve build``
(``tests/js/solve.test.mjs`` holds it to the committed table digests). ``-msimd128`` turns the kernel's
2-wide vectors into WebAssembly's f64x2, lane for lane the same operations.

The compiler is Debian's clang 19 (``clang-19``, ``lld-19``, ``libclang-rt-19-dev-wasm32``, ``wasi-libc``):
emscripten would bring a second toolchain and a JavaScript runtime of its own for five functions that need only
malloc and memcpy, and clang 19's module solves in half the time of clang 14's, with the same bytes
(``bench/bench_wasm.py``; docs/performance.md). The module is a WASI "reactor" that imports nothing; it is
committed as ``solver/site/web/kernels.wasm``; ``tests/engine/test_wasm.py`` compiles it again and compares
the bytes.
The page's driver of this module is ``solver/site/web/src/core/solve.js`` (the twin of ``solve.py``).
"""
from __future__ import annotations

import base64
import shutil
import subprocess
from pathlib import Path

import numpy as np

from solver.engine.bits import packed_width
from solver.engine.solve import EPS, MAX_PI, MAX_VI, TOLERANCE, model_arrays
from solver.errors import GonutsError
from solver.game.turn import TurnModel

SOURCE = Path(__file__).with_name("kernels.c")
WASM = Path(__file__).resolve().parent.parent / "site" / "web" / "kernels.wasm"
EXPORTS = ("solve_layer", "evaluate_layer", "respond_layer", "gains_rows", "versus_pass", "malloc", "free")
# kernels.c's functions the page never calls, left out of the module every phone downloads: the proof by best
# response (bench/sweep_equilibria.py --prove) runs natively
NATIVE_ONLY = ("deviate_layer",)
FLAGS = ("--target=wasm32-wasi", "-O2", "-msimd128", "-ffp-contract=off", "-fno-fast-math", "-std=c99",
         "-mexec-model=reactor", *(f"-Wl,--export={name}" for name in EXPORTS), "-Wl,--strip-all")
# The arrays of ``model_arrays``, in the order of the C struct Model's pointers, with their C types.
ARRAYS = (("mv_ptr", "int64"), ("mv_p", "float64"), ("mv_da", "int64"), ("mv_dst", "int64"), ("en_ptr", "int64"),
          ("en_p", "float64"), ("en_dist", "int64"), ("en_rel", "uint8"), ("dists", "float64"),
          ("tails", "float64"), ("abs_used", "uint8"), ("rel_used", "uint8"))


CC = "clang-19"


def compile_command(out: Path, cc: str = CC) -> list[str]:
    """The command that compiles ``kernels.c`` into ``out``: the committed module is what it writes."""
    return [cc, *FLAGS, "-o", str(out), str(SOURCE)]


def build(out: Path = WASM, cc: str = CC) -> Path:
    """Compile the kernel to WebAssembly (``python -m solver.engine.wasm`` rebuilds the committed module)."""
    if shutil.which(cc) is None:
        raise GonutsError(f"{cc} is not on the PATH: the WebAssembly kernel needs Debian's clang-19, lld-19, "
                          "libclang-rt-19-dev-wasm32 and wasi-libc")
    p = subprocess.run(compile_command(out, cc), capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        first = (p.stderr.strip().splitlines() or ["no message"])[0]
        raise GonutsError(f"compiling the WebAssembly kernel failed: {first}")
    return out


def kernel_data(model: TurnModel, players: int, target: int) -> dict[str, object]:
    """What the page's driver needs to solve this game with the WebAssembly kernel: the sizes, the solver's
    settings and the turn model's arrays (little-endian bytes in base64, each with its type), as ``solve``
    hands them to the native kernel."""
    arrays = model_arrays(model, target)
    return {"players": players, "target": target, "substates": model.substates, "start": model.start,
            "nbytes": packed_width(target, model.substates),
            "settings": {"tol": TOLERANCE, "eps": EPS, "max_pi": MAX_PI, "max_vi": MAX_VI},
            "arrays": [{"name": name, "type": kind,
                        "base64": base64.b64encode(np.ascontiguousarray(a, dtype=np.dtype(kind).newbyteorder("<"))
                                                   .tobytes()).decode("ascii")}
                       for (name, kind), a in zip(ARRAYS, arrays)]}


if __name__ == "__main__":
    print(f"wrote {build()}")
