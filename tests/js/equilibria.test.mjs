/* A game whose orbits have several equilibria (4 players, rulebook, target 51: docs/model.md), solved by the page's
 * kernel (kernels.wasm, driven by core/solve.js, with the page's own turn model): it converges through the equilibrium
 * search and gives the bytes of `gonuts-solve build` (the digests under "cycling" in tests/fixtures/table_digests.json,
 * which tests/engine/test_equilibria.py holds the native build to). */
import test from "node:test";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { kernelData, solveGame } from "../../solver/site/web/src/core/solve.js";

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const fixture = (name) => JSON.parse(fs.readFileSync(path.join(ROOT, "tests", "fixtures", name), "utf8"));
const sha = (typed) => crypto.createHash("sha256").update(new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength)).digest("hex");
const digestOf = (text) => text.split(" ").pop();

test("the page's kernel solves 4 players to 51 under the rulebook into the build's bytes, one orbit with two equilibria", async () => {
  const { instance } = await WebAssembly.instantiate(fs.readFileSync(path.join(ROOT, "solver", "site", "web", "kernels.wasm")), {});
  /** @type {any} */ (instance.exports)._initialize();
  const settings = Object.values(fixture("kernel_models.json").games)[0].settings;
  const data = kernelData(fixture("page-t50.json").readings.rulebook, 4, 51, [1, 1], settings);
  const got = solveGame(/** @type {any} */ (instance.exports), data, undefined, { values: false });
  assert.ok(got.converged, `residual ${got.residual}`);
  assert.ok(got.residual <= 1e-12);
  assert.deepEqual([got.searched, got.several, got.mixed.state.length], [1, 1, 0]);
  const want = fixture("table_digests.json").cycling["gonuts-4p-t51-rulebook.npz"];
  assert.equal(sha(got.startWin), digestOf(want.start_win), "start_win");
  assert.equal(sha(got.rollBits), digestOf(want.roll_bits), "roll_bits");
});
