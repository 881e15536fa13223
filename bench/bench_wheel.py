"""What the wheel's compiled-in kernel saves a user: the first ``build`` on an empty cache, as a whole
process, with the wheel (the kernel loaded from the package) against the checkout's first-use compile
(``GONUTS_SOLVE_KERNEL=compile``: the kernel compiled into the cache, then the build), interleaved, best
and median of several runs, and their ratio.

    python bench/bench_wheel.py [--runs 5] [--venv DIR]

Without ``--venv`` it builds the wheel (``pip wheel``) and installs it into a fresh virtual environment
first (about 30 s, numpy and scipy from PyPI).
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME = ["build", "--players", "3", "--target", "20"]


def venv_with_wheel(work: Path) -> Path:
    env = {**os.environ, "GONUTS_SOLVE_REQUIRE_KERNEL": "1"}
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(work / "dist"), str(ROOT)],
                   env=env, check=True)
    subprocess.run([sys.executable, "-m", "venv", str(work / "venv")], check=True)
    (wheel,) = (work / "dist").glob("*.whl")
    subprocess.run([str(work / "venv" / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)], check=True)
    return work / "venv"


def timed(command, cache: Path, env) -> float:
    shutil.rmtree(cache, ignore_errors=True)
    t0 = time.perf_counter()
    subprocess.run(command, env={**env, "GONUTS_SOLVE_CACHE": str(cache)}, check=True, capture_output=True)
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--venv", type=Path, default=None)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        venv = args.venv or venv_with_wheel(work)
        env = {k: v for k, v in os.environ.items() if k not in ("GONUTS_SOLVE_KERNEL", "GONUTS_SOLVE_CACHE")}
        wheel = [str(venv / "bin" / "gonuts-solve"), *GAME, "--out", str(work / "a.npz")]
        source = [sys.executable, str(ROOT / "cli.py"), *GAME, "--out", str(work / "b.npz")]
        a, b = [], []
        for _ in range(args.runs):
            a.append(timed(wheel, work / "cache-a", env))
            b.append(timed(source, work / "cache-b", {**env, "GONUTS_SOLVE_KERNEL": "compile"}))
        ratios = [x / y for x, y in zip(a, b)]
        print(f"first build ({' '.join(GAME)}), empty cache, {args.runs} runs interleaved:")
        print(f"  the wheel's kernel      best {min(a):.2f} s, median {statistics.median(a):.2f} s")
        print(f"  compiled at first use   best {min(b):.2f} s, median {statistics.median(b):.2f} s")
        print(f"  ratio wheel / compile   median {statistics.median(ratios):.2f}x")


if __name__ == "__main__":
    main()
