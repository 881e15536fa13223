/* The solver's driver over the WebAssembly kernel (kernels.wasm, compiled from the same kernels.c): the game's
 * states in layers of descending score sum, one orbit representative each, handed layer by layer to the kernel's
 * solve_layer, as solver/engine/solve.py hands them to the native kernel; the turn model's arrays come from Python
 * as data (solver/engine/wasm.py kernel_data). The arrays it gives are the bytes `gonuts-solve build` writes
 * (tests/js/solve.test.mjs holds them to the committed digests of tests/fixtures/table_digests.json).
 * Pure: no DOM; runs in a page, a worker or Node.
 * Twin: solver/engine/solve.py (orbit_layers, solve, unpack_roll, model_arrays); fixture: tests/fixtures/kernel_models.json. */

import { nutsPayoutTable, nutsTailTable } from "./payout.js";

/** @typedef {{name: string, type: "int64" | "float64" | "uint8", base64?: string, bytes?: Uint8Array}} KernelArray */
/** @typedef {{players: number, target: number, substates: number, start: number, nbytes: number,
 *   settings: {tol: number, eps: number, max_pi: number, max_vi: number}, arrays: KernelArray[]}} KernelData */
/** @typedef {import("./types.js").Mixed} Mixed */
/** @typedef {{startWin: Float64Array, rollBits: Uint8Array, rollWin: Float64Array | null, stopWin: Float64Array | null,
 *   residual: number, converged: boolean, iterations: number, passes: number, searched: number, several: number,
 *   mixed: Mixed}} Solved */
/** @typedef {{memory: WebAssembly.Memory, malloc: (n: number) => number, free: (p: number) => void,
 *   solve_layer: (...args: (number | bigint)[]) => number}} KernelExports */

/** The states grouped by score sum, descending (the order layers are solved in), each orbit of rotations kept by
 * its smallest index; the l-th layer is reps[ptr[l]:ptr[l+1]]. A state's index is s0 G^(N-1) + ... + s_{N-1}.
 * @param {number} N @param {number} G @returns {{reps: number[], ptr: number[]}} */
export function orbitLayers(N, G) {
  const size = G ** N, top = N * (G - 1);
  /** @type {number[][]} */
  const bySum = Array.from({ length: top + 1 }, () => []);
  const s = new Array(N).fill(0);
  for (let idx = 0; idx < size; idx++) {
    let rest = idx;
    for (let k = N - 1; k >= 0; k--) { s[k] = rest % G; rest = (rest - s[k]) / G; }
    let canonical = true;
    for (let r = 1; r < N && canonical; r++) {          // each rotation's index: the representative is the smallest
      let rot = 0;
      for (let k = 0; k < N; k++) rot = rot * G + s[(k + r) % N];
      if (rot < idx) canonical = false;
    }
    if (canonical) bySum[s.reduce((a, b) => a + b, 0)].push(idx);
  }
  /** @type {number[]} */
  const reps = [], ptr = [0];
  for (let sum = top; sum >= 0; sum--) { for (const x of bySum[sum]) reps.push(x); ptr.push(reps.length); }
  return { reps, ptr };
}

/** @param {string} text @returns {Uint8Array} */
function fromBase64(text) {
  if (typeof atob === "function") return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  return new Uint8Array(/** @type {any} */ (globalThis).Buffer.from(text, "base64"));
}
/** An array's bytes, given as bytes or as base64 (Python's kernel_data). @param {KernelArray} a */
const bytesOf = (a) => a.bytes || fromBase64(/** @type {string} */ (a.base64));
/** @param {ArrayBufferView} v */
const asBytes = (v) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);

/** A Go Nuts! game's kernel data, built here as solver/engine/wasm.py kernel_data builds it: the turn model of
 * solver/game/turn.py gonuts_turn (every roll of the reading's data: all cars and Go Nuts! end the turn, the
 * rest move), its arrays as solve.py model_arrays lays them out, the payouts of core/payout.js.
 * @param {{rules: {faces: number[], dog: number[], nuts_costs_turn: boolean}, rolls: Record<string, any[][]>, dice: number}} reading
 * @param {number} players @param {number} target @param {[number, number]} speed
 * @param {{tol: number, eps: number, max_pi: number, max_vi: number}} settings @returns {KernelData} */
export function kernelData(reading, players, target, speed, settings) {
  const D = reading.dice, G = target;
  const payouts = nutsPayoutTable({ ...reading.rules, players, target }, speed);
  /** @type {[number, number, number, number][]} */
  const moves = [];
  /** @type {[number, number, number, boolean][]} */
  const endings = [];
  for (let n = 1; n <= D; n++) {
    for (const [, , , p, kind, x, live] of reading.rolls[String(n)]) {
      if (kind === "bust") endings.push([n, p, 0, false]);
      else if (kind === "nuts") endings.push([n, p, x, !reading.rules.nuts_costs_turn]);
      else moves.push([n, p, x, live]);
    }
  }
  // as numpy sorts a structured array "by src": every later field breaks ties, in the dtype's order
  const byFields = (/** @type {(number | boolean)[]} */ x, /** @type {(number | boolean)[]} */ y) => {
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return Number(x[i]) < Number(y[i]) ? -1 : 1;
    return 0;
  };
  moves.sort(byFields);
  endings.sort(byFields);
  const ptrOf = (/** @type {number[]} */ src) => BigInt64Array.from({ length: D + 2 }, (_, j) => BigInt(src.filter((x) => x < j).length));
  const dists = new Float64Array(6 * (G + 1)), tails = new Float64Array(6 * (G + 2));
  dists[0] = 1;                                   // row 0: the turn busts, nothing gained
  dists.set(payouts.subarray(G + 1), G + 1);
  // tails[j][h] = P(gain >= h), exact and rounded once (payout.js), not summed from the target down: the values
  // then depend on the distance to the target only (solver/engine/solve.py model_arrays, turn.py)
  const exact = nutsTailTable({ ...reading.rules, players, target }, speed);
  tails[0] = 1;
  for (let j = 1; j < 6; j++) tails.set(exact.subarray(j * (G + 1), (j + 1) * (G + 1)), j * (G + 2));
  const absUsed = new Uint8Array(6), relUsed = new Uint8Array(6);
  for (const [, , dist, rel] of endings) (rel ? relUsed : absUsed)[dist] = 1;
  const arrays = /** @type {[string, "int64" | "float64" | "uint8", ArrayBufferView][]} */ ([
    ["mv_ptr", "int64", ptrOf(moves.map((m) => m[0]))], ["mv_p", "float64", Float64Array.from(moves, (m) => m[1])],
    ["mv_da", "int64", BigInt64Array.from(moves, (m) => BigInt(m[2]))], ["mv_dst", "int64", BigInt64Array.from(moves, (m) => BigInt(m[3]))],
    ["en_ptr", "int64", ptrOf(endings.map((e) => e[0]))], ["en_p", "float64", Float64Array.from(endings, (e) => e[1])],
    ["en_dist", "int64", BigInt64Array.from(endings, (e) => BigInt(e[2]))], ["en_rel", "uint8", Uint8Array.from(endings, (e) => (e[3] ? 1 : 0))],
    ["dists", "float64", dists], ["tails", "float64", tails], ["abs_used", "uint8", absUsed], ["rel_used", "uint8", relUsed]]);
  return { players, target, substates: D, start: D, nbytes: Math.ceil(G * (D + 1) / 8), settings,
           arrays: arrays.map(([name, type, v]) => ({ name, type, bytes: asBytes(v) })) };
}

/** Columns of the kernel's per-orbit stats (solver/engine/kernels.py STATS): passes, residual, converged, the pure
 * equilibria an equilibrium search found, the mixed state (-1: none), its decision, its probability of rolling,
 * the spread of the equilibria, and a second mixed state, its decision and probability. */
export const STATS = 11;

/** Solve a game with the kernel's exports: the start-of-turn win probabilities (G^N, N), the packed roll
 * decisions (G^N, nbytes), and for 2 players the values of rolling and stopping (G^N, G, D+1), unless
 * `values` is false (the page keeps only the start values: 96 MB less at 2 players and target 100; the start
 * values are the same bytes either way), and no copy of the packed decisions if `bits` is false (rollBits is
 * empty: the page's worker sends only the start values, and the copy was a third of its peak memory at 4 players
 * to 50). `progress(done, total)` is called after each layer with the layers done. Memory the kernel could not
 * get is an Error, and everything this call took is freed.
 * @param {KernelExports} kernel @param {KernelData} data @param {(done: number, total: number) => void} [progress]
 * @param {{values?: boolean, bits?: boolean}} [opts] @returns {Solved} */
export function solveGame(kernel, data, progress, opts) {
  const N = data.players, G = data.target, D = data.substates, S = G ** N;
  const storeValues = N === 2 && !(opts && opts.values === false);
  const { reps, ptr } = orbitLayers(N, G);
  /** @type {number[]} */
  const taken = [];
  /** Kernel memory of n bytes, zeroed (malloc does not zero). @param {number} n */
  const alloc = (n) => {
    const p = kernel.malloc(Math.max(n, 8));
    if (!p) throw new Error(`the solver needs ${n} bytes more than this device gives it`);
    taken.push(p);
    new Uint8Array(kernel.memory.buffer, p, Math.max(n, 8)).fill(0);
    return p;
  };
  try {
    const bytes = data.arrays.map(bytesOf);
    const arrays = bytes.map((b) => {
      const p = alloc(b.length);
      new Uint8Array(kernel.memory.buffer, p, b.length).set(b);
      return p;
    });
    const nd = bytes[data.arrays.findIndex((a) => a.name === "dists")].length / 8 / (G + 1);
    // struct Model on wasm32: eight int64 (N, K, G, G^(N-1), D, start, nd, nbytes), then twelve 4-byte pointers
    const model = alloc(8 * 8 + 4 * 12);
    const head = new BigInt64Array(kernel.memory.buffer, model, 8);
    [N, N, G, G ** (N - 1), D, data.start, nd, data.nbytes].forEach((x, i) => { head[i] = BigInt(x); });
    new Uint32Array(kernel.memory.buffer, model + 64, 12).set(arrays);
    const repsAt = alloc(8 * reps.length);
    new BigInt64Array(kernel.memory.buffer, repsAt, reps.length).set(reps.map(BigInt));
    const W = alloc(8 * S * N), bits = alloc(S * data.nbytes), stats = alloc(8 * STATS * reps.length);
    const values = storeValues ? 8 * S * G * (D + 1) : 8;
    const rw = alloc(values), sw = alloc(values);
    const { tol, eps, max_pi: maxPi, max_vi: maxVi } = data.settings;
    const layers = ptr.length - 1;
    for (let l = 0; l < layers; l++) {
      if (ptr[l + 1] > ptr[l]) {
        const code = kernel.solve_layer(model, repsAt, BigInt(ptr[l]), BigInt(ptr[l + 1]), W, bits, rw, sw,
          storeValues ? 1 : 0, tol, eps, BigInt(maxPi), BigInt(maxVi), 0n, stats);
        if (code !== 0) throw new Error("the solver ran out of memory on this device");
      }
      if (progress) progress(l + 1, layers);
    }
    const buffer = kernel.memory.buffer;                  // views made after the last malloc: memory may have grown
    const st = new Float64Array(buffer, stats, STATS * reps.length);
    let residual = 0, converged = true, iterations = 0, passes = 0, searched = 0, several = 0;
    /** @type {[number, number, number][]} */
    const mixes = [];
    for (let o = 0; o < reps.length; o++) {
      const r = STATS * o;
      passes += st[r]; iterations = Math.max(iterations, st[r]);
      residual = Math.max(residual, st[r + 1]); converged = converged && st[r + 2] === 1;
      if (st[r + 3] > 0 || st[r + 4] >= 0) searched++;
      if (st[r + 3] > 1) several++;
      if (st[r + 4] >= 0) mixes.push([st[r + 4], st[r + 5], st[r + 6]]);
      if (st[r + 8] >= 0) mixes.push([st[r + 8], st[r + 9], st[r + 10]]);
    }
    mixes.sort((a, b) => a[0] - b[0]);
    return {
      startWin: new Float64Array(buffer.slice(W, W + 8 * S * N)),
      rollBits: opts && opts.bits === false ? new Uint8Array(0) : new Uint8Array(buffer.slice(bits, bits + S * data.nbytes)),
      rollWin: storeValues ? new Float64Array(buffer.slice(rw, rw + values)) : null,
      stopWin: storeValues ? new Float64Array(buffer.slice(sw, sw + values)) : null,
      residual, converged: converged && residual <= tol, iterations, passes, searched, several,
      mixed: { state: mixes.map((x) => x[0]), decision: mixes.map((x) => x[1]), roll: mixes.map((x) => x[2]) },
    };
  } finally {
    for (const p of taken) kernel.free(p);
  }
}

/** The packed decisions of each state as one byte (0 or 1) per (t, n) of the turn, G (D+1) of them, the first
 * bit of each byte the highest (numpy's unpackbits): the `roll` array of a 2- or 3-player table.
 * @param {Uint8Array} bits @param {number} states @param {number} nbytes @param {number} count @returns {Uint8Array} */
export function unpackRoll(bits, states, nbytes, count) {
  const out = new Uint8Array(states * count);
  for (let s = 0; s < states; s++) {
    for (let i = 0; i < count; i++) out[s * count + i] = (bits[s * nbytes + (i >> 3)] >> (7 - (i & 7))) & 1;
  }
  return out;
}
