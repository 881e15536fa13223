"""Game records and their review: what the web page exports and ``gonuts-solve review`` reads.

A record (format ``gonuts-game``, version 1; documented in the README) is the
game's configuration and the list of what happened, in order::

    {"format": "gonuts-game", "version": 1, "reading": "rulebook", "players": 2,
     "target": 50, "you": 0, "mode": "play", "seed": 42,
     "events": [{"seat": 0, "roll": [2, 2, 1]}, {"seat": 0, "choice": "roll"}, ...]}

``reading`` is which reading of the rules the game was played by (records written before it had
that name call it ``rules``: both are read, never both at once). Seats are numbered in turn order,
seat 0 moves first; ``you`` is the seat of the person whose decisions are reviewed. Events:

* ``{"seat": k, "roll": [acorns, squirrels, cars]}``: a roll of the live dice.
* ``{"seat": k, "choice": "roll" | "stop"}``: a decision after a roll.
* ``{"seat": k, "nuts": acorns}``: the acorns of the Go Nuts! round that an
  all-squirrel roll started.
* ``{"seat": k, "banked": points}``: a whole turn of another player entered
  as the points it banked (coaching at a real table); not for seat ``you``,
  except in a table game (``"mode": "table"``), where any player's turn may be.

Every seat's decisions are kept; ``review`` values one seat's (``you`` by default).

``replay`` applies the rules of docs/RULES.md to the events through the one game
loop (``game.loop``) and refuses the first one that cannot happen, naming it. ``review`` values every decision of seat
``you`` with ``solver.play.advise`` (the numbers of ``advise --json``); the loss of
a decision is the win probability of the better action minus that of the
action taken, in percentage points.
Twin in the page: ``solver/site/web/src/core/record.js``.
"""
from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn

from solver.errors import GonutsError, show
from solver.files import StrPath, check_source
from solver.game.loop import OVER, IllegalEvent, check, new_game, step
from solver.game.rules import N_DICE, READINGS, Rules
from solver.play.advise import advise
from solver.play.events import as_whole, event_value, is_whole, refusal
from solver.play.luck import Split, split
from solver.play.names import table_names

if TYPE_CHECKING:                # annotations only: this path stays numpy-free (pyproject's import contracts)
    from solver.store.tables import TableView

FORMAT = "gonuts-game"
VERSION = 1
PAGE_TARGET = 50


class RecordError(GonutsError):
    """A game record that is malformed or that the rules cannot have produced."""


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed seat: the state in turn order from that seat, and the choice."""
    event: int            # index in the record's events
    scores: tuple[int, ...]   # banked scores, the deciding player first
    turn: int
    dice: int
    taken: str            # "roll" or "stop"


@dataclass(frozen=True)
class Replay:
    rules: Rules
    you: int
    scores: tuple[int, ...]   # final banked scores, seat order
    winner: int | None
    decisions: tuple[Decision, ...]   # Decision of seat ``you``
    events: int
    seat: int = 0         # where the game stands: the player to move,
    turn: int = 0         # the turn points,
    dice: int = N_DICE    # the live dice,
    phase: str = "start"  # what comes next: start, roll, decide, nuts or over,
    nuts_dice: int | None = None    # and the dice of a Go Nuts! round waiting for its acorns
    # every seat's Decisions, seat by seat (a table game reviews any seat)
    by_seat: tuple[tuple[Decision, ...], ...] = ()
    mode: str | None = None
    # (event index, the state before it, kind, value as ``loop.step`` takes it), in order
    trace: tuple[tuple[int, Any, str, Any], ...] = ()
    names: tuple[str, ...] = ()     # the players' names, if the record gives one (a string) for every seat

    def of(self, seat: int) -> tuple[Decision, ...]:
        """The decisions of one seat, in its own frame (its score first)."""
        if not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < self.rules.players):
            raise RecordError(f"seat {show(seat)} does not exist with {self.rules.players} players "
                              f"(0 to {self.rules.players - 1})")
        return self.by_seat[seat]

    def state(self) -> dict[str, Any]:
        """Where the record leaves the game, as the page's core reports it (the shared fixture's form)."""
        return {"scores": list(self.scores), "winner": self.winner, "seat": self.seat, "turn": self.turn,
                "dice": self.dice, "phase": self.phase, "nuts_dice": self.nuts_dice, "events": self.events,
                "decisions": [{"event": d.event, "scores": list(d.scores), "turn": d.turn, "dice": d.dice,
                               "taken": d.taken} for d in self.decisions]}


MAX_RECORD_BYTES = 16_000_000     # a record file larger than this is refused before it is read
MAX_DEPTH = 32                    # JSON nesting (a record needs 4: record, events, event, roll)
MAX_EVENTS = 200_000
_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32 (little-endian)"), (b"\x00\x00\xfe\xff", "UTF-32 (big-endian)"),
         (b"\xff\xfe", "UTF-16 (little-endian)"), (b"\xfe\xff", "UTF-16 (big-endian)"))


def read_file(path: StrPath) -> Any:
    """The JSON of a record file, or a RecordError that says why it cannot be read (a FIFO or a device is
    refused at once: it would block, or never end)."""
    check_source(path, "game record", RecordError)
    try:
        size = os.path.getsize(path)
        if size > MAX_RECORD_BYTES:
            raise RecordError(f"{path} is {size:,} bytes; a game record is at most {MAX_RECORD_BYTES:,}")
        with open(path, "rb") as fh:
            data = fh.read(MAX_RECORD_BYTES + 1)
    except FileNotFoundError:
        raise RecordError(f"no game record at {path}") from None
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    return parse_bytes(data, str(path))


def parse_bytes(data: bytes, name: str) -> Any:
    """A record file's bytes -> its JSON, by the rules the page applies too (tests/fixtures/record_files.json):
    UTF-8 with or without a byte-order mark, anything else refused by name; at most MAX_RECORD_BYTES
    and MAX_DEPTH levels of nesting."""
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"{name} is {len(data):,} bytes; a game record is at most {MAX_RECORD_BYTES:,}")
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            raise RecordError(f"{name} is {encoding} text, not UTF-8: save it as UTF-8")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"{name} is not UTF-8 text") from None
    if nesting(text) > MAX_DEPTH:
        raise RecordError(f"{name} nests deeper than {MAX_DEPTH} levels; a game record needs 4")
    try:
        return json.loads(text, parse_constant=_not_json, parse_int=_js_int)
    except (ValueError, RecursionError):            # JSONDecodeError is a ValueError
        raise RecordError(f"{name} is not JSON") from None


def _not_json(word: str) -> NoReturn:
    """NaN, Infinity and -Infinity: Python's json reads them, JSON (and the page's JSON.parse) does not."""
    raise ValueError(f"{word} is not JSON")


def _js_int(digits: str) -> int | float:
    """An integer as the page's JSON.parse reads it: exact up to 2^53, beyond that a float (which the whole-
    number checks then refuse); never Python's slow, digit-limited conversion of a huge number."""
    return int(digits) if len(digits.lstrip("-")) <= 15 else float(digits)


def nesting(text: str) -> int:
    """The deepest nesting of [ and { outside strings (what the page counts the same way)."""
    depth = deepest = 0
    inside = escaped = False
    for ch in text:
        if inside:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                inside = False
        elif ch == '"':
            inside = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def reading_of(record: dict[str, Any]) -> object:
    """The record's reading: ``"reading"``, or in a record written before it had that name, ``"rules"``; a record
    with both is refused (which would it be?)."""
    if "reading" in record and "rules" in record:
        raise RecordError('a game record names its reading once: "reading" (older records: "rules"), not both')
    return record.get("reading", record.get("rules"))


def rules_of(record: dict[str, Any]) -> tuple[Rules, int]:
    """Check the record's header; returns its rules and the reviewed seat."""
    if not isinstance(record, dict):
        raise RecordError("a game record must be a JSON object")
    if record.get("format") != FORMAT:
        raise RecordError(f"not a game record: \"format\" must be \"{FORMAT}\"")
    if not (is_whole(record.get("version")) and as_whole(record["version"]) == VERSION):
        raise RecordError(f"unknown record version {show(record.get('version'))} (this version reads {VERSION})")
    reading = reading_of(record)
    if reading not in READINGS:
        raise RecordError(f"\"reading\" must be one of {', '.join(READINGS)}, not {show(reading)}")
    players = record.get("players")
    if not is_whole(players) or not 2 <= as_whole(players) <= 4:
        raise RecordError(f"\"players\" must be 2, 3 or 4, not {show(players)}")
    target = record.get("target", PAGE_TARGET)
    if not is_whole(target, 1) or not isinstance(as_whole(target), int):
        raise RecordError(f"\"target\" must be a whole number of at least 1, not {show(target)}")
    players, target = as_whole(players), as_whole(target)
    speed = record.get("speed", 1)
    if not _speed(speed):
        raise RecordError(f"\"speed\" must be a number above 0 and at most 100 (throws per tick), not {show(speed)}")
    you = record.get("you")
    if not is_whole(you) or as_whole(you) >= players:
        raise RecordError(f"\"you\" must be a seat from 0 to {players - 1}, not {show(you)}")
    if not isinstance(record.get("events"), list):
        raise RecordError("\"events\" must be a list")
    if len(record["events"]) > MAX_EVENTS:
        raise RecordError(f"a game record holds at most {MAX_EVENTS:,} events, not {len(record['events']):,}")
    you = as_whole(you)
    return Rules.from_options(reading=reading, players=players, target=target, speed=float(speed)), you


def _speed(x: object) -> bool:
    """A record's Go Nuts! speed, as the page writes it (a JSON number) and ``Rules`` takes it."""
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and 0 < x <= 100


def replay(record: Any) -> Replay:
    """Apply the rules to the record's events (``game.loop``); the first impossible one is refused by number."""
    rules, you = rules_of(record)
    N = rules.players
    state = new_game(rules)
    by_seat: list[list[Decision]] = [[] for _ in range(N)]
    trace = []
    table_mode = record.get("mode") == "table"
    for i, ev in enumerate(record["events"]):
        where = f"event {i}"
        if not isinstance(ev, dict):
            raise RecordError(f"{where}: {refusal('not_object', value=show(ev))}")
        kinds = [k for k in ("roll", "choice", "nuts", "banked") if k in ev]
        extra = sorted(set(ev) - {"seat", "roll", "choice", "nuts", "banked"})
        if len(kinds) != 1 or extra:
            raise RecordError(f"{where}: {refusal('fields', got=', '.join(sorted(ev)) or 'nothing')}")
        kind, value = kinds[0], ev[kinds[0]]
        try:
            if state.phase != OVER and not (is_whole(ev.get("seat")) and as_whole(ev["seat"]) == state.seat):
                raise RecordError(refusal("not_mover", seat=show(ev.get("seat")), mover=state.seat))
            check(rules, state, kind)
            value = event_value(rules, state, kind, value, state.seat == you and not table_mode)
            if kind == "choice":
                by_seat[state.seat].append(Decision(i, state.frame(), state.turn, state.dice, value))
            trace.append((i, state, kind, value))
            state = step(rules, state, kind, value).state
        except (RecordError, IllegalEvent) as exc:
            raise RecordError(f"{where}: {exc}") from None
    return Replay(rules, you, state.scores, state.winner, tuple(by_seat[you]), len(record["events"]), state.seat,
                  state.turn, state.dice, state.phase, state.nuts_dice, tuple(tuple(d) for d in by_seat),
                  record.get("mode"), tuple(trace), table_names(record.get("names"), N))


@dataclass(frozen=True)
class ReviewedDecision:
    event: int
    scores: tuple[int, ...]
    turn: int
    dice: int
    taken: str
    optimal: str          # "roll", "stop", or "either" where the equilibrium mixes
    win_if_roll: float
    win_if_stop: float
    loss_points: float    # percentage points of win probability given up (0 when optimal, and where mixed)
    # where the equilibrium mixes (both actions give the mover the same chance): its probability of rolling, and
    # what each action gives every seat (seat order from the mover), as ``advise`` says
    roll_probability: float | None = None
    players_if_roll: tuple[float, ...] | None = None
    players_if_stop: tuple[float, ...] | None = None

    @property
    def mixed(self) -> bool:
        return self.roll_probability is not None

    def to_dict(self) -> dict[str, object]:
        """The decision as ``review --json`` prints it (``roll_probability`` and every seat's chances only where
        the equilibrium mixes)."""
        out: dict[str, object] = {"event": self.event, "scores": list(self.scores), "turn": self.turn,
                                  "dice": self.dice, "taken": self.taken, "optimal": self.optimal,
                                  "win_if_roll": self.win_if_roll, "win_if_stop": self.win_if_stop,
                                  "loss_points": self.loss_points}
        if self.mixed:
            out.update(roll_probability=self.roll_probability, players_if_roll=list(self.players_if_roll or ()),
                       players_if_stop=list(self.players_if_stop or ()))
        return out


@dataclass(frozen=True)
class Review:
    """One seat's decisions of a game against the optimal ones, and its change in win probability by luck and
    by decisions."""
    replay: Replay
    decisions: tuple[ReviewedDecision, ...]
    seat: int             # the seat reviewed
    split: Split          # the seat's change in win probability by luck and decisions (``play.luck``)

    @property
    def total_loss_points(self) -> float:
        return float(sum(d.loss_points for d in self.decisions))

    def costliest(self, k: int = 3) -> tuple[ReviewedDecision, ...]:
        """The k decisions that gave up the most, largest first (earlier first among equals)."""
        ranked = sorted(self.decisions, key=lambda d: (-d.loss_points, d.event))
        return tuple(d for d in ranked[:k] if d.loss_points > 0)

    def to_dict(self) -> dict[str, object]:
        """The review as ``review --json`` prints it."""
        r = self.replay
        return {"reading": r.rules.reading_name(), "players": r.rules.players, "target": r.rules.target,
                "you": r.you, "seat": self.seat, "scores": list(r.scores), "winner": r.winner, "events": r.events,
                "decisions": [d.to_dict() for d in self.decisions],
                "total_loss_points": self.total_loss_points,
                "costliest": [d.event for d in self.costliest()], **self.split.to_dict()}


def reviews(record: Any, table: TableView, seats: Iterable[int]) -> list[Review]:
    """``review`` of each of ``seats``, the game's luck split computed once."""
    rep = record if isinstance(record, Replay) else replay(record)
    _check_table(rep, table)
    splits = split(rep, table)
    return [review(rep, table, k, splits) for k in seats]


def _check_table(rep: Replay, table: TableView) -> None:
    if table.rules != rep.rules:
        raise RecordError(f"the record is for {rep.rules.describe()}, the table for {table.rules.describe()}")


def review(record: Any, table: TableView, seat: int | None = None,
           splits: Sequence[Split] | None = None) -> Review:
    """Every decision of one seat (default: the record's ``you``) against the optimal one, valued from
    ``table``, and the seat's luck split (``splits``: every seat's, if already computed)."""
    rep = record if isinstance(record, Replay) else replay(record)
    _check_table(rep, table)
    seat = rep.you if seat is None else seat
    out = []
    for d in rep.of(seat):
        a = advise(table, d.scores, d.turn, d.dice)
        roll, stop = a.win_if_roll, a.win_if_stop
        if roll is None or stop is None:            # a decision is a state where both actions exist
            raise RecordError(f"event {d.event}: not a decision")
        if a.reason == "mixed":                     # both actions give the mover the same chance: no cost
            out.append(ReviewedDecision(d.event, d.scores, d.turn, d.dice, d.taken, "either", roll, stop, 0.0,
                                        a.roll_probability, a.players_if_roll, a.players_if_stop))
            continue
        took = roll if d.taken == "roll" else stop
        out.append(ReviewedDecision(d.event, d.scores, d.turn, d.dice, d.taken, a.action,
                                    roll, stop, 100.0 * (max(roll, stop) - took)))
    return Review(rep, tuple(out), seat, (splits or split(rep, table))[seat])
