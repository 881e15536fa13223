"""Progress on stderr for long work: a bar on a terminal; elsewhere (a log, a pipe, CI) a line at least
every ``GONUTS_SOLVE_PROGRESS_EVERY`` seconds (10) while the work goes on, and one at its end if any was
printed. Every command's long work goes through ``progress``."""
from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Iterator

from solver.numbers import env_real

BAR = 30
EVERY = 10.0          # seconds between progress lines off a terminal ($GONUTS_SOLVE_PROGRESS_EVERY)


def progress_every() -> float:
    """``$GONUTS_SOLVE_PROGRESS_EVERY``: seconds between lines, 0.05 to 3600 (default 10)."""
    return env_real("GONUTS_SOLVE_PROGRESS_EVERY", EVERY, lo=0.05, hi=3600.0)


def say(text: str) -> None:
    """One line on stderr, if it is open (a closed stderr drops it: never onto stdout)."""
    if sys.stderr is None:
        return
    try:
        print(text, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


class Progress:
    """A ``progress(done, total)`` reporter."""

    def __init__(self, label: str, every: float | None = None) -> None:
        self.label, self.printed, self.drawn = label, False, False
        self.state: tuple[int, int] | None = None
        self.every = every if every is not None else progress_every()
        self.t0 = time.monotonic()
        self.stop = threading.Event()
        self.ticker: threading.Thread | None = None
        self.tty = sys.stderr.isatty()
        if not self.tty:
            self.ticker = threading.Thread(target=self._tick, daemon=True)
            self.ticker.start()

    def __call__(self, done: int, total: int) -> None:
        self.state = (done, total)
        if self.tty and total:
            spent = time.monotonic() - self.t0
            full = int(BAR * done / total)
            eta = f"  {spent * (total - done) / done:.0f} s left" if done else ""
            sys.stderr.write(f"\r{self.label}  [{'#' * full}{'-' * (BAR - full)}] {100 * done / total:3.0f}%{eta}   ")
            sys.stderr.flush()
            self.drawn = True

    def _tick(self) -> None:
        while not self.stop.wait(self.every):
            spent = time.monotonic() - self.t0
            if self.state is None or not self.state[1]:
                say(f"{self.label}: working, {spent:.0f} s so far")
            else:
                done, total = self.state
                left = f", about {spent * (total - done) / done:.0f} s left" if done else ""
                say(f"{self.label}: {100.0 * done / total:.0f}% after {spent:.0f} s{left}")
            self.printed = True

    def close(self) -> None:
        """Stop the ticker (saying how long it took, if it spoke), or end the bar's line."""
        if self.ticker is not None:
            self.stop.set()
            self.ticker.join()
            if self.printed:
                say(f"{self.label}: done in {time.monotonic() - self.t0:.0f} s")
        elif self.drawn:
            sys.stderr.write("\n")
            sys.stderr.flush()


@contextlib.contextmanager
def progress(label: str, enabled: bool = True) -> Iterator[Progress | None]:
    """The progress reporter for one piece of long work (None when disabled, or stderr closed), closed
    however it ends."""
    bar = Progress(label) if enabled and sys.stderr is not None else None
    try:
        yield bar
    finally:
        if bar is not None:
            bar.close()
