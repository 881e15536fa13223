"""The Table tab as a family uses it, in Chromium with touch, at 390x844, 360x740 and 320x568.

A seeded 4-player game is played through the page; after every entry the test reads element rectangles,
without scrolling itself: at each decision the rolling player's name and score, the turn line, the verdict,
both chances and Roll and Stop are in view; at each roll every result button is. The advised button is the
emphasised one (and with advice off neither is); nothing widens the page; what the table reads is at least
20 px; no number breaks across lines; the layout does not shift. Then the ways a game used to get lost:
a double tap, a new game over a running one, a reload in the middle of a Go Nuts! count, a storage that
refuses writes, names with hidden characters. Screenshots go to build/screenshots."""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
pytest.importorskip("playwright", reason="the page's browser tests need playwright (pip install \".[test]\")")
sys.path.insert(0, str(Path(__file__).parent.parent))
from taps import clicker  # noqa: E402
from test_website import Context  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent
SHOTS = Path(os.environ.get("GONUTS_SCREENSHOTS", ROOT / "build" / "screenshots"))
SIZES = [(390, 844), (360, 740), (320, 568)]
NAMES = ("Annabelle-Marguerite", "Ben", "Cleo", "Devendra")        # the first is 20 characters


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("table-cache")


@pytest.fixture(scope="module")
def page_file(cache, tmp_path_factory):
    """The page at the real target, 50: its 4-player games come from the shipped page data."""
    out = tmp_path_factory.mktemp("table") / "gonuts.html"
    p = subprocess.run([sys.executable, "-m", "cli", "web", "--players", "2,4", "--rules", "rulebook", "--out", str(out)],
                       cwd=ROOT, env={**os.environ, "GONUTS_SOLVE_CACHE": str(cache)}, capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0, p.stderr
    return out


class Phone(Context):
    """A touch phone of one size; ``tap`` waits like a person before tapping where the last tap landed (a
    quicker second tap there is a double tap, which the page ignores on purpose)."""

    def __init__(self, browser, size, scheme="light"):
        self.ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, has_touch=True, is_mobile=True,
                                       device_scale_factor=1, color_scheme=scheme)
        self.requests, self.errors = [], []
        self.ctx.on("request", lambda r: self.requests.append(r.url))
        self.page = self.ctx.new_page()
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.size, self.tap = size, clicker(self.page, how="tap")

    @classmethod
    def open(cls, browser, page_file, size=(390, 844), fragment="", scheme="light", when=None):
        """A phone with the page open at ``fragment``, its script started; ``when`` (a datetime) fixes the page's
        clock, so that nothing the page dates depends on the day the test runs."""
        phone = cls(browser, size, scheme)
        if when is not None:
            phone.page.clock.set_fixed_time(when)
        phone.page.goto(page_file.as_uri() + fragment)
        phone.page.wait_for_function("() => window.gonuts !== undefined")
        return phone

    def saved_all_cars(self, entries):
        """Reload with a saved 2-player table game (Ann, Bo) of ``entries`` all-car turns (legal: nobody scores),
        and show it."""
        self.page.evaluate("""(n) => { const ev = []; for (let i = 0; i < n; i++) ev.push({seat: i % 2, roll: [0, 0, 5]});
            const r = {format: 'gonuts-game', version: 1, reading: 'rulebook', players: 2, target: 50, you: 0, mode: 'table',
                       events: ev, names: ['Ann', 'Bo'], hints: [true, true]};
            localStorage.setItem('gonuts.table.v1', JSON.stringify(r)); }""", entries)
        self.page.reload()
        self.page.wait_for_function("() => window.gonuts !== undefined")
        self.page.locator("#tab-table").tap()
        self.page.wait_for_selector("#table-game:not([hidden])")

    def state(self):
        return self.page.evaluate("(() => { const r = window.gonuts.record('table'); if (!r) return null; "
                                  "const st = window.gonuts.replay(r); return {phase: st.phase, seat: st.seat, "
                                  "n: st.n, t: st.t, events: r.events.length}; })()")

    def start(self, players=4, names=NAMES, hidden=()):
        self.page.locator("#tab-table").tap()
        if not self.page.evaluate("document.getElementById('table-new').open"):
            self.page.locator("#table-new > summary").tap()
        self.page.select_option("#table-players", str(players))
        for i in range(players):
            self.page.fill(f"#table-name-{i}", names[i])
            if i in hidden:
                self.page.uncheck(f"#table-hint-{i}")
        self.page.locator("#table-setup button[type=submit]").tap()
        self.page.wait_for_selector("#table-game:not([hidden])")


def rects(page, selectors):
    return page.evaluate("(sels) => sels.map((s) => { const e = document.querySelector(s); if (!e) return null; "
                         "const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })", selectors)


# Everything the glance criteria read, in one call: the game's state, the rectangles of what must be in view,
# the page's width, the sizes of what the table reads, lines that broke, and the emphasis of Roll and Stop.
LOOK = """() => {
  const r = window.gonuts.record('table'), st = window.gonuts.replay(r);
  const rect = (e) => { if (!e) return null; const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const q = (s) => document.querySelector(s), shown = (e) => e.offsetParent !== null && !e.closest('[hidden]');
  const seat = q(`#table-pad [data-seat='${st.seat}']`);
  const must = {name: seat && seat.querySelector('.name'), score: seat && seat.querySelector('.score'),
                turn: q('#table-turn'), pad: q('#table-pad')};
  if (st.phase === 'decide') Object.assign(must, {verdict: q('#table-verdict'), roll: q('#table-roll'), stop: q('#table-stop'),
                                                  chance_roll: q('#table-chance-roll'), chance_stop: q('#table-chance-stop')});
  const rolls = {};
  if (st.phase === 'start' || st.phase === 'roll') document.querySelectorAll('#table-rolls .rolls:not([hidden]) button').forEach((b, i) => {
    must['res' + i] = b; rolls[b.dataset.roll] = rect(b); });
  if (st.phase === 'nuts') for (const id of ['n', 'minus', 'plus', 'five', 'done']) must[id] = q('#table-nuts-' + id);
  const read = [...document.querySelectorAll('#table-pad .name, #table-pad .score, #table-turn .who, #table-turn .state, #table-verdict, .chances .num, #table-rolls .res')]
    .filter((e) => shown(e) && e.textContent).map((e) => [e.className || e.id, parseFloat(getComputedStyle(e).fontSize)]);
  const broken = [...document.querySelectorAll('#table-pad .score, #table-pad .name, .chances .num, #table-rolls .cars, #table-rolls .faces, #table-turn .state, #table-verdict, table.seats td')]
    .filter((e) => shown(e) && e.textContent).filter((e) => {
      if (e.tagName === 'TD') {              // a cell may be taller than its number (a long name wraps in its row)
        const range = document.createRange(); range.selectNodeContents(e);
        return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size > 1;
      }
      const b = e.getBoundingClientRect(), cs = getComputedStyle(e);
      const lh = parseFloat(cs.lineHeight) || 1.5 * parseFloat(cs.fontSize); return b.height > 1.6 * lh; }).map((e) => e.textContent);
  const style = (id) => { const b = q('#' + id), cs = getComputedStyle(b);
    return {advised: b.classList.contains('advised'), weight: Number(cs.fontWeight), border: parseFloat(cs.borderTopWidth),
            mark: !b.querySelector('.mark').hidden}; };
  return {st: {phase: st.phase, seat: st.seat, n: st.n, t: st.t, events: r.events.length},
          rects: Object.fromEntries(Object.entries(must).map(([k, e]) => [k, rect(e)])), rolls,
          width: document.documentElement.scrollWidth, read, broken,
          current: seat && seat.getAttribute('aria-current'), role: q('#table-verdict').getAttribute('role'),
          verdict: q('#table-verdict').textContent, action: q('#table-verdict').dataset.action,
          tie: q('#table-verdict').classList.contains('tie'),
          chances: !q('#table-chances').hidden, why: !q('#table-advice').hidden,
          roll: style('table-roll'), stop: style('table-stop')};
}"""


def check_glance(size, look, hidden_seat):
    """The criteria at one size, from one LOOK."""
    w, h = size
    st = look["st"]
    where = (size, st)
    for name, r in look["rects"].items():
        assert r is not None and r[0] >= -0.5 and r[1] >= -0.5 and r[2] <= w + 0.5 and r[3] <= h + 0.5, (where, name, r)
    assert look["width"] <= w, (where, look["width"])
    assert [x for x in look["read"] if x[1] < 20] == [], (where, look["read"])
    assert look["broken"] == [], (where, look["broken"])
    if st["phase"] == "start" or st["phase"] == "roll":
        assert len([k for k in look["rects"] if k.startswith("res")]) == (st["n"] + 1) * (st["n"] + 2) // 2
    if st["phase"] == "decide":
        assert look["current"] == "true" and look["role"] == "status"
        advised = [k for k in ("roll", "stop") if look[k]["advised"]]
        if st["seat"] == hidden_seat:
            assert advised == [] and not look["chances"] and not look["why"], where
        else:
            assert look["chances"], where
            assert advised == ([] if look["tie"] else [look["action"]]), (where, look["verdict"])
            for k in advised:                  # emphasised by more than colour: a mark, the weight, the border
                other = look["stop" if k == "roll" else "roll"]
                assert look[k]["mark"] and not other["mark"], where
                assert look[k]["weight"] > other["weight"] and look[k]["border"] > other["border"], where


def play_game(phone, seed, hidden_seat=2, sizes=SIZES):
    """A scripted 4-player game to its end, every entry looked at in each of the sizes (the viewport is
    resized between looks; the taps go round the sizes, each a touch at the centre of the control as the
    look found it, after a person's pause where the last tap landed). Results are drawn with the dice's
    odds, decisions by a simple rule. Returns the counts of what was seen and a screenshot of each phase at
    each size."""
    rng = random.Random(seed)
    phone.start(hidden=(hidden_seat,))
    page = phone.page
    page.evaluate("""() => { window.__shift = 0; new PerformanceObserver((l) => { for (const e of l.getEntries())
        if (!e.hadRecentInput) window.__shift += e.value; }).observe({type: 'layout-shift'}); }""")
    seen, shots, anchors, last, events = {"decide": 0, "roll": 0, "nuts": 0}, {}, {}, None, None

    def touch(rect):
        nonlocal last
        x, y = (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2
        if last and abs(x - last[0]) < 30 and abs(y - last[1]) < 30:
            time.sleep(max(0.0, 0.37 - (time.monotonic() - last[2])))
        page.touchscreen.tap(x, y)
        last = (x, y, time.monotonic())
    for step in range(3000):
        looks = {}
        for size in sizes:
            page.set_viewport_size({"width": size[0], "height": size[1]})
            look = looks[size] = page.evaluate(LOOK)
            check_glance(size, look, hidden_seat)
            top = [look["rects"]["pad"], look["rects"]["turn"]]        # what the eyes come back to never moves
            assert anchors.setdefault(size, top) == top, (size, look["st"], top)
            kind = "decide" if look["st"]["phase"] == "decide" else "nuts" if look["st"]["phase"] == "nuts" else "roll"
            if look["st"]["phase"] != "over" and (size, kind) not in shots and look["st"]["seat"] != hidden_seat:
                shots[size, kind] = page.screenshot()
        st = look["st"]
        assert events is None or st["events"] == events + 1 or st["phase"] == "nuts", st     # every tap took, once
        events = st["events"]
        if st["phase"] == "over":
            break
        size = sizes[step % len(sizes)]
        page.set_viewport_size({"width": size[0], "height": size[1]})
        look = looks[size]
        if st["phase"] in ("start", "roll"):
            seen["roll"] += 1
            n = st["n"]
            a = sum(rng.random() < 1 / 3 for _ in range(n))
            s = sum(rng.random() < 0.75 for _ in range(n - a))
            touch(look["rolls"][f"{a}-{s}-{n - a - s}"])
        elif st["phase"] == "decide":
            seen["decide"] += 1
            touch(look["rects"]["stop" if st["t"] >= rng.choice((6, 9, 14)) else "roll"])
        else:
            seen["nuts"] += 1
            for _ in range(rng.randrange(4)):
                touch(look["rects"]["plus"])
            touch(look["rects"]["done"])
    else:
        raise AssertionError("the game did not end")
    shift = page.evaluate("window.__shift")
    assert shift < 0.01, shift                                           # cumulative layout shift about 0
    for size in sizes:
        page.set_viewport_size({"width": size[0], "height": size[1]})
        shots[size, "over"] = page.screenshot()
    return seen, shots


def glance_game(browser, page_file, sizes, seed, fragment="", tag="table"):
    """play_game on a phone opened at the first size, its screenshots kept; returns what was seen."""
    phone = Phone.open(browser, page_file, sizes[0], fragment=fragment)
    seen, shots = play_game(phone, seed=seed, sizes=sizes)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for (size, kind), png in shots.items():
        (SHOTS / f"{size[0]}x{size[1]}-{tag}-{kind}.png").write_bytes(png)
    phone.close()
    return seen


def test_the_answer_is_in_view_at_every_entry_of_a_whole_four_player_game_on_three_phones(browser, page_file):
    seen = glance_game(browser, page_file, SIZES, seed=135)
    assert seen["decide"] >= 30 and seen["roll"] >= 60 and seen["nuts"] >= 1, seen


def test_the_answer_is_in_view_on_a_phone_turned_sideways(browser, page_file):
    seen = glance_game(browser, page_file, [(844, 390)], seed=136)
    assert seen["decide"] >= 10 and seen["roll"] >= 20, seen


# What the strip shows of each name (the whole, the short form, or its letters alone) and whether it is cut.
SHOWN_NAMES = """() => [...document.querySelectorAll('#table-pad .card')].map((c) => {
  const part = c.classList.contains('cut2') ? '.tiny' : c.classList.contains('cut') ? '.short' : '.full';
  const box = c.querySelector('.name');
  return [c.querySelector(part).textContent, box.scrollWidth <= box.clientWidth + 0.5];
})"""


@pytest.mark.parametrize("how", ["200% text", "200% zoom"])
def test_at_200_percent_text_or_zoom_nothing_scrolls_sideways_and_every_name_is_told_apart(browser, page_file,
                                                                                          tmp_path, how):
    """200 % text: Chromium's minimum font size at 34 px (17 px doubled), as a phone's largest text setting
    gives; 200 % zoom: a 390 px phone zoomed in, 195 CSS px at 2 device pixels each. The default names, which
    differ only in their last letter, at every phase of a short game."""
    if how == "200% text":
        profile = tmp_path / "profile"
        (profile / "Default").mkdir(parents=True)
        (profile / "Default" / "Preferences").write_text(json.dumps(
            {"webkit": {"webprefs": {"minimum_font_size": 34, "minimum_logical_font_size": 34}}}))
        ctx = browser.browser_type.launch_persistent_context(str(profile), executable_path=browser_executable(browser),
                                                             viewport={"width": 390, "height": 844}, has_touch=True,
                                                             is_mobile=True)
        page, width = ctx.pages[0] if ctx.pages else ctx.new_page(), 390
    else:
        ctx = browser.new_context(viewport={"width": 195, "height": 422}, device_scale_factor=2, has_touch=True,
                                  is_mobile=True)
        page, width = ctx.new_page(), 195
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(page_file.as_uri() + "#table")
    page.wait_for_function("() => window.gonuts !== undefined")
    if how == "200% text":
        assert page.evaluate("parseFloat(getComputedStyle(document.querySelector('#table-prompt, body')).fontSize)") >= 34
    page.select_option("#table-players", "4")
    page.locator("#table-setup button[type=submit]").tap()
    page.wait_for_selector("#table-game:not([hidden])")
    tap = clicker(page, how="tap")
    for step, selector in enumerate(["[data-roll='2-2-1']", "#table-roll", "[data-roll='0-4-0']", "#table-nuts-plus",
                                     "#table-nuts-done", None]):
        page.wait_for_timeout(150)                                     # the strip measures its names after a frame
        assert page.evaluate("document.documentElement.scrollWidth") <= width, (how, step)
        shown = page.evaluate(SHOWN_NAMES)
        assert all(whole for _, whole in shown), (how, step, shown)       # no name cut by the browser
        texts = [t.lower() for t, _ in shown]
        assert len(set(texts)) == 4, (how, step, texts)                   # and every one told apart
        page.screenshot(path=str(SHOTS / f"{how.replace('% ', '-')}-table-{step}.png"))
        if selector:
            tap(selector)
    assert errors == []
    ctx.close()


def test_under_forced_colours_the_advised_button_is_still_the_one_marked(browser, page_file):
    """Windows high contrast replaces every colour: the advised button keeps its mark and a thicker frame."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, forced_colors="active", color_scheme="dark")
    page = ctx.new_page()
    page.goto(page_file.as_uri() + "#table")
    page.wait_for_function("() => window.gonuts !== undefined")
    assert page.evaluate("matchMedia('(forced-colors: active)').matches")
    page.click("#table-setup button[type=submit]")
    page.click("[data-roll='2-2-1']")
    look = page.evaluate("""() => ['table-roll', 'table-stop'].map((id) => { const b = document.getElementById(id);
        const cs = getComputedStyle(b); return [b.classList.contains('advised'), !b.querySelector('.mark').hidden,
        parseFloat(cs.borderTopWidth), cs.outlineStyle]; })""")
    advised = [x for x in look if x[0]]
    other = [x for x in look if not x[0]]
    assert len(advised) == 1 and advised[0][1] and not other[0][1]            # the mark, on one button only
    assert advised[0][2] > other[0][2] and advised[0][3] != "none"             # a thicker frame, and an outline
    ctx.close()


def browser_executable(browser):
    from conftest import CHROMIUM
    return CHROMIUM


def test_a_double_tap_records_one_entry(browser, page_file):
    phone = Phone.open(browser, page_file, (390, 844))
    page = phone.page
    phone.start(players=2, names=("Ann", "Bo"))
    page.locator("[data-roll='2-2-1']").dblclick()                      # a real double tap: one roll
    assert phone.state()["events"] == 1 and phone.state()["phase"] == "decide"
    box = page.locator("#table-roll").bounding_box()
    page.mouse.dblclick(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)   # Roll, then what is under it
    st = phone.state()
    assert st["events"] == 2 and st["phase"] == "roll", st
    time.sleep(0.4)
    page.keyboard.press("Tab")                                           # keys are never ignored
    page.locator("[data-roll='1-2-1']").focus()
    page.keyboard.press("Enter")
    assert phone.state()["events"] == 3
    phone.close()


def test_a_new_game_keeps_the_running_one_and_resume_brings_it_back(browser, page_file):
    phone = Phone.open(browser, page_file, (390, 844))
    page = phone.page
    phone.start(players=2, names=("Ann", "Bo"))
    phone.tap("[data-roll='3-1-1']")
    first = page.evaluate("window.gonuts.record('table')")
    phone.start(players=2, names=("Cy", "Di"))
    assert page.evaluate("window.gonuts.record('table').names") == ["Cy", "Di"]
    phone.tap("[data-roll='1-1-3']")
    page.reload()
    page.wait_for_function("() => window.gonuts !== undefined")
    page.locator("#tab-table").tap()
    if not page.evaluate("document.getElementById('table-new').open"):
        page.locator("#table-new > summary").tap()
    assert "Ann, Bo" in page.text_content("#table-recent-list")
    page.locator("#table-resume-0").tap()
    assert page.evaluate("window.gonuts.record('table')") == first
    assert "Cy, Di" in page.text_content("#table-recent-list")           # the one it replaced is kept in turn
    phone.close()


def test_a_reload_in_the_middle_of_a_go_nuts_count_keeps_it(browser, page_file):
    phone = Phone.open(browser, page_file, (390, 844))
    page = phone.page
    phone.start(players=2, names=("Ann", "Bo"))
    phone.tap("[data-roll='0-5-0']")                                    # all squirrels: Go Nuts!
    for _ in range(3):
        phone.tap("#table-nuts-plus")
    phone.tap("#table-nuts-five")
    assert page.text_content("#table-nuts-n") == "8"
    page.reload()
    page.wait_for_function("() => window.gonuts !== undefined")
    page.locator("#tab-table").tap()
    assert page.text_content("#table-nuts-n") == "8"
    phone.tap("#table-nuts-done")
    assert page.evaluate("window.gonuts.record('table').events[1]") == {"seat": 0, "nuts": 8}
    phone.close()


def test_storage_that_refuses_a_write_is_said_at_once_and_the_game_goes_on(browser, page_file):
    phone = Phone.open(browser, page_file, (390, 844))
    page = phone.page
    phone.start(players=2, names=("Ann", "Bo"))
    page.evaluate("""() => { Storage.prototype.setItem = function () {
        throw new DOMException('full', 'QuotaExceededError'); }; }""")
    phone.tap("[data-roll='2-2-1']")
    assert page.is_visible("#unsaved") and "storage is full" in page.text_content("#unsaved-why")
    assert phone.state()["events"] == 1                                  # the game in memory goes on
    with page.expect_download() as dl:
        page.locator("#unsaved-export").tap()
    saved = json.loads(Path(dl.value.path()).read_text())
    assert saved["names"] == ["Ann", "Bo"] and len(saved["events"]) == 1
    phone.close()


def test_names_are_shown_isolated_and_hidden_characters_are_refused_or_removed(browser, page_file):
    phone = Phone.open(browser, page_file, (320, 568))
    page = phone.page
    phone.start(players=2, names=("\u202eAnn", "B\u200bo"))
    assert page.evaluate("window.gonuts.record('table').names") == ["Ann", "Bo"]
    assert page.evaluate("document.querySelector('#table-pad .name').tagName") == "BDI"
    phone.start(players=2, names=("\u200b\u200d", "Bo"))
    assert "needs a name" in page.text_content("#table-setup-error")
    phone.start(players=2, names=("Ｂｏ", "bo"))                          # look-alikes are the same name
    assert "Two players are called" in page.text_content("#table-setup-error")
    phone.start(players=2, names=("👨‍👩‍👧‍👦" * 20, "Bo"))                          # 20 characters as a person counts them
    assert page.is_hidden("#table-setup-error") or not page.text_content("#table-setup-error")
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    phone.close()


@pytest.mark.parametrize("hidden", ["\u200d", "\u200c", "\ufe0f", "\u034f"], ids=["ZWJ", "ZWNJ", "VS16", "CGJ"])
def test_a_name_with_an_invisible_character_inside_is_refused_as_the_same_name(browser, page_file, hidden):
    phone = Phone.open(browser, page_file, (320, 568))
    page = phone.page
    phone.start(players=2, names=("Cy", "Di"))                        # a game on screen: a refused form keeps it
    phone.start(players=2, names=("Ann", f"An{hidden}n"))
    assert "Two players are called" in page.text_content("#table-setup-error")
    phone.close()


def test_blank_and_overloaded_names_are_what_a_person_sees(browser, page_file):
    """A blank Braille pattern is no name; a letter keeps at most the marks a script needs, so 20 letters
    carrying 200 accents each stay within the strip; the page and review (solver/play/names.py) agree."""
    from solver.play.names import MARKS_MAX, clean_name, name_key
    phone = Phone.open(browser, page_file, (320, 568))
    page = phone.page
    phone.start(players=2, names=("Cy", "Di"))
    phone.start(players=2, names=("\u2800\u2800", "Bo"))
    assert "needs a name" in page.text_content("#table-setup-error")
    zalgo = "".join("x" + "\u0301" * 200 for _ in range(20))
    phone.start(players=2, names=(zalgo, "Bo"))
    kept = page.evaluate("window.gonuts.record('table').names")[0]
    assert kept == clean_name(zalgo) == ("x" + "\u0301" * MARKS_MAX) * 20
    strip = page.evaluate("(() => { const b = document.querySelector('#table-pad .name').getBoundingClientRect(); "
                          "return [b.top, b.bottom, document.documentElement.scrollWidth]; })()")
    assert strip[0] >= 0 and strip[1] - strip[0] < 80 and strip[2] <= 320
    names = ["Ann", "ANN", "An\u200dn", "Ａｎｎ", "Zoë", "Zoe\u0308", "I", "ı", "Straße", "STRASSE", "Bo\u00ad"]
    same = page.evaluate("(ns) => ns.map((a) => ns.map((b) => gonuts.text.sameName(a, b)))", names)
    assert same == [[name_key(a) == name_key(b) for b in names] for a in names]
    phone.close()


def test_undo_names_what_it_takes_back(browser, page_file):
    phone = Phone.open(browser, page_file, (390, 844))
    page = phone.page
    phone.start(players=2, names=("Ann", "Bo"))
    assert page.is_disabled("#table-undo")
    phone.tap("[data-roll='2-2-1']")
    assert page.text_content("#table-undo") == "Undo: Ann rolled 2 acorns, 2 squirrels, 1 car"
    phone.tap("#table-stop")
    assert page.text_content("#table-undo") == "Undo: Ann chose to stop"
    phone.tap("#table-undo")
    assert phone.state()["phase"] == "decide"
    phone.close()


def test_a_page_with_a_table_game_opens_on_it_and_labels_both_chances(browser, page_file):
    """The family's game is the first screen after a reload; under Roll and Stop each chance says
    what it is a chance of."""
    phone = Phone.open(browser, page_file, (390, 844))
    page = phone.page
    assert page.is_visible("#panel-advise")                       # a first visit: no table game kept
    phone.start(players=2, names=("Ann", "Bo"))
    phone.tap("[data-roll='2-2-1']")
    page.goto(page_file.as_uri())
    page.reload()
    page.wait_for_selector("#table-game:not([hidden])")
    assert page.is_visible("#panel-table") and page.is_hidden("#panel-advise")
    for action in ("roll", "stop"):
        label = page.inner_text(f"#table-chances span:has(> #table-chance-{action})").split("\n")[-1]   # after the sr words
        assert label.startswith("win ") and label.endswith("%"), label
    phone.close()


def test_saved_games_of_two_sites_on_one_origin_never_touch(browser, page_file, tmp_path):
    """The single file at two paths stands in for /a/ and /b/ of one host: each keeps its own game."""
    a, b = tmp_path / "a" / "gonuts.html", tmp_path / "b" / "gonuts.html"
    for p in (a, b):
        p.parent.mkdir()
        p.write_bytes(page_file.read_bytes())
    phone = Phone(browser, (390, 844))
    page = phone.page
    page.goto(a.as_uri())
    page.wait_for_function("() => window.gonuts !== undefined")
    phone.start(players=2, names=("Ann", "Bo"))
    page.goto(b.as_uri())
    page.wait_for_function("() => window.gonuts !== undefined")
    assert page.evaluate("window.gonuts.record('table')") is None
    keys = page.evaluate("Object.keys(localStorage)")
    assert [k for k in keys if k.startswith("gonuts.table.v1@")] == [f"gonuts.table.v1@{a.parent.as_posix()}/"]
    assert all(f"@{a.parent.as_posix()}/" in k for k in keys if k.startswith("gonuts."))    # every key scoped
    assert page.input_value("#table-name-0") == "" and page.get_attribute("#table-name-0", "placeholder") == "Player 1"   # not a's last table
    phone.close()


# -- accessibility: axe-core on every tab and every Table phase -------------------------------------

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def axe(page, where):
    """axe-core's violations on the page as it is (WCAG 2 A and AA, and best practices)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text() + "\n;undefined")                  # evaluated, so the page's CSP allows it
    found = page.evaluate("axe.run(document, {resultTypes: ['violations']}).then((r) => r.violations.map("
                          "(v) => [v.id, v.nodes.length, v.nodes[0].target.join(' ')]))")
    assert found == [], (where, found)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_first_visit_s_welcome_keeps_its_buttons_in_sight_on_the_smallest_phone(browser, page_file, lang):
    phone = Phone.open(browser, page_file, (320, 568), fragment=f"?lang={lang}" if lang != "en" else "")
    try:
        assert phone.page.is_visible("#welcome")
        for button in ("#welcome-done", "#welcome-howto"):
            box = phone.page.locator(button).bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= 568, (button, box)
        phone.page.locator("#welcome-done").tap()
        assert not phone.page.is_visible("#welcome")
    finally:
        phone.ctx.close()


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed: npm ci (CI does)")
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_on_any_tab_or_in_any_table_phase(browser, page_file, scheme):
    phone = Phone.open(browser, page_file, (390, 844), scheme=scheme)
    page = phone.page
    assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (scheme == "dark")
    assert page.is_visible("#welcome")                                 # a first visit
    page.locator("#welcome-howto").tap()
    axe(page, "the first visit, with the how-to-play")
    page.locator("#welcome-done").tap()
    for tab in ("advise", "play", "coach", "table", "review"):
        page.locator(f"#tab-{tab}").tap()
        axe(page, tab)
    page.locator("#tab-advise").tap()
    page.locator("#adv-go").tap()
    axe(page, "advise answered")
    page.goto(page_file.as_uri() + "#play&seed=7&players=2&rules=rulebook&seat=0&opp=optimal")
    page.wait_for_selector("#play-game:not([hidden])")
    axe(page, "play game")
    page.locator("#tab-coach").tap()
    page.locator("#coach-setup button[type=submit]").tap()
    axe(page, "coach game")
    phone.start(players=4, names=("Ann", "Ben", "Cleo", "Dev"))
    axe(page, "table: a roll to enter")
    phone.tap("[data-roll='2-2-1']")
    axe(page, "table: a decision, advice on")
    page.locator("#table-log-box summary").tap()
    page.locator("#table-log button.change").first.tap()
    axe(page, "table: a past entry being changed")
    page.locator("#table-change-cancel").tap()
    page.locator("#table-hint-toggle-0").tap()
    axe(page, "table: a decision, advice off")
    phone.tap("#table-roll")
    phone.tap("[data-roll='0-4-0']")
    assert page.is_visible("#table-said")
    axe(page, "table: a Go Nuts! count, its rule event said")
    for _ in range(6):
        phone.tap("#table-nuts-five")
    phone.tap("#table-nuts-done")                                      # 30 acorns
    for _seat in range(1, 4):
        page.fill("#table-bank-n", "0")
        page.locator("#table-bank button[type=submit]").tap()
    phone.tap("[data-roll='5-0-0']")
    while phone.state()["phase"] != "over":
        st = phone.state()
        if st["phase"] == "decide":
            phone.tap("#table-roll")
        else:
            phone.tap(f"[data-roll='{st['n']}-0-0']")
    axe(page, "table: game over")
    page.locator("#table-to-review").tap()
    axe(page, "review of the table game")
    phone.close()


# -- links, huge games, odd files, the CSP --------------------------------------------------------------

def test_a_link_never_replaces_a_game_in_progress_without_asking_and_back_restores_it(browser, page_file):
    phone = Phone(browser, (390, 844))
    page = phone.page
    mine = page_file.as_uri() + "#play&seed=7&players=2&rules=rulebook&seat=0&opp=optimal"
    page.goto(mine)
    page.wait_for_selector("#play-game:not([hidden])")
    page.wait_for_function("() => !document.getElementById('play-roll').disabled")
    page.locator("#play-roll").tap()
    page.wait_for_function("() => window.gonuts.record('play').events.length > 0")
    kept = page.evaluate("window.gonuts.record('play')")
    page.evaluate("location.hash = '#play&seed=42&players=2&rules=rulebook&seat=0&opp=optimal'")   # a link followed
    page.wait_for_selector("#play-ask:not([hidden])")
    assert "seed 42" in page.text_content("#play-ask-q") and page.evaluate("window.gonuts.record('play')") == kept
    page.locator("#play-ask-mine").tap()
    page.wait_for_function("() => location.hash.includes('seed=7')")
    assert page.evaluate("window.gonuts.record('play').seed") == 7
    page.evaluate("location.hash = '#play&seed=42&players=2&rules=rulebook&seat=0&opp=optimal'")
    page.wait_for_selector("#play-ask:not([hidden])")
    page.locator("#play-ask-link").tap()
    page.wait_for_function("() => window.gonuts.record('play').seed === 42")
    page.goto(mine)                                                    # back to the old address
    page.wait_for_function("() => window.gonuts.record('play') && window.gonuts.record('play').seed === 7")
    now = page.evaluate("window.gonuts.record('play')")
    assert now["events"][:len(kept["events"])] == kept["events"]
    phone.close()


def test_a_huge_saved_game_never_makes_the_page_throw(browser, page_file):
    """A saved table game of 199,997 entries (all cars, every turn: legal): restored, drawn, and refused past
    the record's limit of 200,000 with a message, never a RangeError."""
    phone = Phone.open(browser, page_file, (390, 844))
    page = phone.page
    phone.saved_all_cars(199_997)
    for _ in range(3):
        phone.tap("[data-roll='0-0-5']")
    assert phone.state()["events"] == 200000
    phone.tap("[data-roll='0-0-5']")
    assert "the most a game record holds" in page.text_content("#table-error")
    assert page.locator("#table-log li").count() <= 301
    phone.close()


def test_the_log_drawn_entry_by_entry_is_the_log_drawn_whole(browser, page_file):
    """Taps add or take back only the log lines that changed; around the 300 shown (the oldest give way
    to a line that counts them, an undo brings them back) the log after each tap equals the log another page
    draws whole from that tap's record."""
    phone = Phone.open(browser, page_file, (390, 844))
    page = phone.page
    phone.saved_all_cars(298)
    log = "(() => { const l = document.getElementById('table-log'); return [l.getAttribute('start'), [...l.children].map((c) => c.textContent)]; })()"
    seen, records = [], []
    for sel in ["[data-roll='0-0-5']", "[data-roll='1-0-4']", "#table-stop", "[data-roll='0-0-5']", "#table-undo",
                "#table-undo", "#table-undo", "#table-undo", "#table-undo", "[data-roll='0-0-5']", "[data-roll='2-1-2']"]:
        phone.tap(sel)                    # one page taps through, its log drawn step by step
        seen.append(page.evaluate(log))
        records.append(page.evaluate("JSON.stringify(window.gonuts.record('table'))"))
    whole = Phone.open(browser, page_file, (390, 844))         # another draws each step's record whole
    for k, text in enumerate(records):
        whole.page.evaluate("(t) => localStorage.setItem(`gonuts.table.v1@${new URL('.', location.href).pathname}`, t)", text)
        whole.page.goto(page_file.as_uri() + "#table")
        whole.page.reload()
        whole.page.wait_for_selector("#table-game:not([hidden])")
        assert whole.page.evaluate(log) == seen[k], k
    whole.close()
    starts = [int(s) for s, _ in seen]
    assert max(starts) > 1 and min(starts) == 1          # the window moved past 300 and back
    assert seen[2][1][0] == "1 earlier entry is in the exported record" and len(seen[2][1]) == 301
    phone.close()


@pytest.mark.parametrize("text", ["false", "0", '""', "[]", "null"])
def test_a_record_file_that_is_not_an_object_is_an_error(browser, page_file, tmp_path, text):
    phone = Phone.open(browser, page_file, (390, 844), "#review")
    page = phone.page
    page.select_option("#rev-source", "file")
    f = tmp_path / "game.json"
    f.write_text(text)
    page.set_input_files("#rev-file", str(f))
    page.wait_for_selector("#rev-error:not([hidden])")
    assert page.text_content("#rev-error") == "a game record must be a JSON object"
    phone.close()


def test_no_inline_script_runs_unnamed(browser, page_file):
    """The CSP names each inline script and style by its hash: one added later (as a bug might let a record's
    text in) does not run, and the page's own do."""
    html = page_file.read_text()
    csp = html.split('http-equiv="Content-Security-Policy" content="', 1)[1].split('"', 1)[0]
    assert "unsafe-inline" not in csp and csp.count("'sha256-") == 1 + 1    # the style and the one bundled script
    phone = Phone.open(browser, page_file, (390, 844))
    page = phone.page
    page.evaluate("""() => { const s = document.createElement('script'); s.textContent = 'window.__ran = 1';
        document.body.append(s); const d = document.createElement('div');
        d.innerHTML = '<img src=x onerror="window.__ran = 2">'; document.body.append(d); }""")
    time.sleep(0.3)
    assert page.evaluate("window.__ran") is None
    phone.errors = [e for e in phone.errors if "Content Security Policy" not in e and "Refused" not in e]
    phone.close()


def test_two_tabs_on_one_table_game_never_both_write(browser, page_file):
    """The second tab follows the first live, read-only, until it takes the game over; then the first follows."""
    phone = Phone(browser, (390, 844))
    a = phone.page
    a.goto(page_file.as_uri())
    a.wait_for_function("() => window.gonuts !== undefined")
    phone.start(players=2, names=("Ann", "Bo"))
    b = phone.ctx.new_page()
    b.goto(page_file.as_uri() + "#table")
    b.wait_for_selector("#table-follow:not([hidden])")
    assert b.is_disabled("[data-roll='2-2-1']") and b.is_enabled("#table-take")
    phone.tap("[data-roll='2-2-1']")                                    # played in the first tab,
    b.wait_for_function("() => window.gonuts.record('table').events.length === 1")     # followed in the second
    b.wait_for_selector("#table-roll:disabled")
    b.locator("#table-take").tap()
    b.wait_for_selector("#table-follow[hidden]", state="attached")
    a.wait_for_selector("#table-follow:not([hidden])")                  # the first now follows
    assert a.is_disabled("#table-stop")
    b.locator("#table-stop").tap()
    a.wait_for_function("() => window.gonuts.record('table').events.length === 2")
    assert a.evaluate("window.gonuts.record('table')") == b.evaluate("window.gonuts.record('table')")
    phone.close()


def test_a_whole_table_game_with_the_keyboard_alone(browser, page_file):
    """Tab to a control, Enter: from the setup to the end of a 2-player game, no pointer."""
    phone = Phone.open(browser, page_file, (390, 844), "#table")
    page = phone.page

    def press_on(selector, limit=80):
        for _ in range(limit):
            if page.evaluate("(s) => document.activeElement === document.querySelector(s)", selector):
                page.keyboard.press("Enter")
                return
            page.keyboard.press("Tab")
        raise AssertionError(f"Tab never reached {selector}")
    page.select_option("#table-players", "2")                            # a select: keyboard too, but set here
    press_on("#table-setup button[type=submit]")
    page.wait_for_selector("#table-game:not([hidden])")
    rng = random.Random(5)
    for _ in range(400):
        st = phone.state()
        if st["phase"] == "over":
            break
        if st["phase"] in ("start", "roll"):
            n = st["n"]
            a = sum(rng.random() < 0.5 for _ in range(n))
            press_on(f"[data-roll='{a}-0-{n - a}']" if a < n or rng.random() < 0.5 else f"[data-roll='{n}-0-0']")
        elif st["phase"] == "decide":
            press_on("#table-stop" if st["t"] >= 8 else "#table-roll")
        else:
            press_on("#table-nuts-done")
        assert phone.state()["events"] == st["events"] + 1
    assert phone.state()["phase"] == "over"
    phone.close()


def coach_roll(page, roll):
    """Enter a roll of real dice in the Coach tab: acorns, squirrels, cars, then Enter roll."""
    for field, count in zip(("#coach-a", "#coach-s", "#coach-c"), roll):
        page.fill(field, str(count))
    page.locator("#coach-roll button[type=submit]").tap()


def test_two_tabs_on_one_coached_or_played_game_never_both_write(browser, page_file):
    phone = Phone.open(browser, page_file)
    a = phone.page
    a.locator("#tab-coach").tap()
    a.locator("#coach-setup button[type=submit]").tap()
    b = phone.ctx.new_page()
    b.goto(page_file.as_uri() + "#coach")
    b.wait_for_selector("#coach-follow:not([hidden])")
    assert b.is_disabled("#coach-roll button[type=submit]")
    coach_roll(a, (2, 2, 1))
    b.wait_for_function("() => window.gonuts.record('coach').events.length === 1")
    b.locator("#coach-take").tap()
    a.wait_for_selector("#coach-follow:not([hidden])")
    b.wait_for_selector("#coach-do-stop:enabled")
    b.locator("#coach-do-stop").tap()
    a.wait_for_function("() => window.gonuts.record('coach').events.length === 2")

    game = page_file.as_uri() + "#play&seed=9&players=2&rules=rulebook&seat=0&opp=optimal&fast=1"
    a.goto(game)
    a.wait_for_selector("#play-roll:enabled")
    c = phone.ctx.new_page()
    c.goto(game)
    c.wait_for_selector("#play-follow:not([hidden])")
    assert c.is_disabled("#play-roll")
    a.locator("#play-roll").tap()
    c.wait_for_function("() => window.gonuts.record('play').events.length > 0")
    assert c.evaluate("window.gonuts.record('play')")["events"][0] == a.evaluate("window.gonuts.record('play')")["events"][0]
    phone.close()


def test_a_new_coached_or_played_game_never_discards_the_running_one(browser, page_file):
    phone = Phone.open(browser, page_file)
    page = phone.page
    page.locator("#tab-coach").tap()
    page.locator("#coach-setup button[type=submit]").tap()
    coach_roll(page, (2, 2, 1))
    first = page.evaluate("window.gonuts.record('coach')")
    page.locator("#coach-new > summary").tap()
    page.locator("#coach-setup button[type=submit]").tap()           # a new game: the running one set aside
    assert page.evaluate("window.gonuts.record('coach').events") == []
    assert "(2 players, 1 entry)" in page.text_content("#coach-resume")
    page.locator("#coach-resume").tap()
    assert page.evaluate("window.gonuts.record('coach')") == first

    page.goto(page_file.as_uri() + "#play&seed=7&players=2&rules=rulebook&seat=0&opp=optimal")
    page.wait_for_selector("#play-roll:enabled")
    page.locator("#play-roll").tap()
    page.wait_for_function("() => window.gonuts.record('play').events.length > 0")
    mine = page.evaluate("window.gonuts.record('play')")
    if not page.evaluate("document.getElementById('play-new').open"):
        page.locator("#play-new > summary").tap()
    page.fill("#play-seed", "8")
    page.locator("#play-setup button[type=submit]").tap()
    page.wait_for_selector("#play-ask:not([hidden])")
    assert "The form starts a new game (seed 8" in page.text_content("#play-ask-q")
    page.locator("#play-ask-mine").tap()
    page.wait_for_selector("#play-ask", state="hidden")
    assert page.evaluate("window.gonuts.record('play').seed") == 7
    assert page.evaluate("window.gonuts.record('play')")["events"][:len(mine["events"])] == mine["events"]
    phone.close()


def test_play_again_keeps_each_players_colour_and_says_the_review_per_decision(browser, page_file):
    """Play again moves the next player to the first seat: each player keeps their colour all the same (seat 0's
    blue went to the next player). The end says what a seat's decisions gave up per decision, not a sum."""
    phone = Phone.open(browser, page_file, (390, 844))
    page = phone.page
    colour = """(name) => { const card = [...document.querySelectorAll('#table-pad .card')].find((c) =>
        c.querySelector('.name').title === name || c.innerText.startsWith(name));
        return getComputedStyle(card).boxShadow; }"""
    phone.start(players=2, names=("Ann", "Bo"))
    before = {name: page.evaluate(colour, name) for name in ("Ann", "Bo")}
    assert before["Ann"] != before["Bo"]
    phone.tap("[data-roll='2-2-1']")
    phone.tap("#table-stop")                                            # Ann decides once
    page.fill("#table-bank-n", "50")
    page.locator("#table-bank button[type=submit]").tap()               # Bo wins
    page.wait_for_selector("#table-over .seat-review")
    ann = page.locator("#table-over .seat-review[data-seat='0']")
    loss = float(ann.get_attribute("data-loss"))
    assert ann.inner_text() == f"Ann: 1 decision; on average {loss:.2f} points of win probability given up per decision (0 is perfect)."
    time.sleep(0.4)
    phone.tap("#table-again")
    page.wait_for_function("() => window.gonuts.record('table').names[0] === 'Bo'")
    assert {name: page.evaluate(colour, name) for name in ("Ann", "Bo")} == before
    assert page.evaluate("window.gonuts.record('table').colours") == [1, 0]
    phone.close()


def test_the_log_says_a_past_entry_can_be_changed(browser, page_file):
    phone = Phone.open(browser, page_file, (320, 568))
    phone.start(players=2, names=("Ann", "Bo"))
    assert phone.page.inner_text("#table-log-box summary") == "Game log: change any entry here"
    phone.close()


def test_the_dice_icons_stand_out_on_a_dark_roll_button(browser, page_file, tmp_path):
    """The acorn and the squirrel are brown: on a dark button each icon has an edge of at least 4.5:1 contrast
    with the button (measured on a screenshot of the icon, against the button's own background)."""
    from matplotlib.image import imread
    phone = Phone.open(browser, page_file, (390, 844), scheme="dark")
    page = phone.page
    phone.start(players=2, names=("Ann", "Bo"))

    def luminance(rgb):
        c = [x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4 for x in rgb[:3]]
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
    bg = page.evaluate("getComputedStyle(document.querySelector(\"[data-roll='2-2-1']\")).backgroundColor")
    back = luminance([int(x) / 255 for x in bg[bg.index("(") + 1:bg.index(")")].split(",")[:3]])
    for face in ("f0", "f1"):
        shot = tmp_path / f"{face}.png"
        page.locator(f"[data-roll='2-2-1'] .ic.{face}").screenshot(path=str(shot), scale="css")
        image = imread(shot)
        pixels = image.reshape(-1, image.shape[-1])
        best = max((max(luminance(p), back) + 0.05) / (min(luminance(p), back) + 0.05) for p in pixels)
        assert best >= 4.5, (face, best)
    phone.close()


def test_the_pages_top_line_says_the_target_of_the_game_on_screen(browser, page_file):
    phone = Phone.open(browser, page_file, (320, 568))
    page = phone.page
    page.evaluate("""() => { const r = {format: 'gonuts-game', version: 1, reading: 'rulebook', players: 2, target: 30,
                   you: 0, mode: 'table', events: [{seat: 0, roll: [0, 0, 5]}], names: ['Ann', 'Bo'], hints: [true, true]};
                   localStorage.setItem('gonuts.table.v1', JSON.stringify(r)); }""")
    page.reload()
    page.wait_for_function("() => window.gonuts !== undefined")
    page.locator("#tab-table").tap()
    page.wait_for_selector("#table-game:not([hidden])")
    line = lambda: page.text_content("#page-line")  # noqa: E731
    assert "Target 30." in line() and "Target 50" not in line()
    page.locator("#tab-advise").tap()
    assert "Target 50." in line()                                       # no game there: the page's own
    page.locator("#tab-table").tap()
    page.select_option("#lang", "es")
    assert "Meta: 30." in line()
    phone.close()
