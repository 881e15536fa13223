/* What the Table tab says of a game, under Node: the rule events of RULES.md named for each entry (all cars,
 * one die's acorn bringing every die back, a Go Nuts! round begun, by reading), and the shortest names that
 * still tell players apart. The expected notes are read off the rules, entry by entry. */
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { makeCore } from "../../solver/site/web/src/core/index.js";
import { shortNames } from "../../solver/site/web/src/page/names.js";

const __dirname = path.dirname(fileURLToPath(import.meta.url));
const core = makeCore(JSON.parse(fs.readFileSync(path.join(__dirname, "..", "fixtures", "page-t50.json"), "utf8")));
/** @param {string} reading @param {object[]} events */
const record = (reading, events) => ({ format: "gonuts-game", version: 1, reading, players: 2, target: 50, you: 0, mode: "table", events });

test("all cars, with and without turn points, is noted with the points lost", () => {
  const notes = core.notes(record("rulebook", [
    { seat: 0, roll: [0, 0, 5] },                                  // all cars at once: nothing lost
    { seat: 1, roll: [2, 2, 1] }, { seat: 1, choice: "roll" }, { seat: 1, roll: [0, 0, 4] },   // 2 points lost
  ]));
  assert.deepEqual(notes, [{ kind: "cars", seat: 0, t: 0, kept: false }, null, null, { kind: "cars", seat: 1, t: 2, kept: false }]);
});

test("the one-die rule is noted when it fires, as each reading has it", () => {
  // 1 acorn and 4 cars leaves one live die showing an acorn: the summary brings all dice back at once;
  // the rulebook waits for a roll of that single die showing an acorn.
  const events = [{ seat: 0, roll: [1, 0, 4] }];
  assert.deepEqual(core.notes(record("summary", events)), [{ kind: "refill", seat: 0, t: 1, kept: true }]);
  assert.deepEqual(core.notes(record("rulebook", events)), [null]);
  const single = [...events, { seat: 0, choice: "roll" }, { seat: 0, roll: [1, 0, 0] }];
  assert.deepEqual(core.notes(record("rulebook", single)), [null, null, { kind: "refill", seat: 0, t: 2, kept: true }]);
  assert.equal(core.replay(record("rulebook", single)).n, 5);
  // five dice with no car stay five: no rule fired
  assert.deepEqual(core.notes(record("rulebook", [{ seat: 0, roll: [2, 3, 0] }])), [null]);
});

test("a Go Nuts! round begun is noted with the turn points it costs or keeps", () => {
  const events = [{ seat: 0, roll: [2, 2, 1] }, { seat: 0, choice: "roll" }, { seat: 0, roll: [0, 4, 0] }, { seat: 0, nuts: 3 }];
  assert.deepEqual(core.notes(record("rulebook", events))[2], { kind: "nuts", seat: 0, t: 2, kept: false });
  assert.deepEqual(core.notes(record("summary", events))[2], { kind: "nuts", seat: 0, t: 2, kept: true });
  assert.deepEqual(core.replay(record("rulebook", events)).scores, [3, 0]);          // the round replaces the turn
  assert.deepEqual(core.replay(record("summary", events)).scores, [5, 0]);           // the round adds to it
  assert.equal(core.notes(record("rulebook", events))[3], null);
});

test("a roll that reaches the target is a win, not a rule event", () => {
  const events = [];
  for (let k = 0; k < 9; k++) events.push({ seat: 0, roll: [5, 0, 0] }, { seat: 0, choice: "roll" });
  events.push({ seat: 0, roll: [5, 0, 0] });                       // 50 turn points: the game is over
  const notes = core.notes(record("rulebook", events));
  assert.equal(core.replay(record("rulebook", events)).phase, "over");
  assert.ok(notes.every((n) => n === null));
});

test("short names tell every player apart, and keep at least three letters", () => {
  const cases = [
    [["Player 1", "Player 2", "Player 3", "Player 4"], ["P\u20261", "P\u20262", "P\u20263", "P\u20264"]],
    [["Grandma", "Grandpa", "Zo\u00eb", "L\u00e9a"], ["G\u2026ma", "G\u2026pa", "Zo\u00eb", "L\u00e9a"]],
    [["Annabelle-Marguerite", "Ben", "Cleo", "Devendra"], ["Ann\u2026", "Ben", "Cleo", "Dev\u2026"]],
    [["IAN", "ian2", "Ivan"], ["IAN", "ian2", "Ivan"]],
  ];
  for (const [names, want] of cases) assert.deepEqual(shortNames(names), want, names.join(", "));
  // whatever the names, no two short forms are the same
  const many = ["Ann", "Anna", "Annie", "Anne", "Bo", "Bob", "Bobby", "Player 10", "Player 1", "Zoë", "Zoe"];
  for (let i = 0; i < many.length; i++) for (let j = i + 1; j < many.length; j++) for (let k = j + 1; k < many.length; k++) {
    const s = shortNames([many[i], many[j], many[k]]);
    assert.equal(new Set(s.map((x) => x.toLowerCase())).size, 3, `${many[i]}, ${many[j]}, ${many[k]}: ${s}`);
  }
});
