/* Games that need the equilibrium search (tests/table_digests.py CYCLING: docs/model.md), solved by the page's
 * kernel (kernels.wasm, driven by core/solve.js) from Python's turn models (tests/fixtures/kernel_models.json,
 * "cycling"): one whose orbit has two pure equilibria, one whose orbit has none and is played mixed. Each converges
 * through the search into the bytes of `gonuts-solve build` (the digests under "cycling" in
 * tests/fixtures/table_digests.json, which tests/engine/test_equilibria.py holds the native build to), the mixed
 * decisions and their probabilities included. */
import test from "node:test";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { solveGame } from "../../solver/site/web/src/core/solve.js";

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const fixture = (name) => JSON.parse(fs.readFileSync(path.join(ROOT, "tests", "fixtures", name), "utf8"));
const sha = (typed) => crypto.createHash("sha256").update(new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength)).digest("hex");
const digestOf = (text) => text.split(" ").pop();

async function kernel() {
  const { instance } = await WebAssembly.instantiate(fs.readFileSync(path.join(ROOT, "solver", "site", "web", "kernels.wasm")), {});
  /** @type {any} */ (instance.exports)._initialize();
  return /** @type {any} */ (instance.exports);
}
/** A table's mixed_at rows (scores in turn order, turn points, dice) and mixed_roll, from the solve's mixed. */
function mixedArrays(mixed, N, G, D) {
  const rows = new BigInt64Array(mixed.state.length * (N + 2));
  mixed.state.forEach((s, e) => {
    let x = s;
    for (let k = N - 1; k >= 0; k--) { rows[e * (N + 2) + k] = BigInt(x % G); x = Math.floor(x / G); }
    rows[e * (N + 2) + N] = BigInt(Math.floor(mixed.decision[e] / (D + 1)));
    rows[e * (N + 2) + N + 1] = BigInt(mixed.decision[e] % (D + 1));
  });
  return { at: rows, roll: Float64Array.from(mixed.roll) };
}

/** Solve a CYCLING game from its Python turn model: converged, the search's counts as said, the build's start
 * values and decisions. Returns the solve, its model and the build's digests. */
async function solvedAsBuilt(name, counts) {
  const data = fixture("kernel_models.json").cycling[name];
  const got = solveGame(await kernel(), data, undefined, { values: false });
  assert.ok(got.converged && got.residual <= 1e-12, `residual ${got.residual}`);
  assert.deepEqual([got.searched, got.several, got.mixed.state.length], counts);
  const want = fixture("table_digests.json").cycling[name];
  assert.equal(sha(got.startWin), digestOf(want.start_win), "start_win");
  assert.equal(sha(got.rollBits), digestOf(want.roll_bits), "roll_bits");
  return { got, data, want };
}

test("the page's kernel solves a game with two pure equilibria at one orbit into the build's bytes", async () => {
  await solvedAsBuilt("gonuts-4p-t30-summary-faces2-2-2-dog1-2.npz", [1, 1, 0]);
});

test("the page's kernel solves a game with no pure equilibrium at an orbit into the build's bytes, its mix included", async () => {
  const { got, data, want } = await solvedAsBuilt("gonuts-4p-t17-rulebook-faces2-2-2.npz", [1, 0, 2]);
  const m = mixedArrays(got.mixed, data.players, data.target, data.substates);
  assert.equal(sha(m.at), digestOf(want.mixed_at), "mixed_at");
  assert.equal(sha(m.roll), digestOf(want.mixed_roll), "mixed_roll");
});
