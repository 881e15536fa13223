"""Numbers as a person types them, read one way everywhere: the command line's options, its environment
variables, and the web page's inputs (``web/src/core/numbers.js`` ``whole``, the same rule).

A whole number is ASCII digits, optionally after a minus sign (which the range then refuses, so that
``-3`` is "out of range" rather than "not a number"), with ASCII blanks around it: no plus sign, no
underscores (``2_3``), no digits of other scripts (``٢٣``, ``３``), no empty field in a list (``5,,3``).
More than ``MAX_DIGITS`` digits is refused as too large before it is converted, so ``--turn 10^30`` is
never answered. A real number is a plain decimal (``0.5``, ``1e-12``), finite.

Text that is not a number raises ``UsageError`` (the CLI exits 2); a number out of range ``GonutsError``
(exit 1). Messages quote the text with ``errors.show``.
Twin in the page: ``solver/site/web/src/core/numbers.js``.
"""
from __future__ import annotations

import os
import re
from typing import TypeVar

from solver.errors import GonutsError, UsageError, show

MAX_DIGITS = 12
BLANKS = " \t\n\r\f\v"
_WHOLE = re.compile(r"-?[0-9]+", re.ASCII)
_N = TypeVar("_N", int, float)
_REAL = re.compile(r"-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]{1,3})?", re.ASCII)


def _span(lo: float | None, hi: float | None) -> str:
    if lo is not None and hi is not None:
        return f"from {lo:g} to {hi:g}" if isinstance(lo, float) or isinstance(hi, float) else f"from {lo} to {hi}"
    return f"at least {lo}" if lo is not None else f"at most {hi}"


def _in_range(value: _N, what: str, lo: float | None, hi: float | None) -> _N:
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise GonutsError(f"{what} must be {_span(lo, hi)}, not {show(value)}")
    return value


def whole(text: object, what: str, lo: int | None = 0, hi: int | None = None) -> int:
    """One whole number in [lo, hi] (either bound may be None)."""
    s = str(text).strip(BLANKS)
    if not _WHOLE.fullmatch(s):
        raise UsageError(f"{what} must be a whole number (digits 0-9), not {show(str(text))}")
    digits = s.lstrip("-").lstrip("0") or "0"
    if len(digits) > MAX_DIGITS:
        bound = f"at most {hi}" if hi is not None else f"less than 10^{MAX_DIGITS}"
        raise GonutsError(f"{what} must be {bound}, not a number of {len(digits)} digits")
    return _in_range(int(s), what, lo, hi)


def wholes(text: object, what: str, count: int | None = None, lo: int | None = 0,
           hi: int | None = None) -> list[int]:
    """'1, 2,3' -> [1, 2, 3]: comma-separated whole numbers, none empty; ``count`` of them if given."""
    fields = str(text).split(",")
    if any(not f.strip(BLANKS) for f in fields):
        raise UsageError(f"{what} must be comma-separated whole numbers with none empty, not {show(str(text))}")
    values = [whole(f, what, lo, hi) for f in fields]
    if count is not None and len(values) != count:
        raise GonutsError(f"{what} must be {count} comma-separated whole numbers, not {len(values)}")
    return values


def real(text: object, what: str, lo: float | None = None, hi: float | None = None,
         above: float | None = None) -> float:
    """One finite decimal number in [lo, hi], and greater than ``above`` if given."""
    s = str(text).strip(BLANKS)
    if not _REAL.fullmatch(s):
        raise UsageError(f"{what} must be a number (like 0.5 or 1e-12), not {show(str(text))}")
    value = float(s)
    if value in (float("inf"), float("-inf")):      # too large to be a double: refused as "inf" is (exit 2)
        raise UsageError(f"{what} must be a finite number, not {show(str(text))}")
    if above is not None and not value > above:
        raise GonutsError(f"{what} must be above {above:g}, not {show(value)}")
    return _in_range(value, what, lo, hi)


def env_whole(name: str, default: int, lo: int, hi: int) -> int:
    """``$name`` as a whole number in [lo, hi], ``default`` when unset or empty; anything else refused."""
    text = os.environ.get(name, "")
    if not text.strip(BLANKS):
        return default
    try:
        return whole(text, name, lo, hi)
    except GonutsError as exc:
        raise GonutsError(f"environment: {exc}") from None


def env_real(name: str, default: float, lo: float | None = None, hi: float | None = None,
             above: float | None = None) -> float:
    """``$name`` as a finite number (see ``real``), ``default`` when unset or empty."""
    text = os.environ.get(name, "")
    if not text.strip(BLANKS):
        return default
    try:
        return real(text, name, lo, hi, above)
    except GonutsError as exc:
        raise GonutsError(f"environment: {exc}") from None
