"""``review``: one game record, or a table's history (the page's Table export, format ``gonuts-history``: the
games a phone kept, newest first), each game replayed and every asked seat reviewed (``play.record``)."""
from __future__ import annotations

from solver.commands import games, text
from solver.errors import UsageError, show
from solver.play.record import RecordError, read_file, replay, reviews

HISTORY = "gonuts-history"
MAX_GAMES = 1000


def records_of(data) -> tuple[list, bool]:
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


def review_file(path, seat, all_seats: bool, game) -> tuple[dict, str]:
    """(the --json object, the words) of ``review PATH``; every game and seat checked before any table."""
    found, history = records_of(read_file(path))
    if game is not None and not history:
        raise UsageError("--game picks one game of a history file (the page's Table export); this is one record")
    if game is not None and game > len(found):
        raise UsageError(f"--game {game}: the history holds {len(found)} game{'s' if len(found) != 1 else ''}")
    picked = [(game, found[game - 1])] if game is not None else list(enumerate(found, 1))
    jobs = []
    for k, record in picked:
        try:
            rep = replay(record)
        except RecordError as exc:
            raise RecordError(f"game {k}: {exc}" if history else str(exc)) from None
        every = all_seats or (history and seat is None)
        seats = range(rep.rules.players) if every else [rep.you if seat is None else seat]
        [rep.of(s) for s in seats]                # every seat checked before a table is read or built
        jobs.append((k, rep, seats))
    tables = {}
    for _, rep, _ in jobs:                        # every table read (or refused) before any review
        if rep.rules not in tables:
            tables[rep.rules] = games.record_table(rep.rules)
    done = []
    for k, rep, seats in jobs:
        rvs = reviews(rep, tables[rep.rules], seats)
        obj = {"seats": [rv.to_dict() for rv in rvs]} if len(seats) != 1 or all_seats or history else rvs[0].to_dict()
        words = "\n\n".join(text.review(rv) for rv in rvs)
        done.append((k, obj, words))
    if not history:
        return done[0][1], done[0][2]
    return ({"format": HISTORY, "games": [{"game": k, **obj} for k, obj, _ in done]},
            "\n\n".join(f"== game {k} of {len(found)} ==\n{words}" for k, _, words in done))
