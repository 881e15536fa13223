"""The command line's three streams, as the terminal and the shell hand them over.

* **stdout closed** (``>&-``): refused before any work, one line on stderr, exit 1 (an answer nobody can
  read is not a success). **stdout full or gone** (``> /dev/full``, a pipe whose reader left): one line on
  stderr, exit 1, never an internal error.
* **stderr closed**: progress and notes are dropped (never sent to stdout, where ``--json`` is), and the
  exit code is the same.
* **An encoding that lacks a character** (``PYTHONIOENCODING=latin-1``, an old console): ASCII stands in
  (``fallback``): the share line's squares become ``#`` and ``x``, a dash ``-``.
* **Text from files** (names in records and histories, paths): control characters and escape sequences are
  written escaped (``clean``), so a record cannot clear the screen, retitle the terminal or overwrite a line.
"""
from __future__ import annotations

import codecs
import os
import sys
import unicodedata

from solver.files import reason

HANDLER = "gonuts-ascii"
ASCII = {"🟩": "#", "🟨": "~", "🟥": "x", "…": "...", "·": "-", "—": "-", "–": "-", "−": "-", "→": "->", "←": "<-",
         "✓": "v", "✗": "x", "×": "x", "’": "'", "‘": "'", "“": '"', "”": '"', "≥": ">=", "≤": "<=", "±": "+/-",
         "°": " deg", "½": "1/2", "€": "EUR"}
# controls that reorder or hide text on a terminal (bidirectional overrides and isolates, marks)
BIDI = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def fallback(exc: UnicodeEncodeError) -> tuple[str, int]:
    """The codec error handler: each character the stream cannot encode as ASCII stands in for it."""
    out: list[str] = []
    for ch in exc.object[exc.start:exc.end]:
        plain = ASCII.get(ch)
        if plain is None:
            plain = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode() or "?"
        out.append(plain)
    return "".join(out), exc.end


def _shown(ch: str) -> bool:
    return ch == "\n" or (ch.isprintable() and ch not in BIDI)


def clean(text: str) -> str:
    """``text`` with every control character but the newline, and the bidirectional controls, written as
    escapes (``\\x1b``, ``\\u202e``): safe to send to a terminal."""
    if all(_shown(ch) for ch in text):
        return text
    return "".join(ch if _shown(ch) else f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}"
                   for ch in text)


def prepare() -> str | None:
    """Before any work: None, or the refusal when stdout is closed. Every open text stream falls back to
    ASCII for what its encoding lacks."""
    try:
        codecs.lookup_error(HANDLER)
    except LookupError:
        codecs.register_error(HANDLER, fallback)      # type: ignore[arg-type]  # it handles encode errors only
    for stream in (sys.stdout, sys.stderr):
        if stream is not None and hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors=HANDLER)
            except (OSError, ValueError):
                pass
    if sys.stdout is None:
        return "standard output is closed: there is nowhere to write the answer"
    return None


def out(text: str) -> None:
    """Text on stdout, cleaned, through the stream's own encoding and its ASCII fallback (click.echo would
    write UTF-8 to a stream it thinks misconfigured, such as ASCII's)."""
    print(clean(text), file=sys.stdout)


def err(line: str) -> None:
    """One line on stderr, if it is open (cleaned)."""
    if sys.stderr is None:
        return
    try:
        sys.stderr.write(clean(line) + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


_LOST: list[str] = []


def finish() -> str | None:
    """Flush stdout: None, or why the answer could not be written (a full disk, a reader gone), once."""
    if sys.stdout is None or _LOST:
        return None
    try:
        sys.stdout.flush()
        return None
    except OSError as exc:
        return lose(reason(exc))
    except ValueError:                       # closed under us
        return lose("it was closed")


def lose(why: str) -> str:
    """The line for an answer that could not be written; stdout is then pointed at the null device, so that
    nothing later (the interpreter's own last flush) fails again or says more."""
    _LOST.append(why)
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass
    return f"cannot write the answer to standard output: {why}"
