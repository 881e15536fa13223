"""``practice``: the decisions of ``play.practice`` drawn from the page's values, asked one by one.

The values are the page's (``pagevalues.page_game``): 2 and 3 players from the table (shipped, cached or built
once), 4 players from the shipped page data (decoded once into the cache), so that the command and the
page draw the same decisions for the same seed. Its numbers are those of ``advise --json``, the 4-player
ones within the page's stated precision (the page's quantised values).
"""
from __future__ import annotations

import datetime as dt
import secrets
import sys
from collections.abc import Callable, Sequence

from solver.commands import asked
from solver.commands.progress import say
from solver.errors import UsageError
from solver.game.rules import Rules
from solver.play import practice, words
from solver.play.backup import after_turn
from solver.play.luck import Values
from solver.play.record import PAGE_TARGET

ANSWERS = {"r": "roll", "roll": "roll", "s": "stop", "stop": "stop"}


def question(seed: int | None, count: int | None, players: int | None, reading: str | None, daily: bool,
             date: str | None) -> tuple[int, int, int, str, dt.date | None]:
    """(seed, count, players, reading, day or None), checked before any table is read: ``--daily`` (with
    ``--date`` or today) is the page's daily set and takes none of the others."""
    if date is not None and not daily:
        raise UsageError("--date names the daily set's date: give it with --daily")
    if not daily:
        return (secrets.randbelow(2 ** 32) if seed is None else seed), count or 10, players or 2, \
            reading or "rulebook", None
    given = [name for name, v in (("--seed", seed), ("--count", count), ("--players", players),
                                  ("--rules", reading)) if v is not None]
    if given:
        raise UsageError(f"--daily is the same {practice.DAILY_COUNT} decisions for everyone on a date: "
                         f"it takes no {given[0]}")
    day = dt.date.today() if date is None else practice.read_date(date)
    return (practice.daily_seed(day), practice.DAILY_COUNT, practice.DAILY_PLAYERS, practice.DAILY_READING, day)


def values_for(players: int, reading: str) -> Values:
    """The page's values of this game at the page's target (module docstring)."""
    from solver.site import pagevalues  # deferred for start-up: the page's data import numpy
    shipped = pagevalues.shipped_game(players, reading, PAGE_TARGET)
    item = shipped or asked.load_for({"players": players, "reading": reading, "target": PAGE_TARGET}, players)

    def decoding() -> None:
        say(f"decoding the {players}-player page data once into the cache (a few seconds; later runs reuse it)")
    return practice.page_values(*pagevalues.page_game(item, decoding))


def as_json(values: Values, picks: Sequence[practice.Pick], seed: int, day: dt.date | None) -> dict[str, object]:
    """``practice --json``: the draw's decisions with the keys of ``advise --json``."""
    rules = values.rules
    return {"seed": seed, "count": len(picks), "players": rules.players, "reading": rules.reading_name(),
            "daily": None if day is None else day.isoformat(), "close_within_points": 100 * practice.close_for(rules),
            "close_calls": practice.close_count(picks), "decisions": [p.to_dict(rules) for p in picks]}


def close_line(rules: Rules, picks: Sequence[practice.Pick]) -> str:
    """How many of a set are close calls, and why fewer than half when they are."""
    k, n, within = practice.close_count(picks), len(picks), round(100 * practice.close_for(rules))
    line = f"{k} of them close calls (the two actions within {within} points of win probability)"
    if k < n // 2:
        line += (f"; the first {practice.FILL_AFTER} games of {rules.describe()} gave no more, "
                 "and clear ones fill the rest")
    return line


def why(values: Values, pick: practice.Pick) -> str:
    """Why, in words (``advise --explain``'s), at the decision just answered."""
    from solver.play.explain import explain  # deferred for start-up: only an answered question needs it
    W, s0 = values.W, pick.scores[0]
    e = explain(values.rules, values.payouts, after_turn(W, pick.scores), s0, pick.turn,
                pick.dice)
    return words.explain(values.rules, pick, e)


def ask(prompt: str) -> str | None:
    """One answer from stdin (None at its end); an answer read from a pipe is echoed, as a terminal shows it."""
    print(prompt, end="", flush=True)
    line = sys.stdin.readline()
    if line and not sys.stdin.isatty():
        print(line.strip())
    return line or None


def quiz(values: Values, picks: Sequence[practice.Pick], seed: int, day: dt.date | None,
         ask: Callable[[str], str | None], say: Callable[[str], object]) -> practice.Score:
    """Ask each decision (``ask(prompt)`` -> the answer, or None at the end of the input), say the verdict,
    both chances and why; then the score (and for the daily set its share line)."""
    rules, score = values.rules, practice.Score([])
    say(f"Practice: {len(picks)} decisions of {rules.describe()}" +
        (f", the daily set of {day.isoformat()}" if day else f", seed {seed} (--seed {seed} asks them again)") +
        f"; {close_line(rules, picks)}.")
    for i, p in enumerate(picks, 1):
        names = ", ".join(f"{s}" + (" (you)" if k == 0 else "") for k, s in enumerate(p.scores))
        say(f"\n{i}/{len(picks)}. Scores {names}; {p.turn} turn points; {p.dice} {'die' if p.dice == 1 else 'dice'} "
            "live.")
        answer = None
        while answer is None:
            line = ask("Roll or stop? [r/s] ")
            if line is None:
                say("\n(no more answers)")
                return finish(score, day, say)
            answer = ANSWERS.get(line.strip().lower())
            if answer is None:
                say("answer r (roll) or s (stop)")
        loss = score.add(p, answer)
        best = "roll" if p.roll[0] > p.stop[0] else "stop"
        verdict = "Right" if loss == 0 else f"Not quite: {best} is better by {loss:.2f} points of win probability"
        say(f"{verdict}. Win if roll {100 * p.roll[0]:.2f}%, if stop {100 * p.stop[0]:.2f}%"
            f"{' (a close call)' if p.close else ''}.")
        say(why(values, p))
    return finish(score, day, say)


def finish(score: practice.Score, day: dt.date | None, say: Callable[[str], object]) -> practice.Score:
    """Say the score (and the daily set's share line); return it."""
    n = len(score.losses)
    if n:
        say(f"\nScore: {score.right}/{n} right, {score.mean:.2f} points of win probability lost per decision"
            " (0 is perfect).")
        if day and n == practice.DAILY_COUNT:
            say(practice.share_line(day, score))
    return score
