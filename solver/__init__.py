"""gonuts-solve: optimal play for the press-your-luck dice game Go Nuts!.

The front door (``solver.api``), one line each:

    >>> import solver
    >>> solver.table(players=2).advise(scores=(23, 31), turn=7, dice=3).action
    'roll'

``solver.Rules``, ``solver.table``, ``solver.solve``, ``solver.advise``, ``solver.evaluate``,
``solver.simulate``, ``solver.Tables``, ``solver.Table``, ``solver.plots``: see ``help(solver.api)``,
docs/library.md and the API reference (docs/api.rst, Sphinx). A type checker sees every name and type.

Importing the package is cheap (nothing at all until a name is used; then numpy only); the compiled solver
and plotting are imported by the functions that need them.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from solver.version import __version__

if TYPE_CHECKING:     # what a type checker and an editor see: the real names and types (nothing runs here)
    from solver.api import Rules, Table, Tables, advise, evaluate, plots, simulate, solve, table

__all__ = ["Rules", "Table", "Tables", "table", "solve", "advise", "evaluate", "simulate", "plots", "__version__"]

if not TYPE_CHECKING:     # hidden from type checkers, so that a misspelt name is an error there, not Any
    def __getattr__(name: str) -> object:
        """The front door's names, imported when first used (PEP 562): ``import solver`` costs nothing."""
        if name in __all__ and name != "__version__":
            # by name, not an import statement: every module reads __version__ from here, and none of them
            # depends on the front door (which sits above everything: the import contracts in pyproject.toml)
            return getattr(importlib.import_module("solver.api"), name)
        raise AttributeError(f"module 'solver' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(list(globals()) + __all__)
