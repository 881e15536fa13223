"""The page in Spanish, French and German: a family that picks its language sees no English on any tab or
in any Table phase; the language follows navigator.languages, ?lang= and the Language select (remembered), and
<html lang> with it; and the Table's glance checks hold at 320x568 in German, the longest of the four."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
pytest.importorskip("playwright", reason="the page's browser tests need playwright (pip install \".[test]\")")
sys.path.insert(0, str(Path(__file__).parent.parent))
from test_table_app import SHOTS, Phone, cache, glance_game, page_file  # noqa: E402,F401

MESSAGES = Path(__file__).resolve().parent.parent.parent / "solver" / "site" / "web" / "messages"
NAMES = ("Zoë", "Léa", "Jürgen", "Ana")
WORD = re.compile(r"[A-Za-z][A-Za-z']{2,}")


def words_of(lang):
    """Every word the language's catalogue uses (keys are English: only the values count)."""
    out = set()
    for v in json.loads((MESSAGES / f"{lang}.json").read_text(encoding="utf-8")).values():
        for form in ([v] if isinstance(v, str) else v.values()):
            out |= {w.lower() for w in WORD.findall(re.sub(r"\{\w+\}", " ", form))}
    return out


def english_words():
    return words_of("en")


# What may show in any language: the game's name, the tool's, the policy grammar, file kinds, the language names.
ANY = {"go", "nuts", "gonuts", "solve", "review", "json", "csv", "optimal", "hold", "dice", "max", "english",
       "español", "français", "deutsch", "game", "simple", "rules"} | {w.lower() for w in NAMES}

VISIBLE = """() => {
  const out = [];
  const walk = (n) => {
    if (n.nodeType === Node.TEXT_NODE) { if (n.parentElement && n.parentElement.closest('[hidden], script, style, datalist')) return;
      const e = n.parentElement; if (e && (e.offsetParent === null || e.closest('[hidden]')) && getComputedStyle(e).position !== 'fixed' && !e.closest('.sr')) return;
      out.push(n.textContent); return; }
    for (const c of n.childNodes) walk(c);
  };
  walk(document.body);
  for (const e of document.querySelectorAll('[aria-label], [placeholder], [title]')) {
    if (e.closest('[hidden]')) continue;
    for (const a of ['aria-label', 'placeholder', 'title']) if (e.getAttribute(a)) out.push(e.getAttribute(a));
  }
  for (const o of document.querySelectorAll('select:not([hidden]) option')) out.push(o.textContent);
  out.push(document.title);
  return out.join(' \\n ');
}"""


def leaks(text, lang):
    """English words in text that the language's catalogue does not use itself."""
    mine = words_of(lang) | ANY
    return sorted({w for w in WORD.findall(text) if w.lower() in english_words() and w.lower() not in mine})


def sweep(phone, lang, looks=None):
    """Every tab, and a whole 4-player Table game phase by phase (its first round entered as banked totals);
    returns what was seen, with where (only the first ``looks`` of them, if given)."""
    page = phone.page
    seen = []

    def look(where):
        page.wait_for_selector("#panel-table [aria-busy]", state="detached")     # what a tap draws after its paint
        seen.append((where, page.evaluate(VISIBLE)))
    for tab in ("advise", "play", "coach", "review", "practice"):
        page.locator(f"#tab-{tab}").tap()
        look(tab)
        if looks and len(seen) >= looks:
            return seen
    page.locator("#tab-advise").tap()
    page.fill("#adv-turn", "7")
    page.select_option("#adv-dice", "3")
    page.locator("#adv-go").tap()
    page.wait_for_selector("#adv-out .why")
    look("advise answer")
    page.fill("#adv-turn", "2.5")
    page.locator("#adv-go").tap()
    look("advise refusal")
    page.locator("#tab-practice").tap()
    page.locator("#prac-daily").tap()
    page.wait_for_selector("#prac-quiz:not([hidden])")
    page.locator("#prac-roll").tap()
    look("practice judged")
    page.locator("#prac-quit").tap()
    look("practice score")
    phone.start(players=4, names=NAMES)
    phases = set()
    for step in range(400):
        st = phone.state()
        if st["phase"] not in phases:
            phases.add(st["phase"])
            look(f"table {st['phase']}")
        if st["phase"] == "over":
            break
        if st["phase"] == "start" and st["events"] < 4:           # every seat's first turn entered as a total
            page.fill("#table-bank-n", "40")
            phone.tap("#table-bank button[type=submit]")
        elif st["phase"] in ("start", "roll"):
            n = st["n"]
            roll = f"0-{n}-0" if "nuts" not in phases and st["t"] >= 4 else f"{n}-0-0" if step % 3 else f"1-0-{n - 1}"
            phone.tap(f"[data-roll='{roll}']")
        elif st["phase"] == "decide":
            phone.tap("#table-stop" if st["t"] >= 12 else "#table-roll")
        else:
            phone.tap("#table-nuts-plus")
            phone.tap("#table-nuts-done")
    assert {"start", "decide", "nuts", "over"} <= phases, phases
    page.locator("#table-log").evaluate("(e) => e.closest('details').open = true")
    page.locator("#table-history").evaluate("(e) => e.open = true")
    page.wait_for_selector("#hist-stats table")
    look("table over, log and history")
    page.locator("#table-to-review").tap()
    page.wait_for_selector("#rev-total")
    look("review of the table game")
    return seen


@pytest.mark.parametrize("lang", ["es", "fr", "de"])
def test_a_family_that_picks_its_language_sees_no_english(browser, page_file, lang):
    phone = Phone.open(browser, page_file, (390, 844), fragment=f"?lang={lang}")
    assert phone.page.evaluate("document.documentElement.lang") == lang
    for where, text in sweep(phone, lang):
        assert leaks(text, lang) == [], (lang, where, leaks(text, lang), text[:3000])
    SHOTS.mkdir(parents=True, exist_ok=True)
    phone.page.screenshot(path=str(SHOTS / f"390x844-{lang}-review.png"))
    phone.close()


def test_english_passes_the_same_check_only_because_it_is_english(browser, page_file):
    """The sweep can fail: the English page, checked as if it were German, shows English words."""
    phone = Phone.open(browser, page_file, (390, 844), fragment="?lang=en")
    seen = sweep(phone, "en", looks=1)
    assert leaks(seen[0][1], "de"), seen[0][1][:500]
    phone.close()


def test_the_language_follows_the_browser_then_the_select_and_is_remembered(browser, page_file):
    ctx = browser.new_context(locale="fr-CA")
    page = ctx.new_page()
    page.goto(page_file.as_uri())
    page.wait_for_function("() => window.gonuts !== undefined")
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert page.inner_text("#tab-practice") == "S’entraîner"
    page.select_option("#lang", "de")
    assert page.evaluate("document.documentElement.lang") == "de" and page.inner_text("#tab-practice") == "Üben"
    page.reload()
    page.wait_for_function("() => window.gonuts !== undefined")
    assert page.evaluate("document.documentElement.lang") == "de"
    page.goto(page_file.as_uri() + "?lang=es")
    page.wait_for_function("() => window.gonuts !== undefined")
    assert page.inner_text("#tab-practice") == "Practicar"
    page.locator("#adv-go").click()
    assert "%" in page.inner_text("#adv-out .num") and "," in page.inner_text("#adv-out .num")   # "51,23 %"
    ctx.close()


def test_the_glance_holds_in_german_at_320x568(browser, page_file):
    seen = glance_game(browser, page_file, [(320, 568)], seed=135, fragment="?lang=de", tag="de-table")
    assert seen["decide"] >= 30 and seen["roll"] >= 60, seen


# Every control and line in the open panel, in view: whole (its text not cut by its box) and not covered (what the
# screen shows at its centre is itself). The strip's names are left out of "whole": they are short forms on purpose.
LOOK_WHOLE = """() => {
  const panel = document.querySelector('main section[role=tabpanel]:not([hidden])');
  const shown = (e) => { const b = e.getBoundingClientRect(); return b.width > 1 && b.height > 1 && b.bottom > 0 && b.top < innerHeight
    && getComputedStyle(e).visibility !== 'hidden' && !e.closest('[hidden]') && e.checkVisibility() && !clipped(e); };
  const clipped = (e) => { for (let a = e; a; a = a.parentElement) if (getComputedStyle(a).clipPath !== 'none') return true; return false; };
  const what = (e) => (e.id ? '#' + e.id : e.tagName.toLowerCase() + '.' + e.className) + ' ' + (e.innerText || e.value || '').slice(0, 40);
  const cut = [], covered = [];
  const canvas = document.createElement('canvas').getContext('2d');
  for (const e of panel.querySelectorAll('button, select, summary, label, p, .turnline, li, td, th')) {
    if (!shown(e)) continue;
    if (!e.closest('#table-pad') && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible') cut.push(what(e));
    if (e.tagName === 'SELECT' && e.selectedOptions[0]) {
      const cs = getComputedStyle(e); canvas.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      const room = e.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;   // the arrow
      if (canvas.measureText(e.selectedOptions[0].text).width > room) cut.push(what(e));
    }
    const b = e.getBoundingClientRect();
    const x = Math.min(Math.max(b.left + b.width / 2, 1), innerWidth - 1), y = Math.min(Math.max(b.top + Math.min(b.height / 2, 12), 1), innerHeight - 1);
    const top = document.elementFromPoint(x, y);
    if (top && !e.contains(top) && !top.contains(e) && !top.closest('nav.tabs')) covered.push(what(e) + ' under ' + what(top));
  }
  return {cut, covered, width: document.documentElement.scrollWidth};
}"""


@pytest.fixture(scope="module")
def three_page(cache, tmp_path_factory):
    """The page of a 3-player family (the shipped 3-player tables)."""
    import os
    import subprocess
    out = tmp_path_factory.mktemp("three") / "gonuts.html"
    p = subprocess.run([sys.executable, "-m", "cli", "web", "--players", "3", "--out", str(out)], capture_output=True,
                       text=True, timeout=600, cwd=Path(__file__).resolve().parent.parent.parent,
                       env={**os.environ, "GONUTS_SOLVE_CACHE": str(cache)})
    assert p.returncode == 0, p.stderr
    return out


def test_a_german_family_at_320x568_sees_every_label_whole_and_nothing_covered(browser, three_page):
    phone = Phone.open(browser, three_page, (320, 568), "?lang=de")
    page, seen = phone.page, []

    def look(step):
        for y in range(0, page.evaluate("document.documentElement.scrollHeight"), 400):   # every screenful
            page.evaluate(f"window.scrollTo(0, {y})")
            got = page.evaluate(LOOK_WHOLE)
            assert got["width"] <= 320, (step, got)
            assert got["cut"] == [] and got["covered"] == [], (step, y, got)
        page.evaluate("window.scrollTo(0, 0)")
        seen.append(step)
    page.locator("#tab-table").tap()
    if not page.evaluate("document.getElementById('table-new').open"):
        page.locator("#table-new > summary").tap()
    page.select_option("#table-players", "3")
    look("setup")
    for i, name in enumerate(("Großmutter Hildegard", "Zoë", "Großvater Ingo")):
        page.fill(f"#table-name-{i}", name)
    page.locator("#table-setup button[type=submit]").tap()
    page.wait_for_selector("#table-game:not([hidden])")
    phone.tap("[data-roll='2-2-1']")
    look("a decision")
    phone.tap("#table-roll")
    phone.tap("[data-roll='0-0-4']")                                    # all cars: said
    assert page.is_visible("#table-said")
    look("all cars said")
    phone.tap("[data-roll='0-5-0']")                                    # Go Nuts!: said, and the count
    look("a Go Nuts! count")
    phone.tap("#table-nuts-five")
    phone.tap("#table-nuts-done")
    page.locator("#table-log-box summary").tap()
    page.locator("#table-log button.change").first.tap()
    look("a past entry being changed")
    page.locator("#table-change-cancel").tap()
    for n in (30, 20, 50):
        page.fill("#table-bank-n", str(n))
        page.locator("#table-bank button[type=submit]").tap()
    page.wait_for_selector("#table-again")
    look("the end")
    phone.tap("#table-again")
    page.locator("#table-history summary").tap()
    look("Play again, the history open")
    page.locator("#tab-review").tap()
    look("the review")
    assert len(seen) == 8
    assert phone.errors == []
    phone.close()


TAB_CUT = """() => [...document.querySelectorAll('nav.tabs [role=tab]')].map((b) => {
    const r = b.getBoundingClientRect(), range = document.createRange();
    range.selectNodeContents(b);
    const text = range.getBoundingClientRect();
    return {id: b.id, text: b.textContent, cut: b.scrollWidth > b.clientWidth + 1 || text.width > r.width + 0.5
            || text.left < r.left - 0.5 || text.right > r.right + 0.5, inView: r.right <= innerWidth + 0.5 && r.left >= -0.5};
})"""


@pytest.mark.parametrize("lang", ["en", "es", "fr", "de"])
def test_no_tab_label_is_cut_at_320x568_in_any_language(browser, page_file, lang):
    """Each tab's text measured against its box, the language given by the link and then chosen in the select
    (a change of words alone does not resize the bar)."""
    phone = Phone.open(browser, page_file, (320, 568), f"?lang={lang}")
    page = phone.page
    for tab in page.evaluate(TAB_CUT):
        assert not tab["cut"] and tab["inView"], (lang, tab)
    other = "en" if lang != "en" else "es"
    page.select_option("#lang", other)
    page.select_option("#lang", lang)
    page.wait_for_timeout(100)
    for tab in page.evaluate(TAB_CUT):
        assert not tab["cut"] and tab["inView"], (lang, "after the select", tab)
    for first in ("es", "fr", "de"):
        page.select_option("#lang", first)
        page.wait_for_timeout(100)
        for tab in page.evaluate(TAB_CUT):
            assert not tab["cut"] and tab["inView"], (first, "chosen in the select", tab)
    page.select_option("#lang", lang)
    if page.is_visible("#welcome"):
        page.locator("#welcome-done").tap()
    page.screenshot(path=str(SHOTS / f"320x568-{lang}-tabs.png"))
    phone.close()
