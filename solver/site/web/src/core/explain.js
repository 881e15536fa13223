/* Why: where optimal play stops with these dice, the next roll's risks, and what this turn adds if the mover
 * rolls now and then plays optimally, number for number as Python says it.
 * Twin: solver/play/explain.py (explain, turn_gain); fixture: tests/fixtures/advice.json. */
import { checkState } from "./advise.js";
import { turnValues } from "./backup.js";

/** @typedef {import("./types.js").Game} Game */
/** @typedef {import("./types.js").Values} Values */
/** @typedef {import("./types.js").Why} Why */

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
