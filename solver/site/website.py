"""The installable static site (``gonuts-solve web --site``): the page (``webpage``) with its data in
files, a manifest, icons and a worker that caches it for offline use, written into a folder as a whole
(``files.replace_folder``) and only over a folder that holds a site already.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from solver.errors import GonutsError
from solver.files import StrPath, check_destination, check_name, replace_folder
from solver.site import icons
from solver.site.pagegames import PageGame, page_data
from solver.site.webpage import ASSETS, html, site_script

SITE_LIST = "gonuts-site.json"       # what a site folder holds, so that the next --site replaces only that


def site(tables: Iterable[PageGame], folder: StrPath, force: bool = False, inline: bool = False) -> dict[str, Any]:
    """Write the installable app into ``folder``: index.html, its script file (the page's data and code), the
    games' values as binary files, a web app manifest with icons, and a service worker that precaches
    everything. Returns a summary.

    A folder that holds files other than a previous site's is refused unless ``force``. ``inline``: the data
    and code inside index.html, as the single file has them (the site before its script had a file of its
    own: bench/bench_lighthouse.py's baseline)."""
    folder = check_site(folder, force)
    # A tab still open on the version this replaces may load a game's data it has not loaded yet: that
    # version's data files stay one more version (and the worker's cache holds them too).
    previous, others, _ = _site_files(folder, force)
    files = {}

    def place(key: str, blob: bytes) -> dict[str, str]:
        name = f"data/{key}-{zlib.crc32(blob):08x}.bin"
        files[name] = blob
        return {"url": name}
    def place_file(name: str, blob: bytes) -> str:
        stem, _, ext = name.rpartition(".")
        address = f"data/{stem}-{zlib.crc32(blob):08x}.{ext}"
        files[address] = blob
        return address

    data = page_data(tables, place, place_file)
    data["site"] = True
    if inline:
        files["index.html"] = html(data, site=True).encode("utf-8")
    else:
        script = site_script(data).encode("utf-8")
        name = f"data/page-{zlib.crc32(script):08x}.js"        # kept one version more, as the data files are
        files[name] = script
        files["index.html"] = html(data, site=True, script=name).encode("utf-8")
    files["icon-192.png"], files["icon-512.png"] = icons.png(192), icons.png(512)
    files["icon-maskable-512.png"] = icons.png(512, maskable=True)
    files["apple-touch-icon.png"] = icons.png(180)
    files["manifest.webmanifest"] = json.dumps({
        "name": "Go Nuts! optimal play", "short_name": "Go Nuts!", "id": "./", "start_url": "./", "scope": "./",
        "display": "standalone", "background_color": "#fbf6ec", "theme_color": "#6b3e10",
        "description": "Roll or stop? Exact win probabilities for the dice game Go Nuts!, offline.",
        "icons": [{"src": "icon-192.png", "sizes": "192x192", "type": "image/png"},
                  {"src": "icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
                  {"src": "icon-maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"}]},
        indent=1).encode("utf-8")
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + files[name])
    cache = f"gonuts-{digest.hexdigest()[:16]}"
    precache = ["./"] + sorted(files)
    hashes = {name: hashlib.sha256(files["index.html" if name == "./" else name]).hexdigest() for name in precache}
    worker = (ASSETS / "sw.js").read_text(encoding="utf-8")
    files["sw.js"] = worker.replace("@CACHE@", cache).replace("/*@FILES@*/[]", json.dumps(precache)) \
        .replace("/*@HASHES@*/{}", json.dumps(hashes, sort_keys=True)).encode("utf-8")
    previous -= set(files)
    files[SITE_LIST] = json.dumps({"cache": cache, "files": sorted([*files, SITE_LIST]), "previous": sorted(previous)},
                                  indent=1).encode("utf-8")
    replace_folder(folder, files, (others | previous) - set(files))
    return {"path": str(folder), "cache": cache, "files": len(files),
            "bytes": sum(len(b) for b in files.values()), "games": sorted(data["games"])}


def check_output(out: StrPath | None = None, site: StrPath | None = None, force: bool = False) -> None:
    """Refuse a destination before any table is built for it: one file (``out``) or a site folder."""
    if site is not None:
        check_site(site, force)
    elif out is not None:
        check_destination(out)


def check_site(folder: StrPath, force: bool = False) -> Path:
    """The site folder to write (a link's target), refused before any work: not a folder, a mount point,
    other files in it (unless ``force``), or a parent folder where its replacement cannot be written."""
    folder = Path(os.path.realpath(check_name(folder))) if os.path.islink(folder) else Path(os.path.abspath(folder))
    if folder.exists() and not folder.is_dir():
        raise GonutsError(f"--site {folder}: not a folder")
    if folder.is_dir() and (os.path.ismount(folder) or folder == folder.parent):
        raise GonutsError(f"--site {folder}: a mount point cannot be replaced; give a folder inside it")
    if not folder.parent.is_dir():
        raise GonutsError(f"--site {folder}: folder {folder.parent} does not exist")
    if not os.access(folder.parent, os.W_OK | os.X_OK):
        raise GonutsError(f"--site {folder}: the site is written beside it first, and {folder.parent} is not "
                          "writable")
    _site_files(folder, force)
    return folder


_LEFTOVER = re.compile(r"\..+\.[0-9]+\.tmp")     # files.atomic_write's temporary files


def _site_files(folder: Path, force: bool) -> tuple[set[str], set[str], set[str]]:
    """(the data files of the site in ``folder``, the other files, what its list holds), refusing other
    files unless ``force``. A temporary file of an interrupted write is not another file: it goes with
    the old site. So are the data files of the version before it, which it kept (``previous``)."""
    if not folder.is_dir():
        return set(), set(), set()
    own, listed = set(), set()
    try:
        kept = json.loads((folder / SITE_LIST).read_text(encoding="utf-8"))
        own = {n for n in kept["files"] if n.startswith("data/")}
        listed = set(kept["files"]) | set(kept.get("previous", []))
    except (OSError, ValueError, KeyError, TypeError):
        pass
    present = {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() or p.is_symlink()}
    other = sorted(p for p in present - listed if not _LEFTOVER.fullmatch(Path(p).name))
    if other and not force:
        raise GonutsError(f"--site {folder} holds other files ({other[0]}{' and more' if len(other) > 1 else ''}); "
                          "give an empty or new folder, or --force to write beside them")
    return own & present, set(other), listed & present
