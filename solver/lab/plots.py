"""Pictures of the solution (matplotlib, imported only here).

* ``boundary``: for each number of live dice, the turn total at which optimal
  play first stops, over the player's own score and the next player's score
  (Neller and Presser's roll/hold boundary, one panel per dice count; play is not
  monotone above it: ``Table.policy.thresholds()`` lists where);
* ``win``: the start-of-turn win probability over the two scores;
* ``payout``: Go Nuts! gain distributions by dice and by number of opponents.

For 3 and 4 players the pictures show the plane where the other players have 0. Each draws where it is told,
as pandas' and seaborn's plots do: ``win`` on the ``ax=`` given, the many-panel ones in the ``fig=`` given;
with none, it makes its figure through pyplot, so that a notebook shows it at once. The backend is always the
user's (never chosen or switched here). Each returns its matplotlib Figure, written to ``out`` only when asked.
``solver.plots`` is this module.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from solver.errors import GonutsError
from solver.files import StrPath
from solver.game.payout import nuts_payout_table
from solver.game.rules import Rules
from solver.lab.policies import TablePolicy, thresholds_of
from solver.store.tables import Table

if TYPE_CHECKING:                # annotations only: matplotlib is optional (the plot extra) and slow to import
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


def require() -> None:
    """matplotlib there, or one line saying how to install it (the command line asks first, before any table is
    read or built)."""
    try:
        import matplotlib  # noqa: F401  (deferred: optional, the plot extra)
    except ImportError:
        raise GonutsError('plotting needs matplotlib: pip install "gonuts-solve[plot]" (from a checkout: '
                          'pip install ".[plot]")') from None


def figure(figsize: tuple[float, float] | None = None) -> Figure:
    """A new figure through pyplot, with constrained layout (titles inside it): a notebook shows it at once, a
    script's figures are pyplot's as its own are (``plt.close(fig)`` when done). The backend is the one matplotlib
    picks for the user (``MPLBACKEND``, matplotlibrc, the notebook's inline display): never switched here."""
    require()
    import matplotlib.pyplot as plt  # deferred: optional and slow to import
    return plt.figure(figsize=figsize, layout="constrained")


def _root(ax: Axes) -> Figure:
    """The figure an Axes is drawn in (the top one, when the Axes is in a subfigure)."""
    fig = ax.get_figure(root=True) if hasattr(ax, "get_figure") else ax.figure
    if fig is None:
        raise GonutsError("ax= must be an Axes in a figure (fig.subplots(), plt.subplots())")
    return fig  # type: ignore[return-value]


def _destination(out: StrPath | None) -> Path | None:
    """Where a plot is to be written, checked before anything is drawn: a .png, .svg or .pdf file in a folder
    that exists (None: nowhere)."""
    if out is None:
        return None
    path = Path(out)
    if path.suffix.lower() not in (".png", ".svg", ".pdf"):
        raise GonutsError(f"cannot plot to {path}: use a .png, .svg or .pdf file name")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise GonutsError(f"cannot write {path}: folder {folder} does not exist")
    return path


def _save(fig: Figure, path: Path | None) -> None:
    """Write the figure to ``path`` atomically (nothing without one). The figure stays open and the caller's."""
    if path is None:
        return
    tmp = path.with_name(f".{path.name}.tmp{path.suffix}")
    fig.savefig(tmp, dpi=110)
    tmp.replace(path)


def close(fig: Figure) -> None:
    """Let pyplot forget a figure (the command line's, once written: nothing left open)."""
    import matplotlib.pyplot as plt  # deferred: optional and slow to import
    plt.close(fig)


def boundary(table: Table, out: StrPath | None = None, *, fig: Figure | None = None) -> Figure:
    """The optimal stopping boundary: the turn points at which optimal play first stops, by the two scores, one
    panel per number of live dice (``table.policy.thresholds()`` as data; where play is not monotone, counted).

    Parameters
    ----------
    table : Table
        The game's table (at 3 and 4 players, the plane where the others have 0 is drawn).
    out : Path or str, optional
        A .png, .svg or .pdf file to write, checked before anything is drawn.
    fig : Figure, optional
        The figure to draw in (its panels are added); default: a new pyplot figure, which a notebook shows.

    Returns
    -------
    Figure
        The figure drawn in.

    Raises
    ------
    GonutsError
        matplotlib missing (the plot extra), or an ``out`` that is not a .png, .svg or .pdf in a folder that
        exists.

    Examples
    --------
    >>> import solver
    >>> fig = boundary(solver.table(players=2))
    >>> len(fig.axes)                                     # five panels, one per number of live dice, and the scale
    6
    """
    path = _destination(out)
    policy = TablePolicy(table)
    N, G = table.players, table.target
    # the thresholds of the plane drawn only (at 4 players the whole table's are 25 times its size)
    thr = thresholds_of(np.asarray(policy.roll[(slice(None), slice(None)) + (0,) * (N - 2)]),
                        policy.axes[:2] + policy.axes[-2:])
    plane = thr.stop_at.astype(float)                                                     # (G, G, D)
    s0 = np.arange(G)[:, None, None]
    plane = np.where(s0 + plane >= G, np.nan, plane)     # stops only because stopping wins
    D = plane.shape[-1]
    fig = fig if fig is not None else figure(figsize=(3.2 * D, 3.6))
    axes = fig.subplots(1, D, squeeze=False)
    vmax = np.nanmax(plane) if np.isfinite(plane).any() else 1
    for n in range(D):
        ax = axes[0, n]
        im = ax.imshow(plane[:, :, n], origin="lower", cmap="viridis", vmin=0, vmax=vmax)
        ax.set_title(f"{n + 1} {'die' if n == 0 else 'dice'} live" if D > 1 else "turn total")
        ax.set_xlabel("next player's score")
        if n == 0:
            ax.set_ylabel("own score")
    fig.colorbar(im, ax=axes[0, :].tolist(), shrink=0.8, label="turn points at which optimal play stops")
    above = int(thr.count_above.sum())
    fig.suptitle(f"Optimal stopping boundary: {table.rules.describe()}" +
                 (" (other players at 0)" if N > 2 else "") +
                 "\nwhite: keeps rolling until stopping reaches the target" +
                 (f"; {above:,} decisions roll again above it" if above else ""), fontsize=10)
    _save(fig, path)
    return fig


def win(table: Table, out: StrPath | None = None, *, ax: Axes | None = None) -> Figure:
    """The win probability at the start of a turn by the two scores (the others at 0).

    Parameters
    ----------
    table : Table
        The game's table.
    out : Path or str, optional
        A .png, .svg or .pdf file to write, checked before anything is drawn.
    ax : Axes, optional
        The axes to draw on (the scale goes beside it); default: a new pyplot figure, which a notebook shows.

    Returns
    -------
    Figure
        The figure drawn in (the top one, where ``ax`` is in a subfigure).

    Examples
    --------
    >>> import solver
    >>> len(win(solver.table(players=2)).axes)             # the map and its scale
    2
    """
    path = _destination(out)
    w = np.asarray(table.arrays["start_win"][(slice(None), slice(None)) + (0,) * (table.players - 2) + (0,)])
    if ax is None:
        fig = figure(figsize=(5.2, 4.4))
        ax = fig.subplots()
    else:
        fig = _root(ax)
    im = ax.imshow(w, origin="lower", cmap="RdYlGn", vmin=0, vmax=1)
    cs = ax.contour(w, levels=[0.25, 0.5, 0.75], colors="k", linewidths=0.7)
    ax.clabel(cs, fmt="%.2f", fontsize=7)
    ax.set_xlabel("next player's score")
    ax.set_ylabel("own score (player to move)")
    fig.colorbar(im, ax=ax, label="win probability at the start of the turn")
    ax.set_title(f"{table.rules.describe()}" + (" (others at 0)" if table.players > 2 else ""), fontsize=9)
    _save(fig, path)
    return fig


def payout(rules: Rules, out: StrPath | None = None, cap: int = 40, *, fig: Figure | None = None) -> Figure:
    """The exact Go Nuts! payouts for 2 to 4 players, one line per number of dice.

    Parameters
    ----------
    rules : Rules
        The dice, the dog die and the speed (its players and target are not used).
    out : Path or str, optional
        A .png, .svg or .pdf file to write, checked before anything is drawn.
    cap : int
        The largest gain drawn.
    fig : Figure, optional
        The figure to draw in (its three panels are added); default: a new pyplot figure.

    Returns
    -------
    Figure
        The figure drawn in.

    Examples
    --------
    >>> import solver
    >>> len(payout(solver.Rules.from_options()).axes)      # 1, 2 and 3 opponents rolling dog dice
    3
    """
    if rules.game != "gonuts":
        raise GonutsError("payout plots are for Go Nuts! (Pig has no Go Nuts! round)")
    path = _destination(out)
    fig = fig if fig is not None else figure(figsize=(12, 3.6))
    axes = fig.subplots(1, 3, sharey=True)
    for ax, players in zip(axes, (2, 3, 4)):
        table = nuts_payout_table(dataclasses.replace(rules, players=players, target=cap))
        for n in range(1, 6):
            mean = (table[n, :cap] * np.arange(cap)).sum() + cap * table[n, cap]
            ax.plot(np.arange(cap), table[n, :cap], marker=".", ms=3, label=f"{n} {'die' if n == 1 else 'dice'} "
                                                                          f"(mean {mean:.1f})")
        ax.set_title(f"{players - 1} opponent{'s' if players > 2 else ''} rolling dog dice")
        ax.set_xlabel("acorns gained in the Go Nuts! round")
        ax.legend(fontsize=7)
    axes[0].set_ylabel("probability")
    fig.suptitle(f"Exact Go Nuts! payouts (speed {rules.speed:g}, faces {','.join(map(str, rules.faces))}, "
                 f"dog {','.join(map(str, rules.dog))})", fontsize=10)
    _save(fig, path)
    return fig
