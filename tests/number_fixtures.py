"""tests/fixtures/numbers.json: what solver/numbers.py ``whole`` gives (a value or its message) for typed texts and
ranges; the page's one number reader (web/src/core/numbers.js) must give the same (tests/js/numbers.test.mjs).
``python tests/number_fixtures.py`` writes it; tests/site/test_page_words.py checks that it still says what Python says."""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
FIXTURE = ROOT / "tests" / "fixtures" / "numbers.json"
TEXTS = ["0", "7", " 12 ", "\t3\n", "-3", "-0", "007", "49", "50", "2.5", "", " ", "+4", "1e3", "0x2", "2_3", "٢٣", "３",
         "12345678901234", "999999999999", "-12345678901234", "abc", "5,3", "NaN", "Infinity"]
RANGES = [(0, None), (0, 49), (1, 4), (None, 10)]


def cases() -> list:
    from solver.errors import GonutsError
    from solver.numbers import whole
    out = []
    for lo, hi in RANGES:
        for text in TEXTS:
            try:
                out.append({"text": text, "lo": lo, "hi": hi, "value": whole(text, "Turn points", lo, hi)})
            except GonutsError as e:
                out.append({"text": text, "lo": lo, "hi": hi, "error": str(e)})
    return out


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps({"about": __doc__.split("\n")[0], "what": "Turn points", "cases": cases()},
                                  ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
