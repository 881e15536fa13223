/* One event of a game record checked against the state, with the record's messages, then applied by the loop.
 * Twin: solver/play/events.py (event_value); fixture: tests/fixtures/records.json. */
import { fail, show } from "./errors.js";
import { isWhole } from "./numbers.js";
import { frame, checkOver, check, step } from "./loop.js";

/** @typedef {import("./types.js").State} State */
/** @typedef {import("./types.js").Context} Context */

export const KINDS = /** @type {const} */ (["roll", "choice", "nuts", "banked"]);

/** Check one event against the state and apply it, in place; throws GonutsInputError naming the problem
 * (record.py _event_value, then loop.py step). @param {State} st @param {unknown} given @param {number} i
 * @param {Context} ctx @returns {State} */
export function apply(st, given, i, ctx) {
  const where = `event ${i}`;
  if (given === null || typeof given !== "object" || Array.isArray(given)) fail(`${where}: must be an object, not ${show(given)}`);
  const ev = /** @type {Record<string, any>} */ (given);
  const keys = Object.keys(ev);
  const kinds = KINDS.filter((k) => k in ev);
  const extra = keys.filter((k) => !["seat", "roll", "choice", "nuts", "banked"].includes(k));
  if (kinds.length !== 1 || extra.length) fail(`${where}: needs "seat" and exactly one of roll, choice, nuts, banked (got ${keys.sort().join(", ") || "nothing"})`);
  const kind = kinds[0], value = ev[kind];
  checkOver(st, ctx.G, where);
  if (ev.seat !== st.seat) fail(`${where}: seat ${show(ev.seat)} is not the player to move (seat ${st.seat} is)`);
  check(st, kind, where);
  if (kind === "banked") {
    if (st.seat === ctx.you && !ctx.table) fail(`${where}: your own turns are entered roll by roll, not as a banked total`);
    if (!isWhole(value)) fail(`${where}: banked points must be a whole number of 0 or more, not ${show(value)}`);
    return step(st, ctx, kind, value);
  }
  if (kind === "roll") {
    if (!Array.isArray(value) || value.length !== 3 || !value.every((x) => isWhole(x))) {
      fail(`${where}: a roll is [acorns, squirrels, cars], three whole numbers of 0 or more, not ${show(value)}`);
    }
    const [a, s, c] = value, n = st.n;
    if (a + s + c !== n) fail(`${where}: ${a}+${s}+${c} = ${a + s + c} dice, but ${n} ${n === 1 ? "die is" : "dice are"} live`);
    return step(st, ctx, kind, ctx.reading.byFaces.get(`${n}:${a}:${s}:${c}`));
  }
  if (kind === "choice") {
    if (value !== "roll" && value !== "stop") fail(`${where}: a choice is "roll" or "stop", not ${show(value)}`);
    st.bySeat[st.seat].push({ event: i, scores: frame(st), turn: st.t, dice: st.n, taken: value });
    return step(st, ctx, kind, value);
  }
  if (!isWhole(value)) fail(`${where}: the acorns of a Go Nuts! round are a whole number of 0 or more, not ${show(value)}`);
  return step(st, ctx, kind, value);
}

