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

test("a smaller target is the corner of a larger game the page holds: the game's own numbers, bit for bit", async () => {
  const k = await kernel(), solveAt = (players, rules, target, speed) =>
    solveGame(k, kernelData(data.readings[rules], players, target, speedFraction(String(speed)), data.solve.settings), null, { values: false }).startWin;
  // an embedded game stores N - 1 seats (start_win's components) and makes the last as one less the others: the
  // kernel's seats sum to 1 only to a few roundings, so that one agrees to 1e-14
  const same = (g, want, N, stored = N) => {
    for (let i = 0; i < want.length / N; i++) {
      for (let j = 0; j < N; j++) {
        const x = g.w(i, j), y = want[i * N + j];
        if (j < stored ? !Object.is(x, y) : Math.abs(x - y) > 1e-14) return `state ${i} seat ${j}: ${x} ${y}`;
      }
    }
    return "";
  };
  const core = makeCore(data);
  assert.equal(core.corner(3, "summary", 11, 0.5), null);                  // nothing larger of that game yet
  core.add(3, "summary", 15, 0.5, solveAt(3, "summary", 15, 0.5));
  assert.equal(core.corner(3, "summary", 11, 2), null);                    // another speed is another game
  assert.equal(core.corner(3, "rulebook", 11, 0.5), null);                 // ... and another reading
  const small = core.corner(3, "summary", 11, 0.5);
  assert.equal(small.target, 11);
  assert.equal(same(small, solveAt(3, "summary", 11, 0.5), 3), "");
  assert.equal(core.game(3, "summary", 11, 0.5), small);                   // ready for every tab, as a solved game is
  const embedded = core.corner(2, "rulebook", 30, 1);                      // the page's own 2-player game to 50
  assert.equal(data.games["2-rulebook"].start_win.components, 1);
  assert.equal(same(embedded, solveAt(2, "rulebook", 30, 1), 2, 1), "");
  // advise from a corner: a solve's words and numbers, to the bit where the larger game holds every seat (the
  // page solved it), within the page's 1e-12 of Python where it holds N - 1 (the embedded game)
  const solvedCore = makeCore(data);
  solvedCore.add(3, "summary", 11, 0.5, solveAt(3, "summary", 11, 0.5));
  solvedCore.add(2, "rulebook", 30, 1, solveAt(2, "rulebook", 30, 1));
  const q3 = { scores: [7, 2, 9], turn: 1, dice: 4, reading: "summary", target: 11, speed: 0.5 };
  assert.deepEqual(core.advise(q3), solvedCore.advise(q3));
  const q = { scores: [7, 12], turn: 4, dice: 3, reading: "rulebook", target: 30 }, a = core.advise(q), b = solvedCore.advise(q);
  assert.equal(a.action, b.action);
  for (const key of ["win_if_roll", "win_if_stop"]) assert.ok(Math.abs(a[key] - b[key]) <= 1e-12, key);
});
