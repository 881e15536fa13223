/* The turn's backup: one Bellman backup of a start state from the embedded start-of-turn win probabilities
 * and the exact Go Nuts! payouts, every decision state of the turn valued (turnValues), once per score state
 * (memoValues). What it answers is advise.js's and explain.js's.
 * Twin: solver/play/backup.py (turn_values, backup_state); fixture: tests/fixtures/advice.json. */
/** @typedef {import("./types.js").Game} Game */
/** @typedef {import("./types.js").Values} Values */
/** @typedef {import("./types.js").ValuesAt} ValuesAt */

/** The flat index of a score state. @param {Game} g @param {number[]} scores */
export function flat(g, scores) {
  let i = 0;
  for (const s of scores) i = i * g.target + s;
  return i;
}

/** One Bellman backup of the start state `scores` (turn order, the active player first): roll and stop
 * value vectors indexed [(t * (D+1) + n) * N + k], and `roll` decisions (greedy on the active player's own
 * component; an exact tie stops; the opening (0, D) is a forced roll). Where scores[0] + t >= G both are e0.
 * @param {Game} g @param {number[]} scores @returns {Values} */
export function turnValues(g, scores) {
  const N = g.players, G = g.target, D = g.dice, s0 = scores[0];
  const e0 = new Float64Array(N); e0[0] = 1;
  /** @type {Float64Array[]} C[gain]: the value, in the active player's frame, of ending the turn with that gain */
  const C = [];
  const next = scores.slice(1);
  for (let gain = 0; gain <= 2 * G; gain++) {
    if (s0 + gain >= G) { C.push(e0); continue; }
    const at = flat(g, next.concat([s0 + gain]));
    const v = new Float64Array(N);
    for (let k = 0; k < N; k++) v[k] = g.w(at, (k - 1 + N) % N);
    C.push(v);
  }
  const costs = g.nutsReplaces;
  /** @type {Float64Array[]} */
  const nutsAbs = [];
  if (costs) {
    for (let n = 0; n <= D; n++) {
      const v = new Float64Array(N);
      if (n > 0) for (let x = 0; x <= G; x++) { const p = g.payout[n][x]; for (let k = 0; k < N; k++) v[k] += p * C[x][k]; }
      nutsAbs.push(v);
    }
  }
  const W = D + 1;
  const rollV = new Float64Array(G * W * N), stopV = new Float64Array(G * W * N);
  const best = new Float64Array(G * W * N);
  const roll = new Uint8Array(G * W);
  for (let t = G - 1; t >= 0; t--) {
    const win = s0 + t >= G;
    for (let n = 1; n <= D; n++) {
      const at = (t * W + n) * N;
      if (win) {
        for (let k = 0; k < N; k++) { rollV[at + k] = e0[k]; stopV[at + k] = e0[k]; best[at + k] = e0[k]; }
        continue;
      }
      const r = new Float64Array(N);
      for (const m of g.moves[n]) {
        if (m.kind === "bust") {
          for (let k = 0; k < N; k++) r[k] += m.p * C[0][k];
        } else if (m.kind === "nuts") {
          if (costs) {
            for (let k = 0; k < N; k++) r[k] += m.p * nutsAbs[m.x][k];
          } else {
            const pay = g.payout[m.x];
            for (let x = 0; x <= G; x++) { const q = m.p * pay[x]; for (let k = 0; k < N; k++) r[k] += q * C[t + x][k]; }
          }
        } else {
          const t2 = t + m.x;
          if (t2 >= G) { r[0] += m.p; continue; }
          const src = (t2 * W + m.live) * N;
          for (let k = 0; k < N; k++) r[k] += m.p * best[src + k];
        }
      }
      const st = C[t];
      const choose = (t === 0 && n === D) || r[0] > st[0];
      roll[t * W + n] = choose ? 1 : 0;
      for (let k = 0; k < N; k++) {
        rollV[at + k] = r[k]; stopV[at + k] = st[k]; best[at + k] = choose ? r[k] : st[k];
      }
    }
  }
  return { N, G, D, roll, rollV, stopV, best, C };
}

/** One backup per score state, remembered (a turn's decisions, its advice, its why and a review share it).
 * @param {Game} g @returns {ValuesAt} */
export function memoValues(g) {
  /** @type {Map<string, Values>} */
  const memo = new Map();
  return (scores) => {
    const key = scores.join(",");
    let v = memo.get(key);
    if (!v) { if (memo.size > 256) memo.clear(); v = turnValues(g, scores); memo.set(key, v); }
    return v;
  };
}

/** @param {Float64Array} arr @param {number} at @param {number} N */
export const vec = (arr, at, N) => Array.from(arr.subarray(at, at + N));

/** The optimal value vector (turn order from the active player) at a decision state, or at the start of the
 * turn when t = 0 and n = D. @param {Game} g @param {number[]} scores @param {number} turn @param {number} dice
 * @param {Values} [v] */
export function stateValue(g, scores, turn, dice, v) {
  const N = g.players;
  if (scores[0] + turn >= g.target) { const e0 = new Array(N).fill(0); e0[0] = 1; return e0; }
  return vec((v || turnValues(g, scores)).best, (turn * (g.dice + 1) + dice) * N, N);
}
