/* A game the page solves itself, made into a game the core plays (core/pagevalues.js add): the 2-player page of
 * tests/fixtures/page-t50.json solves the 3- and 4-player games at target 12 with the committed kernels.wasm
 * (core/solve.js, the page's own turn model and payouts), and its advise and explain then say what Python's say
 * for those games (tests/fixtures/advice.json, the page-t12 cases: written by tests/page_fixtures.py from the
 * tables of gonuts-solve build). Also: a record's Go Nuts! speed is read, and refused, with Python's words. */
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { makeCore } from "../../solver/site/web/src/core/index.js";
import { kernelData, solveGame } from "../../solver/site/web/src/core/solve.js";
import { speedFraction } from "../../solver/site/web/src/core/payout.js";

const __dirname = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.join(__dirname, "..", "..");
const fixture = (name) => JSON.parse(fs.readFileSync(path.join(ROOT, "tests", "fixtures", name), "utf8"));
const data = fixture("page-t50.json");

async function kernel() {
  const { instance } = await WebAssembly.instantiate(fs.readFileSync(path.join(ROOT, "solver", "site", "web", "kernels.wasm")), {});
  instance.exports._initialize();
  return instance.exports;
}

test("games the page solves at target 12 give Python's advise and explain", async () => {
  const core = makeCore(data), k = await kernel();
  const cases = fixture("advice.json").cases.filter((c) => c.page === "page-t12.json");
  assert.equal(cases.length, 28);
  for (const players of [3, 4]) {
    for (const rules of ["rulebook", "summary"]) {
      assert.equal(core.solvable(players, rules, 12, 1), true);
      const solved = solveGame(k, kernelData(data.readings[rules], players, 12, speedFraction("1"), data.solve.settings), null, { values: false });
      core.add(players, rules, 12, 1, solved.startWin);
    }
  }
  for (const c of cases) {
    const q = { scores: c.scores, turn: c.turn, dice: c.dice, reading: c.reading, target: 12 };
    const a = core.advise(q), why = core.explain(q);
    assert.equal(a.action, c.advise.action, JSON.stringify(q));
    for (const key of ["win_if_roll", "win_if_stop"]) {
      assert.ok(a[key] === c.advise[key] || Math.abs(a[key] - c.advise[key]) <= 1e-12, `${key} ${JSON.stringify(q)}`);
    }
    assert.equal(why.stop_at, c.explain.stop_at, JSON.stringify(q));
    assert.ok(Math.abs(why.nuts_mean - c.explain.nuts_mean) <= 1e-12, JSON.stringify(q));
  }
});

test("a game the page does not solve is refused with the range it solves", () => {
  const core = makeCore(data);
  assert.equal(core.solvable(2, "rulebook", 101, 1), false);
  assert.equal(core.solvable(2, "rulebook", 30, 3), false);
  assert.throws(() => core.advise({ scores: [1, 2], target: 101 }),
    { message: "this page has no 2-player rulebook game to 101: it solves games to 10 to 100 at Go Nuts! speeds 0.5, 1, 2" });
  assert.throws(() => core.advise({ scores: [1, 2], target: 30 }), /is not solved yet/);
});

test("a record's Go Nuts! speed is read, and refused in Python's words", () => {
  const core = makeCore(data);
  const r = { format: "gonuts-game", version: 1, reading: "rulebook", players: 2, target: 20, you: 0, events: [] };
  assert.equal(core.replayState({ ...r, speed: 2 }).phase, "start");
  for (const bad of ["2", 0, -1, 101, true, null]) {
    assert.throws(() => core.replayState({ ...r, speed: bad }),
      { message: `"speed" must be a number above 0 and at most 100 (throws per tick), not ${JSON.stringify(bad)}` });
  }
});
