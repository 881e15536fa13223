"""Where tables live: the ones shipped with the package, and a cache for tables built on demand
(``$GONUTS_SOLVE_CACHE``, else ``~/.cache/gonuts-solve``). Light: no numpy."""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path

from solver.errors import RulesError
from solver.files import cache_dir, cache_trusted
from solver.game.rules import Rules


def shipped_dir() -> Path:
    """The folder of the tables that ship with the package: ``solver/shipped`` once installed (pyproject
    maps ``tables/`` there), ``tables/`` in a checkout or an editable install."""
    package = Path(__file__).resolve().parent.parent
    installed = package / "shipped"
    return installed if installed.is_dir() else package.parent / "tables"


def table_name(rules: Rules) -> str:
    """A file name that says the game as ``Rules.describe`` does: the reading by name and each knob not at its
    printed value (``-speed2``, ``-faces3-2-1``, ``-dog1-6``); rules of neither reading are ``custom`` and
    carry a hash of all their knobs.

    >>> table_name(Rules.from_options(players=2, speed=2))
    'gonuts-2p-t50-rulebook-speed2.npz'
    """
    base = f"{rules.game}-{rules.players}p-t{rules.target}"
    if rules.game == "pig":
        return base + ".npz"
    label = rules.reading_name()
    knobs = "".join([f"-faces{'-'.join(map(str, rules.faces))}" if rules.faces != (2, 3, 1) else "",
                     f"-dog{'-'.join(map(str, rules.dog))}" if rules.dog != (1, 5) else "",
                     f"-speed{rules.speed:g}" if rules.speed != 1.0 else ""])
    if label is not None:
        return f"{base}-{label}{knobs}.npz"
    digest = hashlib.sha256(json.dumps(rules.to_dict(), sort_keys=True).encode()).hexdigest()[:12]
    return f"{base}-custom{knobs}-{digest}.npz"


def find_table(rules: Rules) -> Path | None:
    """A shipped or cached table for exactly these rules, if one exists (a cached one only where nobody
    else could have written it: ``files.cache_trusted``)."""
    name = table_name(rules)
    if (shipped_dir() / name).is_file():
        return shipped_dir() / name
    cached = cache_dir() / name
    return cached if cache_trusted(cached, folder=False) is None else None


def larger_tables(rules: Rules, folders: Iterable[Path]) -> list[tuple[int, Path]]:
    """The tables of the same game to a larger target in these folders (target, path), smallest target first: a
    smaller target is their corner (``store.corner``). Each file is named as ``table_name`` names its game (a
    custom game's hash covers its target too, so each name is made again from the target it says)."""
    prefix = f"{rules.game}-{rules.players}p-t"
    found: dict[int, Path] = {}
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in folder.glob(prefix + "*.npz"):
            digits = path.name[len(prefix):].split("-", 1)[0].removesuffix(".npz")
            if not digits.isdigit() or int(digits) <= rules.target or int(digits) in found:
                continue
            target = int(digits)
            try:
                same = table_name(Rules.from_dict({**rules.to_dict(), "target": target})) == path.name
            except RulesError:
                continue
            if same and (folder != cache_dir() or cache_trusted(path, folder=False) is None):
                found[target] = path
    return sorted(found.items())
