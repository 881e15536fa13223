"""Before a build: how much memory and time it will take, and whether it fits here."""
from __future__ import annotations

import os
from dataclasses import dataclass

from .errors import GonutsError
from .rules import Rules
from .tables import packed_width

# Measured with bench/bench_solve.py on the reference 2-core machine: solver time per
# decision node (start state x turn points x live dice), compiled kernel warm.
# 3 players 0.86 s and 4 players 46.5 s at target 50 give 5.4e-8 and 5.8e-8.
SECONDS_PER_NODE = 6e-8
SAVE_SECONDS_PER_BYTE = 2e-8
BASE_BYTES = 250 * 2**20     # Python, numpy, scipy, numba and LLVM before any array


@dataclass(frozen=True)
class Estimate:
    states: int
    bytes: int
    seconds: float
    available: int | None

    def summary(self) -> str:
        avail = f" of {self.available / 2**30:.1f} GiB available" if self.available else ""
        return (f"{self.states:,} start states, about {_fmt_bytes(self.bytes)} of memory{avail}, "
                f"{_fmt_time(self.seconds)}")


def available_memory() -> int | None:
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def estimate(rules: Rules) -> Estimate:
    N, G, D = rules.players, rules.target, rules.substates
    states = G ** N
    nbytes = packed_width(G, D)
    mem = states * (N * 8 + nbytes)                 # values and packed decisions
    mem += states * 8 * 3                           # orbit bookkeeping while it is built
    if N == 2:
        mem += 2 * states * G * (D + 1) * 8         # roll_win and stop_win
    if N < 4:
        mem += states * G * (D + 1)                 # unpacked roll
    mem = int(mem * 1.6) + BASE_BYTES               # compression buffers, copies on save; the process
    nodes = states * (G + 1) / 2 * D
    seconds = nodes * SECONDS_PER_NODE + mem * SAVE_SECONDS_PER_BYTE
    return Estimate(states, mem, seconds, available_memory())


def check_fits(rules: Rules, force: bool = False) -> Estimate:
    est = estimate(rules)
    if est.available is not None and est.bytes > est.available and not force:
        raise GonutsError(f"this build needs about {_fmt_bytes(est.bytes)} of memory but only "
                          f"{_fmt_bytes(est.available)} is available; use --force to try anyway")
    return est


def _fmt_bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TiB"


def _fmt_time(s: float) -> str:
    if s < 1:
        return "under a second of solving"
    if s < 120:
        return f"about {s:.0f} s of solving"
    if s < 7200:
        return f"about {s / 60:.0f} min of solving"
    return f"about {s / 3600:.1f} h of solving"
