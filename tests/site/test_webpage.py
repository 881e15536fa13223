"""The web page in a real browser (Debian's chromium, driven by playwright).

The page's numbers are checked against `gonuts-solve advise --json` and `gonuts-solve review
--json`; its dice against the exact distributions; and it is driven like a user would: the
advisor form, a seeded game against the computer to its end, a coached game with an undo and an
impossible entry, a reload. Every test fails if the page makes a network request or logs an
error. Screenshots at 390x844 and 1280x800 are written to build/screenshots (not committed).
"""
import json
import math
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from taps import clicker

pytestmark = pytest.mark.browser
pytest.importorskip("playwright", reason="the page's browser tests need playwright (pip install \".[test]\")")
ROOT = Path(__file__).resolve().parent.parent.parent
SHOTS = Path(os.environ.get("GONUTS_SCREENSHOTS", ROOT / "build" / "screenshots"))



@pytest.fixture(scope="session")
def web_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("web-cache")


@pytest.fixture(scope="session")
def page_file(tmp_path_factory, web_cache):
    """The page as a user makes it: `gonuts-solve web --players 2,3 --out ...` (4 players: test_website.py)."""
    out = tmp_path_factory.mktemp("web") / "gonuts.html"
    env = {**os.environ, "GONUTS_SOLVE_CACHE": str(web_cache)}
    p = subprocess.run([sys.executable, "-m", "cli", "web", "--players", "2,3", "--out", str(out)], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stderr
    assert "2-rulebook, 2-summary, 3-rulebook, 3-summary" in p.stdout
    return out


class Watched:
    """A fresh browser context whose requests and console errors are recorded."""

    def __init__(self, browser, url, viewport=(390, 844)):
        self.ctx = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, accept_downloads=True)
        self.requests, self.errors = [], []
        self.ctx.route("**/*", self._route)
        self.page = self.ctx.new_page()
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.url = url

    def _route(self, route):
        self.requests.append(route.request.url)
        if route.request.url.startswith(("file://", "blob:", "data:")):
            route.continue_()
        else:
            route.abort()

    def open(self, fragment=""):
        self.page.goto(self.url + fragment)
        self.page.wait_for_function("() => window.gonuts !== undefined")
        return self.page

    def check_clean(self):
        network = [u for u in self.requests if not u.startswith(("file://", "blob:", "data:"))]
        assert network == [], f"the page made network requests: {network}"
        own = [u for u in self.requests if u.startswith("file://")]
        assert all(u.split("#")[0] == self.url for u in own), own
        assert self.errors == [], f"console errors: {self.errors}"


@pytest.fixture
def watched(browser, page_file):
    made = []

    def make(viewport=(390, 844)):
        w = Watched(browser, page_file.as_uri(), viewport)
        made.append(w)
        return w
    yield make
    for w in made:
        w.check_clean()
        w.ctx.close()


# -- the numbers: window.gonuts.advise against advise --json -----------------------------------------

def _states(count, seed):
    rng = random.Random(seed)
    out = [([0, 0], 0, 5, "rulebook"), ([45, 10], 5, 2, "rulebook"), ([0, 0, 0], 0, 5, "summary"),
           ([48, 3, 40], 1, 1, "rulebook"), ([49, 49, 49], 0, 3, "summary")]
    while len(out) < count:
        n, reading = rng.choice((2, 3)), rng.choice(("rulebook", "summary"))
        scores = [rng.randrange(50) for _ in range(n)]
        turn, dice = (0, 5) if rng.random() < 0.1 else (rng.randrange(0, 40), rng.randrange(1, 6))
        out.append((scores, turn, dice, reading))
    return out


def test_api_equals_advise_json_on_300_states(watched, web_cache, monkeypatch):
    from click.testing import CliRunner

    import cli
    monkeypatch.setenv("GONUTS_SOLVE_CACHE", str(web_cache))
    states = _states(300, seed=20261130)
    page = watched().open()
    got = page.evaluate("qs => qs.map(([scores, turn, dice, rules]) => window.gonuts.advise({scores, turn, dice, rules}))",
                        [list(s) for s in states])
    runner = CliRunner()
    ties = 0
    for (scores, turn, dice, reading), js in zip(states, got):
        res = runner.invoke(cli.cli, ["advise", "--scores", ",".join(map(str, scores)), "--turn", str(turn),
                                      "--dice", str(dice), "--rules", reading, "--json"])
        assert res.exit_code == 0, res.output
        py = json.loads(res.output)
        assert set(js) == set(py), (js, py)
        assert js["rules"] == py["rules"] and js["reason"] == py["reason"]
        for key in ("win_if_roll", "win_if_stop"):
            assert (js[key] is None) == (py[key] is None), (key, js, py)
            if py[key] is not None:
                assert abs(js[key] - py[key]) <= 1e-9, (scores, turn, dice, reading, key, js[key], py[key])
        for key in ("players_if_roll", "players_if_stop"):
            if py[key] is not None:
                assert max(abs(a - b) for a, b in zip(js[key], py[key])) <= 1e-9
        if js["action"] != py["action"]:
            assert abs(py["win_if_roll"] - py["win_if_stop"]) < 1e-12, (scores, turn, dice, reading)
            ties += 1
    assert ties <= 3


def test_api_refuses_bad_states_with_a_message(watched):
    page = watched().open()
    cases = {
        "{scores: [50, 3], turn: 0, dice: 5}": "score 50 is outside 0..49",
        "{scores: [3, 4], turn: -1, dice: 2}": "turn points must be 0 or more",
        "{scores: [3, 4], turn: 2, dice: 6}": "live dice must be from 1 to 5",
        "{scores: [3, 4], turn: 2, dice: 3, target: 101}": "this page has no 2-player rulebook game to 101",
        "{scores: [3, 4], turn: 2, dice: 3, target: 30, speed: 3}": "this page has no 2-player rulebook game to 30",
        "{scores: [3, 4], turn: 2, dice: 3, target: 2.5}": "target must be a whole number",
        "{scores: [3, 4], turn: 2, dice: 3, reading: 'house'}": 'reading must be "rulebook" or "summary"',
        "{scores: [3, 4], turn: 2, dice: 3, rules: 'house'}": 'reading must be "rulebook" or "summary"',   # its older name
        "{scores: [3, 4], turn: 2, dice: 3, reading: 'summary', rules: 'summary'}": "give the reading once",
        "{scores: [3.5, 4], turn: 2, dice: 3}": "whole numbers",
    }
    for query, message in cases.items():
        err = page.evaluate(f"() => {{ try {{ window.gonuts.advise({query}); return null; }} catch (e) {{ return e.message; }} }}")
        assert err is not None and message in err, (query, err)


# -- the dice of play mode against the exact distributions ---------------------------------------------

def test_the_shared_fixtures_pass_in_chromium(watched):
    """The policy grammar and the record rules of tests/fixtures/, through window.gonuts in the page."""
    fixtures = ROOT / "tests" / "fixtures"
    policies = json.loads((fixtures / "policies.json").read_text(encoding="utf-8"))["cases"]
    records = json.loads((fixtures / "records.json").read_text(encoding="utf-8"))
    page = watched().open()
    got = page.evaluate("""([policies, records]) => {
      const ask = (fn) => { try { return {value: fn()}; } catch (e) { return {error: e.message, kind: e.name}; } };
      const recordOf = (c) => {
        if (c.record === null || typeof c.record !== "object" || Array.isArray(c.record)) return c.record;
        const r = Object.assign({}, records.defaults, c.record);
        for (const k of Object.keys(r)) if (r[k] === null) delete r[k];
        return r;
      };
      return {
        policies: policies.map((c) => ask(() => window.gonuts.policy(c.spec, {players: 2, rules: "rulebook"}))),
        records: records.cases.map((c) => ask(() => window.gonuts.core.replayState(recordOf(c)))),
      };
    }""", [policies, records])
    for case, answer in zip(policies, got["policies"]):
        if case.get("target", 50) != 50:
            continue
        want = case.get("error", case.get("page_error"))
        if want is None:
            assert answer == {"value": case["name"]}, case
        else:
            assert answer == {"error": want, "kind": "GonutsInputError"}, case
    for case, answer in zip(records["cases"], got["records"]):
        if "error" in case:
            assert answer == {"error": case["error"], "kind": "GonutsInputError"}, case["name"]
        else:
            assert answer == {"value": case["state"]}, case["name"]


def test_seeded_dice_follow_the_face_counts(watched):
    page = watched().open()
    counts = page.evaluate("""() => { const c = window.gonuts.core, r = c.rng(99), g = c.game(2, 'rulebook');
        const tot = [0, 0, 0]; for (let i = 0; i < 6000; i++) { const x = c.rollDice(r, g.rules, 5).counts;
        for (let k = 0; k < 3; k++) tot[k] += x[k]; } return tot; }""")
    n = sum(counts)
    for k, p in enumerate((2 / 6, 3 / 6, 1 / 6)):
        assert abs(counts[k] / n - p) < 4 * math.sqrt(p * (1 - p) / n)


@pytest.mark.parametrize("players, dice", [(2, 5), (3, 2)])
def test_go_nuts_rounds_follow_the_exact_payout(watched, players, dice):
    """Rounds played tick by tick with dog dice in the page: their mean acorns match the exact payout."""
    import numpy as np

    from solver.game.payout import nuts_gain_pmf
    from solver.game.rules import Rules
    page = watched().open()
    gains = page.evaluate("""([players, dice]) => { const c = window.gonuts.core, r = c.rng(7), g = c.game(players, 'rulebook');
        const opp = []; for (let k = 1; k < players; k++) opp.push(k);
        const out = []; for (let i = 0; i < 20000; i++) { const x = c.nutsRound(r, g.rules, dice, opp);
        const last = x.ticks[x.ticks.length - 1];
        if (x.ticks.some((t, j) => t.dogs.length !== (j === 0 ? players - 1 : t.dogs.length))) throw new Error('dogs');
        if (!last.dogs.some((d) => d.dog)) throw new Error('the round ended without a dog');
        out.push(x.acorns); } return out; }""", [players, dice])
    rules = Rules.from_options(reading="rulebook", players=players)
    pmf = nuts_gain_pmf(dice, players - 1, rules.dog_chance, rules.acorn_chance, rules.speed_fraction, 200)
    mean = float(pmf @ np.arange(len(pmf)))
    sd = math.sqrt(float(pmf @ (np.arange(len(pmf)) - mean) ** 2))
    assert abs(np.mean(gains) - mean) < 4 * sd / math.sqrt(len(gains))
    assert abs(np.mean(np.array(gains) == 0) - pmf[0]) < 4 * math.sqrt(pmf[0] * (1 - pmf[0]) / len(gains))


# -- the advisor, as a user fills it --------------------------------------------------------------------

@pytest.mark.parametrize("players, reading, scores, turn, dice", [
    (2, "rulebook", [23, 31], 7, 3),
    (3, "summary", [12, 40, 33], 9, 4),
])
def test_advisor_form_shows_the_api_numbers(watched, players, reading, scores, turn, dice):
    page = watched().open("#advise")
    page.select_option("#adv-players", str(players))
    page.select_option("#adv-rules", reading)
    for k, s in enumerate(scores):
        page.fill(f"#adv-score-{k}", str(s))
    page.fill("#adv-turn", str(turn))
    page.select_option("#adv-dice", str(dice))
    page.press("#adv-turn", "Enter")
    page.wait_for_selector("#adv-out:not([hidden])")
    api = page.evaluate("q => window.gonuts.advise(q)", {"scores": scores, "turn": turn, "dice": dice, "reading": reading})
    for key in ("win_if_roll", "win_if_stop"):
        cell = page.locator(f"#adv-out .num[data-key={key}]")
        assert float(cell.get_attribute("data-value")) == api[key]
        assert cell.inner_text() == f"{100 * api[key]:.2f}%"
    verdict = page.locator("#adv-out .verdict")
    assert verdict.get_attribute("data-action") == api["action"]
    tie = abs(api["win_if_roll"] - api["win_if_stop"]) < 0.001
    assert verdict.inner_text() == ("TOSS-UP" if tie else api["action"].upper())
    if players == 3:
        for key in ("players_if_roll", "players_if_stop"):
            vals = [float(c.get_attribute("data-value")) for c in page.locator(f"#adv-out td[data-key={key}]").all()]
            assert vals == api[key]
    assert ("Rulebook" if reading == "rulebook" else "Summary") in page.inner_text("#adv-reading")


def test_advisor_near_tie_is_a_toss_up(watched):
    page = watched().open()
    near = page.evaluate("""() => { for (let a = 0; a < 50; a++) for (let t = 1; t < 30; t++) for (let n = 1; n <= 5; n++) {
        const x = window.gonuts.advise({scores: [a, 20], turn: t, dice: n});
        if (x.reason === 'optimal' && Math.abs(x.win_if_roll - x.win_if_stop) < 0.001) return [a, t, n]; } return null; }""")
    assert near is not None
    page.fill("#adv-score-0", str(near[0]))
    page.fill("#adv-score-1", "20")
    page.fill("#adv-turn", str(near[1]))
    page.select_option("#adv-dice", str(near[2]))
    page.click("#adv-go")
    assert page.inner_text("#adv-out .verdict") == "TOSS-UP"


@pytest.mark.parametrize("field, value, message", [
    ("#adv-score-0", "50", "score 50 is outside 0..49"),
    ("#adv-score-1", "-4", "Score 2 must be at least 0, not -4"),
    ("#adv-turn", "", "must be a whole number"),
    ("#adv-turn", "2.5", "must be a whole number"),
])
def test_advisor_form_refuses_bad_input_without_an_answer(watched, field, value, message):
    page = watched().open()
    page.click("#adv-go")
    assert page.is_visible("#adv-out")
    page.fill(field, value)
    page.click("#adv-go")
    assert message in page.inner_text("#adv-error")
    assert not page.is_visible("#adv-out")


# -- play: a seeded game to its end, exported and reviewed by the command --------------------------------

def _play_to_end(page, stop_at):
    """The user rolls until the turn holds `stop_at` points; the computer plays itself."""
    click = clicker(page)
    for _ in range(2000):
        page.wait_for_function("""() => !document.getElementById('play-over').hidden ||
                                   !document.getElementById('play-roll').disabled""", timeout=20000)
        if page.is_visible("#play-over"):
            return page.evaluate("window.gonuts.record('play')")
        st = page.evaluate("window.gonuts.replay(window.gonuts.record('play'))")
        if st["phase"] == "decide" and st["t"] >= stop_at:
            click("#play-stop")
        else:
            if st["phase"] == "decide" and st["t"] == 4:
                page.click("#play-hint")
                assert page.is_visible("#play-hint-out .verdict")
            before = len(page.evaluate("window.gonuts.record('play').events"))
            you = page.evaluate("window.gonuts.record('play').you")
            click("#play-roll")
            events = page.evaluate("window.gonuts.record('play').events")
            mine = [e for e in events[before:] if "roll" in e][0]
            assert mine["seat"] == you and sum(mine["roll"]) == st["n"]
            now = page.evaluate("window.gonuts.replay(window.gonuts.record('play'))")
            if now["seat"] == you and now["phase"] == "decide" and len(events) == before + 2 - (st["phase"] != "decide"):
                assert page.locator("#play-dice .die:not(.out)").count() == st["n"]
    raise AssertionError("the game did not end")


def test_seeded_play_game_runs_to_its_end_and_reviews_like_the_command(watched, web_cache, tmp_path):
    frag = "#play&seed=2024&players=2&rules=rulebook&seat=0&opp=optimal&fast=1"
    w = watched()
    page = w.open(frag)
    live = page.locator("#play-live")
    assert "Your chance of winning" in live.inner_text()
    record = _play_to_end(page, stop_at=12)
    st = page.evaluate("r => window.gonuts.replay(r)", record)
    assert st["phase"] == "over" and max(st["scores"]) >= 50
    assert float(live.get_attribute("data-value")) == (1.0 if st["winner"] == 0 else 0.0)
    assert record["seed"] == 2024 and record["mode"] == "play"

    # the same seed and the same decisions give the same dice
    again = _play_to_end(watched().open(frag), stop_at=12)
    assert again["events"] == record["events"]

    page.click("#play-to-review")
    page.wait_for_selector("#rev-total")
    shown = {int(d.get_attribute("data-event")): float(d.get_attribute("data-loss"))
             for d in page.locator("#rev-out .dec").all()}
    with page.expect_download() as dl:
        page.click("#rev-export")
    path = tmp_path / "game.json"
    dl.value.save_as(path)
    assert json.loads(path.read_text()) == record

    env = {**os.environ, "GONUTS_SOLVE_CACHE": str(web_cache)}
    p = subprocess.run([sys.executable, "-m", "cli", "review", str(path), "--json"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    cli_review = json.loads(p.stdout)
    assert len(cli_review["decisions"]) == len(shown) > 0
    for d in cli_review["decisions"]:
        assert abs(d["loss_points"] - shown[d["event"]]) <= 1e-9
    assert abs(float(page.get_attribute("#rev-total", "data-value")) - cli_review["total_loss_points"]) <= 1e-9
    js_review = page.evaluate("r => window.gonuts.review(r)", record)
    assert js_review["costliest"] == cli_review["costliest"]
    assert js_review["scores"] == cli_review["scores"] and js_review["winner"] == cli_review["winner"]
    costly = page.locator("#rev-out .dec.costly").all()
    assert sorted(int(c.get_attribute("data-event")) for c in costly) == sorted(cli_review["costliest"])


@pytest.mark.parametrize("opp", ["hold:20,dice:5-7-15-27-37", "optimal,hold:11/1"])
def test_three_player_games_against_simple_policies_finish(watched, opp):
    page = watched().open(f"#play&seed=5&players=3&rules=summary&seat=1&opp={opp}&fast=1")
    record = _play_to_end(page, stop_at=15)
    assert record["opponents"] == dict(zip(("0", "2"), opp.split(",")))
    review = page.evaluate("r => window.gonuts.review(r)", record)
    assert review["winner"] is not None


def test_play_refuses_a_bad_policy_and_a_bad_fragment(watched):
    page = watched().open("#play&seed=1&players=2&rules=rulebook&seat=0&opp=hold:abc&fast=1")
    assert page.inner_text("#play-error") == 'policy hold:abc: K must be a whole number, not "abc"'  # the CLI's words
    assert not page.is_visible("#play-game")
    if not page.evaluate("document.getElementById('play-new').open"):
        page.click("#play-new > summary")
    page.fill("#play-opp-1", "sometimes")
    page.click("#play-setup button[type=submit]")
    assert page.inner_text("#play-error").startswith('unknown policy "sometimes": use optimal, best,')


# -- coach: real dice entered by hand ---------------------------------------------------------------------

def _enter_roll(page, a, s, c):
    page.fill("#coach-a", str(a))
    page.fill("#coach-s", str(s))
    page.fill("#coach-c", str(c))
    page.click("#coach-roll button[type=submit]")


def test_coach_game_with_undo_an_impossible_entry_and_a_reload(watched, web_cache, tmp_path):
    w = watched()
    page = w.open("#coach")
    page.select_option("#coach-players", "2")
    page.select_option("#coach-rules", "rulebook")
    page.select_option("#coach-seat", "0")
    page.click("#coach-setup button[type=submit]")
    events = lambda: page.evaluate("window.gonuts.record('coach').events")  # noqa: E731

    _enter_roll(page, 2, 2, 1)                       # 2 points, 4 dice live
    page.wait_for_selector("#coach-decide:not([hidden])")
    api = page.evaluate("window.gonuts.advise({scores: [0, 0], turn: 2, dice: 4})")
    cell = page.locator("#coach-advice .num[data-key=win_if_roll]")
    assert float(cell.get_attribute("data-value")) == api["win_if_roll"]
    page.click("#coach-do-roll")

    before = events()
    _enter_roll(page, 3, 2, 0)                       # five dice, but only four are live
    assert "4 dice are live" in page.inner_text("#coach-error")
    _enter_roll(page, -1, 3, 2)
    assert "must be at least 0, not -" in page.inner_text("#coach-error")
    assert events() == before

    _enter_roll(page, 1, 1, 2)                       # 3 points, 2 dice live
    assert "3 turn points, 2 dice live" in page.inner_text("#coach-turn")
    page.click("#coach-undo")                        # back to rolling four dice with 2 points
    assert events() == before
    assert "2 turn points, 4 dice live" in page.inner_text("#coach-turn")
    assert page.is_visible("#coach-roll")
    _enter_roll(page, 2, 1, 1)                       # 4 points, 3 dice live
    page.click("#coach-do-stop")

    page.fill("#coach-bank-n", "-3")
    page.click("#coach-bank button[type=submit]")
    assert "must be at least 0, not -" in page.inner_text("#coach-error")
    page.fill("#coach-bank-n", "7")
    page.click("#coach-bank button[type=submit]")

    page.reload()                                   # a game in progress survives a reload
    page.wait_for_function("() => window.gonuts !== undefined")
    page.click("#tab-coach")
    assert [s.inner_text() for s in page.locator("#coach-board .pts").all()] == ["4", "7"]
    assert page.is_visible("#coach-roll")

    _enter_roll(page, 0, 5, 0)                       # Go Nuts!
    page.wait_for_selector("#coach-nuts:not([hidden])")
    page.fill("#coach-nuts-n", "6")
    page.click("#coach-nuts button[type=submit]")
    page.fill("#coach-bank-n", "43")                 # the other player reaches 50
    page.click("#coach-bank button[type=submit]")
    page.wait_for_selector("#coach-over:not([hidden])")
    assert "Player 2 wins" in page.inner_text("#coach-over")
    record = page.evaluate("window.gonuts.record('coach')")
    assert page.evaluate("r => window.gonuts.replay(r).scores", record) == [10, 50]

    page.click("#coach-to-review")
    page.wait_for_selector("#rev-total")
    path = tmp_path / "coach.json"
    path.write_text(json.dumps(record))
    env = {**os.environ, "GONUTS_SOLVE_CACHE": str(web_cache)}
    p = subprocess.run([sys.executable, "-m", "cli", "review", str(path), "--json"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert [d["event"] for d in out["decisions"]] == [1, 3]
    assert abs(float(page.get_attribute("#rev-total", "data-value")) - out["total_loss_points"]) <= 1e-9


def test_review_of_a_bad_record_file_names_the_entry(watched, tmp_path):
    page = watched().open("#review")
    bad = {"format": "gonuts-game", "version": 1, "reading": "rulebook", "players": 2, "target": 50, "you": 0,
           "events": [{"seat": 0, "roll": [2, 2, 1]}, {"seat": 0, "roll": [1, 1, 1]}]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    page.select_option("#rev-source", "file")
    page.set_input_files("#rev-file", str(path))
    page.wait_for_selector("#rev-error:not([hidden])")
    assert "event 1: expected a choice, not a roll" in page.inner_text("#rev-error")


# -- phone first: layout, touch targets, labels, keyboard, and the screenshots ---------------------------

LAYOUT_JS = """() => {
  const bad = [], unlabelled = [];
  for (const e of document.querySelectorAll('button, input, select, summary')) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height) continue;                       // not shown
    const box = e.type === 'checkbox' ? e.closest('label').getBoundingClientRect() : r;
    if (box.height < 44 || (e.type !== 'checkbox' && box.width < 44)) bad.push(`${e.id || e.textContent} ${box.width}x${box.height}`);
    if ((e.tagName === 'INPUT' || e.tagName === 'SELECT') && !(e.labels && e.labels.length) && !e.getAttribute('aria-label')) unlabelled.push(e.id);
  }
  const shownHidden = [...document.querySelectorAll('[hidden]')].filter((e) => e.getClientRects().length).map((e) => e.id);
  return {bad, unlabelled, shownHidden, scroll: document.documentElement.scrollWidth, width: window.innerWidth};
}"""


@pytest.mark.parametrize("viewport", [(390, 844), (1280, 800)])
def test_layout_and_screenshots(watched, viewport):
    SHOTS.mkdir(parents=True, exist_ok=True)
    tag = f"{viewport[0]}x{viewport[1]}"
    page = watched(viewport).open()

    def check(name):
        lay = page.evaluate(LAYOUT_JS)
        assert lay["scroll"] <= lay["width"], f"{name}: horizontal scrolling ({lay['scroll']} > {lay['width']})"
        assert lay["bad"] == [], f"{name}: touch targets under 44 px: {lay['bad']}"
        assert lay["unlabelled"] == [], f"{name}: controls without a label: {lay['unlabelled']}"
        assert lay["shownHidden"] == [], f"{name}: hidden elements on screen: {lay['shownHidden']}"
        page.screenshot(path=str(SHOTS / f"{tag}-{name}.png"))

    page.select_option("#adv-players", "3")
    for k, s in enumerate((23, 31, 12)):
        page.fill(f"#adv-score-{k}", str(s))
    page.fill("#adv-turn", "7")
    page.select_option("#adv-dice", "3")
    page.click("#adv-go")
    check("advise")
    page.evaluate("location.hash = '#play&seed=3&players=3&rules=rulebook&seat=0&opp=optimal,hold:20&fast=1'")
    page.wait_for_function("() => !document.getElementById('play-roll').disabled")
    page.click("#play-roll")
    page.wait_for_function("() => !document.getElementById('play-roll').disabled || !document.getElementById('play-over').hidden")
    if page.is_enabled("#play-hint"):
        page.click("#play-hint")
    check("play")
    page.click("#tab-coach")
    page.click("#coach-setup button[type=submit]")
    check("coach")
    page.click("#tab-review")
    page.select_option("#rev-source", "play")
    check("review")


def test_every_control_is_reachable_by_keyboard(watched):
    page = watched().open()
    seen = set()
    for _ in range(40):
        page.keyboard.press("Tab")
        seen.add(page.evaluate("document.activeElement.id"))
    assert {"tab-advise", "adv-players", "adv-rules", "adv-score-0", "adv-score-1", "adv-turn", "adv-dice",
            "adv-go"} <= seen
    page.focus("#tab-advise")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.id") == "tab-play"
    assert page.is_visible("#panel-play")


def test_page_is_one_file_under_the_budget(page_file):
    html = page_file.read_text(encoding="utf-8")
    assert page_file.stat().st_size < 12_000_000
    local = html.replace("http-equiv", "").replace('url("data:', "")       # a data: image is in the file, not fetched
    local = local.replace("http://www.w3.org/2000/svg", "")       # SVG's namespace: a name in the XML, never fetched
    for needle in ("http://", "https://"):
        assert needle not in local, needle
    # the markup loads nothing; the scripts' text may hold such words (a QR library can write an <img src=...>
    # string it is never asked for), and the CSP stops any load whatever a script says
    markup = re.sub(r"<script\b[^>]*>.*?</script>", "", local, flags=re.S)
    for needle in ("<link", " src=", "@import", "url("):
        assert needle not in markup, needle


@pytest.mark.parametrize("stored", ["garbage", "{}", "null", "[]",
                                    '{"format": "gonuts-game", "version": 1, "reading": "rulebook", "players": 2, '
                                    '"you": 0, "events": [{"seat": 0, "roll": [9, 9, 9]}]}'])
def test_a_damaged_saved_game_is_kept_aside_with_a_message(watched, stored):
    w = watched()
    page = w.open()
    page.evaluate("""(s) => { localStorage.setItem("gonuts.coach.v1", s);
                              localStorage.setItem("gonuts.play.v1", JSON.stringify({record: JSON.parse(s === "garbage" ? "null" : s), rng: 1})); }""", stored)
    page.reload()
    page.wait_for_function("() => window.gonuts !== undefined")
    page.click("#tab-coach")
    page.wait_for_selector("#coach-kept:not([hidden])")
    assert "could not be restored" in page.inner_text("#coach-kept")
    assert page.evaluate("localStorage.getItem(`gonuts.coach.v1@${new URL('.', location.href).pathname}.damaged`)") == stored
    page.click("#coach-setup button[type=submit]")                     # a new game keeps the damaged one aside
    assert page.evaluate("localStorage.getItem(`gonuts.coach.v1@${new URL('.', location.href).pathname}.damaged`)") == stored
    page.click("#coach-kept-delete")
    assert page.evaluate("localStorage.getItem(`gonuts.coach.v1@${new URL('.', location.href).pathname}.damaged`)") is None
    page.click("#tab-play")
    page.wait_for_selector("#play-kept:not([hidden])")
    assert "could not be restored" in page.inner_text("#play-kept")


def test_what_was_kept_before_the_reading_had_its_name_is_taken_up_with_it(watched):
    """A coached game, a practice session and a table's setup saved by an older page say "rules": each is taken up
    as it was, and saved again saying "reading"."""
    w = watched()
    page = w.open()
    page.evaluate("""() => {
      localStorage.setItem("gonuts.coach.v1", JSON.stringify({format: "gonuts-game", version: 1, rules: "summary",
        players: 2, target: 50, you: 0, mode: "coach", events: [{seat: 0, roll: [2, 2, 1]}]}));
      localStorage.setItem("gonuts.practice.v1", JSON.stringify({session: {seed: 5, count: 4, players: 2,
        rules: "summary", daily: null, answers: ["roll"]}}));
      localStorage.setItem("gonuts.table-setup.v1", JSON.stringify({players: 2, rules: "summary",
        names: ["Ann", "Bo"], hints: [true, true]})); }""")
    page.reload()
    page.wait_for_function("() => window.gonuts !== undefined")
    coach = page.evaluate("window.gonuts.record('coach')")
    assert coach["reading"] == "summary" and "rules" not in coach and len(coach["events"]) == 1
    page.click("#tab-practice")
    page.wait_for_selector("#prac-quiz:not([hidden])")
    assert page.inner_text("#prac-progress") == "2 players, summary: decision 2 of 4"
    kept = page.evaluate("() => Object.keys(localStorage).filter((k) => k.startsWith('gonuts.practice.v1'))"
                         ".map((k) => JSON.parse(localStorage.getItem(k)).session)")
    assert [(s["reading"], "rules" in s) for s in kept] == [("summary", False)]
    page.click("#tab-table")
    assert page.input_value("#table-rules") == "summary"


def test_explain_in_the_page_equals_advise_explain_json(watched, web_cache, monkeypatch):
    from click.testing import CliRunner

    import cli
    monkeypatch.setenv("GONUTS_SOLVE_CACHE", str(web_cache))
    states = _states(80, seed=18) + [([45, 10], 6, 2, "rulebook"), ([47, 3, 9], 5, 1, "summary")]   # 2: past the target
    page = watched().open()
    got = page.evaluate("qs => qs.map(([scores, turn, dice, rules]) => window.gonuts.explain({scores, turn, dice, rules}))",
                        [list(s) for s in states])
    runner, flips = CliRunner(), 0
    for (scores, turn, dice, reading), js in zip(states, got):
        res = runner.invoke(cli.cli, ["advise", "--scores", ",".join(map(str, scores)), "--turn", str(turn), "--dice",
                                      str(dice), "--rules", reading, "--explain", "--json"])
        py = json.loads(res.output)["explain"]
        assert set(js) == set(py)
        for key in ("p_all_cars", "p_all_squirrels", "p_one_die_refill", "nuts_mean"):
            assert abs(js[key] - py[key]) <= 1e-12, (key, js[key], py[key])
        if js["stop_at"] != py["stop_at"]:
            flips += 1                      # a decision within rounding of a tie, somewhere on the way
            continue
        assert len(js["turn_gain_if_roll"]) == len(py["turn_gain_if_roll"])
        assert max(abs(a - b) for a, b in zip(js["turn_gain_if_roll"], py["turn_gain_if_roll"])) <= 1e-9
        assert abs(js["turn_gain_mean_if_roll"] - py["turn_gain_mean_if_roll"]) <= 1e-9
    assert flips <= 2
    page.fill("#adv-score-0", "23")
    page.fill("#adv-score-1", "31")
    page.fill("#adv-turn", "7")
    page.select_option("#adv-dice", "3")
    page.click("#adv-go")
    assert page.inner_text("#adv-out .why") == ("Rolling risks your 7 points: 1 in 216 all cars; 1 in 8 a Go Nuts! "
                                                "round (6.0 acorns on average, replacing the turn's points). With 3 dice "
                                                "here, optimal play stops at 15. Rolling now, this turn adds 8.2 points "
                                                "on average.")


# -- defects found by hostile input, one test each ------------------------------------------------------------------

GOOD_PLAY = {"format": "gonuts-game", "version": 1, "reading": "rulebook", "players": 2, "target": 50, "you": 0,
             "mode": "play", "seed": 7, "opponents": {"1": "optimal"}, "events": [{"seat": 0, "roll": [2, 2, 1]}]}


def wait_until(page, expr, timeout=10.0):
    """Poll ``expr`` by evaluate: the page's CSP forbids the eval that a polled wait_for_function needs."""
    import time
    end = time.monotonic() + timeout
    while not page.evaluate(expr):
        assert time.monotonic() < end, f"timed out waiting for {expr}"
        time.sleep(0.05)


def _stored_then_open(w, key, value, fragment=""):
    page = w.open()
    page.evaluate("([k, v]) => { localStorage.clear(); localStorage.setItem(k, v); }", [key, value])
    page.goto(w.url + fragment)
    page.reload()                        # a change of the fragment alone does not start the page again
    wait_until(page, "window.gonuts !== undefined")
    return page


def test_a_malformed_address_is_one_line_and_the_saved_game_survives(watched):
    w = watched()
    saved = json.dumps({"record": GOOD_PLAY, "rng": 99, "fast": True})
    page = _stored_then_open(w, "gonuts.play.v1", saved, "#play&seed=42&%ZZ=1")
    note = page.inner_text("#notice")
    assert note.startswith("The address after # cannot be read (a malformed % sequence)") and "\n" not in note
    wait_until(page, "window.gonuts.record('play') !== null")
    assert page.evaluate("JSON.parse(localStorage.getItem(`gonuts.play.v1@${new URL('.', location.href).pathname}`)).record.seed") == 7
    assert page.evaluate("window.gonuts.record('play').seed") == 7                   # restored, not replaced
    page.evaluate("location.hash = '#coach'")
    page.wait_for_selector("#panel-coach:not([hidden])")                           # the hashchange listener


@pytest.mark.parametrize("change, why", [
    ({"opponents": None}, "it names no computer players"),
    ({"opponents": {"1": "sometimes"}}, 'unknown policy "sometimes"'),
    ({"opponents": {"1": "best"}}, "policy best: best is solved for each game by the command line"),
    ({"speed": 3}, "it is a game to 50 at Go Nuts! speed 3, and this page plays to 10 to 100 at speeds 0.5, 1, 2"),
    ({"target": 101}, "it is a game to 101 at Go Nuts! speed 1, and this page plays to 10 to 100 at speeds 0.5, 1, 2"),
])
def test_a_saved_game_the_page_cannot_play_opens_read_only_and_is_kept(watched, change, why):
    """Kept aside with its reason, and shown read-only: with numbers when the page has its table, else without."""
    w = watched()
    record = {**GOOD_PLAY, **change}
    page = _stored_then_open(w, "gonuts.play.v1", json.dumps({"record": record, "rng": 1}), "#play")
    page.wait_for_selector("#play-kept:not([hidden])")
    assert why in page.inner_text("#play-kept")
    assert page.is_visible("#play-game") and page.is_disabled("#play-roll") and page.is_disabled("#play-hint")
    assert page.inner_text("#play-error").startswith("Read-only: ") and "NaN" not in page.inner_text("body")
    assert page.evaluate("document.getElementById('play-board').children.length") == record["players"]
    assert json.loads(page.evaluate("localStorage.getItem(`gonuts.play.v1@${new URL('.', location.href).pathname}.damaged`)"))["record"] == record


def test_the_address_takes_plain_digits_only(watched):
    w = watched()
    page = w.open("#play&seed=1&players=0x2")
    assert page.inner_text("#play-error") == 'players in the address must be plain digits, not "0x2"'
    for bad in ("2.0", "%202"):
        page.evaluate(f"location.hash = '#play&seed=1&players={bad}'")
        wait_until(page, "document.getElementById('play-error').textContent.includes('plain digits')")
    page.evaluate("location.hash = '#play&players=2&opp=optimal'")
    wait_until(page, "document.getElementById('play-error').textContent.includes('has no seed')")


def test_review_files_replace_each_others_verdicts(watched, tmp_path):
    page = watched().open("#review")
    good, bad, empty, huge = (tmp_path / n for n in ("good.json", "bad.json", "null.json", "huge.json"))
    good.write_text(json.dumps({**GOOD_PLAY, "events": [{"seat": 0, "roll": [2, 2, 1]}, {"seat": 0, "choice": "stop"}]}))
    bad.write_text(json.dumps({**GOOD_PLAY, "events": [{"seat": 0, "roll": [9, 9, 9]}]}))
    empty.write_text("null")
    huge.write_text(json.dumps({**GOOD_PLAY, "events": [{"seat": 0, "roll": "x" * 1_000_000}]}))
    page.select_option("#rev-source", "file")
    page.set_input_files("#rev-file", str(good))
    page.wait_for_selector("#rev-total")
    page.set_input_files("#rev-file", str(bad))
    page.wait_for_selector("#rev-error:not([hidden])")
    assert page.inner_text("#rev-error") == "event 0: 9+9+9 = 27 dice, but 5 dice are live"
    assert page.query_selector("#rev-total") is None                           # the old review is gone
    page.set_input_files("#rev-file", str(empty))
    wait_until(page, "document.getElementById('rev-error').textContent === 'a game record must be a JSON object'")
    page.set_input_files("#rev-file", str(huge))
    wait_until(page, "document.getElementById('rev-error').textContent.includes('(1000002 characters)')")
    assert len(page.inner_text("#rev-error")) < 200
