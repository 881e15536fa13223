"""The page's data, as the page receives it: the rules of each reading (``reading_data``: every roll and
what it does, from ``game.moves``), each game's start-of-turn values and exact Go Nuts! payouts
(``game_data``, encoded by ``pagevalues``), the rule cards, and the page's constants. The rules live in
Python; the page is given them as data.
The page reads this data in ``solver/site/web/src/core/pagevalues.js`` (the twin of ``pagevalues``).
"""
from __future__ import annotations

import base64
import functools
import hashlib
import json
from collections.abc import Callable, Container, Iterable
from pathlib import Path
from typing import Any

from solver.engine.solve import EPS, MAX_PI, MAX_VI, TOLERANCE, Progress
from solver.engine.wasm import WASM
from solver.errors import GonutsError
from solver.files import atomic_write, cache_dir, cache_folder, cache_trusted
from solver.game.moves import faces_table
from solver.game.rules import N_DICE, Rules
from solver.lab.policies import maxpoints
from solver.play import practice
from solver.play.events import REFUSALS
from solver.play.explain import nuts_means
from solver.play.names import MARKS_MAX, NAME_MAX
from solver.play.record import FORMAT, MAX_DEPTH, MAX_EVENTS, MAX_RECORD_BYTES, PAGE_TARGET, VERSION
from solver.site.pagevalues import SHIPPED_PAGE, encoded
from solver.store.locate import shipped_dir
from solver.store.tables import Table
from solver.version import __version__

Place = Callable[[str, bytes], dict[str, str]]
"""``place(key, blob)``: where a game's values go, as the keys to add to its ``start_win`` descriptor."""
PageGame = Table | tuple[dict[str, Any], bytes]
"""A game the page embeds: a loaded table, or ``game_data``'s (dict, bytes) (``shipped_game`` gives them)."""
PlaceFile = Callable[[str, bytes], str]
"""``place_file(name, blob)``: a site file's address for the kernel or the worker."""

READINGS = ("rulebook", "summary")


TARGET = 50


# The games the page solves itself (web/src/core/solve.js over the WebAssembly kernel): any target in this range,
# and the Go Nuts! round's speed among these (half as fast as printed, as printed, twice as fast).
SOLVE_TARGETS = (10, 100)
SPEEDS = (0.5, 1.0, 2.0)
# What the games a browser keeps solved may take together (page/kept.js drops the least recently used past it):
# ten 4-player games to 30, or a hundred 3-player games to 50.
KEPT_BUDGET = 256 * 2 ** 20
# The largest record of a kept game's values (page/kept.js keeps a game in parts): Chromium refuses to keep one
# value over 127 MB, and the 4-player game to 50 has 216 MB.
KEPT_PART = 32 * 2 ** 20
# A solving worker silent this many seconds beyond its estimate (or three times it) is taken for dead where the
# browser has no Web Locks to say so (page/solving.js): a layer of the largest game offered takes a few seconds.
SOLVE_PATIENCE = 20
# The worker that runs the kernel off the page's main thread (npm run build: web/src/worker.js).
WORKER = Path(__file__).resolve().parent / "web" / "worker.js"
# The worker that reads QR codes from the camera's frames (npm run build: web/src/scanner.js): players' own phones.
SCANNER = Path(__file__).resolve().parent / "web" / "scanner.js"


def speed_key(speed: float) -> str:
    """A speed as the page writes it in keys and records ("0.5", "1", "2": JavaScript's String(number))."""
    return f"{speed:g}"


@functools.cache
def turn_rules(reading: str, players: int, speed: float) -> dict[str, Any]:
    """What a solved game needs beside its values, for every target up to the page's highest: the maxpoints
    rule (its decisions do not depend on the target: ``maxpoints`` solves the uncut turn) and the exact mean of
    a Go Nuts! round by its dice (``nuts_means``)."""
    rules = Rules.from_options(reading=reading, players=players, target=SOLVE_TARGETS[1], speed=speed)
    mp = maxpoints(rules, N_DICE).roll_tn
    means = nuts_means(rules)
    return {"maxpoints": ["".join("1" if mp[t, n] else "0" for t in range(rules.target)) for n in range(N_DICE + 1)],
            "nuts_mean": [0.0] + [means[x] for x in range(1, N_DICE + 1)]}


# The code that decides a reading's turn rules: its text is in the kept file's name, so that no change to it is
# ever answered from a file that older code wrote
TURN_SOURCES = ("game/payout.py", "game/turn.py", "game/moves.py", "game/rolls.py", "game/rules.py",
                "lab/policies.py", "play/explain.py", "site/pagegames.py")
PACKAGE = Path(__file__).resolve().parent.parent


def turn_data() -> dict[str, Any]:
    """Every reading's ``turn_rules``, by players and speed: 18 maxpoints solves (seconds, at every ``web``),
    kept in the cache (``page/turn-DIGEST.json``) under a digest of the code that computes them and of what it
    is asked, and read back only when it is this program's own file and holds what it should."""
    digest = hashlib.sha256(json.dumps([__version__, SOLVE_TARGETS, SPEEDS, READINGS, N_DICE]).encode())
    for name in TURN_SOURCES:
        digest.update((PACKAGE / name).read_bytes())
    path = cache_dir() / "page" / f"turn-{digest.hexdigest()[:32]}.json"
    try:
        if cache_trusted(path, folder=False) is not None:
            raise ValueError("not safe to read")
        kept = json.loads(path.read_text(encoding="utf-8"))
        if _is_turn_data(kept):
            return dict(kept)
    except (OSError, ValueError):
        pass
    data = {r: {str(p): {speed_key(s): turn_rules(r, p, s) for s in SPEEDS} for p in (2, 3, 4)} for r in READINGS}
    try:
        cache_folder("page")
        atomic_write(path, lambda fh: fh.write(json.dumps(data).encode("utf-8")))
    except (OSError, GonutsError):
        pass                                     # an unwritable cache only costs time
    return data


def _is_turn_data(data: object) -> bool:
    """Whether ``data`` has the shape ``turn_data`` writes: every reading, player count and speed, each with its
    maxpoints decisions (a 0/1 string per number of dice, one character per turn total) and its round means."""
    G = SOLVE_TARGETS[1]

    def keyed(d: object, keys: Iterable[str]) -> bool:
        return isinstance(d, dict) and sorted(d) == sorted(keys)

    def one(rules: object) -> bool:
        if not isinstance(rules, dict) or not keyed(rules, ("maxpoints", "nuts_mean")):
            return False
        mp, means = rules["maxpoints"], rules["nuts_mean"]
        return (isinstance(mp, list) and len(mp) == N_DICE + 1
                and all(isinstance(x, str) and len(x) == G and set(x) <= {"0", "1"} for x in mp)
                and isinstance(means, list) and len(means) == N_DICE + 1
                and all(isinstance(x, float) and x >= 0 for x in means))
    if not isinstance(data, dict) or not keyed(data, READINGS):
        return False
    for by_players in data.values():
        if not isinstance(by_players, dict) or not keyed(by_players, ("2", "3", "4")):
            return False
        for by_speed in by_players.values():
            if not keyed(by_speed, (speed_key(s) for s in SPEEDS)) or not all(map(one, by_speed.values())):
                return False
    return True


def solve_data(place_file: PlaceFile | None = None) -> dict[str, Any]:
    """What the page needs to solve a game itself: the targets and speeds it offers, the solver's settings (those
    of ``gonuts-solve build``), each reading's per-game rules (``turn_rules``), and where the kernel and its
    worker are: ``place_file(name, bytes)`` returns a site file's address; without it both travel inside the
    page (the kernel in base64, the worker as text: the single file fetches nothing)."""
    kernel, worker = WASM.read_bytes(), WORKER.read_bytes()
    if place_file is None:
        where_kernel = {"data": base64.b64encode(kernel).decode("ascii")}
        where_worker = {"text": worker.decode("utf-8")}
    else:
        where_kernel = {"url": place_file("kernels.wasm", kernel)}
        where_worker = {"url": place_file("solve-worker.js", worker)}
    return {"targets": list(SOLVE_TARGETS), "speeds": list(SPEEDS),
            "settings": {"tol": TOLERANCE, "eps": EPS, "max_pi": MAX_PI, "max_vi": MAX_VI},
            "turn": turn_data(),
            "kernel": {**where_kernel, "bytes": len(kernel)}, "worker": where_worker, "budget": KEPT_BUDGET,
            "part": KEPT_PART, "patience": SOLVE_PATIENCE}


def scanner_data(place_file: PlaceFile | None = None) -> dict[str, str]:
    """Where the QR reader's worker is (players' own phones, page/qr.js): its text inside the single file, a file
    of the site (fetched only by a phone that scans without the browser's own BarcodeDetector)."""
    script = SCANNER.read_bytes()
    return {"text": script.decode("utf-8")} if place_file is None else {"url": place_file("scanner.js", script)}


def reading_data(reading: str) -> dict[str, Any]:
    """The rules of one reading, as the page's core reads them: nothing there is derived again.

    ``rules``: the knobs (``Rules.to_dict``, players and target left out: a game sets them).
    ``rolls[n]``: every roll of n live dice as ``[acorns, squirrels, cars, p, kind, x, live]``
    (``game.moves``: kind ``bust``, ``nuts`` with x = the round's dice, or ``move`` with x acorns
    and ``live`` dice after the one-die rule); p is the exact probability rounded once.
    ``nuts_gain``: ``replaces`` or ``adds to`` the turn points, the Go Nuts! round's acorns."""
    rules = Rules.from_options(reading=reading)
    knobs = rules.to_dict()
    return {
        "rules": {k: v for k, v in knobs.items() if k not in ("players", "target")},
        "rolls": {str(n): [list(r) for r in rolls] for n, rolls in faces_table(rules).items()},
        "nuts_gain": "replaces" if rules.nuts_costs_turn else "adds to",
        "dice": N_DICE,
    }


def game_data(table: Table, progress: Progress | None = None) -> tuple[dict[str, Any], bytes]:
    """What the page's core needs from one table (its payouts, its maxpoints rule, how its values are
    encoded) and the bytes of those values. ``progress(done, total)`` follows a 4-player encoding."""
    rules = table.rules
    reading = rules.reading_name()
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


RULE_CARDS = shipped_dir() / SHIPPED_PAGE / "rule-cards.json"


CARD_RULES = ("hold", "hold_dice", "per_dice")     # the rules a person can keep in mind (not maxpoints)


def rule_card_entry(simple: dict[str, Any]) -> dict[str, Any]:
    """One game's card from ``simple-rules --json``: each rule a person can keep in mind with its exact
    win probability and cost against optimal players, and which of them is best (the simplest among equals)."""
    rules = {k: {key: simple[k][key] for key in ("policy", "win", "gives_up")} for k in CARD_RULES}
    best = min(CARD_RULES, key=lambda k: (rules[k]["gives_up"], CARD_RULES.index(k)))
    return {"players": simple["rules"]["players"], "fair_share": simple["fair_share"], "best": best, "rules": rules}


def rule_cards(wanted: Container[str], target: int) -> dict[str, Any]:
    """{"N-reading": card} of the shipped cards (bench/rule_cards.py) for the page's games, at its target."""
    try:
        shipped = json.loads(RULE_CARDS.read_text())
    except (OSError, ValueError):
        return {}
    if shipped.get("target") != target:
        return {}
    return {k: v for k, v in shipped.get("cards", {}).items() if k in wanted}


def page_data(tables: Iterable[PageGame], place: Place | None = None,
              place_file: PlaceFile | None = None) -> dict[str, Any]:
    """Everything the page's core reads (``GonutsCore(data)``): the rules as data and each table's game.

    ``tables``: loaded tables, or ``game_data``'s (dict, bytes) pairs (``shipped_game`` gives them too).

    ``place(key, blob)`` says where a game's values go: it returns the keys to add to its ``start_win``
    descriptor (``data``: base64 inside the page, the default; ``url``: a file of the site).
    ``place_file(name, bytes)``: where the solver's kernel and worker go (``solve_data``), and the QR reader's
    worker (``scanner_data``)."""
    if place is None:
        def place(key: str, blob: bytes) -> dict[str, str]:
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
                       "max_bytes": MAX_RECORD_BYTES, "max_depth": MAX_DEPTH, "max_events": MAX_EVENTS,
                       "names": {"max": NAME_MAX, "marks": MARKS_MAX}, "refusals": REFUSALS},
            "precision": {str(d["players"]): d["start_win"]["precision"] for d in games.values()},
            "practice": practice.constants(), "rule_cards": rule_cards(set(games), target),
            "solve": solve_data(place_file), "scanner": scanner_data(place_file), "games": games}
