"""The web page, in two forms of one page: a self-contained HTML file (``page``) and an installable
static site that works offline after its first visit (``site``). It advises, plays, coaches and reviews.

``page(tables)`` assembles ``web/page.html``, ``web/style.css``, ``web/core.js``
(the pure computation) and ``web/ui/*.js`` (the thin DOM layer: ``UI_MODULES``) with the data the
core needs: the rules of each reading as data (``reading_data``: every roll and what it
does, from ``game.moves``), and from each table ``start_win`` (float64, little-endian, base64; the
last seat's component is left out, it is one minus the others) and the exact
Go Nuts! payouts. Nothing is fetched at run time.
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import zlib
from pathlib import Path

import numpy as np

from solver import __version__
from solver.errors import GonutsError
from solver.files import (
    atomic_write,
    cache_dir,
    cache_folder,
    cache_trusted,
    check_destination,
    check_name,
    replace_folder,
)
from solver.game.moves import faces_table
from solver.game.rules import N_DICE, Rules, preset
from solver.lab.policies import maxpoints
from solver.play import icons, pagedata, practice
from solver.play.explain import nuts_means
from solver.play.record import FORMAT, MAX_DEPTH, MAX_EVENTS, MAX_RECORD_BYTES, PAGE_TARGET, VERSION
from solver.store.locate import shipped_dir

ASSETS = Path(__file__).resolve().parent / "web"
# The UI's modules (web/ui/), in the order the page runs them: the shared part, a module per tab, the start.
UI_MODULES = ("common.js", "owner.js", "advise.js", "play.js", "coach.js", "table.js", "history.js", "review.js",
              "practice.js", "main.js")
READINGS = ("rulebook", "summary")
TARGET = 50
# The single file makes no request at all; the site fetches its own files only (and may register its worker).
# No inline script or style runs unnamed: each is listed by its SHA-256 (@SCRIPTS@, @STYLES@), never
# 'unsafe-inline', so no text from a record, a name or the address can ever run as script.
FILE_CSP = ("default-src 'none'; script-src @SCRIPTS@; style-src @STYLES@; img-src data: blob:; "
            "connect-src 'none'; form-action 'none'; base-uri 'none'; object-src 'none'")
SITE_CSP = ("default-src 'none'; script-src 'self' @SCRIPTS@; style-src @STYLES@; "
            "img-src 'self' data: blob:; connect-src 'self'; worker-src 'self'; manifest-src 'self'; "
            "form-action 'none'; base-uri 'none'; object-src 'none'")
SITE_HEAD = ('<link rel="manifest" href="manifest.webmanifest">\n'
             '<link rel="icon" href="icon-192.png" sizes="192x192">\n'
             '<link rel="apple-touch-icon" href="apple-touch-icon.png">\n'
             '<meta name="theme-color" content="#6b3e10">\n'
             '<meta name="apple-mobile-web-app-capable" content="yes">\n'
             '<meta name="mobile-web-app-capable" content="yes">\n'
             '<meta name="apple-mobile-web-app-status-bar-style" content="default">\n'
             '<meta name="apple-mobile-web-app-title" content="Go Nuts!">')


def reading_data(reading: str) -> dict:
    """The rules of one reading, as the page's core reads them: nothing there is derived again.

    ``rules``: the knobs (``Rules.to_dict``, players and target left out: a game sets them).
    ``rolls[n]``: every roll of n live dice as ``[acorns, squirrels, cars, p, kind, x, live]``
    (``game.moves``: kind ``bust``, ``nuts`` with x = the round's dice, or ``move`` with x acorns
    and ``live`` dice after the one-die rule); p is the exact probability rounded once.
    ``nuts_gain``: ``replaces`` or ``adds to`` the turn points, the Go Nuts! round's acorns."""
    rules = preset(reading)
    knobs = rules.to_dict()
    return {
        "rules": {k: v for k, v in knobs.items() if k not in ("players", "target")},
        "rolls": {str(n): [list(r) for r in rolls] for n, rolls in faces_table(rules).items()},
        "nuts_gain": "replaces" if rules.nuts_costs_turn else "adds to",
        "dice": N_DICE,
    }


def _cache_key(table) -> str:
    N = table.players
    kind = "f64" if N < pagedata.PACKED_FROM else "q%d" % pagedata.STEP_BITS
    return f"{table.meta['checksum'].split(':')[-1][:32]}-{kind}"


def is_encoded(table) -> bool:
    """Whether ``encoded`` will be quick: 2-3 players (raw float64), or a 4-player encoding kept in the cache."""
    return table.players < pagedata.PACKED_FROM or _read_pair(cache_dir() / "page", _cache_key(table)) is not None


def _read_pair(folder: Path, stem: str):
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


def encoded(table, progress=None) -> tuple[dict, bytes]:
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


def game_data(table, progress=None) -> tuple[dict, bytes]:
    """What the page's core needs from one table (its payouts, its maxpoints rule, how its values are
    encoded) and the bytes of those values. ``progress(done, total)`` follows a 4-player encoding."""
    rules = table.rules
    reading = rules.preset_name()
    if rules.game != "gonuts" or reading is None or rules.speed != 1.0:
        raise GonutsError(f"the page plays the rulebook and summary readings only, not {rules.describe()}")
    mp = maxpoints(rules, N_DICE).roll_tn[:rules.target]
    means = nuts_means(rules)
    desc, blob = encoded(table, progress)
    return {
        "players": rules.players, "target": rules.target, "reading": reading,
        "rules": rules.to_dict(),
        "start_win": desc,
        "nuts_payout": table.arrays["nuts_payout"].tolist(),
        # maxpoints: roll at (t, n) iff maxpoints[n][t] == "1" (n = 1..5; index 0 unused)
        "maxpoints": ["".join("1" if mp[t, n] else "0" for t in range(rules.target)) for n in range(N_DICE + 1)],
        # nuts_mean[x]: the expected acorns of a Go Nuts! round with x dice (exact; index 0 unused)
        "nuts_mean": [0.0] + [means[x] for x in range(1, N_DICE + 1)],
        "source": {"checksum": table.meta["checksum"], "package_version": table.meta["package_version"]},
    }, blob


SHIPPED_PAGE = "page"     # the folder of the shipped tables (``store.locate.shipped_dir``) that holds them


def shipped_game(players: int, reading: str, target: int):
    """The page data of a game whose table is not shipped but whose page data is (4 players at the page's
    target: encoding them needs the 4-player tables, 200 MB and a minute to build): ``game_data``'s
    (dict, bytes) as ``bench/check_shipped_page.py --write`` made them from fresh builds, or None."""
    return _read_pair(shipped_dir() / SHIPPED_PAGE, page_stem(players, reading, target))


def page_game(item, on_decode=None):
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
    path = cache_dir() / "page" / f"shares-{page_stem(N, rules.preset_name(), G)}-{sw['crc32']:08x}.npy"
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


RULE_CARDS = shipped_dir() / SHIPPED_PAGE / "rule-cards.json"
CARD_RULES = ("hold", "hold_dice", "per_dice")     # the rules a person can keep in mind (not maxpoints)


def rule_card_entry(simple: dict) -> dict:
    """One game's card from ``simple-rules --json``: each rule a person can keep in mind with its exact
    win probability and cost against optimal players, and which of them is best (the simplest among equals)."""
    rules = {k: {key: simple[k][key] for key in ("policy", "win", "gives_up")} for k in CARD_RULES}
    best = min(CARD_RULES, key=lambda k: (rules[k]["gives_up"], CARD_RULES.index(k)))
    return {"players": simple["rules"]["players"], "fair_share": simple["fair_share"], "best": best, "rules": rules}


def rule_cards(wanted, target: int) -> dict:
    """{"N-reading": card} of the shipped cards (bench/rule_cards.py) for the page's games, at its target."""
    try:
        shipped = json.loads(RULE_CARDS.read_text())
    except (OSError, ValueError):
        return {}
    if shipped.get("target") != target:
        return {}
    return {k: v for k, v in shipped.get("cards", {}).items() if k in wanted}


def page_stem(players: int, reading: str, target: int) -> str:
    return f"gonuts-{players}p-t{target}-{reading}"


def page_data(tables, place=None) -> dict:
    """Everything the page's core reads (``GonutsCore(data)``): the rules as data and each table's game.

    ``tables``: loaded tables, or ``game_data``'s (dict, bytes) pairs (``shipped_game`` gives them too).

    ``place(key, blob)`` says where a game's values go: it returns the keys to add to its ``start_win``
    descriptor (``data``: base64 inside the page, the default; ``url``: a file of the site)."""
    if place is None:
        def place(key, blob):
            return {"data": base64.b64encode(blob).decode("ascii")}
    games = {}
    for t in tables:
        d, blob = t if isinstance(t, tuple) else game_data(t)
        d = json.loads(json.dumps(d))                # a copy: the descriptor gets where its bytes go
        key = f"{d['players']}-{d['reading']}"
        d["start_win"].update(place(key, blob))
        games[key] = d
    if not games:
        raise GonutsError("the page needs at least one table")
    targets = {d["target"] for d in games.values()}
    if len(targets) != 1:
        raise GonutsError(f"one page plays one target, not {sorted(targets)}")
    target = targets.pop()
    return {"package_version": __version__, "readings": {r: reading_data(r) for r in READINGS},
            "record": {"format": FORMAT, "version": VERSION, "target": target, "default_target": PAGE_TARGET,
                       "max_bytes": MAX_RECORD_BYTES, "max_depth": MAX_DEPTH, "max_events": MAX_EVENTS},
            "precision": {str(d["players"]): d["start_win"]["precision"] for d in games.values()},
            "practice": practice.constants(), "rule_cards": rule_cards(set(games), target),
            "games": games}


def html(data: dict, site: bool = False) -> str:
    """The page: the template with its style, core, UI and data (``site``: the installable app's head)."""
    text = json.dumps(data, separators=(",", ":"))
    # JSON inside <script>: no "</" may appear; "<" is escaped as in any JSON string.
    text = text.replace("<", "\\u003c")
    page = (ASSETS / "page.html").read_text(encoding="utf-8")
    style = (ASSETS / "style.css").read_text(encoding="utf-8")
    scripts = [(ASSETS / "core.js").read_text(encoding="utf-8")] + \
        [(ASSETS / "ui" / name).read_text(encoding="utf-8") for name in UI_MODULES]
    csp = (SITE_CSP if site else FILE_CSP).replace("@SCRIPTS@", " ".join(map(_sha256, scripts))) \
        .replace("@STYLES@", _sha256(style))
    parts = {
        "<!--@HEAD@-->": SITE_HEAD if site else "",
        "@CSP@": csp,
        "/*@STYLE@*/": style,
        "/*@CORE@*/": scripts[0],
        "<!--@UI@-->": "\n".join(f"<script>{body}</script>" for body in scripts[1:]),
        "@DATA@": text,
    }
    page = page.replace("@VERSION@", __version__).replace("@TARGET@", str(data["record"]["target"])) \
        .replace("@PRECISION@", precision_line(data["precision"]))
    for marker, part in parts.items():
        if page.count(marker) != 1:
            raise GonutsError(f"page template: marker {marker} must appear exactly once")
        page = page.replace(marker, part)
    return page


def precision_line(precision: dict) -> str:
    """"Numbers as stored: 2 players: exact; 4 players: within 7.6e-6." (in the page's first paint: written
    by JavaScript after it, the line would move the page)."""
    def one(n, e):
        if not e > 0:
            return f"{n} players: exact"
        mantissa, _, exponent = f"{e:.1e}".partition("e")
        return f"{n} players: within {mantissa}e{int(exponent)}"
    return "Numbers as stored: " + "; ".join(one(n, e) for n, e in precision.items()) + "."


def _sha256(text: str) -> str:
    """A CSP source naming one inline script or style by its content."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def page(tables) -> str:
    """The self-contained page embedding ``tables`` (an iterable of loaded ``Table``)."""
    return html(page_data(tables))


SITE_LIST = "gonuts-site.json"       # what a site folder holds, so that the next --site replaces only that


def site(tables, folder, force: bool = False) -> dict:
    """Write the installable app into ``folder``: index.html, the games' values as binary files, a web app
    manifest with icons, and a service worker that precaches everything. Returns a summary.

    A folder that holds files other than a previous site's is refused unless ``force``."""
    folder = check_site(folder, force)
    # A tab still open on the version this replaces may load a game's data it has not loaded yet: that
    # version's data files stay one more version (and the worker's cache holds them too).
    previous, others, _ = _site_files(folder, force)
    files = {}

    def place(key, blob):
        name = f"data/{key}-{zlib.crc32(blob):08x}.bin"
        files[name] = blob
        return {"url": name}
    data = page_data(tables, place)
    data["site"] = True
    files["index.html"] = html(data, site=True).encode("utf-8")
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


def check_output(out=None, site=None, force: bool = False) -> None:
    """Refuse a destination before any table is built for it: one file (``out``) or a site folder."""
    if site is not None:
        check_site(site, force)
    else:
        check_destination(out)


def check_site(folder, force: bool = False) -> Path:
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


def _site_files(folder: Path, force: bool) -> tuple[set, set, set]:
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


def write(path, html: str) -> int:
    """Write the page atomically; returns its size in bytes."""
    path = check_destination(path)
    atomic_write(path, lambda fh: fh.write(html.encode("utf-8")))
    return path.stat().st_size
