/* Game records (format gonuts-game): the header's checks, each event's checks and their messages, a record
 * replayed through the game loop, a record file's bytes, and a seat's review.
 * Twin: solver/play/record.py (reading_of, rules_of, replay, parse_bytes, nesting, review);
 * fixtures: tests/fixtures/records.json, record_files.json, luck.json. */
import { fail, show, GonutsInputError } from "./errors.js";
import { isWhole } from "./numbers.js";
import { newGame, noteOf } from "./loop.js";
import { apply } from "./events.js";
import { memoValues } from "./backup.js";
import { advise } from "./advise.js";
import { split } from "./luck.js";

/** @typedef {import("./types.js").GameRecord} GameRecord */
/** @typedef {import("./types.js").GameEvent} GameEvent */
/** @typedef {import("./types.js").State} State */
/** @typedef {import("./types.js").Context} Context */
/** @typedef {import("./types.js").Game} Game */
/** @typedef {import("./types.js").Reading} Reading */
/** @typedef {import("./types.js").Split} Split */
/** @typedef {import("./types.js").ValuesAt} ValuesAt */
/** @typedef {{format: string, version: number, default_target: number, target: number, max_events: number,
 *   max_bytes: number, max_depth: number, names: {max: number, marks: number}, refusals?: Record<string, string>}} RecordRules
 * the page's data.record */
/** @typedef {{event: number, scores: number[], turn: number, dice: number, taken: string, optimal: string | null,
 *   win_if_roll: number | null, win_if_stop: number | null, loss_points: number, roll_probability?: number,
 *   players_if_roll?: number[] | null, players_if_stop?: number[] | null}} Reviewed
 * (optimal "either" where the equilibrium mixes: no cost, its probability of rolling and every seat's chances) */
/** @typedef {Split & {reading: string, players: number, target: number, you: number, seat: number, scores: number[],
 *   winner: number | null, events: number, decisions: Reviewed[], total_loss_points: number, costliest: number[]}} Review */

/** A record's reading: "reading", or in a record written before it had that name, "rules"; a record with both is
 * refused (record.py reading_of). @param {any} record @returns {unknown} */
export function readingOf(record) {
  if ("reading" in record && "rules" in record) fail('a game record names its reading once: "reading" (older records: "rules"), not both');
  return record.reading !== undefined ? record.reading : record.rules;
}

/** The record's players and target, after every header check (record.py rules_of).
 * @param {any} record @param {RecordRules} R @returns {{N: number, G: number}} */
export function header(record, R) {
  if (record === null || typeof record !== "object" || Array.isArray(record)) fail("a game record must be a JSON object");
  if (record.format !== R.format) fail(`not a game record: "format" must be "${R.format}"`);
  if (record.version !== R.version) fail(`unknown record version ${show(record.version)} (this version reads ${R.version})`);
  const reading = readingOf(record);
  if (reading !== "rulebook" && reading !== "summary") fail(`"reading" must be one of rulebook, summary, not ${show(reading)}`);
  const N = record.players;
  if (!isWhole(N) || N < 2 || N > 4) fail(`"players" must be 2, 3 or 4, not ${show(N)}`);
  const G = record.target === undefined ? R.default_target : record.target;
  if (!isWhole(G, 1)) fail(`"target" must be a whole number of at least 1, not ${show(G)}`);
  const V = record.speed === undefined ? 1 : record.speed;
  if (typeof V !== "number" || !(V > 0 && V <= 100)) fail(`"speed" must be a number above 0 and at most 100 (throws per tick), not ${show(V)}`);
  if (!isWhole(record.you) || record.you >= N) fail(`"you" must be a seat from 0 to ${N - 1}, not ${show(record.you)}`);
  if (!Array.isArray(record.events)) fail('"events" must be a list');
  const most = R.max_events;
  if (record.events.length > most) fail(`a game record holds at most ${most.toLocaleString("en")} events, not ${record.events.length.toLocaleString("en")}`);
  // a sparse list (only a script can make one): a hole is refused as null is, never skipped
  for (let i = 0; i < record.events.length; i++) if (!(i in record.events)) fail(`event ${i}: must be an object, not a hole in the list`);
  return { N, G };
}

/** A record's setup, from its header: the rules come from the data of its reading; no table is needed.
 * @param {GameRecord} record @param {RecordRules} R @param {(name: string) => Reading} reading @returns {Context} */
export function context(record, R, reading) {
  const { N, G } = header(record, R);
  const r = reading(/** @type {string} */ (readingOf(record)));
  return { N, G, D: r.dice, reading: r, you: record.you, table: record.mode === "table", refusals: R.refusals || {} };
}

/** The state after every event of the record; throws on the first impossible one.
 * @param {GameRecord} record @param {Context} ctx @returns {State} */
export function replay(record, ctx) {
  const st = newGame(ctx.N, ctx.D);
  record.events.forEach((ev, i) => apply(st, ev, i, ctx));
  st.decisions = st.bySeat[ctx.you];
  return st;
}

/** What each event did that the rules decide (loop.js noteOf), null where nothing: one replay.
 * @param {GameRecord} record @param {Context} ctx @returns {(import("./types.js").Note | null)[]} */
export function notes(record, ctx) {
  const st = newGame(ctx.N, ctx.D);
  return record.events.map((ev, i) => {
    const was = { seat: st.seat, t: st.t, n: st.n };
    apply(st, ev, i, ctx);
    return ev.roll ? noteOf(was, st, ctx, ev.roll) : null;
  });
}

/** Where a record leaves the game, in the form of record.py's Replay.state(). @param {State} st */
export function replayState(st) {
  return { scores: st.scores, winner: st.winner, seat: st.seat, turn: st.t, dice: st.n, phase: st.phase,
           nuts_dice: st.nutsDice, events: st.events,
           decisions: (st.decisions || []).map((d) => ({ event: d.event, scores: d.scores, turn: d.turn, dice: d.dice, taken: d.taken })) };
}

/** An event's refusal as a person reads it: the message without its "event N: ". @param {unknown} e */
export function refusal(e) {
  if (e instanceof GonutsInputError) return e.message.replace(/^event \d+: /, "");
  throw e;
}

/* A record file's bytes -> its JSON (record.py parse_bytes; tests/fixtures/record_files.json): UTF-8 with or
 * without a byte-order mark, anything else refused by name; bounded size and nesting. */
/** @type {[number[], string][]} */
const BOMS = [[[0xFF, 0xFE, 0, 0], "UTF-32 (little-endian)"], [[0, 0, 0xFE, 0xFF], "UTF-32 (big-endian)"],
              [[0xFF, 0xFE], "UTF-16 (little-endian)"], [[0xFE, 0xFF], "UTF-16 (big-endian)"]];
/** The deepest nesting of brackets in a JSON text. @param {string} text */
export function nesting(text) {
  let depth = 0, deepest = 0, inside = false, escaped = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inside) {
      if (escaped) escaped = false;
      else if (ch === "\\") escaped = true;
      else if (ch === '"') inside = false;
    } else if (ch === '"') inside = true;
    else if (ch === "[" || ch === "{") { depth++; if (depth > deepest) deepest = depth; }
    else if (ch === "]" || ch === "}") depth--;
  }
  return deepest;
}
/** @param {Uint8Array} bytes @param {string} name @param {RecordRules} R @returns {any} */
export function parseBytes(bytes, name, R) {
  if (bytes.length > R.max_bytes) fail(`${name} is ${bytes.length.toLocaleString("en")} bytes; a game record is at most ${R.max_bytes.toLocaleString("en")}`);
  for (const [bom, encoding] of BOMS) {
    if (bom.every((b, i) => bytes[i] === b)) fail(`${name} is ${encoding} text, not UTF-8: save it as UTF-8`);
  }
  let text = "";
  try { text = new TextDecoder("utf-8", { fatal: true }).decode(bytes); } catch (e) { fail(`${name} is not UTF-8 text`); }
  if (nesting(text) > R.max_depth) fail(`${name} nests deeper than ${R.max_depth} levels; a game record needs 4`);
  try { return JSON.parse(text); } catch (e) { return fail(`${name} is not JSON`); }
}

/** Every decision of one seat against the optimal one, and the seat's luck split: the numbers of
 * `gonuts-solve review --seat K --json` (record.py review). `splits` (every seat's, from luck.split) and
 * `valuesAt` (the game's remembered backups) are shared when a caller reviews several seats.
 * @param {GameRecord} record @param {Context} ctx @param {Game} g @param {State} st @param {number} who
 * @param {ValuesAt} [valuesAt] @param {Split[]} [splits] @returns {Review} */
export function review(record, ctx, g, st, who, valuesAt, splits) {
  if (!Number.isInteger(who) || who < 0 || who >= ctx.N) fail(`seat ${show(who)} does not exist with ${ctx.N} players (0 to ${ctx.N - 1})`);
  const at = valuesAt || memoValues(g);
  const decisions = st.bySeat[who].map((d) => {
    const a = d.scores[0] + d.turn >= g.target ? advise(g, d.scores, d.turn, d.dice) : advise(g, d.scores, d.turn, d.dice, at(d.scores));
    const roll = /** @type {number} */ (a.win_if_roll), stop = /** @type {number} */ (a.win_if_stop);
    if (a.reason === "mixed") {              // both actions give the mover the same chance: no cost
      return { event: d.event, scores: d.scores, turn: d.turn, dice: d.dice, taken: d.taken, optimal: "either",
               win_if_roll: a.win_if_roll, win_if_stop: a.win_if_stop, loss_points: 0, roll_probability: a.roll_probability,
               players_if_roll: a.players_if_roll, players_if_stop: a.players_if_stop };
    }
    const best = Math.max(roll, stop);
    const took = d.taken === "roll" ? roll : stop;
    return { event: d.event, scores: d.scores, turn: d.turn, dice: d.dice, taken: d.taken, optimal: a.action,
             win_if_roll: a.win_if_roll, win_if_stop: a.win_if_stop, loss_points: 100 * (best - took) };
  });
  const ranked = decisions.slice().sort((x, y) => (y.loss_points - x.loss_points) || (x.event - y.event));
  const luck = (splits || split(record, ctx, g, at))[who];
  return { reading: ctx.reading.name, players: ctx.N, target: ctx.G, you: record.you, seat: who, scores: st.scores,
           winner: st.winner, events: st.events, decisions,
           total_loss_points: decisions.reduce((acc, d) => acc + d.loss_points, 0),
           costliest: ranked.slice(0, 3).filter((d) => d.loss_points > 0).map((d) => d.event),
           ...luck };
}
