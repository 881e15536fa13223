"""The web page, in two forms of one page: a self-contained HTML file (``page``) and an installable
static site that works offline after its first visit (``site``). It advises, plays, coaches and reviews.

``page(tables)`` assembles ``web/page.html``, ``web/style.css``, ``web/core.js``
(the pure computation) and ``web/ui.js`` (the thin DOM layer) with the data the
core needs: the rules of each reading as data (``reading_data``: every roll and what it
does, from ``game.moves``), and from each table ``start_win`` (float64, little-endian, base64; the
last seat's component is left out, it is one minus the others) and the exact
Go Nuts! payouts. Nothing is fetched at run time.
"""
from __future__ import annotations

import base64
import hashlib
import json
import zlib
from pathlib import Path

from solver import __version__
from solver.errors import GonutsError
from solver.files import atomic_write, cache_dir, check_destination
from solver.game.moves import faces_table
from solver.game.rules import N_DICE, preset
from solver.lab.policies import maxpoints
from solver.play import icons, pagedata
from solver.play.explain import nuts_means
from solver.play.record import FORMAT, MAX_DEPTH, MAX_EVENTS, MAX_RECORD_BYTES, PAGE_TARGET, VERSION

ASSETS = Path(__file__).resolve().parent / "web"
PLAYERS = (2, 3, 4)
READINGS = ("rulebook", "summary")
TARGET = 50
# The single file makes no request at all; the site fetches its own files only (and may register its worker).
FILE_CSP = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; "
            "connect-src 'none'; form-action 'none'")
SITE_CSP = ("default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'unsafe-inline'; "
            "img-src 'self' data: blob:; connect-src 'self'; worker-src 'self'; manifest-src 'self'; "
            "form-action 'none'")
SITE_HEAD = ('<link rel="manifest" href="manifest.webmanifest">\n'
             '<link rel="icon" href="icon-192.png" sizes="192x192">\n'
             '<link rel="apple-touch-icon" href="apple-touch-icon.png">\n'
             '<meta name="theme-color" content="#6b3e10">\n'
             '<meta name="apple-mobile-web-app-capable" content="yes">\n'
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


def encoded(table) -> tuple[dict, bytes]:
    """``pagedata.encode`` of the table's ``start_win``, kept in the cache under the table's checksum
    (a 4-player encoding takes seconds; the next ``web`` reads it back)."""
    N = table.players
    key = f"{table.meta['checksum'].split(':')[-1][:32]}-{'f64' if N < pagedata.PACKED_FROM else 'q%d' % pagedata.STEP_BITS}"
    folder = cache_dir() / "page"
    blob_path, desc_path = folder / f"{key}.bin", folder / f"{key}.json"
    try:
        desc, blob = json.loads(desc_path.read_text()), blob_path.read_bytes()
        if desc.get("bytes") == len(blob) and desc.get("crc32") == zlib.crc32(blob):
            return desc, blob
    except (OSError, ValueError):
        pass
    desc, blob = pagedata.encode(table.arrays["start_win"])
    desc.update(bytes=len(blob), crc32=zlib.crc32(blob))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write(blob_path, lambda fh: fh.write(blob))
        atomic_write(desc_path, lambda fh: fh.write(json.dumps(desc).encode()))
    except (OSError, GonutsError):
        pass                                     # an unwritable cache only costs time
    return desc, blob


def game_data(table) -> tuple[dict, bytes]:
    """What the page's core needs from one table (its payouts, its maxpoints rule, how its values are
    encoded) and the bytes of those values."""
    rules = table.rules
    reading = rules.preset_name()
    if rules.game != "gonuts" or reading is None or rules.speed != 1.0:
        raise GonutsError(f"the page plays the rulebook and summary readings only, not {rules.describe()}")
    mp = maxpoints(rules, N_DICE).roll_tn[:rules.target]
    means = nuts_means(rules)
    desc, blob = encoded(table)
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


def page_data(tables, place=None) -> dict:
    """Everything the page's core reads (``GonutsCore(data)``): the rules as data and each table's game.

    ``place(key, blob)`` says where a game's values go: it returns the keys to add to its ``start_win``
    descriptor (``data``: base64 inside the page, the default; ``url``: a file of the site)."""
    if place is None:
        def place(key, blob):
            return {"data": base64.b64encode(blob).decode("ascii")}
    games = {}
    for t in tables:
        d, blob = game_data(t)
        key = f"{d['players']}-{d['reading']}"
        d["start_win"].update(place(key, blob))
        games[key] = d
    if not games:
        raise GonutsError("the page needs at least one table")
    targets = {d["target"] for d in games.values()}
    if len(targets) != 1:
        raise GonutsError(f"one page plays one target, not {sorted(targets)}")
    return {"package_version": __version__, "readings": {r: reading_data(r) for r in READINGS},
            "record": {"format": FORMAT, "version": VERSION, "target": targets.pop(), "default_target": PAGE_TARGET,
                       "max_bytes": MAX_RECORD_BYTES, "max_depth": MAX_DEPTH, "max_events": MAX_EVENTS},
            "precision": {str(d["players"]): d["start_win"]["precision"] for d in games.values()},
            "games": games}


def html(data: dict, site: bool = False) -> str:
    """The page: the template with its style, core, UI and data (``site``: the installable app's head)."""
    text = json.dumps(data, separators=(",", ":"))
    # JSON inside <script>: no "</" may appear; "<" is escaped as in any JSON string.
    text = text.replace("<", "\\u003c")
    page = (ASSETS / "page.html").read_text(encoding="utf-8")
    parts = {
        "<!--@HEAD@-->": SITE_HEAD if site else "",
        "@CSP@": SITE_CSP if site else FILE_CSP,
        "/*@STYLE@*/": (ASSETS / "style.css").read_text(encoding="utf-8"),
        "/*@CORE@*/": (ASSETS / "core.js").read_text(encoding="utf-8"),
        "/*@UI@*/": (ASSETS / "ui.js").read_text(encoding="utf-8"),
        "@DATA@": text,
    }
    page = page.replace("@VERSION@", __version__).replace("@TARGET@", str(data["record"]["target"]))
    for marker, part in parts.items():
        if page.count(marker) != 1:
            raise GonutsError(f"page template: marker {marker} must appear exactly once")
        page = page.replace(marker, part)
    return page


def page(tables) -> str:
    """The self-contained page embedding ``tables`` (an iterable of loaded ``Table``)."""
    return html(page_data(tables))


SITE_LIST = "gonuts-site.json"       # what a site folder holds, so that the next --site replaces only that


def site(tables, folder, force: bool = False) -> dict:
    """Write the installable app into ``folder``: index.html, the games' values as binary files, a web app
    manifest with icons, and a service worker that precaches everything. Returns a summary.

    A folder that holds files other than a previous site's is refused unless ``force``."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise GonutsError(f"--site {folder}: not a folder")
    before = _site_files(folder, force)
    files = {}

    def place(key, blob):
        name = f"data/{key}-{zlib.crc32(blob):08x}.bin"
        files[name] = blob
        return {"url": name}
    data = page_data(tables, place)
    data["site"] = True
    files["index.html"] = html(data, site=True).encode("utf-8")
    files["icon-192.png"], files["icon-512.png"] = icons.png(192), icons.png(512)
    files["apple-touch-icon.png"] = icons.png(180)
    files["manifest.webmanifest"] = json.dumps({
        "name": "Go Nuts! optimal play", "short_name": "Go Nuts!", "start_url": "./", "scope": "./",
        "display": "standalone", "background_color": "#fbf6ec", "theme_color": "#6b3e10",
        "description": "Roll or stop? Exact win probabilities for the dice game Go Nuts!, offline.",
        "icons": [{"src": "icon-192.png", "sizes": "192x192", "type": "image/png"},
                  {"src": "icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"}]},
        indent=1).encode("utf-8")
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + files[name])
    cache = f"gonuts-{digest.hexdigest()[:16]}"
    precache = ["./"] + sorted(files)
    worker = (ASSETS / "sw.js").read_text(encoding="utf-8")
    files["sw.js"] = worker.replace("@CACHE@", cache).replace("@FILES@", json.dumps(precache)).encode("utf-8")
    files[SITE_LIST] = json.dumps({"cache": cache, "files": sorted([*files, SITE_LIST])}, indent=1).encode("utf-8")
    for name, blob in files.items():
        path = folder / name
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise GonutsError(f"--site {folder}: cannot create {path.parent}: {exc.strerror}") from None
        atomic_write(path, lambda fh, b=blob: fh.write(b))
    for name in before - set(files):
        (folder / name).unlink(missing_ok=True)
    return {"path": str(folder), "cache": cache, "files": len(files),
            "bytes": sum(len(b) for b in files.values()), "games": sorted(data["games"])}


def check_output(out=None, site=None, force: bool = False) -> None:
    """Refuse a destination before any table is built for it: one file (``out``) or a site folder."""
    if site is not None:
        site = Path(site)
        if site.exists() and not site.is_dir():
            raise GonutsError(f"--site {site}: not a folder")
        _site_files(site, force)
    else:
        check_destination(out)


def _site_files(folder: Path, force: bool) -> set:
    """The files of a previous site in ``folder`` (to replace), refusing a folder with anything else."""
    if not folder.is_dir():
        return set()
    listed = set()
    try:
        listed = set(json.loads((folder / SITE_LIST).read_text(encoding="utf-8"))["files"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    present = {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}
    other = sorted(present - listed)
    if other and not force:
        raise GonutsError(f"--site {folder} holds other files ({other[0]}{' and more' if len(other) > 1 else ''}); "
                          "give an empty or new folder, or --force to write beside them")
    return listed & present


def games_asked(players_text: str, rules_text: str) -> list:
    """``--players 2,3 --rules rulebook`` -> [(2, "rulebook"), (3, "rulebook")]."""
    players = parse_list(players_text, PLAYERS, "players")
    return [(n, r) for n in players for r in parse_list(rules_text, READINGS, "rules")]


def parse_list(text: str, allowed, what: str) -> tuple:
    """'2,3' -> (2, 3), refusing anything not in ``allowed`` by name."""
    items = [x.strip() for x in str(text).split(",") if x.strip()]
    if not items:
        raise GonutsError(f"--{what}: give at least one of {', '.join(map(str, allowed))}")
    out = []
    for x in items:
        value = int(x) if x.isdigit() else x
        if value not in allowed:
            raise GonutsError(f"--{what}: {x!r} is not one of {', '.join(map(str, allowed))}")
        if value not in out:
            out.append(value)
    return tuple(out)


def write(path, html: str) -> int:
    """Write the page atomically; returns its size in bytes."""
    path = check_destination(path)
    atomic_write(path, lambda fh: fh.write(html.encode("utf-8")))
    return path.stat().st_size
