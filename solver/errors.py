"""The library's one exception family; the CLI maps it to a message and an exit code."""


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
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= SHOWN else f"{text[:SHOWN]}... ({len(text)} characters)"


class UsageError(GonutsError):
    """A command line that cannot be read: the CLI exits 2 (other refusals exit 1)."""
