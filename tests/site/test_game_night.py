"""A whole game night, in Chromium with touch at 390x844 and 320x568, through roles and names:
the first screen, a 4-player table game with every rule event said, a reload and a second tab, a past entry
changed in the middle (one change refused for the entries it would drop, one undone, one kept), the end with
full names, Play again with the next player first, a second game, then the Review tab and the history checked
against ``gonuts-solve review --json`` of the exported files, run with an empty cache and no compiler on
the PATH. Screenshots of every step go to build/screenshots/night-*."""
from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser
pytest.importorskip("playwright", reason="the page's browser tests need playwright (pip install \".[test]\")")
sys.path.insert(0, str(Path(__file__).parent.parent))
from taps import PAUSE, SAME_SPOT  # noqa: E402
from test_kernels import _no_compiler  # noqa: E402
from test_table_app import Phone  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent
SHOTS = Path(os.environ.get("GONUTS_SCREENSHOTS", ROOT / "build" / "screenshots"))
NAMES = ("Grandma", "Grandpa", "Zoë", "Léa")
BOUND = 2 * 100 * 1e-5 * 40         # 4-player page values: within 1e-5 a state, in points, over a game's decisions


@pytest.fixture(scope="module")
def night_page(tmp_path_factory):
    out = tmp_path_factory.mktemp("night") / "gonuts.html"
    env = {**os.environ, "GONUTS_SOLVE_CACHE": str(tmp_path_factory.mktemp("night-cache"))}
    p = subprocess.run([sys.executable, "-m", "cli", "web", "--players", "4", "--rules", "rulebook", "--out", str(out)],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    return out


def cli_review(tmp_path, path):
    """review --json of a file the page exported: an empty cache, no compiler, this Python alone on the PATH."""
    env = _no_compiler(tmp_path)
    p = subprocess.run([sys.executable, "-m", "cli", "review", str(path), "--json"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout), p.stderr


class Night:
    def __init__(self, phone, size):
        self.phone, self.page, self.size, self.step, self.last = phone, phone.page, size, 0, None

    def shot(self, what):
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.step += 1
        self.page.screenshot(path=str(SHOTS / f"night-{self.size[0]}x{self.size[1]}-{self.step:02d}-{what}.png"))

    def button(self, name, within=None):
        return (within or self.page).get_by_role("button", name=name, exact=True)

    def tap(self, name, within=None):
        """Tap the button of that accessible name, as a person does (a pause before a second tap on one spot)."""
        loc = self.button(name, within)
        loc.scroll_into_view_if_needed()
        box = loc.bounding_box()
        assert box is not None, name
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        if self.last and math.hypot(x - self.last[0], y - self.last[1]) < SAME_SPOT:
            time.sleep(max(0.0, PAUSE - (time.monotonic() - self.last[2])))
        loc.tap()
        self.last = (x, y, time.monotonic())

    def roll(self, a, s, c, within=None):
        """Enter a roll (or, within the change of an entry, pick one)."""
        words = lambda n, one, many: f"{n} {one if n == 1 else many}"       # noqa: E731
        self.tap(f"{words(a, 'acorn', 'acorns')}, {words(s, 'squirrel', 'squirrels')}, {words(c, 'car', 'cars')}",
                 within or self.page.get_by_role("group", name="What the dice show"))

    def change_to(self, a, s, c):
        self.roll(a, s, c, within=self.page.get_by_role("group", name=re.compile("^Change entry")))

    def bank(self, n):
        self.page.get_by_role("spinbutton", name="Or the whole turn as points banked").fill(str(n))
        self.tap("Bank")

    def said(self):
        return self.page.locator("#table-said").inner_text().strip()

    def scores(self):
        return [int(x) for x in self.page.locator("#table-pad .score").all_inner_texts()]

    def turn(self):
        return self.page.locator("#table-turn").inner_text().replace("\n", " ")

    def events(self):
        return self.page.evaluate("window.gonuts.record('table').events")


@pytest.mark.parametrize("size", [(390, 844), (320, 568)], ids=["390x844", "320x568"])
def test_a_game_night_from_the_first_screen_to_the_rematch(browser, night_page, tmp_path, size):
    phone = Phone.open(browser, night_page, size=size)
    night, page = Night(phone, size), phone.page
    # -- the first screen: what each tab is for, Table first; the how-to-play in the page
    assert page.get_by_role("heading", name="What are you playing tonight?").is_visible()
    first = page.locator("#welcome li").first.inner_text()
    assert first.startswith("Table") and "Keep score of a real game" in first
    assert not page.locator("#precision").is_visible()                 # moved to About these numbers
    night.shot("welcome")
    night.tap("How to play")
    assert page.locator("#howto").get_attribute("open") is not None
    assert "All cars: the turn ends, and its points are lost." in page.locator("#howto").inner_text()
    night.tap("Table")
    assert not page.locator("#welcome").is_visible()
    # -- a 4-player game; Léa plays without advice
    page.locator("#panel-table").get_by_role("combobox", name=re.compile("^Players")).select_option("4")
    for i, name in enumerate(NAMES):
        page.locator(f"#table-name-{i}").fill(name)
    page.locator("#table-hint-3").uncheck()
    night.tap("Start")
    page.locator("#table-turn .who").wait_for()
    assert night.turn().startswith("Grandma")
    # all cars: the turn's points lost, said in one line, announced, and kept in the log
    night.roll(2, 2, 1)
    night.tap("Roll")
    night.roll(0, 0, 4)
    assert night.said() == "All cars: Grandma loses 2 turn points"
    assert page.locator("#table-said").get_attribute("role") == "status"
    night.shot("all-cars")
    # one die, an acorn: all five dice back
    night.roll(1, 0, 4)
    assert night.said() == "", "the next tap takes the last line away"
    night.tap("Roll")
    night.roll(1, 0, 0)
    assert night.said() == "One die, an acorn: all 5 dice back"
    assert "2 points · 5 dice" in night.turn()
    night.shot("one-die")
    night.tap("Stop")
    # Go Nuts!: the turn's points gone (the rulebook), the screen shows what the round is worth
    night.roll(2, 2, 1)
    night.tap("Roll")
    night.roll(0, 4, 0)
    assert night.said() == "Go Nuts!: Zoë's 2 turn points are gone; count the acorns"
    assert "Go Nuts! round" in night.turn() and "2 points" not in night.turn()
    for _ in range(3):
        night.tap("+1")
    assert page.locator("#table-nuts-worth").inner_text().startswith("Zoë banks 3 points: 3 in all")
    night.shot("go-nuts")
    night.tap("Done")
    night.bank(10)
    night.roll(3, 1, 1)
    night.tap("Stop")
    assert night.scores() == [3, 2, 3, 10]
    log = page.locator("#table-log").text_content()
    for line in ("All cars: Grandma loses 2 turn points", "One die, an acorn: all 5 dice back",
                 "Go Nuts!: Zoë's 2 turn points are gone; count the acorns"):
        assert line in log
    # -- a reload: the game, on its tab, the strip below the tab bar
    page.reload()
    page.wait_for_function("() => window.gonuts !== undefined")
    assert page.locator("#panel-table").is_visible() and night.scores() == [3, 2, 3, 10]
    bar = page.evaluate("document.querySelector('nav.tabs').getBoundingClientRect().bottom")
    assert page.evaluate("document.getElementById('table-pad').getBoundingClientRect().top") >= bar - 0.5
    night.shot("reloaded")
    # -- a past entry changed, three turns back
    page.locator("#table-log-box summary").click()
    before = night.events()
    night.tap("Change: Grandpa rolled 1 acorn, 0 squirrels, 4 cars")
    night.change_to(2, 2, 1)
    drop = page.locator("#table-change-drop")
    assert drop.is_visible() and "9 later entries no longer fit after this change, from entry 6 (Grandpa rolled 1 acorn, 0 squirrels, 0 cars)" in drop.inner_text()
    night.shot("change-asks")
    night.tap("Cancel")
    assert night.events() == before                                    # nothing dropped without a yes
    night.tap("Change: Zoë rolled 2 acorns, 2 squirrels, 1 car")
    night.change_to(3, 1, 1)
    assert night.events()[7] == {"seat": 2, "roll": [3, 1, 1]} and len(night.events()) == len(before)
    assert night.said() == "Entry 8 changed: Zoë rolled 3 acorns, 1 squirrel, 1 car"
    assert page.locator("#table-undo").inner_text() == "Undo: the change of entry 8"
    night.tap("Undo: the change of entry 8")
    assert night.events() == before
    night.tap("Change: Zoë's Go Nuts! round collected 3 acorns")
    page.get_by_role("spinbutton", name="Acorns collected").fill("5")
    night.tap("Change it")
    assert night.scores() == [3, 2, 5, 10] and night.events()[10] == {"seat": 2, "nuts": 5}
    night.shot("changed")
    page.reload()
    page.wait_for_function("() => window.gonuts !== undefined")
    assert night.scores() == [3, 2, 5, 10]                             # the change is saved like an entry
    # -- a second tab follows the game, read-only
    other = phone.ctx.new_page()
    other.goto(page.url)
    other.wait_for_function("() => window.gonuts !== undefined")
    other.wait_for_selector("#table-follow:not([hidden])")
    assert [int(x) for x in other.locator("#table-pad .score").all_inner_texts()] == [3, 2, 5, 10]
    other.close()
    # -- the end: full names, then Play again
    night.bank(48)
    assert night.turn().startswith("Grandpa") and "reached 50 and won!" in night.turn()
    over = page.locator("#table-over")
    over.locator(".seat-review").first.wait_for()
    assert over.locator(".total").inner_text().startswith("Grandpa wins, 3 – 50 – 5 – 10")
    night.shot("over")
    first_game = page.evaluate("window.gonuts.record('table')")
    night.tap("Play again")
    page.wait_for_function("() => window.gonuts.record('table').names[0] === 'Grandpa'")
    assert [n.strip() for n in page.locator("#table-pad .full").all_inner_texts()] == ["Grandpa", "Zoë", "Léa", "Grandma"]
    assert night.turn().startswith("Grandpa") and night.scores() == [0, 0, 0, 0]
    hints = page.evaluate("window.gonuts.record('table').hints")
    assert hints == [True, True, False, True]                          # Léa's advice stays off
    assert [page.locator(f"#table-name-{i}").input_value() for i in range(4)] == ["Grandpa", "Zoë", "Léa", "Grandma"]
    night.shot("play-again")
    # -- a second game, short
    night.roll(2, 2, 1)
    night.tap("Stop")
    night.bank(50)
    assert night.turn().startswith("Zoë")
    over.locator(".seat-review").first.wait_for()
    second_game = page.evaluate("window.gonuts.record('table')")
    page_losses = [float(x) for x in over.locator(".seat-review").evaluate_all("(rows) => rows.map((r) => r.dataset.loss)")]
    # -- the Review tab opens on the most recent game, by name
    page.get_by_role("tab", name="Review").tap()
    page.locator("#rev-total").wait_for()
    assert page.locator("#rev-source").input_value() == "table"
    assert "You" not in page.locator("#rev-out").inner_text()
    # -- the history: both games, exported, and reviewed by the command line alike
    page.get_by_role("tab", name="Table").tap()
    page.locator("#table-history summary").click()
    page.locator("#hist-stats tbody tr").first.wait_for()
    assert page.locator("#hist-count").inner_text() == "2 games"
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]        # the history fits: the page,
    assert page.evaluate("""() => { const card = document.getElementById('table-history').getBoundingClientRect();
        return document.querySelector('#hist-stats table').getBoundingClientRect().right <= card.right - 2; }""")  # its card
    night.shot("history")
    with page.expect_download() as dl:
        night.tap("Export the games (JSON)")
    path = tmp_path / "history.json"
    dl.value.save_as(path)
    exported = json.loads(path.read_text())
    assert exported["games"] == [second_game, first_game]
    reviewed, said = cli_review(tmp_path, path)
    assert "page" in said                                              # it says which values it used
    seats = reviewed["games"][0]["seats"]
    assert [s["seat"] for s in seats] == [0, 1, 2, 3]
    for mine, theirs in zip(page_losses, seats):
        assert abs(mine - theirs["total_loss_points"]) <= BOUND
    rows = page.locator("#hist-stats tbody tr")
    for i in range(rows.count()):
        row = rows.nth(i)
        name = row.get_attribute("data-player")
        want = [s for g, rg in zip(exported["games"], reviewed["games"]) for s in rg["seats"] if g["names"][s["seat"]] == name]
        assert int(row.get_attribute("data-games")) == len(want) == 2
        assert int(row.get_attribute("data-wins")) == sum(s["winner"] == s["seat"] for s in want)
        assert abs(float(row.get_attribute("data-luck")) - sum(100 * s["luck"] for s in want)) <= BOUND
    assert phone.errors == []
    phone.close()
