"""A player's game is never lost or altered without a word, in Chromium with touch: storage that fills up
(a warning stays until the game it is about is saved; nothing is dropped to make room), game actions that take
time (a second tap waits for the first), the change editor and its question (they belong to the game they were
opened on), the end banner and the Go Nuts! count after a change, and the page's language asked in any spelling.
Each case here lost or altered a game, or showed a wrong word, on the page before these rules."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
pytest.importorskip("playwright", reason="the page's browser tests need playwright (pip install \".[test]\")")
sys.path.insert(0, str(Path(__file__).parent.parent))
from test_table_app import Phone  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent
SCOPE = "new URL('.', location.href).pathname"


@pytest.fixture(scope="module")
def page_file(tmp_path_factory):
    """2 and 4 players (a 4-player game's data decodes when first used: a game action that takes time)."""
    out = tmp_path_factory.mktemp("kept") / "gonuts.html"
    cache = tmp_path_factory.mktemp("kept-cache")
    p = subprocess.run([sys.executable, "-m", "cli", "web", "--players", "2,4", "--rules", "rulebook", "--out", str(out)],
                       cwd=ROOT, env={**os.environ, "GONUTS_SOLVE_CACHE": str(cache)}, capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0, p.stderr
    return out


def record(mode, players, events, **more):
    names = ["Ann", "Bo", "Cy", "Di"][:players]
    r = {"format": "gonuts-game", "version": 1, "reading": "rulebook", "players": players, "target": 50, "you": 0,
         "mode": mode, "events": events}
    if mode == "table":
        r.update(names=names, hints=[True] * players)
    r.update(more)
    return r


def all_cars(n, players=2):
    return [{"seat": i % players, "roll": [0, 0, 5]} for i in range(n)]


def put(page, base, suffix, value):
    """localStorage[gonuts.BASE@SCOPE + SUFFIX] = value (the page's own key layout: `.recent`, `.aside` follow it)."""
    page.evaluate(f"([b, s, v]) => localStorage.setItem(`gonuts.${{b}}@${{{SCOPE}}}${{s}}`, JSON.stringify(v))",
                  [base, suffix, value])


def get(page, base, suffix=""):
    return page.evaluate(f"([b, s]) => JSON.parse(localStorage.getItem(`gonuts.${{b}}@${{{SCOPE}}}${{s}}`) || 'null')",
                         [base, suffix])


def refuse_writes(page, when):
    """Storage that throws QuotaExceededError for a write when ``when`` (a JS expression of key and value) holds."""
    page.evaluate("""() => { const set = window.roomy = window.roomy || Storage.prototype.setItem;
        const full = (key, value) => %s;
        Storage.prototype.setItem = function (key, value) {
            if (full(String(key), String(value))) throw new DOMException('full', 'QuotaExceededError');
            return set.call(this, key, value); }; }""".replace("%s", when))


def until(page, test):
    """Wait until ``test`` (a JS expression of the table game ``r``, which may be null) holds."""
    page.wait_for_function("() => { const r = window.gonuts.record('table'); return !!r && (TEST); }".replace("TEST", test))


def change_first_entry(page):
    if not page.evaluate("document.getElementById('table-log-box').open"):
        page.locator("#table-log-box summary").tap()
    page.locator("#table-log button.change").first.tap()


def reopen(phone, tab="table"):
    phone.page.reload()
    phone.page.wait_for_function("() => window.gonuts !== undefined")
    phone.page.locator(f"#tab-{tab}").tap()


def double_tap(page, selector, gap=0.12):
    """Two touches ``gap`` seconds apart where an element was, with no wait for it to be enabled (as a finger
    lands twice on a button that greys out after the first)."""
    page.locator(selector).scroll_into_view_if_needed()
    box = page.locator(selector).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.touchscreen.tap(x, y)
    time.sleep(gap)
    page.touchscreen.tap(x, y)


def open_new_game_form(page):
    if not page.evaluate("document.getElementById('table-new').open"):
        page.locator("#table-new > summary").tap()


# -- storage full ------------------------------------------------------------------------------------------

def test_an_unsaved_entry_stays_said_when_something_else_saves(browser, page_file):
    """An entry the browser did not save: the warning stays when the Go Nuts! count (another key) saves."""
    phone = Phone.open(browser, page_file)
    page = phone.page
    phone.start(players=2, names=("Ann", "Bo"))
    refuse_writes(page, "key.startsWith('gonuts.table.v1@') && !key.includes('.', key.indexOf('@'))")
    phone.tap("[data-roll='0-5-0']")                                    # all squirrels: an entry, not saved
    assert page.is_visible("#unsaved")
    phone.tap("#table-nuts-plus")                                       # the count saves under its own key
    assert page.text_content("#table-nuts-n") == "1"
    assert page.is_visible("#unsaved"), "the warning went while the entry is still unsaved"
    refuse_writes(page, "key.startsWith('gonuts.table.v1@')")          # the count too: its write fails last
    phone.tap("#table-nuts-plus")
    with page.expect_download() as dl:                                  # Export: the Table game, not the Play tab's
        page.locator("#unsaved-export").tap()
    exported = json.loads(Path(dl.value.path()).read_text())
    assert exported["names"] == ["Ann", "Bo"] and exported["events"] == [{"seat": 0, "roll": [0, 5, 0]}]
    page.evaluate("() => { Storage.prototype.setItem = window.roomy; }")   # room again
    phone.tap("#table-nuts-plus")
    assert page.is_visible("#unsaved")                                  # the count saved, the game not yet
    phone.tap("#table-nuts-done")
    assert not page.is_visible("#unsaved")
    reopen(phone)
    assert len(page.evaluate("window.gonuts.record('table').events")) == 2
    assert phone.errors == []
    phone.close()


def test_play_again_with_storage_full_keeps_the_finished_game_and_drops_no_older_one(browser, page_file):
    phone = Phone.open(browser, page_file)
    page = phone.page
    older = [record("table", 2, all_cars(40), started="2026-01-01T00:00:00Z"),
             record("table", 2, all_cars(2), started="2026-01-02T00:00:00Z")]
    put(page, "table.v1", ".recent", older)
    reopen(phone)
    phone.start(players=2, names=("Ann", "Bo"))
    page.get_by_role("spinbutton", name="Or the whole turn as points banked").fill("50")
    page.locator("#table-bank button[type=submit]").tap()
    page.wait_for_selector("#table-again")
    finished = page.evaluate("window.gonuts.record('table')")
    limit = page.evaluate(f"() => localStorage.getItem(`gonuts.table.v1@${{{SCOPE}}}.recent`).length") + 8   # no room to grow
    refuse_writes(page, f"key.endsWith('.recent') && value.length > {limit}")
    phone.tap("#table-again")
    page.wait_for_function("() => document.getElementById('table-error').innerText.includes('storage is full')")
    assert page.evaluate("window.gonuts.record('table')") == finished  # the finished game stays on screen
    assert get(page, "table.v1", ".recent") == older                   # and no older game was dropped for room
    reopen(phone)
    assert page.evaluate("window.gonuts.record('table')") == finished
    phone.close()


# -- one game action at a time -----------------------------------------------------------------------------

def a_four_player_game_to_resume(browser, page_file):
    """A phone with a 2-player Table game running and a 4-player one in Recent games (its data not decoded yet),
    the new-game form open: (the phone, the 4-player record)."""
    phone = Phone.open(browser, page_file)
    page = phone.page
    four = record("table", 4, all_cars(3, 4), started="2026-01-01T00:00:00Z")
    put(page, "table.v1", ".recent", [four])
    put(page, "table.v1", "", record("table", 2, all_cars(1), started="2026-01-02T00:00:00Z"))
    reopen(phone)
    open_new_game_form(page)
    return phone, four


def test_two_taps_on_resume_while_a_game_decodes_resume_it_once(browser, page_file):
    """The 4-player game's data decodes on the first Resume (most of a second): a second tap 120 ms later
    used to take the running game out of the list instead, and it was gone."""
    phone, four = a_four_player_game_to_resume(browser, page_file)
    page = phone.page
    running = page.evaluate("window.gonuts.record('table')")
    double_tap(page, "#table-resume-0")
    until(page, "r.players === 4")
    page.wait_for_function("() => !document.getElementById('table-resume-0')?.disabled")
    time.sleep(0.3)
    assert page.evaluate("window.gonuts.record('table')")["events"] == four["events"]
    assert get(page, "table.v1", ".recent") == [running]               # the running game set aside, once
    phone.close()


@pytest.mark.parametrize("slowdown", [4, 6])
def test_a_double_tap_on_resume_on_a_slow_phone_never_enters_a_roll(browser, page_file, slowdown):
    """A phone four or six times slower (Chromium's CPU throttling): the second tap's touch is handled only after
    the resumed game is drawn, on the roll grid now under the finger; it was meant for Resume and enters
    nothing."""
    for attempt in range(3):
        phone, four = a_four_player_game_to_resume(browser, page_file)
        page = phone.page
        cdp = page.context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": slowdown})
        double_tap(page, "#table-resume-0", gap=0.12 + 0.05 * attempt)
        until(page, "r.players === 4")
        page.wait_for_function("() => !document.getElementById('table-resume-0')?.disabled")
        time.sleep(0.5)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        assert page.evaluate("window.gonuts.record('table')")["events"] == four["events"], (slowdown, attempt)
        phone.close()


def test_a_second_tap_handled_late_after_the_resumed_game_is_drawn_enters_nothing(browser, page_file):
    """A phone too busy to handle a touch when it comes: the main thread is held for 0.8 s just after the resumed
    game is drawn, so the second tap of the double tap on Resume is handled then, on the roll grid now under the
    finger, long after the draw. The touch happened before the grid was there: it enters nothing."""
    phone, four = a_four_player_game_to_resume(browser, page_file)
    page = phone.page
    page.evaluate("""() => { let done = false;
        new MutationObserver(() => {
          const r = window.gonuts.record('table');
          if (done || !r || r.players !== 4) return;
          done = true;
          const end = performance.now() + 800;
          while (performance.now() < end) { /* a phone busy elsewhere */ }
        }).observe(document.getElementById('panel-table'), {subtree: true, childList: true, attributes: true}); }""")
    double_tap(page, "#table-resume-0", gap=0.2)
    until(page, "r.players === 4")
    page.wait_for_function("() => !document.getElementById('table-resume-0')?.disabled")
    time.sleep(1.2)
    assert page.evaluate("window.gonuts.record('table')")["events"] == four["events"]
    phone.close()


def test_two_taps_on_the_coachs_resume_never_overwrite_the_coached_game(browser, page_file):
    phone = Phone.open(browser, page_file)
    page = phone.page
    mine = record("coach", 2, all_cars(1))
    aside = record("coach", 4, all_cars(3, 4))
    put(page, "coach.v1", "", mine)
    put(page, "coach.v1", ".aside", aside)
    reopen(phone, "coach")
    page.wait_for_selector("#coach-resume:not([hidden])")
    if not page.evaluate("document.getElementById('coach-new').open"):
        page.locator("#coach-new > summary").tap()
    double_tap(page, "#coach-resume")
    page.wait_for_function("() => { const r = window.gonuts.record('coach'); return !!r && r.players === 4; }")
    time.sleep(1.5)                                                    # a second Resume would have run by now
    assert get(page, "coach.v1") == aside and get(page, "coach.v1", ".aside") == mine
    phone.close()


# -- the change editor belongs to its game ----------------------------------------------------------------

def ask_to_drop(phone):
    """A 2-player game of four entries, and a change of the first that leaves the next three no place:
    the editor's "Drop them?" question open."""
    page = phone.page
    phone.start(players=2, names=("Ann", "Bo"))
    for sel in ("[data-roll='2-2-1']", "#table-roll", "[data-roll='1-2-1']", "#table-stop"):
        phone.tap(sel)
    change_first_entry(page)
    page.locator("#table-change [data-pick='0-0-5']").tap()              # all cars: the turn ends at once
    page.wait_for_selector("#table-change-drop:not([hidden])")


@pytest.mark.parametrize("how", ["new game", "resume"])
def test_the_change_question_closes_when_its_game_is_no_longer_on_screen(browser, page_file, how):
    phone = Phone.open(browser, page_file)
    page = phone.page
    if how == "resume":
        put(page, "table.v1", ".recent", [record("table", 2, all_cars(2), started="2026-01-01T00:00:00Z")])
        reopen(phone)
    ask_to_drop(phone)
    if how == "new game":
        phone.start(players=2, names=("Cy", "Di"))
    else:
        open_new_game_form(page)
        page.locator("#table-resume-0").tap()
        until(page, "r.events.length === 2")
    now = page.evaluate("window.gonuts.record('table')")
    assert not page.is_visible("#table-change")
    page.locator("#table-change-drop-yes").dispatch_event("click")     # an answer still on its way
    assert page.evaluate("window.gonuts.record('table')") == now
    reopen(phone)
    assert page.evaluate("window.gonuts.record('table')") == now
    phone.close()


def test_the_change_question_closes_at_play_again(browser, page_file):
    """A finished game, a change of its first entry that leaves the next no place, the question open: Play
    again starts the next game, and the question, answered late, writes nothing into it."""
    phone = Phone.open(browser, page_file)
    page = phone.page
    phone.start(players=2, names=("Ann", "Bo"))
    for sel in ("[data-roll='2-2-1']", "#table-stop"):
        phone.tap(sel)
    page.fill("#table-bank-n", "50")
    page.locator("#table-bank button[type=submit]").tap()             # Bo wins
    page.wait_for_selector("#table-again")
    change_first_entry(page)
    page.locator("#table-change [data-pick='0-0-5']").tap()             # all cars: Ann's stop no longer fits
    page.wait_for_selector("#table-change-drop:not([hidden])")
    time.sleep(0.4)
    phone.tap("#table-again")
    until(page, "r.names[0] === 'Bo'")
    now = page.evaluate("window.gonuts.record('table')")
    assert now["events"] == [] and not page.is_visible("#table-change")
    page.locator("#table-change-drop-yes").dispatch_event("click")
    assert page.evaluate("window.gonuts.record('table')") == now
    phone.close()


def test_a_question_answered_after_another_tab_played_drops_nothing_of_its(browser, page_file):
    phone = Phone.open(browser, page_file)
    a = phone.page
    ask_to_drop(phone)
    b = phone.ctx.new_page()
    b.goto(page_file.as_uri() + "#table")
    b.wait_for_selector("#table-follow:not([hidden])")
    b.locator("#table-take").tap()
    a.wait_for_selector("#table-follow:not([hidden])")
    b.locator("[data-roll='2-2-1']").tap()
    time.sleep(0.4)
    b.locator("#table-stop").tap()
    until(a, "r.events.length === 6")
    a.locator("#table-take").tap()
    a.wait_for_selector("#table-follow[hidden]", state="attached")
    a.locator("#table-change-drop-yes").dispatch_event("click")
    assert len(a.evaluate("window.gonuts.record('table').events")) == 6
    assert len(get(a, "table.v1")["events"]) == 6
    phone.close()


def test_a_change_to_a_finished_game_redraws_its_end(browser, page_file):
    phone = Phone.open(browser, page_file)
    page = phone.page
    phone.start(players=2, names=("Ann", "Bo"))
    page.get_by_role("spinbutton", name="Or the whole turn as points banked").fill("50")
    page.locator("#table-bank button[type=submit]").tap()
    page.wait_for_selector("#table-again")
    assert "50 \u2013 0" in page.inner_text("#table-over .total")
    change_first_entry(page)
    page.fill("#table-change-n", "55")
    page.locator("#table-change-number button[type=submit]").tap()
    until(page, "r.events[0].banked === 55")
    assert "55 \u2013 0" in page.inner_text("#table-over .total")
    phone.close()


def test_a_change_before_a_go_nuts_count_keeps_the_count(browser, page_file):
    phone = Phone.open(browser, page_file)
    page = phone.page
    phone.start(players=2, names=("Ann", "Bo"))
    for sel in ("[data-roll='2-2-1']", "#table-roll", "[data-roll='0-4-0']"):
        phone.tap(sel)                                                 # Go Nuts! with the 4 dice just rolled
    for _ in range(2):
        phone.tap("#table-nuts-five")
    assert page.text_content("#table-nuts-n") == "10"
    change_first_entry(page)
    page.locator("#table-change [data-pick='3-1-1']").tap()             # the round is still the same round
    until(page, "r.events[0].roll[0] === 3")
    assert page.text_content("#table-nuts-n") == "10"
    reopen(phone)
    assert page.text_content("#table-nuts-n") == "10"
    phone.close()


# -- words -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("asked", ["DE", "de-AT", "de_DE", " de"])
def test_a_language_asked_in_any_spelling_is_that_language(browser, page_file, asked):
    phone = Phone(browser, (390, 844))
    phone.page.goto(page_file.as_uri() + f"?lang={asked}")
    phone.page.wait_for_function("() => window.gonuts !== undefined")
    assert phone.page.evaluate("document.documentElement.lang") == "de"
    assert phone.page.inner_text("#tab-table") == "Tisch"
    phone.close()


def test_a_browser_that_lists_no_languages_is_read_by_its_one_language(browser, page_file):
    phone = Phone(browser, (390, 844))
    phone.page.add_init_script("Object.defineProperty(navigator, 'languages', {get: () => []}); "
                               "Object.defineProperty(navigator, 'language', {get: () => 'de-DE'});")
    phone.page.goto(page_file.as_uri())
    phone.page.wait_for_function("() => window.gonuts !== undefined")
    assert phone.page.evaluate("document.documentElement.lang") == "de"
    phone.close()


def test_an_unknown_language_is_said(browser, page_file):
    phone = Phone(browser, (390, 844))
    phone.page.goto(page_file.as_uri() + "?lang=xx")
    phone.page.wait_for_function("() => window.gonuts !== undefined")
    assert phone.page.inner_text("#notice") == \
        "This page speaks English, Spanish, French and German; lang=xx is none of them."
    phone.close()


def test_the_open_change_editor_and_its_question_follow_the_language(browser, page_file):
    phone = Phone.open(browser, page_file)
    page = phone.page
    ask_to_drop(phone)
    page.select_option("#lang", "de")
    assert page.inner_text("#table-change-title").startswith("Eingabe 1 \u00e4ndern")
    assert "Entry" not in page.inner_text("#table-change-drop-text")
    assert page.inner_text("#table-change-drop-text").endswith("?")
    phone.close()


# -- the game to review ------------------------------------------------------------------------------------

def test_after_play_again_and_a_reload_review_opens_on_the_finished_game(browser, page_file):
    phone = Phone.open(browser, page_file)
    page = phone.page
    phone.start(players=2, names=("Ann", "Bo"))
    for sel in ("[data-roll='2-2-1']", "#table-stop"):                  # Ann decides once: a decision to review
        phone.tap(sel)
    page.get_by_role("spinbutton", name="Or the whole turn as points banked").fill("50")
    page.locator("#table-bank button[type=submit]").tap()               # Bo wins
    page.wait_for_selector("#table-again")
    finished = page.evaluate("window.gonuts.record('table')")
    phone.tap("#table-again")
    until(page, "r.events.length === 0")
    reopen(phone, "review")
    assert page.evaluate("document.getElementById('rev-source').value") == "recent"
    assert page.evaluate("window.gonuts.record('recent')") == finished
    assert "No game to review" not in page.inner_text("#rev-out")
    assert page.locator("#rev-out .dec").count() == 1 and "Bo won" in page.inner_text("#rev-out")
    phone.close()
