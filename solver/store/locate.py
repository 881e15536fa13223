"""Where tables live: the ones shipped with the package, and a cache for tables built on demand
(``$GONUTS_SOLVE_CACHE``, else ``~/.cache/gonuts-solve``). Light: no numpy."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from solver.files import cache_dir, cache_trusted
from solver.game.rules import Rules


def shipped_dir() -> Path:
    """The folder of the tables that ship with the package: ``solver/shipped`` once installed (pyproject
    maps ``tables/`` there), ``tables/`` in a checkout or an editable install."""
    package = Path(__file__).resolve().parent.parent
    installed = package / "shipped"
    return installed if installed.is_dir() else package.parent / "tables"


def table_name(rules: Rules) -> str:
    """A file name that identifies the rules: presets by name, anything else by a hash."""
    label = rules.reading_name() if rules.game == "gonuts" else None
    base = f"{rules.game}-{rules.players}p-t{rules.target}"
    if rules.game == "pig":
        return base + ".npz"
    if label is not None and rules.faces == (2, 3, 1) and rules.dog == (1, 5) and rules.speed == 1.0:
        return f"{base}-{label}.npz"
    digest = hashlib.sha256(json.dumps(rules.to_dict(), sort_keys=True).encode()).hexdigest()[:12]
    return f"{base}-custom-{digest}.npz"


def find_table(rules: Rules) -> Path | None:
    """A shipped or cached table for exactly these rules, if one exists (a cached one only where nobody
    else could have written it: ``files.cache_trusted``)."""
    name = table_name(rules)
    if (shipped_dir() / name).is_file():
        return shipped_dir() / name
    cached = cache_dir() / name
    return cached if cache_trusted(cached, folder=False) is None else None
