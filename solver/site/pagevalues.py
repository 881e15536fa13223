"""The page's values: each game's start-of-turn values in the page's encoding (``pagedata``), kept in the
cache (a 4-player encoding takes seconds) or shipped (the 4-player games at target 50), and decoded
back as the page holds them (``page_game``). ``practice``, ``review`` and ``advise`` read them without
the HTML builder.
Twin in the page: ``solver/site/web/src/core/pagevalues.js``.
"""
from __future__ import annotations

import json
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from solver.engine.solve import Progress
from solver.errors import GonutsError
from solver.files import (
    atomic_write,
    cache_dir,
    cache_folder,
    cache_trusted,
)
from solver.game.rules import Rules
from solver.site import pagedata
from solver.store.locate import shipped_dir
from solver.store.tables import Table


def _cache_key(table: Table) -> str:
    N = table.players
    kind = "f64" if N < pagedata.PACKED_FROM else f"q{pagedata.STEP_BITS}"
    return f"{table.meta['checksum'].split(':')[-1][:32]}-{kind}"


def is_encoded(table: Table) -> bool:
    """Whether ``encoded`` will be quick: 2-3 players (raw float64), or a 4-player encoding kept in the cache."""
    return table.players < pagedata.PACKED_FROM or _read_pair(cache_dir() / "page", _cache_key(table)) is not None


def _read_pair(folder: Path, stem: str) -> tuple[dict[str, Any], bytes] | None:
    """(descriptor, bytes) from ``stem.json`` and ``stem.bin`` if both are there and agree (size, CRC-32), and
    in the cache only where nobody else could have written them (``files.cache_trusted``)."""
    if folder != shipped_dir() / SHIPPED_PAGE and any(cache_trusted(folder / f"{stem}{ext}", folder=False)
                                                      for ext in (".json", ".bin")):
        return None
    try:
        desc, blob = json.loads((folder / f"{stem}.json").read_text()), (folder / f"{stem}.bin").read_bytes()
    except (OSError, ValueError):
        return None
    info = desc.get("start_win", desc) if isinstance(desc, dict) else {}
    if info.get("bytes") == len(blob) and info.get("crc32") == zlib.crc32(blob):
        return desc, blob
    return None


def encoded(table: Table, progress: Progress | None = None) -> tuple[dict[str, Any], bytes]:
    """``pagedata.encode`` of the table's ``start_win``, kept in the cache under the table's checksum
    (a 4-player encoding takes seconds; the next ``web`` reads it back). ``progress(done, total)``."""
    key = _cache_key(table)
    folder = cache_dir() / "page"     # created only when there is something to keep
    blob_path, desc_path = folder / f"{key}.bin", folder / f"{key}.json"
    kept = _read_pair(folder, key)
    if kept is not None:
        return kept
    desc, blob = pagedata.encode(table.arrays["start_win"], progress)
    desc.update(bytes=len(blob), crc32=zlib.crc32(blob))
    try:
        cache_folder("page")
        atomic_write(blob_path, lambda fh: fh.write(blob))
        atomic_write(desc_path, lambda fh: fh.write(json.dumps(desc).encode()))
    except (OSError, GonutsError):
        pass                                     # an unwritable cache only costs time
    return desc, blob


SHIPPED_PAGE = "page"     # the folder of the shipped tables (``store.locate.shipped_dir``) that holds them


def shipped_game(players: int, reading: str, target: int) -> tuple[dict[str, Any], bytes] | None:
    """The page data of a game whose table is not shipped but whose page data is (4 players at the page's
    target: encoding them needs the 4-player tables, 200 MB and a minute to build): ``game_data``'s
    (dict, bytes) as ``bench/check_shipped_page.py --write`` made them from fresh builds, or None."""
    return _read_pair(shipped_dir() / SHIPPED_PAGE, page_stem(players, reading, target))


def is_shipped(players: int, reading: str, target: int) -> bool:
    """Whether ``shipped_game`` has files for this game (without reading them)."""
    stem = shipped_dir() / SHIPPED_PAGE / page_stem(players, reading, target)
    return stem.with_suffix(".json").is_file() and stem.with_suffix(".bin").is_file()


def page_game(item: Table | tuple[dict[str, Any], bytes],
              on_decode: Callable[[], object] | None = None) -> tuple[Rules, Any, list[list[float]] | None]:
    """(rules, start_win, payouts) as the page holds them, from a table or ``game_data``'s (dict, bytes):
    the start-of-turn values decoded from the page's encoding, bit for bit the page's numbers (a 4-player
    game's are the quantised ones, read from a memory map of its decoded shares kept in the cache: decoding
    takes seconds, ``on_decode()`` is called before; the last seat's share of a float64 game is 1 minus the
    others, as the page computes it)."""
    if isinstance(item, tuple):
        desc, blob = item
        rules, payouts, sw = Rules.from_dict(desc["rules"]), desc["nuts_payout"], desc["start_win"]
    else:
        rules, payouts = item.rules, item.arrays["nuts_payout"].tolist()
        # float64 (2-3 players) is encoded in an instant and needs no cache; a 4-player encoding is cached
        small = item.players < pagedata.PACKED_FROM
        sw, blob = pagedata.encode(item.arrays["start_win"]) if small else encoded(item)
        sw = {**sw, "bytes": len(blob), "crc32": zlib.crc32(blob)}
    N, G = rules.players, rules.target
    shape = (G,) * N + (N,)
    if sw["encoding"] == "f64":
        return rules, pagedata.decode(sw, blob, shape), payouts
    path = cache_dir() / "page" / f"shares-{page_stem(N, rules.reading_name(), G)}-{sw['crc32']:08x}.npy"
    try:
        if cache_trusted(path, folder=False) is not None:
            raise ValueError("not safe to read")
        C = np.load(path, mmap_mode="r")
        if C.shape != shape[:-1] + (N - 1,) or C.dtype != np.float32:
            raise ValueError("not these shares")
    except (OSError, ValueError):
        if on_decode is not None:
            on_decode()
        C = pagedata.cumulative(sw, blob, shape)
        try:
            cache_folder("page")
            atomic_write(path, lambda fh: np.save(fh, C))
        except (OSError, GonutsError):
            pass                                     # an unwritable cache only costs time
    return rules, pagedata.Shares(C), payouts


def page_stem(players: int, reading: str | None, target: int) -> str:
    """The file stem of a game's page data (``gonuts-4p-t50-rulebook``)."""
    return f"gonuts-{players}p-t{target}-{reading}"
