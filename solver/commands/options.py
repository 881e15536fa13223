"""The command line's shared options, as click declares them: the one place besides ``cli.py`` that
imports click (an import-linter contract keeps click out of every other package).

Exit codes: 2 when the command line cannot be read (an unknown command or option, a missing argument, a
value that is not of its option's type or not one of its choices); 1 when it can be read but a value is
refused (out of range, the wrong count, rules that make no game, an impossible state, an unreadable or
mismatched table or record); 3 for an internal error.
"""
from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable, Sequence
from typing import Any

import click

from solver import numbers
from solver.commands import asked, signals, streams
from solver.errors import GonutsError, UsageError, one_line
from solver.files import reason

EXIT_REFUSED, EXIT_USAGE, EXIT_INTERNAL = 1, 2, 3

class Refused(click.ClickException):
    """A well-formed value that the rules or the command refuse: exit 1."""
    exit_code = EXIT_REFUSED


# type-arg: click's ParamType is generic from 8.2 on; subscripting it would fail at run time with 8.1, still supported
class Bounded(click.ParamType):  # type: ignore[type-arg]
    """A whole number (or with ``real``, a finite decimal) in [lo, hi], read by ``solver.numbers`` as the
    page reads numbers: not a number exits 2, out of range 1."""

    def __init__(self, lo: float | None = None, hi: float | None = None, real: bool = False,
                 above: float | None = None) -> None:
        self.lo, self.hi, self.real, self.above = lo, hi, real, above
        self.name = "number" if real else "integer"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """The number, or click's usage error (exit 2) / a refusal (exit 1) naming the option."""
        name = param.opts[0] if param else "the value"
        try:
            if self.real:
                return numbers.real(value, name, self.lo, self.hi, self.above)
            return numbers.whole(value, name, _int(self.lo), _int(self.hi))
        except UsageError as exc:
            raise click.UsageError(str(exc)) from None
        except GonutsError as exc:
            raise Refused(str(exc)) from None


class PathArg(click.Path):
    """click's ``Path``, with a path that holds a NUL character refused in one line (exit 2): click's own check
    would stop at ``os.stat``'s ValueError."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """The path as click reads it, after the NUL check."""
        if isinstance(value, str) and "\0" in value:
            self.fail("a path cannot hold a NUL character", param, ctx)
        return super().convert(value, param, ctx)


def _int(bound: float | None) -> int | None:
    return None if bound is None else int(bound)


READINGS = click.Choice(["rulebook", "summary"])
RULE_OPTIONS = [
    click.option("--game", type=click.Choice(["gonuts", "pig"]), default=None, help="Game to solve. [default: gonuts]"),
    click.option("--players", type=Bounded(2, 4), default=None,
                 help="Number of players, 2 to 4. [default: 2, or the number of --scores]"),
    click.option("--target", type=Bounded(1), default=None, help="Points needed to win. [default: 50]"),
    click.option("--rules", "reading", type=READINGS, default=None,
                 help="Reading of the rules: rulebook (a Go Nuts! round replaces the turn's points) or summary (its "
                      "acorns add to them); README, \"The two readings\". [default: rulebook]"),
    click.option("--faces", default=None, metavar="A,S,C",
                 help="Squirrel-die faces: acorn,squirrel,car counts. [default: 2,3,1]"),
    click.option("--dog", default=None, metavar="D,H", help="Dog-die faces: dog,house counts. [default: 1,5]"),
    click.option("--speed", type=Bounded(real=True), default=None,
                 help="Go Nuts! throws per dog-die tick. [default: 1]"),
]


def rule_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """The seven rule knobs, given to the command as one ``knobs`` dict of the ones the user set."""
    @functools.wraps(f)
    def run(**kw: Any) -> Any:
        return f(knobs=asked.asked(**{k: kw.pop(k) for k in asked.KNOBS}), **kw)
    for opt in reversed(RULE_OPTIONS):
        run = opt(run)
    return run


table_option = click.option("--table", "table_path", type=PathArg(dir_okay=False), default=None,
                            help="Read this table instead of the shipped or cached one (its rules must match "
                                 "any rule option given).")
json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
policies_option = click.option(
    "--policies", required=True, metavar="P1,P2,...",
    help="One policy per seat, in seat order (seat 1 moves first): optimal, best (the exact best response "
         "to the other seats), maxpoints, hold:K, hold:K/D, dice:K1-K2-K3-K4-K5, race:K1-K2-K3-K4-K5/P/E "
         "(keep pace, end race), a table .npz, or module:function / file.py:function.")


def emit(as_json: bool, data: object, words: Callable[[], str] | None) -> None:
    """Print the JSON object, or the words (a function, so that --json never formats them; control characters
    from files written escaped: ``streams.clean``)."""
    streams.out(json.dumps(data) if as_json or words is None else words())


def run(group: click.Group, argv: Sequence[str] | None = None) -> int:
    """Run the command line ``group`` on ``argv``; every failure is one line on stderr. Returns the exit code
    (cli.py exits with it: the library never exits): 0, or 1, 2, 3 as above, or a signal's 128 + n. An answer
    that cannot be written (stdout closed, full or gone) is exit 1, never 0 (``streams``)."""
    closed = streams.prepare()
    if closed is not None:
        streams.err(f"gonuts-solve: error: {closed}")
        return EXIT_REFUSED
    code = _run(group, argv)
    lost = streams.finish()
    if lost is not None:
        streams.err(f"gonuts-solve: error: {lost}")
        return EXIT_REFUSED if code == 0 else code
    return code


def _run(group: click.Group, argv: Sequence[str] | None) -> int:
    try:
        with signals.handled():
            asked.check_environment()
            rv = group.main(args=argv, prog_name="gonuts-solve", standalone_mode=False)
    except (click.exceptions.Abort, KeyboardInterrupt):
        streams.err("gonuts-solve: interrupted")
        return signals.exit_code()
    except click.ClickException as exc:
        message = exc.format_message()
        if "unexpected extra argument" in message:
            message += "; a list takes commas and no spaces, as in --scores 23,31"
        streams.err(f"gonuts-solve: error: {one_line(message)}")
        return EXIT_USAGE if isinstance(exc, click.UsageError) else exc.exit_code or EXIT_REFUSED
    except GonutsError as exc:
        interrupted = type(exc).__name__ == "BuildInterrupted"
        streams.err(f"gonuts-solve: {'' if interrupted else 'error: '}{one_line(exc)}")
        return signals.exit_code() if interrupted else EXIT_USAGE if isinstance(exc, UsageError) else EXIT_REFUSED
    except MemoryError:
        streams.err("gonuts-solve: error: out of memory")
        return EXIT_REFUSED
    except OSError as exc:
        if not _is_stdout(exc):
            return _internal(exc)
        streams.err(f"gonuts-solve: error: {streams.lose(reason(exc))}")      # the answer could not be written
        return EXIT_REFUSED
    except Exception as exc:  # never a traceback for a user; GONUTS_DEBUG=1 shows it
        return _internal(exc)
    return rv if isinstance(rv, int) else 0


def _is_stdout(exc: OSError) -> bool:
    """Whether an OSError is a write to stdout that failed (EPIPE, ENOSPC on a redirect), said by run()."""
    import errno  # deferred for start-up: only a failed write needs it
    return exc.errno in (errno.EPIPE, errno.ENOSPC, errno.EIO) or isinstance(exc, BrokenPipeError)


def _internal(exc: BaseException) -> int:
    if os.environ.get("GONUTS_DEBUG"):
        raise exc
    head, tail = f"gonuts-solve: internal error: {type(exc).__name__}: ", " (please report; GONUTS_DEBUG=1 " \
        "shows it)"
    streams.err(f"{head}{one_line(exc, head + tail)}{tail}")
    return EXIT_INTERNAL
