"""One question from the table: at these scores, turn points and live dice, roll or stop?

``advise`` answers from a loaded ``Table``. ``advise_path`` answers straight
from a table file: the file is checked as ``tables.load`` checks it (contract,
headers, sizes, checksum), once per file content (``solver.store.checked``), and
read without numpy, which a user would otherwise wait for at every question.
Twin in the page: ``solver/site/web/src/core/advise.js``.
"""
from __future__ import annotations

import math
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from solver.errors import StateError, TableError
from solver.files import StrPath
from solver.game.rules import Rules
from solver.game.states import Action, check_state
from solver.play.backup import after_turn, backup_state
from solver.store.checked import CheckedTable, open_table
from solver.store.contract import Archive, contract

if TYPE_CHECKING:                # annotations only: this path stays numpy-free (pyproject's import contracts)
    from solver.game.states import GameShape
    from solver.store.tables import TableView

# why the advice is what it is: the better action, the turn's forced first roll, a stop that wins, a mixed decision
Reason = Literal["optimal", "forced", "reaches_target", "mixed"]


@dataclass(frozen=True)
class Advice:
    """The answer at one state: the ``action`` ("roll" or "stop") and why (``reason``: "optimal", "forced" for
    the first roll of a turn, "reaches_target" when stopping wins, "mixed" where the equilibrium mixes), the
    mover's win probability either way (``win_if_roll``, ``win_if_stop``, fractions; None where the action does
    not exist) and every seat's (``players_if_roll``, ``players_if_stop``, seat order from the mover). Where the
    equilibrium mixes (an orbit with no pure equilibrium: docs/model.md), both actions give the mover the same
    chance, ``roll_probability`` is the probability of rolling and ``action`` the likelier; elsewhere it is
    None. ``to_dict()`` is ``advise --json``'s.

    >>> import solver
    >>> a = solver.advise((23, 31), turn=7, dice=3)
    >>> a.action, a.reason, a.players_if_roll is not None and len(a.players_if_roll)
    ('roll', 'optimal', 2)
    """
    scores: tuple[int, ...]
    turn: int
    dice: int
    action: Action
    reason: Reason
    win_if_roll: float | None    # the active player's win probability
    win_if_stop: float | None
    players_if_roll: tuple[float, ...] | None    # every seat's win probability, seat order from the active player
    players_if_stop: tuple[float, ...] | None
    roll_probability: float | None = None        # where the equilibrium mixes: the probability of rolling

    def to_dict(self) -> dict[str, object]:
        """The advice as ``advise --json`` prints it (``roll_probability`` only where the equilibrium mixes)."""
        out: dict[str, object] = {
            "scores": list(self.scores), "turn": self.turn, "dice": self.dice,
            "action": self.action, "reason": self.reason,
            "win_if_roll": self.win_if_roll, "win_if_stop": self.win_if_stop,
            "players_if_roll": None if self.players_if_roll is None else list(self.players_if_roll),
            "players_if_stop": None if self.players_if_stop is None else list(self.players_if_stop),
        }
        if self.roll_probability is not None:
            out["roll_probability"] = self.roll_probability
        return out


def check_explainable(rules: Rules) -> None:
    """Refuse a game whose turn has nothing to explain (Pig), before any table is read or built."""
    if rules.game != "gonuts":
        raise StateError("--explain is for Go Nuts! (Pig's turn has no dice to explain)")


def _answer(table: GameShape, scores: Sequence[int], turn: int, dice: int, both: Callable[[tuple[int, ...]], Any],
            roll_at: Callable[[tuple[int, ...]], bool],
            mix_at: Callable[[tuple[int, ...]], float | None] = lambda scores: None) -> Advice:
    """The answer given ``both()`` -> (every seat if roll, every seat if stop), ``roll_at()`` -> bool and
    ``mix_at()`` -> the probability of rolling where the equilibrium mixes, else None."""
    scores = check_state(table, scores, turn, dice)
    turn, dice = int(turn), int(dice)
    N, G, D = table.players, table.target, table.substates
    if scores[0] + turn >= G:
        win = (1.0,) + (0.0,) * (N - 1)
        return Advice(scores, turn, dice, "stop", "reaches_target", None, 1.0, None, win)
    r_all, s_all = both(scores)
    if turn == 0 and dice == D:
        return Advice(scores, turn, dice, "roll", "forced", r_all[0], None, r_all, None)
    action: Action = "roll" if roll_at(scores) else "stop"
    p = mix_at(scores)
    if p is not None:
        return Advice(scores, turn, dice, action, "mixed", r_all[0], s_all[0], r_all, s_all, p)
    return Advice(scores, turn, dice, action, "optimal", r_all[0], s_all[0], r_all, s_all)


def advise(table: TableView, scores: Sequence[int], turn: int, dice: int) -> Advice:
    """The optimal action and its consequences, read from a loaded table (3-4 players: recomputed
    exactly from ``start_win`` by one Bellman backup of the state, ``backup.backup_state``)."""
    def both(scores: tuple[int, ...]) -> Any:
        if table.players == 2:
            rw = float(table.arrays["roll_win"][scores + (turn, dice)])
            sw = float(table.arrays["stop_win"][scores + (turn, dice)])
            return (rw, 1.0 - rw), (sw, 1.0 - sw)
        W, pay = table.arrays["start_win"], table.arrays.get("nuts_payout")
        return backup_state(table.rules, None if pay is None else pay.tolist(),
                            after_turn(W, scores), scores[0], turn, dice)
    mix = getattr(table, "mix_at", None)
    return _answer(table, scores, turn, dice, both, lambda scores: table.roll_at(scores, turn, dice),
                   (lambda scores: mix(scores, turn, dice)) if mix is not None else (lambda scores: None))


@dataclass(frozen=True)
class _Shape:
    players: int
    target: int
    substates: int


def table_rules(path: StrPath) -> Rules:
    """The rules a table file says it holds, from its checked ``meta`` (no array is read)."""
    with Archive(path) as z:
        return contract(z.meta(), str(path))[0]


def advise_path(path: StrPath, scores: Sequence[int], turn: int, dice: int,
                expect: Rules | None = None) -> tuple[Advice, Rules]:
    """(Advice, rules) straight from a table file, checked like ``tables.load`` checks it, once per
    file content (``checked.open_table``): later questions read only the numbers they need.

    Without numpy: with 2 players the answer is read; with 3-4 players the state is
    backed up from the ``start_win`` of the states a turn can lead to, as ``advise`` does."""
    with open_table(path, expect) as tab:
        return _advise_checked(tab, scores, turn, dice), tab.rules


def turn_inputs(tab: CheckedTable,
                scores: tuple[int, ...]) -> tuple[tuple[float, ...], list[tuple[float, ...]] | None]:
    """The start_win of every state this turn can lead to (one run of h * N floats) and the payouts."""
    rules = tab.rules
    N, G = rules.players, rules.target
    s0, h = scores[0], G - scores[0]
    flat = 0
    for s in scores[1:] + (s0,):
        flat = flat * G + s
    run = struct.unpack(f"<{h * N}d", tab.item("start_win", flat * N, h * N))
    if not all(0.0 <= x <= 1.0 for x in run):          # also refuses NaN
        raise TableError(f"{tab.where}: start_win holds a value that is not a probability")
    payouts: list[tuple[float, ...]] | None = None
    if "nuts_payout" in tab.headers:
        pay = struct.unpack(f"<{6 * (G + 1)}d", tab.data("nuts_payout"))
        payouts = [pay[n * (G + 1):(n + 1) * (G + 1)] for n in range(6)]
    return run, payouts


def _advise_checked(tab: CheckedTable, scores: Sequence[int], turn: int, dice: int) -> Advice:
    rules = tab.rules
    N, G, D = rules.players, rules.target, rules.substates
    shape = _Shape(N, G, D)

    def flat(scores: Sequence[int]) -> int:
        i = 0
        for s in scores:
            i = i * G + s
        return i

    def at(scores: Sequence[int]) -> int:
        return (flat(scores) * G + turn) * (D + 1) + dice

    def roll_at(scores: Sequence[int]) -> bool:
        if "roll" in tab.headers:
            return tab.item("roll", at(scores)) != b"\x00"
        q = turn * (D + 1) + dice
        width = tab.headers["roll_bits"][1][-1]
        return bool(tab.item("roll_bits", flat(scores) * width + (q >> 3))[0] & (128 >> (q & 7)))

    def mix_at(scores: Sequence[int]) -> float | None:
        if "mixed_at" not in tab.headers:
            return None
        width = N + 2
        rows = tab.headers["mixed_at"][1][0]
        at = struct.unpack(f"<{rows * width}q", tab.data("mixed_at"))
        want = tuple(scores) + (turn, dice)
        for e in range(rows):
            if tuple(at[e * width:(e + 1) * width]) == want:   # checked when the table was (contract.check_mixed)
                p: float = struct.unpack("<d", tab.item("mixed_roll", e))[0]
                return p
        return None

    def value(name: str, scores: Sequence[int]) -> float:
        x: float = struct.unpack("<d", tab.item(name, at(scores)))[0]
        if not (math.isfinite(x) and 0.0 <= x <= 1.0):
            raise TableError(f"{tab.where}: {name} holds {x!r} at {scores}, {turn} points, {dice} dice: not a "
                             "probability")
        return x

    def both(scores: Sequence[int]) -> Any:
        if N == 2:
            rw, sw = value("roll_win", scores), value("stop_win", scores)
            return (rw, 1.0 - rw), (sw, 1.0 - sw)
        run, payouts = turn_inputs(tab, tuple(scores))
        return backup_state(rules, payouts, lambda g: run[g * N:(g + 1) * N], scores[0], turn, dice)
    return _answer(shape, scores, turn, dice, both, roll_at, mix_at)
