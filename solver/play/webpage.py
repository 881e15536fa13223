"""The web page: one self-contained HTML file that advises, plays, coaches and reviews offline.

``page(tables)`` assembles ``web/page.html``, ``web/style.css``, ``web/core.js``
(the pure computation) and ``web/ui.js`` (the thin DOM layer) with the data the
core needs: the rules of each reading as data (``reading_data``: every roll and what it
does, from ``game.moves``), and from each table ``start_win`` (float64, little-endian, base64; the
last seat's component is left out, it is one minus the others) and the exact
Go Nuts! payouts. Nothing is fetched at run time.
"""
from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np

from solver import __version__
from solver.errors import GonutsError
from solver.files import atomic_write, check_destination
from solver.game.moves import faces_table
from solver.game.rules import N_DICE, preset
from solver.lab.policies import maxpoints
from solver.play.record import FORMAT, PAGE_TARGET, VERSION

ASSETS = Path(__file__).resolve().parent / "web"
PLAYERS = (2, 3)
READINGS = ("rulebook", "summary")
TARGET = 50
SIZE_LIMIT = 12_000_000


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


def game_data(table) -> dict:
    """What the page's core needs from one table: its values, payouts and the maxpoints rule."""
    rules = table.rules
    reading = rules.preset_name()
    if rules.game != "gonuts" or reading is None or rules.speed != 1.0:
        raise GonutsError(f"the page plays the rulebook and summary readings only, not {rules.describe()}")
    N = rules.players
    sw = np.ascontiguousarray(table.arrays["start_win"][..., :N - 1], dtype="<f8")
    mp = maxpoints(rules, N_DICE).roll_tn[:rules.target]
    return {
        "players": N, "target": rules.target, "reading": reading,
        "rules": rules.to_dict(),
        "start_win": base64.b64encode(sw.tobytes()).decode("ascii"),
        "nuts_payout": table.arrays["nuts_payout"].tolist(),
        # maxpoints: roll at (t, n) iff maxpoints[n][t] == "1" (n = 1..5; index 0 unused)
        "maxpoints": ["".join("1" if mp[t, n] else "0" for t in range(rules.target)) for n in range(N_DICE + 1)],
        "source": {"checksum": table.meta["checksum"], "package_version": table.meta["package_version"]},
    }


def page_data(tables) -> dict:
    """Everything the page's core reads (``GonutsCore(data)``): the rules as data and each table's game."""
    games = {}
    for t in tables:
        d = game_data(t)
        games[f"{d['players']}-{d['reading']}"] = d
    if not games:
        raise GonutsError("the page needs at least one table")
    return {"package_version": __version__, "readings": {r: reading_data(r) for r in READINGS},
            "record": {"format": FORMAT, "version": VERSION, "target": PAGE_TARGET}, "games": games}


def page(tables) -> str:
    """The HTML of the page embedding ``tables`` (an iterable of loaded ``Table``)."""
    data = json.dumps(page_data(tables), separators=(",", ":"))
    # JSON inside <script>: no "</" may appear; "<" is escaped as in any JSON string.
    data = data.replace("<", "\\u003c")
    html = (ASSETS / "page.html").read_text(encoding="utf-8")
    parts = {
        "/*@STYLE@*/": (ASSETS / "style.css").read_text(encoding="utf-8"),
        "/*@CORE@*/": (ASSETS / "core.js").read_text(encoding="utf-8"),
        "/*@UI@*/": (ASSETS / "ui.js").read_text(encoding="utf-8"),
        "@DATA@": data,
    }
    html = html.replace("@VERSION@", __version__)
    for marker, text in parts.items():
        if html.count(marker) != 1:
            raise GonutsError(f"page template: marker {marker} must appear exactly once")
        html = html.replace(marker, text)
    return html


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
