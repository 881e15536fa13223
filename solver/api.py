"""The front door: the few names a researcher needs, each one call, all importable from ``solver`` itself.

    >>> import solver
    >>> t = solver.table(players=2)                       # the shipped 2-player table: no build
    >>> a = t.advise(scores=(23, 31), turn=7, dice=3)
    >>> a.action, round(a.win_if_roll, 4)
    ('roll', 0.4019)
    >>> solver.Rules.from_options(players=3, target=30, reading="summary").describe()
    'Go Nuts!, 3 players, target 30, summary reading'

``table`` finds the shipped or cached table, or builds it (with ``progress``), through ``store.library.Tables``,
the one way to a table; ``solve`` solves a game and returns the solver's report; ``advise`` answers one
question; ``evaluate`` gives the exact win probability of named policies; ``simulate`` plays them with dice.
The game's options are ``Rules.from_options``'s: ``game``, ``players``, ``target``, ``reading`` ("rulebook" or
"summary"), ``faces``, ``dog``, ``speed``; a wrong one is refused with the list of the right ones.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver.errors import GonutsError
from solver.game.rules import Rules
from solver.store.library import Tables

if TYPE_CHECKING:                # annotations only: the engine (numpy) loads when a table is built
    from solver.engine.solve import Progress
    from solver.lab.strategy import PolicyLike

__all__ = ["Rules", "Table", "Tables", "table", "solve", "advise", "evaluate", "simulate"]


class Table:
    """A game's table, as ``solver.table`` gives it: the stored arrays (``arrays``: ``start_win``, ``roll``, ...,
    documented in tables/README.md), the rules, where its file is (``path``), and the questions it answers.

    >>> t = table(players=2)
    >>> t.path.name, t.rules.target
    ('gonuts-2p-t50-rulebook.npz', 50)
    >>> round(t.win(scores=(0, 0))[0], 4)                 # the first player's chance from 0-0
    0.5676
    """

    def __init__(self, stored: Any) -> None:
        self.stored = stored

    @property
    def rules(self) -> Rules:
        """The game this table solves."""
        rules: Rules = self.stored.rules
        return rules

    @property
    def arrays(self) -> dict[str, Any]:
        """The table's arrays by name (numpy arrays)."""
        arrays: dict[str, Any] = self.stored.arrays
        return arrays

    @property
    def path(self) -> Path | None:
        """The table's file (shipped with the package, or in the cache), or None for the page's values."""
        return Path(self.stored.path) if getattr(self.stored, "path", None) else None

    def advise(self, scores: Sequence[int], turn: int = 0, dice: int = 5) -> Any:
        """Roll or stop at this state: ``scores`` in turn order from the player to move, the turn's points, the
        live dice. Returns ``play.advise.Advice`` (``action``, ``win_if_roll``, ``win_if_stop``, ``players_if_roll``,
        ...; ``to_dict()`` is ``advise --json``'s object).

        >>> table(players=2).advise(scores=(23, 31), turn=7, dice=3).action
        'roll'
        """
        from solver.play.advise import advise as advise_at  # deferred for start-up: import solver stays light
        return advise_at(self.stored, scores, turn, dice)

    def win(self, scores: Sequence[int]) -> tuple[float, ...]:
        """Every seat's win probability at the start of a turn (seat order from the player to move).

        >>> [round(x, 4) for x in table(players=2).win((0, 0))]
        [0.5676, 0.4324]
        """
        from solver.play.advise import check_scores  # deferred for start-up: import solver stays light
        return tuple(float(x) for x in self.arrays["start_win"][check_scores(self.stored, scores)])

    def __getattr__(self, name: str) -> Any:
        """Everything else of the stored table (``players``, ``target``, ``meta``, ``substates``, ``roll_at``,
        ``roll_array``), so that a table from here goes wherever the library takes one (``solver.lab.plots.win(t)``,
        ``Versus(rules, t)``)."""
        if name == "stored":                    # not set yet (a copy being made): no recursion
            raise AttributeError(name)
        return getattr(self.stored, name)

    def __repr__(self) -> str:
        return f"<Table {self.rules.describe()} at {self.path}>"


def _rules(options: dict[str, Any], rules: Rules | None = None) -> Rules:
    """The game: ``rules`` (or ``options["rules"]``) as given, else ``Rules.from_options(**options)``; both at once
    is refused, naming the options that would be ignored."""
    given = rules if rules is not None else options.get("rules")
    if given is None:
        return Rules.from_options(**options)
    if not isinstance(given, Rules):
        raise GonutsError(f"rules must be a solver.Rules (Rules.from_options(...)), not {given!r}")
    extra = sorted(k for k in options if k != "rules")
    if extra:
        raise GonutsError(f"give the game as rules or as options, not both: {', '.join(extra)} would be ignored "
                          "(Rules.from_options(...) takes them all)")
    return given


def table(*, max_build_seconds: float | None = None, progress: Progress | None = None,
          cache: Path | str | None = None, **options: Any) -> Table:
    """The table of a game, shipped, cached or built now (a 4-player game takes a while: follow it with
    ``progress(done, total)``, or refuse it past ``max_build_seconds``). Options: ``Rules.from_options``'s.

    >>> table(players=3, target=50, reading="summary").players
    3
    """
    rules = _rules(options)
    return Table(Tables(cache=cache, max_build_seconds=max_build_seconds, progress=progress).get(rules))


def solve(rules: Rules | None = None, *, progress: Progress | None = None, **options: Any) -> Any:
    """Solve a game now (nothing read or written): the solver's report, ``engine.solve.SolveResult``
    (``start_win``, ``roll``, ``residual``, ``iterations``, ``equilibrium()``, ``mixed``, ...). A solve that
    does not converge raises ``engine.solve.NotConverged`` (a ``GonutsError``) naming the game and the residual.

    >>> res = solve(players=2, target=20)
    >>> res.converged
    True
    """
    from solver.engine.solve import solve as solve_model  # deferred for start-up: the kernel and numpy
    from solver.game.turn import turn_model  # deferred for start-up: numpy
    r = _rules(options, rules)
    res = solve_model(turn_model(r), r.players, r.target, progress=progress)
    res.check(r.describe())
    return res


def advise(scores: Sequence[int], turn: int = 0, dice: int = 5, **options: Any) -> Any:
    """``table(...).advise(...)`` in one call; ``players`` defaults to the number of scores.

    >>> advise((23, 31), turn=7, dice=3).action
    'roll'
    """
    if "rules" not in options:
        options.setdefault("players", len(scores) if hasattr(scores, "__len__") else 2)
    return table(**options).advise(scores, turn, dice)


def evaluate(policies: Sequence[PolicyLike], **options: Any) -> Any:
    """The exact result of a game played by these policies, one per seat (names as the command line takes them:
    ``optimal``, ``hold:20``, ``maxpoints``, ``dice:5-7-15-27-37``, ...; ``best`` is solved as the best response):
    ``engine.evaluate.EvalResult``, whose ``win`` is every seat's win probability (a fraction: 0.5 is even).

    >>> [round(float(x), 2) for x in evaluate(["hold:20", "optimal"], players=2).win]
    [0.32, 0.68]
    """
    from solver.lab.strategy import evaluate_policies, resolve  # deferred for start-up: numpy and the kernel
    rules = _rules(options)
    return evaluate_policies(rules, resolve(list(policies), rules))


def simulate(policies: Sequence[PolicyLike], games: int = 10_000, seed: int = 0,
             **options: Any) -> Any:
    """Play ``games`` games with real (seeded) dice: ``lab.strategy.SimReport`` (``win``, ``stderr``,
    ``turns``). Within a few standard errors of ``evaluate``.

    >>> r = simulate(["hold:20", "optimal"], games=2000, seed=1, players=2)
    >>> bool(abs(r.win[0] - 0.32) < 4 * r.stderr[0])
    True
    """
    from solver.lab.strategy import resolve, simulate_policies  # deferred for start-up: numpy and the kernel
    rules = _rules(options)
    return simulate_policies(rules, resolve(list(policies), rules), games, seed)
