"""The library's one exception family; the CLI maps it to a message and an exit code.
Twin in the page: ``solver/site/web/src/core/errors.js``.
"""
import math


class GonutsError(Exception):
    """Any refusal by the library: bad rules, bad state, bad or mismatched table."""


class RulesError(GonutsError):
    """A rules value that does not describe a playable game."""


class TableError(GonutsError):
    """A table that is missing, unreadable, corrupted or built for other rules."""


class CompileError(GonutsError):
    """The solver kernel could not be compiled (no C compiler, or it failed) or loaded."""


class StateError(GonutsError):
    """A game state that does not exist under the rules asked for."""


SHOWN = 60    # characters of an offending value that a message repeats


def show(value: object) -> str:
    """A value as a refusal repeats it: its JSON text as the web page's ``JSON.stringify`` writes it (so that
    the page and the CLI say the same), cut to SHOWN characters, so that a hostile megabyte never becomes a
    megabyte of message. A number that is not finite is named ("NaN", "Infinity"), never JSON's "null"."""
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if value != value else "Infinity" if value > 0 else "-Infinity"   # String(x), not JSON's "null"
    try:
        text = _js(value, 0)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= SHOWN else f"{text[:SHOWN]}... ({len(text)} characters)"


def _js(value: object, depth: int) -> str:
    """``JSON.stringify(value)`` for JSON-like values: numbers as JavaScript writes them (``_js_number``)."""
    import json  # deferred for start-up: only a refusal pays for it
    if depth > 64:
        raise RecursionError("nested too deep")
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, int):
        return str(value) if abs(value) <= 2 ** 53 else _js_number(value)
    if isinstance(value, float):
        return _js_number(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_js(x, depth + 1) for x in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{json.dumps(str(k), ensure_ascii=False)}:{_js(x, depth + 1)}"
                              for k, x in value.items()) + "}"
    raise TypeError(type(value).__name__)


def _js_number(x: float) -> str:
    """A number as JavaScript's ``String(x)`` writes it (ECMAScript Number::toString): the shortest digits
    that read back, in plain notation from 1e-6 up to 1e21 and in exponent notation outside; NaN and the
    infinities as JSON writes them, null."""
    try:
        x = float(x)
    except OverflowError:
        return "null"
    if not math.isfinite(x):
        return "null"
    if x == 0:
        return "0"
    mantissa, _, exponent = repr(abs(x)).partition("e")
    point = mantissa.index(".") if "." in mantissa else len(mantissa)
    digits = mantissa.replace(".", "")
    n = point + int(exponent or 0) - (len(digits) - len(digits.lstrip("0")))   # x = 0.digits * 10^n
    digits = digits.strip("0")
    k = len(digits)
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = f"{digits[:n]}.{digits[n:]}"
    elif -6 < n <= 0:
        text = f"0.{'0' * -n}{digits}"
    else:
        text = f"{digits[0]}{'.' + digits[1:] if k > 1 else ''}e{'+' if n - 1 >= 0 else '-'}{abs(n - 1)}"
    return ("-" if x < 0 else "") + text


LONGEST = 300       # characters of the longest message line, its "gonuts-solve: error: " included
LONGEST_WORD = 80   # a longer run without a blank (a pasted value, a path) is cut to 60 characters


def one_line(msg: object, prefix: str = "gonuts-solve: error: ") -> str:
    """A message as one line that fits after ``prefix`` in LONGEST characters, however long what it quotes."""
    words = [w if len(w) <= LONGEST_WORD else w[:60] + "..." for w in str(msg).split()]
    text, room = " ".join(words), LONGEST - len(prefix)
    return text if len(text) <= room else text[:room - 3] + "..."


class UsageError(GonutsError):
    """A command line that cannot be read: the CLI exits 2 (other refusals exit 1)."""
