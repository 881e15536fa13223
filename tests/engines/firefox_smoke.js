/* The page in Firefox (firefox-esr, driven by puppeteer-core over WebDriver BiDi): run by
 * tests/site/test_engines.py, which gives the single file, the site's address and the expected answers.
 *   node tests/engines/firefox_smoke.js PAGE.html SITE_URL EXPECTED.json
 * 1. the single file's advise for 2-4 players equals the CLI's (EXPECTED.json: queries and answers);
 * 2. practice's draw and the luck split equal the CLI's (practice.json beside it); a practice decision answered;
 *    a short Table game: one tap per roll and per decision; its five-dice grid at 320x568 in sight;
 * 3. the site: its worker takes control; after "stop" on stdin (the server is stopped), a reload still
 *    runs the page offline.
 * Prints one line per check ("ok ..." or "FAIL ...") and exits 1 on any failure. */
"use strict";
const fs = require("node:fs");
const readline = require("node:readline");
const puppeteer = require("puppeteer-core");

const [pageFile, siteUrl, expectedPath] = process.argv.slice(2);
let failed = 0;
const check = (ok, what) => { console.log(`${ok ? "ok" : "FAIL"} ${what}`); if (!ok) failed++; };
let at = "the start";
/* The page ignores the second tap of a double tap: within 350 ms of the redraw that the first caused, where the
 * first landed (solver/site/web/src/page/taps.js). Taps here are that far apart. */
const TAP_GAP = 400;
let lastTap = 0;
const entries = (n) => `window.gonuts.record('table').events.length === ${n}`;
/** Tap css once it is shown and two frames have drawn it (a player taps only what the screen shows: a frame has
 * drawn what the last tap changed, and the page's observers have seen where it is scrolled), as far after the
 * last tap as a player's two taps are; then wait for the tap's effect (a script that becomes true). */
async function tap(page, css, then) {
  await page.waitForSelector(css, { visible: true });
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await new Promise((r) => setTimeout(r, Math.max(0, lastTap + TAP_GAP - Date.now())));
  await page.click(css);
  lastTap = Date.now();
  if (then) await page.waitForFunction(then);
}
const nextLine = () => new Promise((resolve) => readline.createInterface({ input: process.stdin }).once("line", resolve));

(async () => {
  const browser = await puppeteer.launch({ browser: "firefox", headless: true,
    executablePath: process.env.GONUTS_FIREFOX || "/usr/bin/firefox-esr" });
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 390, height: 844 });
    await page.goto(`file://${pageFile}`);
    await page.waitForFunction("window.gonuts !== undefined");
    for (const c of JSON.parse(fs.readFileSync(expectedPath, "utf8"))) {
      const got = await page.evaluate((q) => Promise.resolve(window.gonuts.advise(q)), c.query);
      const near = ["win_if_roll", "win_if_stop"].every((k) => (got[k] === null && c.want[k] === null) ||
        Math.abs(got[k] - c.want[k]) <= c.tol);
      check(near && got.action === c.want.action, `advise ${JSON.stringify(c.query)}`);
    }
    const extra = JSON.parse(fs.readFileSync(expectedPath.replace(/expected\.json$/, "practice.json"), "utf8"));
    const drawn = await page.evaluate((q) => Promise.resolve(window.gonuts.practice(q)), extra.practice.query);
    check(JSON.stringify(drawn.map((d) => [d.scores, d.turn, d.dice, d.action])) ===
          JSON.stringify(extra.practice.want.map((d) => [d.scores, d.turn, d.dice, d.action])) &&
          drawn.every((d, i) => Math.abs(d.win_if_roll - extra.practice.want[i].win_if_roll) <= 1e-12),
          "practice draws the command's decisions");
    const split = await page.evaluate((r) => Promise.resolve(window.gonuts.luck(r)), extra.luck.record);
    check(split.every((s, k) => ["start", "end", "luck", "own_decisions", "others_decisions", "banked_turns"]
      .every((f) => Math.abs(s[f] - extra.luck.want[k][f]) <= 1e-9)), "the luck split is review's");
    at = "a practice decision";
    await tap(page, "#tab-practice");
    await tap(page, "#prac-daily");
    await page.waitForSelector("#prac-quiz:not([hidden])");
    await tap(page, "#prac-roll");
    await page.waitForSelector("#prac-judged");
    check(await page.$eval("#prac-judged", (e) => !Number.isNaN(Number(e.dataset.loss))), "a practice decision answered and judged");
    await tap(page, "#prac-quit");
    at = "a short table game";
    await tap(page, "#tab-table");
    await page.select("#table-players", "2");
    await page.$eval("#table-name-0", (e) => { e.value = "Ann"; });
    await page.$eval("#table-name-1", (e) => { e.value = "Bo"; });
    await tap(page, "#table-setup button[type=submit]");
    // at 320 px, a desktop scrollbar less, the five-dice grid keeps four columns and its last row in sight
    const before = page.viewport();
    await page.setViewport({ width: 320, height: 568 });
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const grid = await page.evaluate(() => {
      const g = [...document.querySelectorAll("#table-rolls .rolls")].find((x) => x.getBoundingClientRect().height > 0);
      const last = g.lastElementChild.getBoundingClientRect();
      return { columns: getComputedStyle(g).gridTemplateColumns.split(" ").length, bottom: last.bottom + scrollY };
    });
    check(grid.columns === 4 && grid.bottom <= 568, `the five-dice grid at 320x568 (${grid.columns} columns, bottom at ${Math.round(grid.bottom)})`);
    await page.setViewport(before);
    await tap(page, "[data-roll='2-2-1']", entries(1));
    await tap(page, "#table-stop", entries(2));
    await tap(page, "[data-roll='1-1-3']", entries(3));
    const rec = await page.evaluate(() => window.gonuts.record("table"));
    check(rec.events.length === 3 && rec.events[1].choice === "stop", `a short table game (${rec.events.length} entries)`);
    at = "a past entry changed";
    await page.$eval("#table-log-box", (e) => { e.open = true; });
    await tap(page, "#table-log button.change[data-i='0']");
    await tap(page, "#table-change-options [data-pick='3-1-1']",
      "JSON.stringify(window.gonuts.record('table').events[0].roll) === '[3,1,1]'");
    const changed = await page.evaluate(() => window.gonuts.record("table").events);
    check(JSON.stringify(changed[0].roll) === "[3,1,1]" && changed.length === 3, "a past entry changed (the game replayed from it)");
    at = "the game played to its end, and again";
    await tap(page, "#table-stop", entries(4));
    await page.$eval("#table-bank-n", (e) => { e.value = "47"; });
    await tap(page, "#table-bank button[type=submit]", "document.getElementById('table-again')");
    await tap(page, "#table-again", entries(0));
    const again = await page.evaluate(() => window.gonuts.record("table").names);
    check(JSON.stringify(again) === JSON.stringify(["Bo", "Ann"]), `Play again: the same players, the next first (${again})`);
    const [width, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    check(width <= inner, `nothing widens the page (${width} px in a window of ${inner})`);

    at = "the site";
    const site = await browser.newPage();
    await site.goto(siteUrl);
    await site.waitForFunction("window.gonuts !== undefined");
    await site.evaluate(() => navigator.serviceWorker.ready.then(() => true));
    await site.reload();
    await site.waitForFunction("navigator.serviceWorker.controller !== null");
    console.log("ready");
    await nextLine();                                           // the test has stopped the server
    await site.reload();
    await site.waitForFunction("window.gonuts !== undefined", { timeout: 15000 });
    const games = await site.evaluate(() => window.gonuts.games);
    check(games.length >= 1, `the site offline after its server stopped (${games.join(", ")})`);
    // the site solves a game of its own offline: its kernel and worker come from the worker's cache
    const solved = await site.evaluate(() => Promise.resolve(window.gonuts.advise({ scores: [5, 9], turn: 2, dice: 4, target: 15, speed: 2 })));
    check(solved.win_if_roll > 0 && solved.win_if_roll < 1, `the site offline solves a game to 15 (${solved.win_if_roll})`);
  } catch (e) {
    check(false, `error at ${at}: ${e && e.message ? e.message.split("\n")[0] : e}`);
  } finally {
    await browser.close();
  }
  process.exit(failed ? 1 : 0);
})();
