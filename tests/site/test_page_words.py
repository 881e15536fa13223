"""The page's words come from its catalogues: the English one holds exactly the keys the page's sources ask for
(tests/page_words.py reads them from web/page.html and web/src), so a word added in the code without a catalogue
entry, or an entry nothing asks for, fails here; every other language is checked key for key under Node
(tests/js/words.test.mjs)."""
import json

import page_words
import pytest

pytestmark = pytest.mark.source


def test_the_english_catalogue_is_exactly_what_the_sources_ask_for():
    have = json.loads((page_words.WEB / "messages" / "en.json").read_text(encoding="utf-8"))
    want = page_words.english()
    assert sorted(set(want) - set(have)) == [], "asked for but not in en.json: run python tests/page_words.py"
    assert sorted(set(have) - set(want)) == [], "in en.json but asked for by nothing"
    assert have == want


def test_every_language_has_the_english_keys():
    en = json.loads((page_words.WEB / "messages" / "en.json").read_text(encoding="utf-8"))
    for lang in page_words.LANGUAGES:
        other = json.loads((page_words.WEB / "messages" / f"{lang}.json").read_text(encoding="utf-8"))
        assert set(other) == set(en), lang
