"""Before a build: how much memory and time it will take, and whether it fits here."""
from __future__ import annotations

import os
from dataclasses import dataclass

from solver.engine.bits import packed_width
from solver.errors import GonutsError
from solver.game.rules import Rules

# The estimate's constants, measured with bench/bench_process.py (whole processes; docs/performance.md has the
# figures and the machine): the solve per decision node (start state x turn points x live dice), the writing of
# the table per byte of its arrays, and the process around them. The benchmark holds the estimate to whole builds.
SECONDS_PER_NODE = 2e-8
SAVE_SECONDS_PER_BYTE = 1.0e-8
START_SECONDS = 0.35
BASE_BYTES = 80 * 2**20      # Python and numpy before any array


@dataclass(frozen=True)
class Estimate:
    states: int
    bytes: int
    seconds: float               # the whole build: start-up, solve and writing the table
    available: int | None
    solve_seconds: float = 0.0
    save_seconds: float = 0.0

    def brief(self) -> str:
        """"about 3 min and 16.7 GiB"."""
        return f"{_fmt_time(self.seconds).removesuffix(' in all')} and {fmt_bytes(self.bytes)}"

    def summary(self) -> str:
        avail = f" of {self.available / 2**30:.1f} GiB available" if self.available else ""
        return (f"{self.states:,} start states, about {fmt_bytes(self.bytes)} of memory{avail}, "
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
    table = states * N * 8 + (states * nbytes if N >= 4 else states * G * (D + 1))
    if N == 2:
        table += 2 * states * G * (D + 1) * 8
    mem = states * (N * 8 + nbytes)                 # values and packed decisions
    mem += states * 8 * 3                           # orbit bookkeeping while it is built
    if N == 2:
        mem += 2 * states * G * (D + 1) * 8         # roll_win and stop_win
    if N < 4:
        mem += states * G * (D + 1)                 # unpacked roll
    mem = int(mem * 1.6) + BASE_BYTES               # compression buffers, copies on save; the process
    nodes = states * (G + 1) / 2 * D
    solve = nodes * SECONDS_PER_NODE
    save = table * SAVE_SECONDS_PER_BYTE
    return Estimate(states, mem, START_SECONDS + solve + save, available_memory(), solve, save)


def check_fits(rules: Rules, force: bool | None = False) -> Estimate:
    """The estimate, refusing a build that needs more memory than is available unless ``force``
    (``None``: the command has no --force, so the refusal does not offer it)."""
    est = estimate(rules)
    if est.available is not None and est.bytes > est.available and not force:
        offer = "; use --force to try anyway" if force is not None else ""
        raise GonutsError(f"this build of {rules.describe()} needs about {fmt_bytes(est.bytes)} of memory but "
                          f"only {fmt_bytes(est.available)} is available{offer}")
    return est


def fmt_bytes(n: float) -> str:
    """A size as a person reads it: "512 B", "16.7 GiB"."""
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TiB"


def _fmt_time(s: float) -> str:
    if s < 1:
        return f"about {s:.1f} s in all"
    if s < 120:
        return f"about {s:.0f} s in all"
    if s < 7200:
        return f"about {s / 60:.0f} min in all"
    return f"about {s / 3600:.1f} h in all"
