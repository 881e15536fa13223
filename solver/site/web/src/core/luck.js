/* Luck against skill: every seat's change in win probability over a record, split by what moved it. W(state)
 * is the start-of-turn value at a turn's start, the optimal action's value at a decision, rolling's value once
 * rolling is chosen, a Go Nuts! round's expectation before its acorns, and 1 or 0 at the end; each event's
 * W(after) - W(before) counts as luck (a roll, a round's acorns), own or others' decisions (a choice, by the
 * seat that made it) or banked turns. One pass serves every seat.
 * Twin: solver/play/luck.py (split, Values); fixture: tests/fixtures/luck.json. */
import { newGame, frame } from "./loop.js";
import { apply, KINDS } from "./events.js";
import { flat, vec } from "./backup.js";

/** @typedef {import("./types.js").GameRecord} GameRecord */
/** @typedef {import("./types.js").Context} Context */
/** @typedef {import("./types.js").Game} Game */
/** @typedef {import("./types.js").State} State */
/** @typedef {import("./types.js").Split} Split */
/** @typedef {import("./types.js").ValuesAt} ValuesAt */

/** Every seat's split (seat order) of a record that replays. @param {GameRecord} record @param {Context} ctx
 * @param {Game} g @param {ValuesAt} valuesAt @returns {Split[]} */
export function split(record, ctx, g, valuesAt) {
  const N = ctx.N, W1 = g.dice + 1;
  /** @param {number[]} v @param {number} seat */
  const seatOrder = (v, seat) => Array.from({ length: N }, (_, k) => v[(k - seat + N) % N]);
  /** @param {State} st @returns {number[]} */
  function value(st) {
    if (st.phase === "over") return Array.from({ length: N }, (_, k) => (k === st.winner ? 1 : 0));
    const f = frame(st);
    if (st.phase === "start") {
      const i = flat(g, f);
      return seatOrder(Array.from({ length: N }, (_, j) => g.w(i, j)), st.seat);
    }
    const v = valuesAt(f);
    if (st.phase === "nuts") {
      const pay = g.payout[/** @type {number} */ (st.nutsDice)], base = g.nutsReplaces ? 0 : st.t, out = new Array(N).fill(0);
      for (let x = 0; x < pay.length; x++) { const p = pay[x]; if (p) for (let k = 0; k < N; k++) out[k] += p * v.C[base + x][k]; }
      return seatOrder(out, st.seat);
    }
    return seatOrder(vec(st.phase === "roll" ? v.rollV : v.best, (st.t * W1 + st.n) * N, N), st.seat);
  }
  const parts = Array.from({ length: N }, () => ({ luck: 0, own_decisions: 0, others_decisions: 0, banked_turns: 0 }));
  const st = newGame(N, ctx.D);
  const first = value(st);
  let before = first;
  record.events.forEach((ev, i) => {
    const mover = st.seat, kind = KINDS.find((k) => k in ev);
    apply(st, ev, i, ctx);
    const after = value(st);
    for (let k = 0; k < N; k++) {
      const part = kind === "banked" ? "banked_turns" : kind === "choice" ? (k === mover ? "own_decisions" : "others_decisions") : "luck";
      parts[k][part] += after[k] - before[k];
    }
    before = after;
  });
  return parts.map((p, k) => Object.assign({ start: first[k], end: before[k] }, p));
}
