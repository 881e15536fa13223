/* The solver in the page: the committed kernels.wasm (kernels.c compiled to WebAssembly) driven by core/solve.js
 * solves every game of tests/fixtures/table_digests.json (2 to 4 players, both readings, Pig) and the four shipped
 * 2- and 3-player tables at target 50 into the same bytes as `gonuts-solve build`: each array's SHA-256 equals the
 * committed digest. The turn models come from Python
 * (tests/fixtures/kernel_models.json, written by tests/wasm_fixtures.py). */
import test from "node:test";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { orbitLayers, solveGame, unpackRoll, kernelData } from "../../solver/site/web/src/core/solve.js";

const __dirname = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.join(__dirname, "..", "..");
const fixture = (name) => JSON.parse(fs.readFileSync(path.join(ROOT, "tests", "fixtures", name), "utf8"));
const digests = fixture("table_digests.json").tables;
const models = fixture("kernel_models.json").games;

async function kernel() {
  const { instance } = await WebAssembly.instantiate(fs.readFileSync(path.join(ROOT, "solver", "site", "web", "kernels.wasm")), {});
  instance.exports._initialize();
  return instance.exports;
}
const sha = (typed) => crypto.createHash("sha256").update(new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength)).digest("hex");
const digestOf = (text) => text.split(" ").pop();

test("the layers are the states by descending score sum, one representative per orbit of rotations", () => {
  const { reps, ptr } = orbitLayers(3, 4);
  assert.equal(ptr.length - 1, 3 * 3 + 1);
  assert.equal(ptr[ptr.length - 1], reps.length);
  assert.equal(reps.length, (4 ** 3 + 2 * 4) / 3);          // Burnside: (G^3 + 2 G) / 3 orbits of rotations
  assert.deepEqual(reps.slice(0, 1), [3 * 16 + 3 * 4 + 3]);  // the top layer: all three at 3
});

const readings = fixture("page-t50.json").readings;
/** The game as the page builds it for itself: its reading's rolls (the page's data) and core/payout.js. */
const built = (name, data) => kernelData(readings[name.includes("summary") ? "summary" : "rulebook"], data.players,
  data.target, [1, 1], data.settings);
const cases = [...Object.entries(models).map(([name, data]) => [name, data, "Python's turn model"]),
  ...Object.entries(models).filter(([name]) => name.startsWith("gonuts-")).map(([name, data]) => [name, built(name, data), "the page's own turn model"])];

for (const [name, data, source] of cases) {
  test(`${name}, from ${source}: the WebAssembly kernel gives the bytes of gonuts-solve build`, async () => {
    const k = await kernel();
    const want = models[name].digests || digests[name];
    const got = solveGame(k, data);
    assert.ok(got.converged, `residual ${got.residual}`);
    const S = data.target ** data.players, count = data.target * (data.substates + 1);
    assert.equal(sha(got.startWin), digestOf(want.start_win), "start_win");
    if (want.roll_bits) assert.equal(sha(got.rollBits), digestOf(want.roll_bits), "roll_bits");
    else assert.equal(sha(unpackRoll(got.rollBits, S, data.nbytes, count)), digestOf(want.roll), "roll");
    if (want.roll_win) {
      assert.equal(sha(/** @type {Float64Array} */ (got.rollWin)), digestOf(want.roll_win), "roll_win");
      assert.equal(sha(/** @type {Float64Array} */ (got.stopWin)), digestOf(want.stop_win), "stop_win");
    } else assert.equal(got.rollWin, null);
  });
}
