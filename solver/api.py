"""The front door: the few names a researcher needs, each one call, all importable from ``solver`` itself.

    >>> import solver
    >>> t = solver.table(players=2)                       # the shipped 2-player table: no build
    >>> a = t.advise(scores=(23, 31), turn=7, dice=3)
    >>> a.action, f"{a.win_if_roll:.4f}"                  # None where the action does not exist: format it
    ('roll', '0.4019')
    >>> solver.Rules.from_options(players=3, target=30, reading="summary").describe()
    'Go Nuts!, 3 players, target 30, summary reading'

``table`` finds the shipped or cached table, or builds it (with ``progress``), through ``store.library.Tables``,
the one way to a table; ``solve`` solves a game and returns the solver's report; ``advise`` answers one
question; ``evaluate`` gives the exact win probability of named policies; ``simulate`` plays them with dice.
The game's options are ``Rules.from_options``'s (``GameOptions``, typed: a type checker names a misspelt one):
``game``, ``players``, ``target``, ``reading`` ("rulebook" or "summary"), ``faces``, ``dog``, ``speed``; at run
time a wrong one is refused with the list of the right ones. Or the game as ``rules=Rules(...)``, not both.
"""
from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from solver.errors import GonutsError
from solver.game.rules import GameOptions, Rules
from solver.lab import plots
from solver.store import tables as stored
from solver.store.library import Tables

if TYPE_CHECKING:                # annotations only: the engine (numpy) loads when a table is built
    from typing_extensions import Unpack  # typing's own from Python 3.11; a checker needs no install

    from solver.engine.evaluate import EvalResult
    from solver.engine.solve import Progress, SolveResult
    from solver.lab.policies import TablePolicy
    from solver.lab.strategy import PolicyLike, SimReport
    from solver.play.advise import Advice

__all__ = ["Rules", "Table", "Tables", "table", "solve", "advise", "evaluate", "simulate", "plots"]


class Table(stored.Table):
    """A game's table, as ``solver.table`` gives it: the stored table (``store.tables.Table``: ``arrays`` by name,
    documented in tables/README.md, ``rules``, ``meta``, ``path``, ``players``, ``target``, ``substates``,
    ``roll_at``, ``mix_at``, ``equilibrium``) and the questions it answers (``advise``, ``win``, ``policy``). It is
    a ``store.tables.Table``: every function of the library that takes a table takes it (``solver.plots.win(t)``).

    >>> t = table(players=2)
    >>> t.path is not None and t.path.name, t.rules.target  # path: None for a table made in memory (corner)
    ('gonuts-2p-t50-rulebook.npz', 50)
    >>> round(t.win(scores=(0, 0))[0], 4)                 # the first player's chance from 0-0
    0.5676
    """

    @classmethod
    def of(cls, table: stored.Table) -> Table:
        """The front door's table of a stored one (the same arrays, not copied)."""
        return cls(table.meta, table.rules, table.arrays, table.path)

    def advise(self, scores: Sequence[int], turn: int = 0, dice: int = 5) -> Advice:
        """Roll or stop at this state.

        Parameters
        ----------
        scores : sequence of int
            The banked scores in turn order from the player to move, one per player, each from 0 to target - 1.
        turn : int
            The turn's points so far.
        dice : int
            The live dice, 1 to 5 (1 for Pig).

        Returns
        -------
        Advice
            ``action`` ("roll" or "stop"), ``reason``, the mover's chance either way (``win_if_roll``,
            ``win_if_stop``: None where the action does not exist) and every seat's; ``to_dict()`` is
            ``advise --json``'s object.

        Raises
        ------
        StateError
            A state outside the game, naming the field (``dice=6``, ``turn=2.5``, a score off the board).

        Examples
        --------
        >>> table(players=2).advise(scores=(23, 31), turn=7, dice=3).action
        'roll'
        """
        from solver.play.advise import advise as advise_at  # deferred for start-up: import solver stays light
        return advise_at(self, scores, turn, dice)

    def win(self, scores: Sequence[int]) -> tuple[float, ...]:
        """Every seat's win probability at the start of a turn.

        Parameters
        ----------
        scores : sequence of int
            The banked scores in turn order from the player to move.

        Returns
        -------
        tuple of float
            One fraction per seat, in the same order as ``scores``: the table's own numbers (``start_win``),
            which may differ from ``advise``'s in the last digit, as they are summed in another order.

        Examples
        --------
        >>> [round(x, 4) for x in table(players=2).win((0, 0))]
        [0.5676, 0.4324]
        """
        from solver.game.states import check_scores  # deferred for start-up: import solver stays light
        return tuple(float(x) for x in self.arrays["start_win"][check_scores(self, scores)])

    @functools.cached_property
    def policy(self) -> TablePolicy:
        """The table's play as data (``lab.policies.TablePolicy``, made once a table): the decision at a state,
        every decision read as an array with named axes (``lab.decisions.Decisions``: what is indexed is read), the
        stopping thresholds and where play is not monotone in the turn's points; and a policy ``evaluate`` and
        ``simulate`` take (docs/library.md, "The policy as data").

        >>> p = table(players=2).policy
        >>> p.action((23, 31), turn=7, dice=3), p.roll.shape, p.axes
        ('roll', (50, 50, 50, 5), ('score 0', 'score 1', 'turn', 'dice'))
        """
        from solver.lab.policies import TablePolicy  # deferred for start-up: the engine
        return TablePolicy(self)

    def corner(self, target: int | Rules) -> Table:
        """The same game to a smaller target, read off this table with no solve.

        Parameters
        ----------
        target : int or Rules
            A whole number from 1 to this table's target, or the ``Rules`` of the same game to such a target.

        Returns
        -------
        Table
            The states where every score is at least ``self.target - target``: every array equal to the bit
            to what a solve of that game writes (docs/model.md, "The corner"); ``path`` is None.

        Raises
        ------
        TableError
            Any other target or game, in one line naming the target and the table's.

        Examples
        --------
        >>> small = table(players=2).corner(30)
        >>> small.target, small.arrays["start_win"].shape, small.path
        (30, (30, 30, 2), None)
        >>> small.win((0, 0)) == table(players=2).win((20, 20))
        True
        """
        from solver.store.corner import corner  # deferred for start-up: import solver stays light
        return Table.of(corner(self, target))

    def __repr__(self) -> str:
        return f"<Table {self.rules.describe()} at {self.path}>"


def _rules(options: Mapping[str, object], rules: Rules | None = None) -> Rules:
    """The game: ``rules`` as given, else ``Rules.from_options(**options)``; both at once is refused, naming the
    options that would be ignored."""
    if rules is None:
        return Rules.from_options(**options)
    if not isinstance(rules, Rules):
        raise GonutsError(f"rules must be a solver.Rules (Rules.from_options(...)), not {rules!r}")
    extra = sorted(options)
    if extra:
        raise GonutsError(f"give the game as rules or as options, not both: {', '.join(extra)} would be ignored "
                          "(Rules.from_options(...) takes them all)")
    return rules


def table(*, rules: Rules | None = None, max_build_seconds: float | None = None, progress: Progress | None = None,
          cache: Path | str | None = None, **options: Unpack[GameOptions]) -> Table:
    """The table of a game: shipped, cached, read off a larger table's corner, or built now.

    Parameters
    ----------
    rules : Rules, optional
        The game; or give it as ``options``, not both.
    max_build_seconds : float, optional
        Refuse a build estimated to take longer, naming the command that builds it.
    progress : callable, optional
        ``progress(done, total)``, called as a build goes (a 4-player game takes a while).
    cache : Path or str, optional
        The folder built tables go to (default ``$GONUTS_SOLVE_CACHE`` or the user's cache).
    **options
        The game's options (``GameOptions``): ``game``, ``players``, ``target``, ``reading``, ``faces``, ``dog``,
        ``speed``. A type checker names a misspelt one; at run time it is refused with the list of the right ones.

    Returns
    -------
    Table
        The table and the questions it answers (``advise``, ``win``, ``policy``, ``corner``).

    Raises
    ------
    GonutsError
        A game that is not playable, a build that would not fit in memory or takes longer than
        ``max_build_seconds``, a cache that cannot be written, or a solve that did not converge.

    Examples
    --------
    >>> table(players=3, target=50, reading="summary").players
    3
    """
    game = _rules(options, rules)
    return Table.of(Tables(cache=cache, max_build_seconds=max_build_seconds, progress=progress).get(game))


def solve(rules: Rules | None = None, *, progress: Progress | None = None,
          **options: Unpack[GameOptions]) -> SolveResult:
    """Solve a game now, nothing read or written.

    Parameters
    ----------
    rules : Rules, optional
        The game; or give it as ``options`` (``GameOptions``), not both.
    progress : callable, optional
        ``progress(done, total)``, called as the solve goes.
    **options
        The game's options, as ``table`` takes them.

    Returns
    -------
    SolveResult
        ``start_win``, ``roll``, ``residual``, ``iterations``, ``converged``, ``equilibrium()``, ``mixed``, ...

    Raises
    ------
    NotConverged
        A solve that did not converge (a ``GonutsError``), naming the game and the residual: none is returned.

    Examples
    --------
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


def advise(scores: Sequence[int], turn: int = 0, dice: int = 5, *, rules: Rules | None = None,
           **options: Unpack[GameOptions]) -> Advice:
    """``table(...).advise(...)`` in one call.

    Parameters
    ----------
    scores, turn, dice
        The state, as ``Table.advise`` takes it.
    rules : Rules, optional
        The game; or give it as ``options``, not both.
    **options
        The game's options (``GameOptions``); ``players`` defaults to the number of scores.

    Returns
    -------
    Advice
        As ``Table.advise`` gives it.

    Examples
    --------
    >>> advise((23, 31), turn=7, dice=3).action
    'roll'
    """
    if rules is None:
        options.setdefault("players", len(scores) if hasattr(scores, "__len__") else 2)
    return table(rules=rules, **options).advise(scores, turn, dice)


def _policies(policies: Sequence[PolicyLike]) -> list[PolicyLike]:
    """One policy per seat as a list; a single string (split into letters otherwise) refused."""
    if isinstance(policies, (str, bytes)):
        raise GonutsError(f"give a list of policies, one per seat (such as [{policies!r}, 'optimal']), not one string")
    return list(policies)


def evaluate(policies: Sequence[PolicyLike], both_orders: bool = False, *, rules: Rules | None = None,
             **options: Unpack[GameOptions]) -> EvalResult:
    """The exact result of a game played by these policies, one per seat.

    Parameters
    ----------
    policies : sequence
        One per seat: a name as the command line takes it (the policy names of the reference: ``optimal``,
        ``hold:20``, ``maxpoints``, ``dice:5-7-15-27-37``, ...; ``best`` is solved as the best response), a
        table's ``policy``, or a function ``f(scores, turn, dice)`` returning True or "roll" to roll, False or
        "stop" to stop (``scores`` a tuple in turn order from the player to move).
    both_orders : bool
        Average over who moves first, instead of seat 0 first.
    rules : Rules, optional
        The game; or give it as ``options``, not both.
    **options
        The game's options (``GameOptions``).

    Returns
    -------
    EvalResult
        ``win``: every seat's win probability (a fraction: 0.5 is even), seat 0 first; ``expected_turns``
        likewise; ``win_when_starting(seat)`` for one order.

    Raises
    ------
    PolicyError
        A policy name that does not read, or a function that returns something else than roll or stop.

    Examples
    --------
    >>> [round(float(x), 2) for x in evaluate(["hold:20", "optimal"], players=2).win]
    [0.32, 0.68]
    >>> [round(float(x), 3) for x in evaluate(["hold:20", "optimal"], both_orders=True, players=2).win]
    [0.279, 0.721]
    """
    from solver.lab.strategy import evaluate_policies, resolve  # deferred for start-up: numpy and the kernel
    specs = _policies(policies)
    game = _rules(options, rules)
    res = evaluate_policies(game, resolve(specs, game))
    return dataclasses.replace(res, both_orders=True) if both_orders else res


def simulate(policies: Sequence[PolicyLike], games: int = 10_000, seed: int = 0, both_orders: bool = False, *,
             rules: Rules | None = None, **options: Unpack[GameOptions]) -> SimReport:
    """Play games with real (seeded) dice: within a few standard errors of ``evaluate``.

    Parameters
    ----------
    policies : sequence
        One per seat, as ``evaluate`` takes them.
    games : int
        How many games.
    seed : int
        The dice's seed (and each seat's coin where its policy mixes): the same seed, the same games.
    both_orders : bool
        Each seat first in turn, the games shared out evenly, instead of seat 0 first.
    rules : Rules, optional
        The game; or give it as ``options``, not both.
    **options
        The game's options (``GameOptions``).

    Returns
    -------
    SimReport
        ``win`` and its ``stderr`` per seat, the mean ``turns`` of a game.

    Examples
    --------
    >>> r = simulate(["hold:20", "optimal"], games=2000, seed=1, players=2)
    >>> bool(abs(r.win[0] - 0.32) < 4 * r.stderr[0])
    True
    """
    from solver.lab.strategy import resolve, simulate_policies  # deferred for start-up: numpy and the kernel
    specs = _policies(policies)
    game = _rules(options, rules)
    return simulate_policies(game, resolve(specs, game), games, seed, both_orders=both_orders)
