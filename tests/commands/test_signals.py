"""SIGINT and SIGTERM for the command line (solver/commands/signals.py): while a command runs both stop it as Ctrl-C
does (a KeyboardInterrupt the library cleans up after), the exit code says which came (130, 143), and the handlers
that were there before come back when the command ends without one."""
from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from solver.commands import signals

ROOT = Path(__file__).resolve().parent.parent.parent


def test_sigterm_stops_the_work_as_ctrl_c_does_and_exits_143():
    """In a process of its own (a signal to this one would reach the test runner)."""
    code = ("import os, signal, sys\n"
            "from solver.commands import signals\n"
            "try:\n"
            "    with signals.handled():\n"
            "        os.kill(os.getpid(), signal.SIGTERM)\n"
            "        for _ in range(10_000_000): pass\n"
            "except KeyboardInterrupt as exc:\n"
            "    print(type(exc).__name__, isinstance(exc, signals.Terminated), signals.exit_code())\n")
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert p.stdout.split() == ["Terminated", "True", "143"], p.stderr


def test_the_handlers_come_back_when_the_command_ends_quietly():
    before = (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM))
    with signals.handled():
        assert signal.getsignal(signal.SIGTERM) is not before[1]
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before
    assert signals.exit_code() == 130                         # no signal came: an interrupt is Ctrl-C's 130
