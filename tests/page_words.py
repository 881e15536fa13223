"""The page's words: every catalogue key the page can ask for, read from its sources (the ``data-t`` texts of
``web/page.html`` and the literal keys of ``web/src``: ``t("...")``, ``refuse("...")``, the number reader's
keys), plus the few it looks up by a value (a reading's name, a face, a tab). ``python tests/page_words.py``
writes ``web/messages/en.json`` from them (the English catalogue: each key is its own English, with plural
forms where a count is said); tests/site/test_page_words.py checks every catalogue against them."""
from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "solver" / "site" / "web"
LANGUAGES = ("en", "es", "fr", "de")

# Keys asked for by a value, not a literal: readings, faces, actions, modes, table heads, score labels.
BY_VALUE = ["rulebook", "summary", "acorn", "squirrel", "car", "roll", "stop", "play", "coach", "table", "prac",
            "Player", "Games", "Wins", "Mean loss", "Luck", "Your score", "Next player's score",
            "Then the next's score", "Then the last's score",
            # refusals made with a key beside their English (page/tabs.js, page/gametab.js, core/numbers.js)
            "{what} in the address must be plain digits, not {text}", "it is a game to {target} at Go Nuts! speed {speed}, and this page plays to {min} to {max} at speeds {speeds}",
            "{what} must be less than 10^{max}, not a number of {digits} digits",
            # page/solving.js's refusal of a worker gone, and core/index.js's of a reading given twice
            "The solver stopped before the end, perhaps for lack of memory on this device: nothing was kept. Try again, or choose a lower target.",
            "give the reading once: reading (or its older name, rules), not both"]

_STRING = r'"((?:[^"\\]|\\.)*)"'
_CALLS = [re.compile(r"\bt\(\s*" + _STRING), re.compile(r"\brefuse\(\s*" + _STRING), re.compile(r"\.say\(\s*" + _STRING),
          re.compile(r"\bconst key = " + _STRING), re.compile(r'\? ' + _STRING + r'\s*:'),
          re.compile(r"return (?:lo !== null \? )?" + _STRING)]
_CHOICES = re.compile(r"\bt\([^\"()]*\?\s*" + _STRING + r"\s*:\s*" + _STRING)


def _js_string(body: str) -> str:
    return json.loads(f'"{body}"')


def html_keys() -> list:
    text = (WEB / "page.html").read_text(encoding="utf-8")
    keys = []
    for m in re.finditer(r"<(\w+)[^>]*\sdata-t(?:\s[^>]*)?>((?:<input[^>]*>)?[^<]*)", text):
        key = re.sub(r"\s+", " ", html.unescape(re.sub(r"<input[^>]*>", "", m.group(2)))).strip()
        if key:
            keys.append(key)
    for m in re.finditer(r'\sdata-t="([^"]*)"', text):     # a text with parameters: its key beside its English
        keys.append(html.unescape(m.group(1)))
    for m in re.finditer(r'(aria-label|placeholder)="([^"]*)"[^>]*data-t-attr', text):
        keys.append(html.unescape(m.group(2)))
    return keys


def source_keys() -> list:
    keys = []
    for path in sorted((WEB / "src").rglob("*.js")):
        text = path.read_text(encoding="utf-8")
        for pattern in _CALLS:
            for m in pattern.finditer(text):
                body = m.group(1)
                if "{" in body or pattern in _CALLS[:3]:
                    keys.append(_js_string(body))
        for m in _CHOICES.finditer(text):
            keys += [_js_string(m.group(1)), _js_string(m.group(2))]
    return keys


def keys() -> list:
    """Every key, in first-seen order, without repeats."""
    seen = {}
    for k in html_keys() + source_keys() + BY_VALUE:
        seen.setdefault(k, None)
    return list(seen)


# English plural forms: the key's "one" form (its "other" form is the key itself).
ONE = {
    "{n} dice": "{n} die", "{n} acorns": "{n} acorn", "{n} squirrels": "{n} squirrel", "{n} cars": "{n} car",
    "{n} points": "{n} point", "{n} turn points": "{n} turn point", "{n} players": "{n} player",
    "{n} decisions": "{n} decision", "{n} games": "{n} game", "acorns": "acorn", "squirrels": "squirrel",
    "{who} banked {n} points": "{who} banked {n} point",
    "{who}'s Go Nuts! round collected {n} acorns": "{who}'s Go Nuts! round collected {n} acorn",
    "Round over after {n} ticks: {acorns} acorns.": "Round over after {n} tick: {acorns} acorns.",
    "Roll your {n} live dice and enter what they show.": "Roll your {n} live die and enter what it shows.",
    "Tap what the {n} live dice show:": "Tap what the {n} live die shows:",
    "Go Nuts! Throw {n} dice until everyone else rolls a dog.": "Go Nuts! Throw {n} die until everyone else rolls a dog.",
    "Go Nuts! Throw {n} dice until every opponent rolls a dog. Acorns collected in the round":
        "Go Nuts! Throw {n} die until every opponent rolls a dog. Acorns collected in the round",
    "Go Nuts! {who} throws {n} dice each tick until every opponent rolls a dog.":
        "Go Nuts! {who} throws {n} die each tick until every opponent rolls a dog.",
    "Against {n} perfect players it wins {win} of games instead of a fair {fair}: it gives up {x} points of win probability ({policy}).":
        "Against {n} perfect player it wins {win} of games instead of a fair {fair}: it gives up {x} points of win probability ({policy}).",
    "Roll until this turn has {k} points, or until only {n} dice or fewer are left, then stop.":
        "Roll until this turn has {k} points, or until only one die is left, then stop.",
    "with {n} dice left, always stop": "with {n} die left, always stop",
    "with {n} dice left, keep rolling": "with {n} die left, keep rolling",
    "{n} earlier entries are in the exported record": "{n} earlier entry is in the exported record",
    "with {n} dice left, stop at {k}": "with {n} die left, stop at {k}",
    "{n} later entries no longer fit after this change, from entry {k} ({what}). Drop them?":
        "{n} later entry no longer fits after this change: entry {k} ({what}). Drop it?",
    "All cars: {who} loses {n} turn points": "All cars: {who} loses {n} turn point",
    "Go Nuts!: {who} keeps {n} turn points; count the acorns": "Go Nuts!: {who} keeps {n} turn point; count the acorns",
    "Go Nuts!: {who}'s {n} turn points are gone; count the acorns": "Go Nuts!: {who}'s {n} turn point is gone; count the acorns",
    "{who} banks {n} points: {score} in all": "{who} banks {n} point: {score} in all",
    "(a round of {n} dice brings {x} acorns on average)": "(a round of {n} die brings {x} acorns on average)",
    "Rolling risks your {n} points: {cars} all cars; {nuts}{refill}.": "Rolling risks your {n} point: {cars} all cars; {nuts}{refill}.",
    "Resume the game set aside ({players} players, {n} entries)": "Resume the game set aside ({players} players, {n} entry)",
    "{n} of these decisions are close calls: the games drawn had no more, and clear ones fill the rest.":
        "{n} of these decisions is a close call: the games drawn had no more, and clear ones fill the rest.",
}


def english() -> dict:
    out = {}
    for k in keys():
        out[k] = {"one": ONE[k], "other": k} if k in ONE else k
    return out


if __name__ == "__main__":
    target = WEB / "messages" / "en.json"
    target.write_text(json.dumps(english(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{target}: {len(keys())} keys", file=sys.stderr)
