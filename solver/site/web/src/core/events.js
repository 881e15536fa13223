/* One event of a game record checked against the state, with the record's messages, then applied by the loop.
 * The messages are Python's, as data (solver/play/events.py REFUSALS, the page's data.record.refusals): written
 * once, filled in here as there.
 * Twin: solver/play/events.py (event_value, refusal); fixture: tests/fixtures/records.json. */
import { fail, show } from "./errors.js";
import { isWhole } from "./numbers.js";
import { frame, checkOver, check, step } from "./loop.js";

/** @typedef {import("./types.js").State} State */
/** @typedef {import("./types.js").Context} Context */

export const KINDS = /** @type {const} */ (["roll", "choice", "nuts", "banked"]);

/** One of the record's refusals (events.py refusal), its {names} filled in; "event i: " before it.
 * @param {Context} ctx @param {string} where @param {string} name @param {Record<string, unknown>} [params] @returns {never} */
function refuse(ctx, where, name, params) {
  const p = params || {}, text = ctx.refusals[name];
  if (text === undefined) return fail(`${where}: refused (${name})`);
  return fail(`${where}: ${text.replace(/\{(\w+)\}/g, (all, k) => (k in p ? String(p[k]) : all))}`);
}

/** Check one event against the state and apply it, in place; throws GonutsInputError naming the problem
 * (record.py _event_value, then loop.py step). @param {State} st @param {unknown} given @param {number} i
 * @param {Context} ctx @returns {State} */
export function apply(st, given, i, ctx) {
  const where = `event ${i}`;
  if (given === null || typeof given !== "object" || Array.isArray(given)) refuse(ctx, where, "not_object", { value: show(given) });
  const ev = /** @type {Record<string, any>} */ (given);
  const keys = Object.keys(ev);
  const kinds = KINDS.filter((k) => k in ev);
  const extra = keys.filter((k) => !["seat", "roll", "choice", "nuts", "banked"].includes(k));
  if (kinds.length !== 1 || extra.length) refuse(ctx, where, "fields", { got: keys.sort().join(", ") || "nothing" });
  const kind = kinds[0], value = ev[kind];
  checkOver(st, ctx.G, where);
  if (ev.seat !== st.seat) refuse(ctx, where, "not_mover", { seat: show(ev.seat), mover: st.seat });
  check(st, kind, where);
  if (kind === "banked") {
    if (st.seat === ctx.you && !ctx.table) refuse(ctx, where, "own_turn_banked");
    if (!isWhole(value)) refuse(ctx, where, "banked", { value: show(value) });
    return step(st, ctx, kind, value);
  }
  if (kind === "roll") {
    if (!Array.isArray(value) || value.length !== 3 || !value.every((x) => isWhole(x))) {
      refuse(ctx, where, "roll", { value: show(value) });
    }
    const [a, s, c] = value, n = st.n;
    if (a + s + c !== n) refuse(ctx, where, "dice", { a, s, c, total: a + s + c, n, live: n === 1 ? "die is" : "dice are" });
    return step(st, ctx, kind, ctx.reading.byFaces.get(`${n}:${a}:${s}:${c}`));
  }
  if (kind === "choice") {
    if (value !== "roll" && value !== "stop") refuse(ctx, where, "choice", { value: show(value) });
    st.bySeat[st.seat].push({ event: i, scores: frame(st), turn: st.t, dice: st.n, taken: value });
    return step(st, ctx, kind, value);
  }
  if (!isWhole(value)) refuse(ctx, where, "nuts", { value: show(value) });
  return step(st, ctx, kind, value);
}

