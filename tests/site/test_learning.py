"""Getting better in the page, in Chromium: the Practice tab and window.gonuts.practice against
`gonuts-solve practice --json`, the daily set and its share line, a session that survives a reload, the luck
line of the Review tab against `review --json`, the rule cards against `simple-rules --json` and on paper,
and the Table's history (reloads, new games, its exports read back by `review`)."""
from __future__ import annotations

import csv
import datetime as dt
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
pytest.importorskip("playwright", reason="the page's browser tests need playwright (pip install \".[test]\")")
sys.path.insert(0, str(Path(__file__).parent.parent))
from test_luck import literal_game  # noqa: E402
from test_table_app import AXE, Phone, axe  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent
NOON = dt.datetime(2026, 12, 5, 12)         # the page's clock wherever a test taps the daily set


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("learning-cache")


def cli(cache, *args, stdin=None):
    return subprocess.run([sys.executable, "-m", "cli", *map(str, args)], cwd=ROOT, input=stdin, capture_output=True,
                          text=True, timeout=600, env={**os.environ, "GONUTS_SOLVE_CACHE": str(cache)})


@pytest.fixture(scope="module")
def page_file(cache, tmp_path_factory):
    """The default page: 2 to 4 players, both readings, target 50."""
    out = tmp_path_factory.mktemp("learning") / "gonuts.html"
    p = cli(cache, "web", "--out", out)
    assert p.returncode == 0, p.stderr
    return out


def test_the_pages_practice_draws_what_the_command_draws(browser, page_file, cache):
    phone = Phone.open(browser, page_file)
    for players, reading, seed in ((2, "rulebook", 31), (3, "summary", 8), (4, "rulebook", 2026), (4, "summary", 5)):
        want = json.loads(cli(cache, "practice", "--seed", seed, "--count", 10, "--players", players, "--rules", reading,
                              "--json").stdout)["decisions"]
        got = phone.page.evaluate("(q) => Promise.resolve(window.gonuts.practice(q))",
                                  {"seed": seed, "count": 10, "players": players, "reading": reading})
        assert [(d["scores"], d["turn"], d["dice"], d["action"], d["close"]) for d in got] == \
            [(d["scores"], d["turn"], d["dice"], d["action"], d["close"]) for d in want]
        for g, w in zip(got, want):
            assert g.keys() == w.keys() and g["rules"] == w["rules"]
            for k in ("win_if_roll", "win_if_stop"):
                assert abs(g[k] - w[k]) <= 1e-12
    err = phone.page.evaluate("() => { try { window.gonuts.practice({seed: 1.5}); } catch (e) { return e.message; } }")
    assert err == "seed must be a whole number from 0 to 4294967295, not 1.5"
    assert phone.errors == []
    phone.close()


def turn_points(n: int) -> str:
    return f"{n} turn point" if n == 1 else f"{n} turn points"


# The page's clock is set, never read from the machine: 2026-12-05's set asks at 1 turn point (the singular).
@pytest.mark.parametrize("day", [dt.date(2026, 12, 5)])
def test_the_daily_set_scores_shares_and_survives_a_reload(browser, page_file, cache, day):
    today = day.isoformat()
    want = json.loads(cli(cache, "practice", "--daily", "--date", today, "--json").stdout)["decisions"]
    assert any(d["turn"] == 1 for d in want)                                 # the date still asks what it is here for
    phone = Phone.open(browser, page_file, (320, 568), "#practice", when=dt.datetime(day.year, day.month, day.day, 23, 59))
    page = phone.page
    def no_share():
        page.evaluate("navigator.clipboard.writeText = (t) => { window.copied = t; return Promise.resolve(); }; "
                      "delete Navigator.prototype.share")
    no_share()
    phone.tap("#prac-daily")
    page.wait_for_selector("#prac-quiz:not([hidden])")
    answers = []
    for i, d in enumerate(want):
        shown = page.inner_text("#prac-state")
        assert shown.startswith(f"Scores {d['scores'][0]} (you), ") and f"; {turn_points(d['turn'])}; " in shown
        for sel in ("#prac-state", "#prac-roll", "#prac-stop"):                   # the question in view
            box = page.locator(sel).bounding_box()
            assert box and box["y"] >= 0 and box["y"] + box["height"] <= 568, (i, sel, box)
        answer = d["action"] if i % 3 else ("stop" if d["action"] == "roll" else "roll")
        answers.append(answer)
        phone.tap(f"#prac-{answer}")
        page.locator(f"#prac-{'stop' if answer == 'roll' else 'roll'}").dispatch_event("click")   # ignored once judged
        loss = float(page.get_attribute("#prac-judged", "data-loss"))
        best = max(d["win_if_roll"], d["win_if_stop"])
        assert abs(loss - 100 * (best - d[f"win_if_{answer}"])) <= 1e-9
        box = page.locator("#prac-judged").bounding_box()
        assert box["y"] + box["height"] <= 568                                # the verdict in view
        if i == 4:                                                            # a reload mid-session loses nothing
            page.reload()
            page.wait_for_function("() => window.gonuts !== undefined")
            page.wait_for_selector("#prac-quiz:not([hidden])")
            no_share()
            assert page.inner_text("#prac-progress") == f"Daily set {today}: decision 6 of 10"
            continue
        phone.tap("#prac-next")
    if not page.is_visible("#prac-result"):
        phone.tap("#prac-next")
    losses = [100 * (max(d["win_if_roll"], d["win_if_stop"]) - d[f"win_if_{a}"]) for d, a in zip(want, answers)]
    right = sum(x == 0 for x in losses)
    mean = sum(losses) / 10
    assert abs(float(page.get_attribute("#prac-total", "data-mean")) - mean) <= 1e-9
    line = page.inner_text("#prac-share-line")
    squares = "".join("\U0001F7E9" if x == 0 else "\U0001F7E8" if x < 1 else "\U0001F7E5" for x in losses)
    assert line == f"Go Nuts! practice {today} \u00b7 {right}/10 \u00b7 {mean:.1f} points {squares}"
    phone.tap("#prac-share")
    page.wait_for_function("() => window.copied !== undefined")
    assert page.evaluate("window.copied") == line
    saved = page.evaluate("JSON.parse(localStorage.getItem(Object.keys(localStorage).find(k => k.startsWith('gonuts.practice.v1'))))")
    assert saved["last"]["n"] == 10 and abs(saved["last"]["mean"] - mean) <= 1e-9 and saved["best"] == saved["last"]
    phone.tap("#prac-again")
    assert page.inner_text("#prac-scores").startswith(f"Last session: {mean:.2f} points per decision over 10")
    shot = ROOT / "build" / "screenshots"
    shot.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shot / "320x568-practice-result.png"))
    assert phone.errors == []
    phone.close()


def test_the_review_tab_splits_luck_as_review_json_does(browser, page_file, cache, tmp_path, rulebook2):
    from solver.store import tables
    three = tables.load(ROOT / "tables" / "gonuts-3p-t50-rulebook.npz")
    phone = Phone.open(browser, page_file)
    page = phone.page
    for table, seed in ((rulebook2, 3), (three, 4)):
        record = literal_game(table, seed, "table")[0]
        record["names"] = [f"P{k}" for k in range(table.rules.players)]
        path = tmp_path / f"g{seed}.json"
        path.write_text(json.dumps(record))
        py = json.loads(cli(cache, "review", path, "--all-seats", "--json").stdout)["seats"]
        js = page.evaluate("(r) => Promise.resolve(window.gonuts.luck(r))", record)
        for k, seat in enumerate(py):
            for part in ("start", "end", "luck", "own_decisions", "others_decisions", "banked_turns"):
                assert abs(js[k][part] - seat[part]) <= 1e-9, (k, part)
        page.locator("#tab-review").click()
        page.select_option("#rev-source", "file")
        page.set_input_files("#rev-file", str(path))
        page.select_option("#rev-seat", "1")
        page.wait_for_selector("#rev-luck")
        shown = page.locator("#rev-luck")
        assert abs(float(shown.get_attribute("data-luck")) - py[1]["luck"]) <= 1e-9
        words = shown.inner_text()
        assert words.startswith(f"P1: {100 * py[1]['start']:.1f}% to {100 * py[1]['end']:.1f}%")
        assert "the dice gave" in words and "P1\u2019s decisions cost" in words
    phone.close()


def test_the_rule_cards_are_simple_rules_numbers_and_print_alone(browser, page_file, cache):
    """The page shows the shipped cards (tests/lab/test_rule_cards.py holds them to simple-rules --json), each
    best rule in words with its cost, and prints the six alone on one page."""
    from solver.site.pagegames import RULE_CARDS
    cards = json.loads(RULE_CARDS.read_text())["cards"]
    phone = Phone.open(browser, page_file, fragment="#practice")
    page = phone.page
    for key, want in cards.items():
        card = page.locator(f"#rule-{key}")
        best = want["rules"][want["best"]]
        assert card.get_attribute("data-policy") == best["policy"]
        assert float(card.get_attribute("data-gives-up")) == best["gives_up"]
        assert f"gives up {100 * best['gives_up']:.2f} points" in card.inner_text()
    assert page.locator("#rule-list article").count() == 6
    assert "stop at 37" in page.inner_text("#rule-2-rulebook")             # dice:5-7-15-27-37, in words
    page.emulate_media(media="print")
    visible = page.evaluate("[...document.querySelectorAll('main > section, header.top, nav.tabs, footer, #prac-setup')]"
                            ".filter(e => getComputedStyle(e).display !== 'none').map(e => e.id || e.tagName)")
    assert visible == ["panel-practice"]
    assert page.evaluate("getComputedStyle(document.getElementById('rule-cards')).display") != "none"
    for paper in ("A4", "Letter"):                                           # the six cards on one page
        assert len(re.findall(rb"/Type\s*/Page(?!s)", page.pdf(format=paper))) == 1, paper
    phone.close()


def record(names, events, reading="rulebook"):
    return {"format": "gonuts-game", "version": 1, "reading": reading, "players": len(names), "target": 50, "you": 0,
            "mode": "table", "names": list(names), "hints": [True] * len(names), "events": events}


def test_the_table_history_survives_reloads_and_new_games_and_review_reads_its_export(browser, page_file, cache,
                                                                                      tmp_path, rulebook2):
    games = []
    for seed, names in ((1, ("Ann", "Bo")), (2, ("Bo", "Cy")), (3, ("Ann", "Cy"))):
        r = literal_game(rulebook2, seed, "table")[0]
        games.append(record(names, r["events"]))
    phone = Phone.open(browser, page_file)
    page = phone.page
    page.evaluate("""([games]) => {
        const scope = new URL('.', location.href).pathname, k = `gonuts.table.v1@${scope}`;
        localStorage.setItem(k, JSON.stringify(games[0]));
        localStorage.setItem(`${k}.recent`, JSON.stringify(games.slice(1)));
    }""", [games])
    page.reload()
    page.wait_for_function("() => window.gonuts !== undefined")
    page.locator("#tab-table").click()
    assert page.inner_text("#hist-count") == "3 games"
    page.locator("#table-history summary").click()
    page.wait_for_selector("#hist-stats tbody tr")
    if AXE.exists():
        axe(page, "table history")
    with page.expect_download() as dl:
        page.click("#hist-export")
    path = tmp_path / "history.json"
    dl.value.save_as(path)
    exported = json.loads(path.read_text())
    assert exported["format"] == "gonuts-history" and exported["games"] == games
    p = cli(cache, "review", path, "--json")
    assert p.returncode == 0, p.stderr
    reviewed = json.loads(p.stdout)["games"]
    assert len(reviewed) == 3
    want = {}
    for g, rv in zip(games, reviewed):
        for seat in rv["seats"]:
            name = g["names"][seat["seat"]]
            w = want.setdefault(name, {"games": 0, "wins": 0, "loss": 0.0, "n": 0, "luck": 0.0})
            w["games"] += 1
            w["wins"] += seat["winner"] == seat["seat"]
            w["loss"] += seat["total_loss_points"]
            w["n"] += len(seat["decisions"])
            w["luck"] += 100 * seat["luck"]
    rows = page.locator("#hist-stats tbody tr")
    assert rows.count() == 3
    for i in range(3):
        row = rows.nth(i)
        w = want[row.get_attribute("data-player")]
        assert int(row.get_attribute("data-games")) == w["games"] and int(row.get_attribute("data-wins")) == w["wins"]
        assert abs(float(row.get_attribute("data-mean-loss")) - w["loss"] / w["n"]) <= 1e-9
        assert abs(float(row.get_attribute("data-luck")) - w["luck"]) <= 1e-9
    with page.expect_download() as dl:
        page.click("#hist-csv")
    csv_path = tmp_path / "history.csv"
    dl.value.save_as(csv_path)
    table = list(csv.DictReader(io.StringIO(csv_path.read_text())))
    assert len(table) == 6 and {r["player"] for r in table} == {"Ann", "Bo", "Cy"}
    raw = csv_path.read_text().splitlines()[1:]
    assert all(',"Ann",' in line or ',"Bo",' in line or ',"Cy",' in line for line in raw)   # every text quoted
    ann = [r for r in table if r["player"] == "Ann"]
    assert abs(sum(float(r["luck_points"]) for r in ann) - want["Ann"]["luck"]) <= 1e-9
    # a new game keeps the old ones: the history grows, and survives a reload
    phone.start(players=2, names=("Ann", "Dee"))
    page.reload()
    page.wait_for_function("() => window.gonuts !== undefined")
    page.locator("#tab-table").click()
    assert page.inner_text("#hist-count") == "3 games"                     # the new game has no events yet
    phone.tap("[data-roll='0-0-5']")
    assert page.inner_text("#hist-count") == "4 games"
    page.reload()
    page.wait_for_function("() => window.gonuts !== undefined")
    assert page.inner_text("#hist-count") == "4 games"
    assert phone.errors == []
    phone.close()


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed: npm ci (CI does)")
def test_axe_finds_nothing_in_practice(browser, page_file):
    phone = Phone.open(browser, page_file, fragment="#practice", when=NOON)
    page = phone.page
    axe(page, "practice")
    phone.tap("#prac-daily")
    page.wait_for_selector("#prac-quiz:not([hidden])")
    axe(page, "practice: a question")
    phone.tap("#prac-roll")
    axe(page, "practice: judged")
    phone.tap("#prac-quit")
    axe(page, "practice: the score")
    phone.close()


def test_a_stored_session_the_page_cannot_draw_is_said_and_let_go(browser, cache, tmp_path):
    """A practice session the page cannot draw (a game to 101: it solves games to 10 to 100) or a damaged one
    never stops the page: a one-line message, the session dropped, the setup shown."""
    out = tmp_path / "two.html"
    assert cli(cache, "web", "--players", "2", "--out", out).returncode == 0
    phone = Phone.open(browser, out, fragment="#practice", when=NOON)
    page = phone.page
    for stored, message in (({"seed": 1, "count": 5, "players": 2, "rules": "rulebook", "target": 101, "daily": None,
                              "answers": []}, "The target is a whole number from 10 to 100."), ("[1, 2", None),
                            ({"seed": "x"}, None)):
        page.evaluate("(v) => localStorage.setItem(`gonuts.practice.v1@${new URL('.', location.href).pathname}`, "
                      "typeof v === 'string' ? v : JSON.stringify({session: v}))", stored)
        page.reload()
        page.wait_for_function("() => window.gonuts !== undefined")
        assert page.is_visible("#prac-setup") and not page.is_visible("#prac-quiz")
        if message:                          # the restore waits for the page's values: wait for its word
            page.wait_for_function("(m) => document.getElementById('prac-error').innerText.includes(m)", arg=message)
            left = page.evaluate("JSON.parse(localStorage.getItem(`gonuts.practice.v1@${new URL('.', location.href).pathname}`))")
            assert "session" not in left
    phone.tap("#prac-daily")
    page.wait_for_selector("#prac-quiz:not([hidden])")
    assert phone.errors == []
    phone.close()


@pytest.mark.parametrize("locale", ["en-US", "tr-TR", "de-DE"])
def test_names_compare_the_same_in_every_browser_language(browser, page_file, locale):
    """"IAN" and "ian" are one name (refused as two players) whatever the browser's language: in Turkish the
    locale's lower case of "I" is a dotless "ı"."""
    context = browser.new_context(locale=locale)
    page = context.new_page()
    page.goto(page_file.as_uri())
    page.wait_for_function("() => window.gonuts !== undefined")
    # a headless Chromium may keep its own default locale: make the language's case rules the default ones
    page.evaluate("""(locale) => {
        const lower = String.prototype.toLocaleLowerCase, upper = String.prototype.toLocaleUpperCase;
        String.prototype.toLocaleLowerCase = function (l) { return lower.call(this, l || locale); };
        String.prototype.toLocaleUpperCase = function (l) { return upper.call(this, l || locale); };
    }""", locale)
    assert page.evaluate("() => 'I'.toLocaleLowerCase()") == ("ı" if locale == "tr-TR" else "i")
    assert page.evaluate("() => gonuts.text.sameName('IAN', 'ian') && !gonuts.text.sameName('IAN', 'ıan')")
    context.close()


def test_a_history_csv_keeps_every_text_field_a_text(browser, page_file, tmp_path):
    """A name that a spreadsheet would run (=2+5, -1, @x, a tab) stays text, quoted, for any separator."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(page_file.as_uri())
    page.wait_for_function("() => window.gonuts !== undefined")
    names = ["a;=2+5;", "=2+5", "-1", "+1", "@x", "\tx", "\rx", "Ann", "a,+1", "b\t@x", "c\n-2", "Jean-Luc"]
    cells = page.evaluate("(values) => values.map((v) => gonuts.text.csvCell(v))", [*names, 0.5, -0.25])
    context.close()
    assert cells[:8] == ['"a;\'=2+5;"', '"\'=2+5"', '"\'-1"', '"\'+1"', '"\'@x"', '"\'\tx"', '"\'\rx"', '"Ann"']
    assert cells[8:12] == ['"a,\'+1"', '"b\t\'@x"', '"c\n\'-2"', '"Jean-Luc"']
    assert cells[12:] == ["0.5", "-0.25"]
    for sep in (",", ";", "\t"):       # a spreadsheet reads quotes only at a field's start: split as it splits
        line = sep.join(["1", *cells[:12], "2"])            # the text fields (a number may start with -)
        for field in line.replace("\n", sep).split(sep):
            assert not re.match(r'"?[=+\-@]', field), (sep, field)


@pytest.mark.parametrize("stored", ['{"best": 5}', '{"last": {"mean": "x"}}', '{"daily": {"2026-12-01": "no"}}', '[]'])
def test_saved_scores_of_another_shape_are_kept_aside_and_never_break_the_tab(browser, page_file, stored):
    phone = Phone.open(browser, page_file, fragment="#practice", when=NOON)
    page = phone.page
    key = "`gonuts.practice.v1@${new URL('.', location.href).pathname}`"
    page.evaluate(f"(v) => localStorage.setItem({key}, v)", stored)
    page.reload()
    page.wait_for_function("() => window.gonuts !== undefined")
    assert page.is_visible("#prac-kept") and "shape this page does not know" in page.inner_text("#prac-kept")
    assert page.evaluate(f"() => localStorage.getItem({key}) === null && localStorage.getItem({key} + '.damaged') === "
                         f"{json.dumps(stored)}")
    assert page.is_visible("#prac-setup") and page.locator(".rulecard").count() > 0   # the rule cards still shown
    phone.tap("#prac-daily")
    page.wait_for_selector("#prac-quiz:not([hidden])")
    assert phone.errors == []
    phone.close()


def test_a_table_games_review_names_its_seats_and_counts_in_words(browser, page_file, tmp_path):
    """A Table game's review says the seat's name, never "You", and "1 point", "1 die"."""
    record = {"format": "gonuts-game", "version": 1, "reading": "rulebook", "players": 2, "you": 0, "mode": "table",
              "names": ["Zoë", "Léa"], "events": [{"seat": 0, "roll": [1, 0, 4]}, {"seat": 0, "choice": "roll"},
                                                  {"seat": 0, "roll": [1, 0, 0]}, {"seat": 0, "choice": "stop"}]}
    path = tmp_path / "zoe.json"
    path.write_text(json.dumps(record))
    phone = Phone.open(browser, page_file)
    page = phone.page
    page.locator("#tab-review").click()
    page.select_option("#rev-source", "file")
    page.set_input_files("#rev-file", str(path))
    page.wait_for_selector("#rev-luck")
    words = page.inner_text("#review-out") if page.locator("#review-out").count() else page.inner_text("body")
    assert "You" not in words.replace("Your", "")
    assert "(Zoë\u2019s first), 1 turn point, 1 die" in words and "Zoë: roll. Optimal:" in words
    assert phone.errors == []
    phone.close()
