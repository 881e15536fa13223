"""gonuts-solve: optimal play for the press-your-luck dice game Go Nuts!.

The front door (``solver.api``), one line each:

    >>> import solver
    >>> solver.table(players=2).advise(scores=(23, 31), turn=7, dice=3).action
    'roll'

``solver.Rules``, ``solver.table``, ``solver.solve``, ``solver.advise``, ``solver.evaluate``,
``solver.simulate``, ``solver.Tables``, ``solver.Table``: see ``help(solver.api)`` and docs/library.md.

Importing the package is cheap (nothing at all until a name is used; then numpy only); the compiled solver
and plotting are imported by the functions that need them.
"""
from __future__ import annotations

import importlib
from typing import Any

from solver.version import __version__

__all__ = ["Rules", "Table", "Tables", "table", "solve", "advise", "evaluate", "simulate", "__version__"]


def __getattr__(name: str) -> Any:
    """The front door's names, imported when first used (PEP 562): ``import solver`` costs nothing."""
    if name in __all__ and name != "__version__":
        # by name, not an import statement: every module reads __version__ from here, and none of them depends
        # on the front door (which sits above everything: the import contracts in pyproject.toml)
        return getattr(importlib.import_module("solver.api"), name)
    raise AttributeError(f"module 'solver' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(list(globals()) + __all__)
