"""SIGINT and SIGTERM for the command line: SIGTERM (what ``timeout``, systemd and CI send) is handled as
Ctrl-C is, so a build keeps its checkpoint and leaves no temporary file; the exit is 130 after SIGINT and
143 (128 + 15) after SIGTERM. The library only sees a ``KeyboardInterrupt``."""
from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType
from typing import Any

_SIGNALLED: list[int] = []


class Terminated(KeyboardInterrupt):
    """The ``KeyboardInterrupt`` that SIGTERM raises."""


def _on_signal(signum: int, frame: FrameType | None) -> None:
    """The first signal stops the work; later ones wait for its cleanup (saving a checkpoint, removing a
    temporary file) instead of cutting it short and leaving a half-written file."""
    if _SIGNALLED:
        return
    _SIGNALLED.append(signum)
    raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


@contextlib.contextmanager
def handled() -> Iterator[None]:
    """Handle both signals as above while the command runs (only the main thread can set handlers). After
    a signal the handlers stay until the process ends, so that a second one cannot cut its exit short."""
    _SIGNALLED.clear()
    before: dict[signal.Signals, Any] = {}
    if threading.current_thread() is threading.main_thread():
        before = {s: signal.signal(s, _on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        if not _SIGNALLED:
            for s, handler in before.items():
                signal.signal(s, handler)


def exit_code() -> int:
    """The exit code of an interrupted command: 143 after SIGTERM, else 130."""
    return 128 + signal.SIGTERM if _SIGNALLED and _SIGNALLED[0] == signal.SIGTERM else 130
