"""Progress on stderr (solver/commands/progress.py): where stderr is no terminal (a log, CI), a line at least every
few seconds saying how far the work is and how long is left, and when it is done how long it took; nothing with
progress off or stderr closed."""
from __future__ import annotations

import io
import sys
import time

from solver.commands import progress as progress_module
from solver.commands.progress import Progress, progress


class _Log(io.StringIO):
    def isatty(self) -> bool:
        return False


def test_a_log_gets_a_line_now_and_then_and_the_time_it_took(monkeypatch):
    log = _Log()
    monkeypatch.setattr(sys, "stderr", log)
    bar = Progress("solving", every=0.02)
    bar(0, 10)
    time.sleep(0.07)
    bar(5, 10)
    time.sleep(0.07)
    bar.close()
    lines = log.getvalue().splitlines()
    assert any(line.startswith("solving: ") and "% after" in line for line in lines)
    assert any("50% after" in line and "s left" in line for line in lines)
    assert lines[-1].startswith("solving: done in ")


def test_no_progress_when_it_is_off_or_stderr_is_closed(monkeypatch):
    with progress("quiet", enabled=False) as bar:
        assert bar is None
    monkeypatch.setattr(sys, "stderr", None)
    with progress("closed") as bar:
        assert bar is None
    progress_module.say("nobody hears this")                  # a closed stderr drops the line, never raises
