/* The turn's backup: one Bellman backup of a start state from the embedded start-of-turn win probabilities
 * and the exact Go Nuts! payouts; the advice it gives; and the why (where optimal play stops, the next
 * roll's risks, what the turn adds).
 * Twin: solver/play/backup.py (turn_values, backup_state); fixture: tests/fixtures/advice.json. Its advice is
 * solver/play/advise.py's answer and its why solver/play/explain.py's (explain, turn_gain), held to them by the
 * same fixture. */
import { fail, show } from "./errors.js";

/** @typedef {import("./types.js").Game} Game */
/** @typedef {import("./types.js").Values} Values */
/** @typedef {import("./types.js").Advice} Advice */
/** @typedef {import("./types.js").Why} Why */
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

/** @param {Game} g @param {unknown} scores @param {unknown} turn @param {unknown} dice
 * @returns {asserts scores is number[]} */
export function checkState(g, scores, turn, dice) {
  const N = g.players, G = g.target;
  if (!Array.isArray(scores)) fail("scores must be a list of banked scores, yours first");
  if (scores.length !== N) fail(`expected ${N} scores (one per player, the player to move first), got ${scores.length}`);
  for (const s of scores) {
    if (!Number.isInteger(s)) fail(`scores must be whole numbers, not ${show(s)}`);
    if (s < 0 || s >= G) fail(`score ${s} is outside 0..${G - 1}: a banked score of ${G} or more has already won`);
  }
  if (!Number.isInteger(turn)) fail(`turn points must be a whole number, not ${show(turn)}`);
  if (/** @type {number} */ (turn) < 0) fail(`turn points must be 0 or more, not ${turn}`);
  if (!Number.isInteger(dice)) fail(`live dice must be a whole number, not ${show(dice)}`);
  if (/** @type {number} */ (dice) < 1 || /** @type {number} */ (dice) > g.dice) fail(`live dice must be from 1 to ${g.dice}, not ${dice}`);
}

/** @param {Game} g */
const rulesDict = (g) => JSON.parse(JSON.stringify(g.rules));

/** The advice at a state (the object of `gonuts-solve advise --json`); `v` is the state's backup if known.
 * @param {Game} g @param {number[]} scores @param {number} turn @param {number} dice @param {Values} [v]
 * @returns {Advice} */
export function advise(g, scores, turn, dice, v) {
  checkState(g, scores, turn, dice);
  const N = g.players, G = g.target;
  /** @type {Advice} */
  const out = { scores: scores.slice(), turn, dice, action: null, reason: null, win_if_roll: null,
                win_if_stop: null, players_if_roll: null, players_if_stop: null, rules: rulesDict(g) };
  if (scores[0] + turn >= G) {
    const e0 = new Array(N).fill(0); e0[0] = 1;
    return Object.assign(out, { action: "stop", reason: "reaches_target", win_if_stop: 1.0, players_if_stop: e0 });
  }
  const vals = v || turnValues(g, scores);
  const at = (turn * (g.dice + 1) + dice) * N;
  const ifRoll = vec(vals.rollV, at, N);
  out.players_if_roll = ifRoll;
  out.win_if_roll = ifRoll[0];
  if (turn === 0 && dice === g.dice) return Object.assign(out, { action: "roll", reason: "forced" });
  const ifStop = vec(vals.stopV, at, N);
  out.players_if_stop = ifStop;
  out.win_if_stop = ifStop[0];
  out.action = vals.roll[turn * (g.dice + 1) + dice] ? "roll" : "stop";
  out.reason = "optimal";
  return out;
}

/** Why (solver/play/explain.py, number for number): where optimal play stops with these dice, the next
 * roll's risks, and the distribution of what this turn adds if the mover rolls now and then plays optimally
 * (g = 0 .. h-1, then reaching the target).
 * @param {Game} g @param {number[]} scores @param {number} turn @param {number} dice @param {Values} [v]
 * @returns {Why} */
export function explain(g, scores, turn, dice, v) {
  checkState(g, scores, turn, dice);
  const G = g.target, h = G - scores[0], D = g.dice, W1 = D + 1;
  const vals = v || turnValues(g, scores);
  let stopAt = turn;
  while (stopAt < h && vals.roll[stopAt * W1 + dice]) stopAt++;
  const next = g.moves[dice];
  /** @param {(m: import("./types.js").Move) => boolean} f */
  const sum = (f) => next.reduce((acc, m) => acc + (f(m) ? m.p : 0), 0);
  const nuts = next.find((m) => m.kind === "nuts");
  const nutsDice = nuts ? nuts.x : D;
  const P = new Array(h + 1).fill(0);
  /** @type {Map<number, number>} */
  const mass = new Map();
  /** @param {number} t @param {number} n @param {number} m */
  const roll = (t, n, m) => {
    for (const mv of g.moves[n]) {
      const q = m * mv.p;
      if (mv.kind === "bust") P[0] += q;
      else if (mv.kind === "nuts") {
        const base = g.nutsReplaces ? 0 : t, pay = g.payout[mv.x];
        for (let x = 0; x < pay.length; x++) if (pay[x]) P[Math.min(base + x, h)] += q * pay[x];
      } else if (t + mv.x >= h) P[h] += q;
      else { const k2 = (t + mv.x) * W1 + mv.live; mass.set(k2, (mass.get(k2) || 0) + q); }
    }
  };
  roll(turn, dice, 1);                 // the roll asked about (at or past the target too: it risks the win)
  for (let t = turn; t < h; t++) {
    for (let n = D; n >= 1; n--) {
      const key = t * W1 + n, m = mass.get(key) || 0;
      if (!m) continue;
      mass.delete(key);
      if (!vals.roll[key]) P[t] += m; else roll(t, n, m);
    }
  }
  return { stop_at: stopAt, p_all_cars: sum((m) => m.kind === "bust"), p_all_squirrels: sum((m) => m.kind === "nuts"),
           p_one_die_refill: sum((m) => m.kind === "move" && m.live === D && dice - m.c !== D),
           nuts_mean: g.nutsMean[nutsDice], turn_gain_if_roll: P,
           turn_gain_mean_if_roll: P.reduce((acc, q, k) => acc + k * q, 0) };
}

/** The optimal value vector (turn order from the active player) at a decision state, or at the start of the
 * turn when t = 0 and n = D. @param {Game} g @param {number[]} scores @param {number} turn @param {number} dice
 * @param {Values} [v] */
export function stateValue(g, scores, turn, dice, v) {
  const N = g.players;
  if (scores[0] + turn >= g.target) { const e0 = new Array(N).fill(0); e0[0] = 1; return e0; }
  return vec((v || turnValues(g, scores)).best, (turn * (g.dice + 1) + dice) * N, N);
}
