"""The library's one exception family; the CLI maps it to a message and an exit code."""


class GonutsError(Exception):
    """Any refusal by the library: bad rules, bad state, bad or mismatched table."""


class RulesError(GonutsError):
    """A rules value that does not describe a playable game."""


class TableError(GonutsError):
    """A table that is missing, unreadable, corrupted or built for other rules."""


class StateError(GonutsError):
    """A game state that does not exist under the rules asked for."""
