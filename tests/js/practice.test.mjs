/* Practice and luck under Node: the page's core draws the decisions Python's practice.draw draws for the
 * same seeds (tests/fixtures/practice.json: 2 players at target 50, 3 and 4 at target 12, and 4 players at
 * target 50 from the shipped page data of tables/page/), and splits seeded records' luck as Python's
 * luck.split does on the same values (tests/fixtures/luck.json), to 1e-9. tests/page_fixtures.py writes both.
 */
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { makeCore as GonutsCore } from "../../solver/site/web/src/core/index.js";

const __dirname = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.join(__dirname, "..", "..");
const fixture = (name) => JSON.parse(fs.readFileSync(path.join(ROOT, "tests", "fixtures", name), "utf8"));

/* The page data of the shipped 4-player games: the descriptors and bytes of tables/page/, as `web` embeds them. */
function shippedData() {
  const data = fixture("page-t50.json");
  data.games = {};
  for (const reading of ["rulebook", "summary"]) {
    const stem = path.join(ROOT, "tables", "page", `gonuts-4p-t50-${reading}`);
    const desc = JSON.parse(fs.readFileSync(`${stem}.json`, "utf8"));
    desc.start_win.data = fs.readFileSync(`${stem}.bin`).toString("base64");
    data.games[`4-${reading}`] = desc;
  }
  return data;
}

const cores = {};
async function coreFor(page, players, rules) {
  if (!cores[page]) cores[page] = GonutsCore(page === "shipped" ? shippedData() : fixture(page));
  return { core: cores[page], g: await cores[page].load(players, rules) };
}

function near(got, want, tol, what) {
  if (typeof want === "number") { assert.ok(Math.abs(got - want) <= tol, `${what}: ${got} vs ${want}`); return; }
  if (want === null || typeof want !== "object") { assert.equal(got, want, what); return; }
  assert.deepEqual(Object.keys(got).sort(), Object.keys(want).sort(), what);
  for (const k of Object.keys(want)) near(got[k], want[k], tol, `${what}.${k}`);
}

test("the practice draw is Python's, decision for decision, for every game and seed of the fixture", async () => {
  const cases = fixture("practice.json").cases;
  assert.ok(cases.length >= 20);
  for (const c of cases) {
    const { core, g } = await coreFor(c.page, c.players, c.reading);
    const got = core.practiceIn(g, c.seed, c.count), what = `${c.players}-${c.reading} seed ${c.seed}`;
    assert.deepEqual(got.map((d) => [d.scores, d.turn, d.dice, d.action, d.close]),
                     c.decisions.map((d) => [d.scores, d.turn, d.dice, d.action, d.close]), what);
    near(got, c.decisions, 1e-12, what);
  }
});

test("window.gonuts.practice checks its question and the daily seed is the date", async () => {
  const { core } = await coreFor("page-t50.json", 2, "rulebook");
  const refusal = (q) => { try { core.practice(q); } catch (e) { if (e instanceof core.GonutsInputError) return e.message; throw e; } return null; };
  assert.equal(refusal({ seed: -1 }), "seed must be a whole number from 0 to 4294967295, not -1");
  assert.equal(refusal({ seed: 1, count: 0 }), "count must be from 1 to 100, not 0");
  assert.equal(refusal({ seed: 1, players: 5 }), "players must be 2, 3 or 4, not 5");
  assert.equal(refusal({ seed: 1, reading: "house" }), 'reading must be "rulebook" or "summary", not "house"');
  assert.equal(refusal({ seed: 1, rules: "house" }), 'reading must be "rulebook" or "summary", not "house"');   // its older name
  assert.equal(refusal({ seed: 1, reading: "summary", rules: "summary" }), "give the reading once: reading (or its older name, rules), not both");
  assert.equal(core.dailySeed(2026, 12, 1), 20261201);
  const daily = fixture("practice.json").cases.find((c) => c.seed === 20261201 && c.players === 2 && c.reading === "rulebook");
  assert.deepEqual(core.practice({ seed: 20261201, count: 10 }).map((d) => d.scores), daily.decisions.map((d) => d.scores));
});

test("the luck split of every seeded record is Python's within 1e-9, and adds up", async () => {
  const cases = fixture("luck.json").cases;
  assert.ok(cases.length >= 8);
  for (const c of cases) {
    const { core } = await coreFor(c.page, c.players, c.reading);
    const got = core.luck(c.record), what = `${c.players}-${c.reading} ${c.record.mode}`;
    near(got, c.splits, 1e-9, what);
    for (const s of got) {
      const sum = s.luck + s.own_decisions + s.others_decisions + s.banked_turns;
      assert.ok(Math.abs(sum - (s.end - s.start)) <= 1e-9, what);
    }
    for (let k = 0; k < c.players; k++) {
      const rv = core.review(c.record, k);
      near([rv.start, rv.end, rv.luck, rv.own_decisions], [got[k].start, got[k].end, got[k].luck, got[k].own_decisions], 0, what);
      assert.ok(Math.abs(rv.own_decisions + rv.total_loss_points / 100) <= 1e-9, what);
    }
  }
});
