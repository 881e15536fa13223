"""``review``: one game record, or a table's history (the page's Table export, format ``gonuts-history``: the
games a phone kept, newest first), each game replayed and every asked seat reviewed (``play.record``)."""
from __future__ import annotations

from typing import Any

from solver.commands import asked, text
from solver.errors import UsageError, show
from solver.play.record import RecordError, read_file, replay, reviews

HISTORY = "gonuts-history"
MAX_GAMES = 1000


def records_of(data: Any) -> tuple[list[Any], bool]:
    """(the records, whether it is a history) of a file's JSON: a record is itself; a history is checked."""
    if not (isinstance(data, dict) and data.get("format") == HISTORY):
        return [data], False
    if data.get("version") != 1 or isinstance(data.get("version"), bool):
        raise RecordError(f"unknown history version {show(data.get('version'))} (this version reads 1)")
    found = data.get("games")
    if not isinstance(found, list) or not found:
        raise RecordError('a history\'s "games" must be a list of game records, with at least one')
    if len(found) > MAX_GAMES:
        raise RecordError(f"a history holds at most {MAX_GAMES:,} games, not {len(found):,}")
    return found, True


def review_file(path: str, seat: int | None, all_seats: bool, game: int | None,
                table_path: str | None = None) -> tuple[dict[str, Any] | list[Any], str]:
    """(the --json object, the words) of ``review PATH``; ``seat`` counts from 1 (None: the record's "you").
    Every game and seat is checked, and every table found or its build estimated (the whole file held to
    ``asked.REVIEW_BUILD_SECONDS``), or ``table_path`` read and held to every game's rules, before any
    review; a refusal names its game. Where the page's values answered, the object says so (``values``)."""
    found, history = records_of(read_file(path))
    if game is not None and not history:
        raise UsageError("--game picks one game of a history file (the page's Table export); this is one record")
    if game is not None and game > len(found):
        raise UsageError(f"--game {game}: the history holds {len(found)} game{'s' if len(found) != 1 else ''}")
    picked = [(game, found[game - 1])] if game is not None else list(enumerate(found, 1))

    def named(k: int, message: object) -> str:
        return f"game {k}: {message}" if history else str(message)
    jobs = []
    for k, record in picked:
        try:
            rep = replay(record)
        except RecordError as exc:
            raise RecordError(named(k, exc)) from None
        N = rep.rules.players
        if seat is not None and seat > N:
            raise UsageError(named(k, f"--seat {seat}: this game has {N} players (seats 1 to {N})"))
        every = all_seats or (history and seat is None)
        seats = range(N) if every else [rep.you if seat is None else seat - 1]
        jobs.append((k, rep, seats))
    if table_path is not None:
        from solver.store import tables as stored  # deferred for start-up: numpy
        table = stored.load(table_path)
        for k, rep, _ in jobs:
            if table.rules != rep.rules:
                raise RecordError(named(k, f"the record is for {rep.rules.describe()}, the table {table_path} for "
                                           f"{table.rules.describe()}"))
        tables = {rep.rules: table for _, rep, _ in jobs}
    else:
        tables = asked.record_tables([(k, rep.rules) for k, rep, _ in jobs], named)
    done = []
    for k, rep, seats in jobs:
        rvs = reviews(rep, tables[rep.rules], seats)
        obj: dict[str, Any] = ({"seats": [rv.to_dict() for rv in rvs]} if len(seats) != 1 or all_seats or history
                               else rvs[0].to_dict())
        precision = getattr(tables[rep.rules], "precision", None)
        if precision is not None:
            obj["values"] = {"source": "page data", "precision": precision}
        words = "\n\n".join(text.review(rv) for rv in rvs)
        done.append((k, obj, words))
    if not history:
        return done[0][1], done[0][2]
    return ({"format": HISTORY, "games": [{"game": k, **obj} for k, obj, _ in done]},
            "\n\n".join(f"== game {k} of {len(found)} ==\n{words}" for k, _, words in done))
