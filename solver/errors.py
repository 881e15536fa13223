"""The library's one exception family; the CLI maps it to a message and an exit code."""
import math


class GonutsError(Exception):
    """Any refusal by the library: bad rules, bad state, bad or mismatched table."""


class RulesError(GonutsError):
    """A rules value that does not describe a playable game."""


class TableError(GonutsError):
    """A table that is missing, unreadable, corrupted or built for other rules."""


class StateError(GonutsError):
    """A game state that does not exist under the rules asked for."""


SHOWN = 60    # characters of an offending value that a message repeats


def show(value) -> str:
    """A value as a refusal repeats it: its JSON text (as the web page writes it too), cut to SHOWN
    characters, so that a hostile megabyte never becomes a megabyte of message."""
    import json  # deferred for start-up: only a refusal pays for it
    try:
        text = json.dumps(_as_js(value), ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= SHOWN else f"{text[:SHOWN]}... ({len(text)} characters)"


LONGEST = 300       # characters of the longest message line, its "gonuts-solve: error: " included
LONGEST_WORD = 80   # a longer run without a blank (a pasted value, a path) is cut to 60 characters


def one_line(msg, prefix: str = "gonuts-solve: error: ") -> str:
    """A message as one line that fits after ``prefix`` in LONGEST characters, however long what it quotes."""
    words = [w if len(w) <= LONGEST_WORD else w[:60] + "..." for w in str(msg).split()]
    text, room = " ".join(words), LONGEST - len(prefix)
    return text if len(text) <= room else text[:room - 3] + "..."


class UsageError(GonutsError):
    """A command line that cannot be read: the CLI exits 2 (other refusals exit 1)."""


def _as_js(value):
    """Numbers as JavaScript writes them (the page shows the same): 2.0 as 2, integers past 2^53 as floats
    (beyond 2^53 the two may still write a number differently; no count is that large)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, float) and not math.isfinite(value):      # JSON.stringify writes NaN and Infinity as null
        return None
    if isinstance(value, float) and value.is_integer() and abs(value) <= 2 ** 53:
        return int(value)
    if isinstance(value, int) and abs(value) > 2 ** 53:
        return float(value)
    if isinstance(value, list):
        return [_as_js(x) for x in value]
    if isinstance(value, dict):
        return {k: _as_js(v) for k, v in value.items()}
    return value
