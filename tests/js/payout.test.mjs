/* The page builds any game's solver input itself: core/payout.js gives the bytes of Python's exact payout tables
 * (every target from 10 to 100 for 2 to 4 players, and other speeds), and core/solve.js kernelData the bytes of
 * Python's kernel_data (the turn model's arrays) for every Go Nuts! game of tests/fixtures/kernel_models.json. */
import test from "node:test";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { nutsPayoutTable, ratio, speedFraction } from "../../solver/site/web/src/core/payout.js";
import { kernelData } from "../../solver/site/web/src/core/solve.js";

const __dirname = path.dirname(fileURLToPath(import.meta.url));
const fixture = (name) => JSON.parse(fs.readFileSync(path.join(__dirname, "..", "fixtures", name), "utf8"));
const { games, payouts } = fixture("kernel_models.json");
const readings = fixture("page-t50.json").readings;
const sha = (v) => crypto.createHash("sha256").update(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)).digest("hex");

test("a ratio of integers is rounded once, to the nearest double, ties to even (as Python's int / int)", () => {
  assert.equal(ratio(1n, 3n), 1 / 3);
  assert.equal(ratio(2n ** 53n + 1n, 1n), 2 ** 53);                  // a tie: to even
  assert.equal(ratio(2n ** 53n + 3n, 1n), 2 ** 53 + 4);              // a tie: to even, upwards
  assert.equal(ratio((2n ** 53n + 1n) * 2n ** 70n + 1n, 2n ** 70n), 2 ** 53 + 2);   // just above a tie: up
  assert.equal(ratio(10n ** 400n, 3n * 10n ** 400n), 1 / 3);          // numbers far beyond a double
  assert.equal(ratio(0n, 7n), 0);
});

test("speeds are read as exact fractions", () => {
  assert.deepEqual(speedFraction("1"), [1, 1]);
  assert.deepEqual(speedFraction("1.5"), [3, 2]);
  assert.deepEqual(speedFraction("0.25"), [1, 4]);
  assert.throws(() => speedFraction("-1"), RangeError);
});

test("every payout table the page can ask for has Python's bytes", () => {
  const rules = readings.rulebook.rules;
  let n = 0;
  for (const [key, want] of Object.entries(payouts)) {
    const [players, target, speed] = key.split("-");
    const got = nutsPayoutTable({ ...rules, players: Number(players), target: Number(target) }, speedFraction(speed));
    assert.equal(sha(got), want, key);
    n++;
  }
  assert.ok(n >= 273);
});

for (const [name, want] of Object.entries(games)) {
  if (!name.startsWith("gonuts-")) continue;
  test(`${name}: the page's turn model is Python's, array for array`, () => {
    const reading = name.includes("summary") ? "summary" : "rulebook";
    const got = kernelData(readings[reading], want.players, want.target, [1, 1], want.settings);
    assert.deepEqual([got.substates, got.start, got.nbytes], [want.substates, want.start, want.nbytes]);
    for (const [i, a] of want.arrays.entries()) {
      assert.equal(got.arrays[i].name, a.name);
      assert.equal(Buffer.from(/** @type {Uint8Array} */ (got.arrays[i].bytes)).toString("base64"), a.base64, a.name);
    }
  });
}
