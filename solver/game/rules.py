"""The game as data: a frozen, validated ``Rules`` value and its two named readings.

Every knob of docs/RULES.md is a field. ``Rules`` is checked when it is built and
refuses, with a message naming the knob, anything that is not a playable game.

Go Nuts! knobs (``game="gonuts"``):

* ``faces = (acorn, squirrel, car)``: face counts of a squirrel die, (2, 3, 1).
* ``dog = (dog, house)``: face counts of a dog die, (1, 5).
* ``nuts_costs_turn``: a Go Nuts! round wipes the turn's points (rulebook) or
  adds to them (summary).
* ``nuts_all_dice``: the round is played with all five dice (summary) or with
  the dice just rolled (rulebook).
* ``one_die``: ``"rolled"`` (rulebook: a single die is rolled and shows an
  acorn) or ``"left"`` (summary: a roll leaves exactly one live die and it
  shows an acorn).
* ``speed``: the active player's throws per dog-die tick in a Go Nuts! round.

Pig (``game="pig"``) has no knobs beyond ``players`` and ``target``.
"""
from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal, TypedDict, get_args

from solver.errors import RulesError

GAMES = ("gonuts", "pig")
Reading = Literal["rulebook", "summary"]     # the two readings of the printed rules
READINGS: tuple[Reading, ...] = get_args(Reading)
ONE_DIE = ("rolled", "left")
N_DICE = 5
MAX_PLAYERS = 4


class GameOptions(TypedDict, total=False):
    """The options of a game, as ``Rules.from_options`` and the front door take them (``solver.table(players=3)``):
    typed, so that a type checker names a misspelt or mistyped option. Each is checked again when the rules are
    made, for callers no checker sees.

    ``game``: "gonuts" or "pig"; ``players``: 2 to 4; ``target``: at least 1; ``reading``: "rulebook" or
    "summary"; ``faces``: (acorn, squirrel, car) face counts; ``dog``: (dog, house) face counts; ``speed``: the
    active player's throws per dog-die tick.
    """
    game: Literal["gonuts", "pig"]
    players: int
    target: int
    reading: Reading
    faces: Sequence[int]
    dog: Sequence[int]
    speed: float


OPTIONS: tuple[str, ...] = tuple(GameOptions.__annotations__)     # in the order ``from_options`` lists them


@dataclass(frozen=True)
class Rules:
    """One game, as data: which game, how many play, the target, the dice's faces, and the three knobs in which the
    two readings of the printed rules differ (docs/RULES.md). Frozen and checked when made; ``from_options`` is
    the one way to make it from what a person asks for.

    >>> r = Rules.from_options(players=3, target=30, reading="summary")
    >>> r.players, r.reading_name(), r.nuts_costs_turn, str(r.acorn_chance)
    (3, 'summary', False, '1/3')
    """
    game: str = "gonuts"
    players: int = 2
    target: int = 50
    faces: tuple[int, ...] = (2, 3, 1)
    dog: tuple[int, ...] = (1, 5)
    nuts_costs_turn: bool = True
    nuts_all_dice: bool = False
    one_die: str = "rolled"
    speed: float = 1.0

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise RulesError(f"game must be one of {', '.join(GAMES)}, not {self.game!r}")
        _check_int("players", self.players, 2, MAX_PLAYERS)
        _check_int("target", self.target, 1, None)
        faces = _int_tuple("faces", self.faces, 3, "acorn,squirrel,car")
        dog = _int_tuple("dog", self.dog, 2, "dog,house")
        object.__setattr__(self, "faces", faces)
        object.__setattr__(self, "dog", dog)
        if faces[0] < 1:
            raise RulesError("faces: a squirrel die needs at least one acorn face, or nobody can ever score")
        if sum(faces) < 2:
            raise RulesError("faces: a die needs at least two faces")
        if dog[0] < 1:
            raise RulesError("dog: a dog die needs at least one dog face, or a Go Nuts! round never ends")
        if self.one_die not in ONE_DIE:
            raise RulesError(f"one_die must be one of {', '.join(ONE_DIE)}, not {self.one_die!r}")
        for knob in ("nuts_costs_turn", "nuts_all_dice"):
            if not isinstance(getattr(self, knob), bool):
                raise RulesError(f"{knob} must be true or false")
        try:
            speed = float(self.speed)
        except (TypeError, ValueError):
            raise RulesError(f"speed must be a number, not {self.speed!r}") from None
        if not math.isfinite(speed) or speed <= 0:
            raise RulesError(f"speed must be a positive finite number, not {self.speed!r}")
        if speed > 100:
            raise RulesError("speed must be at most 100 throws per tick")
        object.__setattr__(self, "speed", speed)
        knobs = ("faces", "dog", "nuts_costs_turn", "nuts_all_dice", "one_die", "speed")
        if self.game == "pig" and any(getattr(self, f) != _DEFAULTS[f] for f in knobs):
            raise RulesError("pig takes only players and target; the Go Nuts! knobs do not apply")

    # -- derived quantities -------------------------------------------------
    @property
    def substates(self) -> int:
        """Sub-states of a turn: live dice (1..5) for Go Nuts!, a single one for Pig."""
        return 1 if self.game == "pig" else N_DICE

    @property
    def acorn_chance(self) -> Fraction:
        """P(acorn) of a squirrel die, exactly (the ``*_chance`` values are what tables are built from)."""
        return Fraction(self.faces[0], sum(self.faces))

    @property
    def squirrel_chance(self) -> Fraction:
        """P(squirrel) of a squirrel die, exactly."""
        return Fraction(self.faces[1], sum(self.faces))

    @property
    def car_chance(self) -> Fraction:
        """P(car) of a squirrel die, exactly."""
        return Fraction(self.faces[2], sum(self.faces))

    @property
    def dog_chance(self) -> Fraction:
        """P(dog) of the dog die, exactly (a Go Nuts! round ends when the dog comes home)."""
        return Fraction(self.dog[0], sum(self.dog))

    @property
    def p_acorn(self) -> float:
        """``acorn_chance`` as a float."""
        return self.faces[0] / sum(self.faces)

    @property
    def p_squirrel(self) -> float:
        """``squirrel_chance`` as a float."""
        return self.faces[1] / sum(self.faces)

    @property
    def p_car(self) -> float:
        """``car_chance`` as a float."""
        return self.faces[2] / sum(self.faces)

    @property
    def p_dog(self) -> float:
        """``dog_chance`` as a float."""
        return self.dog[0] / sum(self.dog)

    @property
    def speed_fraction(self) -> Fraction:
        """The speed as an exact fraction, so that floor(r * T) has no rounding."""
        return Fraction(repr(self.speed))

    def reading_name(self) -> Reading | None:
        """The reading ("rulebook" or "summary") whose three knobs these rules have, whatever their dice and speed;
        None for a mix of the two.

        >>> Rules.from_options(reading="summary", faces=(3, 2, 1)).reading_name()
        'summary'
        >>> Rules(nuts_costs_turn=False).reading_name() is None
        True
        """
        for name in READINGS:
            if _reading(name, players=self.players, target=self.target, faces=self.faces,
                      dog=self.dog, speed=self.speed) == self:
                return name
        return None

    def to_dict(self) -> dict[str, Any]:
        """Every knob, as JSON holds it (a table's meta, ``advise --json``); ``from_dict`` reads it back.

        >>> r = Rules.from_options(players=3)
        >>> Rules.from_dict(r.to_dict()) == r, r.to_dict()["faces"]
        (True, [2, 3, 1])
        """
        d = dataclasses.asdict(self)
        d["faces"] = list(self.faces)
        d["dog"] = list(self.dog)
        return d

    @classmethod
    def from_options(cls, **options: object) -> Rules:
        """The game from its options, each checked, with one set of bounds: the one validator of the rule knobs
        (the command line, the adapters, the front door and the page's records all come through here).

        Options: ``game`` ("gonuts" or "pig"), ``players`` (2 to 4), ``target`` (at least 1), ``reading``
        ("rulebook" or "summary": which reading of the printed rules), and for Go Nuts! ``faces``, ``dog`` and
        ``speed`` (the reading's, unless given). An unknown option is refused with the list of known ones.

        >>> Rules.from_options(players=3, target=30, reading="summary").describe()
        'Go Nuts!, 3 players, target 30, summary reading'
        >>> Rules.from_options(taget=30)
        Traceback (most recent call last):
        ...
        TypeError: unknown option taget: the options are game, players, target, reading, faces, dog, speed
        """
        unknown = [k for k in options if k not in OPTIONS]
        if unknown:
            raise TypeError(f"unknown option {', '.join(unknown)}: the options are {', '.join(OPTIONS)}")
        game = options.get("game", "gonuts")
        if game not in GAMES:
            raise RulesError(f"game must be one of {', '.join(GAMES)}, not {game!r}")
        players, target = options.get("players", 2), options.get("target", 50)
        _check_int("players", players, 2, MAX_PLAYERS)
        _check_int("target", target, 1, None)
        knobs = {k: options[k] for k in ("faces", "dog", "speed") if options.get(k) is not None}
        reading = options.get("reading", "rulebook")
        if game == "pig":
            if knobs or reading != "rulebook":
                raise RulesError("pig takes only players and target; the Go Nuts! knobs do not apply")
            return cls(game="pig", players=players, target=target)      # type: ignore[arg-type]
        if reading not in READINGS:
            raise RulesError(f"reading must be one of {', '.join(READINGS)}, not {reading!r}")
        return _reading(str(reading), players=players, target=target, **knobs)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Rules:
        """The rules ``to_dict`` wrote (a table's meta): an unknown knob is refused by name."""
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = set(d) - known
        if unknown:
            raise RulesError(f"unknown rules knob(s): {', '.join(sorted(unknown))}")
        d = dict(d)
        for key in ("faces", "dog"):
            if key in d:
                d[key] = tuple(d[key])
        return cls(**d)

    def describe(self) -> str:
        """The game in words, as the command line says it.

        >>> Rules.from_options(players=2).describe()
        'Go Nuts!, 2 players, target 50, rulebook reading'
        >>> Rules.from_options(players=3, speed=2).describe()
        'Go Nuts!, 3 players, target 50, rulebook reading (speed 2)'
        """
        if self.game == "pig":
            return f"Pig, {self.players} players, target {self.target}"
        name = self.reading_name()
        what = f"{name} reading" if name else "custom rules"
        extras = []
        if self.faces != (2, 3, 1):
            extras.append("faces " + ",".join(map(str, self.faces)))
        if self.dog != (1, 5):
            extras.append("dog " + ",".join(map(str, self.dog)))
        if self.speed != 1.0:
            extras.append(f"speed {self.speed:g}")
        extra = f" ({'; '.join(extras)})" if extras else ""
        return f"Go Nuts!, {self.players} players, target {self.target}, {what}{extra}"


_DEFAULTS = {f.name: f.default for f in dataclasses.fields(Rules)}


def _reading(name: str = "rulebook", **overrides: Any) -> Rules:
    """The named reading of the rules, with any knob overridden."""
    readings = {
        "rulebook": dict(nuts_costs_turn=True, nuts_all_dice=False, one_die="rolled"),
        "summary": dict(nuts_costs_turn=False, nuts_all_dice=True, one_die="left"),
    }
    if name not in readings:
        raise RulesError(f"unknown reading {name!r}; choose {' or '.join(READINGS)}")
    return Rules(**{**readings[name], **overrides})


def _check_int(name: str, value: object, lo: int, hi: int | None) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"{name} must be a whole number, not {value!r}")
    if value < lo or (hi is not None and value > hi):
        bound = f"from {lo} to {hi}" if hi is not None else f"at least {lo}"
        raise RulesError(f"{name} must be {bound}, not {value}")


def _int_tuple(name: str, value: Any, length: int, labels: str) -> tuple[int, ...]:
    try:
        items: tuple[Any, ...] = tuple(value)
    except TypeError:
        raise RulesError(f"{name} must be {length} face counts ({labels})") from None
    if len(items) != length or any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in items):
        raise RulesError(f"{name} must be {length} non-negative whole face counts ({labels}), not {value!r}")
    return items
