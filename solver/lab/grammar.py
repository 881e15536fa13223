"""The policy names, read once: ``hold:10/2`` -> ``Spec("hold", "hold:10/2", (10, 2))``.

This is the grammar every front end shares. ``policies.parse`` builds a policy
from a ``Spec``; the web page's core (``site/web/src/core/grammar.js``) implements the same
grammar, and both are held to one fixture of cases (tests/fixtures/policies.json):
each input with the normalized name it gives, or the exact message that refuses it.

Names (D = 5 live dice for Go Nuts!, 1 for Pig; G the target):

* ``optimal``, ``best``, ``maxpoints``;
* ``hold:K`` (1 <= K <= G) and ``hold:K/D`` (also stop with D or fewer live dice, 0 <= D < D);
* ``dice:K1-...-KD`` (stop at K_n points with n live dice, 0 <= K_n <= G, some K_n >= 1);
* ``race:K1-...-KD/P/E`` (``policies.RaceRule``; 0 <= P <= 1000, 0 <= E < G);
* a table file ``*.npz``, or a Python callable ``module:function`` / ``file.py:function``.

Numbers are plain ASCII digits. Quoted values are JSON strings, which the page writes alike.
No numpy: the page's rules and the CLI's checks read this before anything heavy.
Twin in the page: ``solver/site/web/src/core/grammar.js``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.errors import SHOWN, GonutsError, show

MAX_PACE = 1000
BLANKS = " \t\n\r\f\v"   # what is stripped around a name (ASCII only, as the page strips)


class PolicyError(GonutsError):
    """A policy that cannot be built or that misbehaves."""


@dataclass(frozen=True)
class Spec:
    kind: str          # optimal, best, maxpoints, hold, dice, race, table, callable
    name: str          # the normalized name
    args: tuple[Any, ...] = ()


def quote(text: str) -> str:
    """A name's part as a message repeats it: ``errors.show`` (a JSON string, cut short)."""
    return show(str(text))


def clip(text: str) -> str:
    """A name as a message repeats it unquoted: cut to SHOWN characters."""
    return text if len(text) <= SHOWN else text[:SHOWN] + "..."


def whole(text: str, label: str, what: str, lo: int, hi: int) -> int:
    if not (text.isascii() and text.isdigit()):
        raise PolicyError(f"policy {label}: {what} must be a whole number, not {quote(text)}")
    digits = text.lstrip("0") or "0"
    v = int(digits) if len(digits) <= 9 else float("inf")      # as the page reads it: no 5,000-digit int()
    if not lo <= v <= hi:
        raise PolicyError(f"policy {label}: {what} must be from {lo} to {hi}, not {clip(digits)}")
    return int(v)


def thresholds_of(text: str, label: str, G: int, D: int) -> tuple[int, ...]:
    parts = text.split("-")
    if len(parts) != D:
        raise PolicyError(f"policy {label}: give {D} thresholds, one per number of live dice (1..{D})")
    return tuple(whole(x, label, "threshold", 0, G) for x in parts)


def read(spec: object, target: int, D: int) -> Spec:
    """The ``Spec`` a policy name stands for in a game to ``target`` with D sub-states, or PolicyError."""
    if not isinstance(spec, str):
        raise PolicyError("a policy is a name such as optimal or hold:20")
    spec = spec.strip(BLANKS)
    label = clip(spec)
    G = target
    if spec in ("optimal", "best", "maxpoints"):
        return Spec(spec, spec)
    if spec.startswith("hold:"):
        k_text, slash, d_text = spec[5:].partition("/")
        k = whole(k_text, label, "K", 1, G)
        if not slash:
            return Spec("hold", f"hold:{k}", (k, None))
        d = whole(d_text, label, "D", 0, D - 1)
        return Spec("hold", f"hold:{k}/{d}", (k, d))
    if spec.startswith("dice:"):
        ks = thresholds_of(spec[5:], label, G, D)
        if max(ks) < 1:
            raise PolicyError(f"policy {label}: a player who never rolls never scores")
        return Spec("dice", "dice:" + "-".join(map(str, ks)), ks)
    if spec.startswith("race:"):
        body = spec[5:].split("/")
        if len(body) != 3:
            raise PolicyError(f"policy {label}: write race:K1-...-K{D}/P/E (thresholds per live dice, pace "
                              "divisor, end-race distance)")
        ks = thresholds_of(body[0], label, G, D)
        pace = whole(body[1], label, "P", 0, MAX_PACE)
        end = whole(body[2], label, "E", 0, G - 1)
        if max(ks) < 1 and end == 0:
            raise PolicyError(f"policy {label}: a player who never rolls never scores")
        return Spec("race", f"race:{'-'.join(map(str, ks))}/{pace}/{end}", (ks, pace, end))
    if spec.endswith(".npz"):
        return Spec("table", spec)
    if ":" in spec:
        return Spec("callable", spec)
    raise PolicyError(f"unknown policy {quote(spec)}: use optimal, best, maxpoints, hold:K, hold:K/D, "
                      f"dice:K1-...-K{D}, race:K1-...-K{D}/P/E, a table .npz, or module:function")
