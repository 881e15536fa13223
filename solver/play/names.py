"""A player's name as a person sees it, the one rule for the page and ``review``: cleaned (NFC; controls,
bidirectional and other invisible format characters removed, ZWJ and ZWNJ kept where they join letters and
emoji; a blank Braille pattern is a space; at most ``MARKS_MAX`` combining marks on a letter), compared by what
can be seen (``name_key``: compatibility forms folded, Unicode's case mapping, default-ignorable code points
dropped) and at most ``NAME_MAX`` letters long.
Twin: solver/site/web/src/page/names.js (cleanName, nameKey); NAME_MAX and MARKS_MAX reach it as the page's data.
"""
from __future__ import annotations

import re
import unicodedata

NAME_MAX = 20          # letters, as a person counts them
MARKS_MAX = 4          # combining marks on one letter (Vietnamese needs two; 200 would spill over the lines around)

ZWNJ, ZWJ = "\u200c", "\u200d"
_FILLERS = {"\u115f", "\u1160", "\u3164", "\uffa0"}        # Hangul fillers: letters that show nothing
# JavaScript's \s, which the page collapses: the same characters here
_SPACES = re.compile("[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+")
# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt), which JavaScript's regular expressions know
# as \p{Default_Ignorable_Code_Point} and Python's unicodedata does not
_IGNORABLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
              (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
              (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
              (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))


def _ignorable(ch: str) -> bool:
    c = ord(ch)
    return any(lo <= c <= hi for lo, hi in _IGNORABLE)


def _hidden(ch: str) -> bool:
    return ch not in (ZWNJ, ZWJ) and (unicodedata.category(ch) in ("Cc", "Cf") or ch in _FILLERS)


def clean_name(text: str) -> str:
    """The name as the page keeps it, or "" when nothing visible is left.

    >>> clean_name("  Ann\\u202e  Bo ")
    'Ann Bo'
    """
    kept, marks = [], 0
    for ch in unicodedata.normalize("NFC", text):
        if _hidden(ch):
            continue
        if unicodedata.category(ch).startswith("M"):
            marks += 1
            if marks > MARKS_MAX:
                continue
        else:
            marks = 0
        kept.append(" " if ch == "\u2800" else ch)
    name = _SPACES.sub(" ", "".join(kept)).strip()
    return name if any(unicodedata.category(ch)[0] in "LNSP" for ch in name) else ""


def name_key(name: str) -> str:
    """What a person sees of a name, to compare two: ``name_key("Ann") == name_key("A\\u200dNN")``."""
    folded = "".join(ch for ch in unicodedata.normalize("NFKC", name).lower() if not _ignorable(ch))
    return _SPACES.sub(" ", folded).strip()


def letters(name: str) -> int:
    """How many letters a person counts: a letter with its marks, joiners and variation selectors, an emoji
    sequence joined by ZWJ, a flag's pair of regional indicators, each count once. (The page counts with the
    browser's grapheme segmenter; the two agree on every name here and on the names of the tests.)"""
    count, joined, flag = 0, False, False
    for ch in name:
        c = ord(ch)
        if joined:
            joined = False
            continue
        if ch == ZWJ:
            joined = True
            continue
        if unicodedata.category(ch).startswith("M") or _ignorable(ch) or 0x1F3FB <= c <= 0x1F3FF:
            continue
        if 0x1F1E6 <= c <= 0x1F1FF:
            flag = not flag
            if not flag:
                continue                     # the second of a pair
        count += 1
    return count


def table_names(names: object, players: int) -> tuple[str, ...]:
    """A record's names as ``review`` shows them, cleaned, if every seat has one the page would accept (at most
    NAME_MAX letters, no two that look the same); else () and the seats are numbered."""
    if not (isinstance(names, list) and len(names) == players and all(isinstance(x, str) for x in names)):
        return ()
    clean = [clean_name(x) for x in names]
    keys = {name_key(x) for x in clean}
    if not all(clean) or len(keys) != players or any(letters(x) > NAME_MAX for x in clean):
        return ()
    return tuple(clean)
