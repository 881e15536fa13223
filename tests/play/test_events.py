"""An event's refusals (solver/play/events.py REFUSALS) are written once: the command line fills them in, the page
gets them as data (data.record.refusals) and fills them in the same way (core/events.js), and neither side writes
their words again. The words themselves, event by event, are held by tests/fixtures/records.json on both sides
(tests/play/test_record.py, tests/js/core.test.mjs)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from solver.play.events import REFUSALS, refusal
from solver.play.record import RecordError, replay

ROOT = Path(__file__).resolve().parent.parent.parent
EVENTS_JS = ROOT / "solver" / "site" / "web" / "src" / "core" / "events.js"


def _words(template: str) -> list[str]:
    """The fixed runs of a template longer than a few letters (what a copy by hand would repeat)."""
    return [w.strip() for w in re.split(r"\{\w+\}", template) if len(w.strip()) > 12]


def test_the_page_writes_no_refusal_again_and_reads_them_as_data():
    js = EVENTS_JS.read_text(encoding="utf-8")
    for name, template in REFUSALS.items():
        assert f'"{name}"' in js, f"core/events.js never says {name}"
        for words in _words(template):
            assert words not in js, f"core/events.js repeats the words of {name}: {words!r}"
    data = json.loads((ROOT / "tests" / "fixtures" / "page-t50.json").read_text(encoding="utf-8"))
    assert data["record"]["refusals"] == REFUSALS


def test_each_refusal_reaches_the_record_s_reader_with_its_event():
    base = {"format": "gonuts-game", "version": 1, "reading": "rulebook", "players": 2, "target": 50, "you": 0,
            "mode": "coach"}
    cases = [([5], "event 0: " + refusal("not_object", value="5")),
             ([{"seat": 0}], "event 0: " + refusal("fields", got="seat")),
             ([{"seat": 1, "roll": [2, 2, 1]}], "event 0: " + refusal("not_mover", seat="1", mover=0)),
             ([{"seat": 0, "roll": [2, 2]}], "event 0: " + refusal("roll", value="[2,2]")),
             ([{"seat": 0, "roll": [2, 2, 2]}], "event 0: " + refusal("dice", a=2, s=2, c=2, total=6, n=5, live="dice are"))]
    for events, message in cases:
        with pytest.raises(RecordError) as err:
            replay({**base, "events": events})
        assert str(err.value) == message


def test_a_refusal_asked_without_its_values_is_a_bug_not_a_half_filled_message():
    with pytest.raises(KeyError):
        refusal("banked")
