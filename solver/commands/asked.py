"""The command line's asks, from its options to a game and a table (``store.library.Tables``: shipped, cached or built
now), and the page it writes (``web``)."""
from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver.commands.progress import progress, progress_every, say
from solver.engine.settings import check_environment as kernel_environment
from solver.errors import CompileError, GonutsError, TableError, UsageError, show
from solver.files import cache_dir, cache_folder
from solver.game.rules import Rules
from solver.numbers import whole, wholes
from solver.store.library import Tables, TooLong, build_command
from solver.store.library import check_build as check_table_build
from solver.store.locate import find_table, table_name

if TYPE_CHECKING:                # annotations only: loading them costs start-up time every command pays
    from solver.engine.resources import Estimate
    from solver.lab.policies import Policy
    from solver.play.advise import Advice
    from solver.store.build import BuildReport
    from solver.store.tables import Table, TableView

Knobs = dict[str, Any]
"""The rules options a user gave (``asked``): knob name -> parsed value."""

KNOBS = ("game", "players", "target", "reading", "faces", "dog", "speed")
PAGE_PLAYERS = (2, 3, 4)                     # the games the web page can hold
PAGE_READINGS = ("rulebook", "summary")


def ints(text: str, name: str, count: int | None = None) -> list[int]:
    """'1, 2,3' -> [1, 2, 3], read as ``solver.numbers`` reads whole numbers (ASCII digits, no empty
    field); not numbers is a usage error, the wrong count a refusal. Ranges are the rules' to check."""
    return wholes(text, name, count, lo=None)


def check_environment() -> None:
    """Every environment variable a command may read, checked before any work: one line if one is bad."""
    kernel_environment()
    progress_every()
    cache_dir()


def asked(game: str | None = None, players: int | None = None, target: int | None = None, reading: str | None = None,
          faces: str | None = None, dog: str | None = None, speed: float | None = None) -> Knobs:
    """The rules knobs the user gave explicitly, parsed."""
    out: Knobs = {k: v for k, v in (("game", game), ("players", players), ("target", target), ("reading", reading),
                             ("speed", speed)) if v is not None}
    if faces is not None:
        out["faces"] = tuple(ints(faces, "--faces", 3))
    if dog is not None:
        out["dog"] = tuple(ints(dog, "--dog", 2))
    return out


def make_rules(knobs: Knobs, players: int | None = None) -> Rules:
    """The rules the knobs ask for (``Rules.from_options``; Pig takes only players and target)."""
    game = knobs.get("game", "gonuts")
    players = knobs.get("players", players or 2)
    target = knobs.get("target", 50)
    if game == "pig":
        extra = sorted(set(knobs) - {"game", "players", "target"})
        if extra:
            raise UsageError(f"--{extra[0]} does not apply to Pig")
        return Rules.from_options(game="pig", players=players, target=target)
    return Rules.from_options(players=players, target=target, reading=knobs.get("reading", "rulebook"),
                              **{k: knobs[k] for k in ("faces", "dog", "speed") if k in knobs})


def rules_for(knobs: Knobs, n_scores: int) -> Rules:
    """The rules of a question with ``n_scores`` scores: ``--players`` if given, else one player per score."""
    players = knobs.get("players")
    if players is None and 2 <= n_scores <= 4:
        players = n_scores
    return make_rules(knobs, players)


def check_against(table: TableView | Rules, knobs: Knobs) -> None:
    """Refuse a table (or its rules) whose rules differ from any option the user gave."""
    r: Rules = table if isinstance(table, Rules) else table.rules
    have = {"game": r.game, "players": r.players, "target": r.target, "faces": r.faces, "dog": r.dog,
            "speed": r.speed, "reading": r.reading_name()}
    for key, want in knobs.items():
        if have[key] != want:
            shown = ",".join(map(str, want)) if isinstance(want, tuple) else want
            flag = "rules" if key == "reading" else key          # the reading's flag is --rules
            raise TableError(f"the table was built for {r.describe()}, not --{flag} {shown}")


def check_build(rules: Rules, out: Path | str, resume: bool = False, force: bool | None = False,
                max_seconds: float | None = None) -> Estimate:
    """``store.library.check_build``: the estimate, or a refusal before any work."""
    return check_table_build(rules, out, resume, force, max_seconds)


def tables(max_seconds: float | None = None, page: bool = False) -> Tables:
    """The command line's ``Tables``: its lines on stderr, its progress bar, the page's values where asked."""
    def page_values(rules: Rules, note: Callable[[], object] | None) -> Any:
        from solver.site.pagetable import page_table  # deferred for start-up: the page's values import numpy
        return page_table(rules, note)
    return Tables(max_build_seconds=max_seconds, page_values=page_values if page else None, note=say,
                  bar=lambda: progress("solving", True))


def build_with_progress(rules: Rules, out: Path, resume: bool = False, force: bool = False, quiet: bool = False,
                        checkpoint_every: float | None = None, est: Estimate | None = None) -> BuildReport:
    """Build (checked first by ``check_build`` unless its ``est`` is given) with the estimate on stderr and
    a progress bar."""
    return tables().build(rules, out, est=est, quiet=quiet, resume=resume, force=force,
                          checkpoint_every=checkpoint_every)


def load_for(knobs: Knobs, n_scores: int, read: Callable[[Path, Rules], Any] | None = None,
             max_seconds: float | None = None, page: Callable[[Any], Any] | None = None) -> Any:
    """The table for the asked rules: shipped, cached, or built now (with progress) into the cache
    (``store.library.Tables``, with the command line's lines and bar).

    ``read(path, rules)`` reads it (default: ``tables.load``); a cached table it refuses is built again.
    With ``max_seconds``, a build estimated to take longer is refused, naming the command that builds it.
    With ``page(table)``, where the table cannot be built here (no kernel and no compiler) or not within
    ``max_seconds``, the page's values answer instead (``pagetable``: 4 players at target 50), said in one
    line with their precision and the command that builds the exact table."""
    return tables(max_seconds, page is not None).get(rules_for(knobs, n_scores), read, page)


def fallback_to_page(rules: Rules, cause: Exception | None, folder: Path) -> Any:
    """The page's values of ``rules``, said in one line with why (``cause``: the refusal, or None for a build
    that takes a while), or None where the page data of that game is not shipped."""
    return tables(page=True).from_page(rules, cause if cause is not None else TooLong(""), folder)


def table_asked(knobs: Knobs, table_path: str | None = None, players: int | None = None) -> Any:
    """The table a command reads: ``--table`` (checked against the knobs given), else ``load_for``."""
    if table_path:
        from solver.store import tables  # deferred for start-up: see load_for
        table = tables.load(table_path)
        check_against(table, knobs)
        return table
    return load_for(knobs, players if players is not None else knobs.get("players", 2))


def policy_game(knobs: Knobs, policies: str, table_path: str | None,
                quiet: bool) -> tuple[list[str], Rules, list[Policy], Table | None, dict[str, object] | None]:
    """(specs, rules, policies, table, best-response report) for ``--policies``: ``best`` seats solved."""
    from solver.lab.strategy import resolve  # deferred for start-up: see load_for
    specs = [p.strip() for p in policies.split(",") if p.strip()]
    if not specs:
        raise GonutsError("--policies: give one policy per seat, comma-separated")
    holder: dict[str, Any] = {}
    if table_path:
        holder["t"] = table_asked(knobs, table_path)
        rules = holder["t"].rules
    else:
        rules = make_rules(knobs, knobs.get("players") or (len(specs) if 2 <= len(specs) <= 4 else 2))

    def optimal() -> Any:
        if "t" not in holder:
            holder["t"] = load_for({**knobs, "players": rules.players}, rules.players)
        return holder["t"]
    with progress("best response", not quiet and rules.players >= 3 and "best" in specs) as bar:
        pols = resolve(specs, rules, optimal, table=holder.get("t"), progress=bar)
    table = holder.get("t") or (optimal() if "optimal" in specs else None)
    return specs, rules, pols, table, next((r for r in (getattr(p, "report", None) for p in pols) if r), None)


def explain_for(table_path: str | None, rules: Rules, a: Advice) -> dict[str, Any]:
    """``advise --explain``: the explain object of the state just advised, from the same table."""
    from solver.play.explain import explain_path  # deferred for start-up: only --explain pays for it
    path = table_path or find_table(rules)
    if path is None:
        raise TableError(f"no table of {rules.describe()} to explain from: build it first")
    return explain_path(path, a.scores, a.turn, a.dice, expect=rules)


def advise_answer(knobs: Knobs, table_path: str | None, rules: Rules, scores: tuple[int, ...], turn: int, dice: int,
                  explain: bool) -> tuple[Advice, Rules, dict[str, Any]]:
    """``advise``: (Advice, rules, the --json keys beyond them: ``explain``, and ``values`` where the page's
    values answered), from ``--table``, or the shipped, cached or built table, or the page's values."""
    from solver.play.advise import advise, advise_path  # deferred for start-up: see load_for
    page: list[Any] = []

    def read(path: Path | str, rules: Rules) -> tuple[Advice, Rules]:
        return advise_path(path, scores, turn, dice, expect=rules)

    def from_page(table: Any) -> tuple[Advice, Rules]:      # no exact table, nor a way to build one: the page's values
        page.append(table)
        return advise(table, scores, turn, dice), table.rules
    a, rules = read(table_path, rules) if table_path else load_for(knobs, len(scores), read, page=from_page)
    extra: dict[str, Any] = {"values": {"source": "page data", "precision": page[0].precision}} if page else {}
    if explain:
        extra["explain"] = explain_page(page[0], a) if page else explain_for(table_path, rules, a)
    return a, rules, extra


def explain_page(table: TableView, a: Advice) -> dict[str, Any]:
    """``advise --explain`` from the page's values (``pagetable.PageTable``)."""
    from solver.play.backup import after_turn  # deferred for start-up: only --explain pays for it
    from solver.play.explain import explain  # deferred for start-up: only --explain pays for it
    W, pay = table.arrays["start_win"], table.arrays["nuts_payout"].tolist()
    s = a.scores
    return explain(table.rules, pay, after_turn(W, s), s[0], a.turn, a.dice)


REVIEW_BUILD_SECONDS = 10.0      # a record's review builds a missing table only when the estimate is this quick


def record_table(rules: Rules) -> Any:
    """The table to review a record of these rules with (``record_tables`` of one game)."""
    return record_tables([(1, rules)], lambda k, message: message)[rules]


def record_tables(wanted: Iterable[tuple[int, Rules]], named: Callable[[int, Any], str]) -> dict[Rules, Any]:
    """{rules: table} to review the games ``wanted`` ((game number, rules), ...) with. A record is anybody's
    file: every table is found (shipped or cached), or the page's values chosen where the exact one cannot be
    built here or not quickly, or its build estimated, and the builds of the whole file are held together to
    ``REVIEW_BUILD_SECONDS``, before any table is read or built; beyond that the refusal names the game and
    the command that builds its table. ``named(k, message)`` prefixes a message with its game."""
    from solver.site.pagevalues import is_shipped  # deferred for start-up: the page's data import numpy
    firsts: dict[Rules, int] = {}
    for k, rules in wanted:
        firsts.setdefault(rules, k)
    page: dict[Rules, Exception | None] = {}                               # rules -> why the page's values answer
    builds: list[tuple[int, Rules, Any]] = []                             # (k, rules, estimate)
    for rules, k in firsts.items():
        if find_table(rules) is not None:
            continue
        reading = rules.reading_name()
        shipped = rules.game == "gonuts" and reading is not None and is_shipped(rules.players, reading, rules.target)
        try:
            est = check_build(rules, cache_folder() / table_name(rules), force=None)
        except CompileError as exc:
            if not shipped:
                raise
            page[rules] = exc
            continue
        except GonutsError as exc:
            raise type(exc)(named(k, exc)) from None
        if est.seconds > REVIEW_BUILD_SECONDS and shipped:
            page[rules] = None
        else:
            builds.append((k, rules, est))
    total = sum(est.seconds for _, _, est in builds)
    if total > REVIEW_BUILD_SECONDS:
        k, rules, est = max(builds, key=lambda b: b[2].seconds)
        raise TooLong(named(k, f"no table for {rules.describe()} yet; building the tables of this file takes "
                               f"about {total:.0f} s (this one {est.brief()}), so build them first: "
                               f"{build_command(rules, cache_folder())}{os.sep}"))
    out: dict[Rules, Any] = {}
    for rules, k in firsts.items():
        if rules in page:
            out[rules] = fallback_to_page(rules, page[rules], cache_folder())
            if out[rules] is None:
                raise TableError(named(k, f"the shipped page data of {rules.describe()} cannot be read"))
        else:
            knobs: Knobs = {"players": rules.players, "reading": rules.reading_name(), "target": rules.target}
            if rules.speed != 1.0:                # a record of the page's game at another Go Nuts! speed
                knobs["speed"] = rules.speed
            out[rules] = load_for(knobs, rules.players)
    return out


def write_web(wanted: Sequence[tuple[int, str]], target: int, out: str | None, site: str | None, force: bool,
              inline: bool = False) -> dict[str, Any]:
    """``web``: the page of the ``wanted`` (players, reading) games as one file ``out`` or a ``site``
    folder. Each game's data is shipped (4 players at target 50), or read from its table (shipped, cached
    or built first: every table before any encoding). Returns the summary ``--json`` prints. ``inline``:
    the site's page with its data and code inside (``website.site``; a bench's baseline)."""
    from solver.site import pagegames, pagevalues, webpage, website  # deferred for start-up: they import numpy
    loaded: list[Any] = []
    for n, r in wanted:                         # every table first: a refusal comes before any encoding
        shipped = pagevalues.shipped_game(n, r, target)
        loaded.append(shipped or load_for({"players": n, "reading": r, "target": target}, n))
    for i, item in enumerate(loaded):
        if not isinstance(item, tuple):
            with progress(f"encoding the {item.rules.describe()} page data", not pagevalues.is_encoded(item)) as bar:
                loaded[i] = pagegames.game_data(item, bar)
    if site:
        summary = website.site(loaded, site, force=force, inline=inline)
        size, files = summary["bytes"], summary["files"]
    else:
        if out is None:
            raise UsageError("web: give --out or --site")
        size, files = webpage.write(out, webpage.page(loaded)), 1
    return {"path": str(site or out), "bytes": size, "files": files, "games": [f"{n}-{r}" for n, r in wanted],
            "target": target}


def games_asked(players_text: str, rules_text: str) -> list[tuple[int, str]]:
    """``web``'s ``--players 2,3 --rules rulebook`` -> [(2, "rulebook"), (3, "rulebook")]; a value that is
    not one of the choices exits 2 and a number out of range 1, as in every command."""
    players = parse_list(players_text, PAGE_PLAYERS, "players")
    return [(n, r) for n in players for r in parse_list(rules_text, PAGE_READINGS, "rules")]


def parse_list(text: str, allowed: Sequence[Any], what: str) -> tuple[Any, ...]:
    """'2,3' -> (2, 3), refusing anything not in ``allowed`` by name (numbers read by ``solver.numbers``)."""
    fields = [x.strip() for x in str(text).split(",")]
    if not any(fields):
        raise UsageError(f"--{what}: give at least one of {', '.join(map(str, allowed))}")
    if not all(fields):
        raise UsageError(f"--{what}: an empty item in {show(str(text))}; give {', '.join(map(str, allowed))}")
    out: list[Any] = []
    for x in fields:
        value = whole(x, f"--{what}") if isinstance(allowed[0], int) else x
        if value not in allowed:                # as in every command: a name not among the choices exits 2,
            error = GonutsError if isinstance(value, int) else UsageError      # a number out of range 1
            raise error(f"--{what}: {show(x)} is not one of {', '.join(map(str, allowed))}")
        if value not in out:
            out.append(value)
    return tuple(out)
