/* The table games set aside (the 50 most recent, newest first): read from storage once and kept in memory,
 * each with its one-line summary beside it (scores, winner), so that drawing the list never replays a game. */
import { core } from "../../page/context.js";
import { store, storageKey } from "../../page/storage.js";

/** @typedef {import("../../core/types.js").GameRecord} GameRecord */
/** @typedef {import("../../core/types.js").State} State */
/** @typedef {{started: string, events: number, scores: number[], winner: number | null, over: boolean} | null} Line */

export const TABLE_KEY = storageKey("gonuts.table.v1");
export const RECENT_KEY = `${TABLE_KEY}.recent`;
const LINES_KEY = `${RECENT_KEY}.lines`;
export const RECENT_MAX = 50;

/** @type {{list: GameRecord[], lines: Line[]} | null} */
let cache = null;

/** A game's summary, from its state (or a replay when none is given); null when it does not replay.
 * @param {GameRecord} r @param {State} [st] @returns {Line} */
function lineOf(r, st) {
  try {
    const s = st || core.replay(r);
    return { started: typeof r.started === "string" ? r.started : "", events: r.events.length, scores: s.scores.slice(),
             winner: s.winner, over: s.phase === "over" };
  } catch (e) { return null; }
}
/** @param {GameRecord} r @param {Line | undefined} line */
const fits = (r, line) => !!line && line.events === r.events.length && line.started === (typeof r.started === "string" ? r.started : "");

function load() {
  /** @type {any} */
  let list;
  /** @type {any} */
  let lines;
  try { list = JSON.parse(localStorage.getItem(RECENT_KEY) || "[]"); } catch (e) { list = []; }
  if (!Array.isArray(list)) list = [];
  try { lines = JSON.parse(localStorage.getItem(LINES_KEY) || "[]"); } catch (e) { lines = []; }
  if (!Array.isArray(lines)) lines = [];
  let stale = false;
  const good = list.map((/** @type {any} */ r, /** @type {number} */ i) => {
    if (r && typeof r === "object" && Array.isArray(r.events) && fits(r, lines[i])) return lines[i];
    stale = true;
    return r && typeof r === "object" && Array.isArray(r.events) ? lineOf(r) : null;
  });
  cache = { list, lines: good };
  if (stale && list.length) { try { localStorage.setItem(LINES_KEY, JSON.stringify(good)); } catch (e) { /* lines are a cache */ } }
  return cache;
}
window.addEventListener("storage", (e) => { if (e.key === RECENT_KEY || e.key === null) cache = null; });

/** The games set aside, newest first. @returns {GameRecord[]} */
export const recent = () => (cache || load()).list;
/** Their summaries, in the same order. @returns {Line[]} */
export const lines = () => (cache || load()).lines;

/** Keep a list, or nothing (storage full): no game is ever dropped to make room, and the caller keeps the game it
 * was setting aside on screen. Returns whether it was kept. @param {GameRecord[]} list @param {Line[]} ls */
function save(list, ls) {
  if (!store.set(RECENT_KEY, list, { quiet: true })) return false;
  try { localStorage.setItem(LINES_KEY, JSON.stringify(ls)); } catch (e) { /* a cache: rebuilt when read */ }
  cache = { list, lines: ls };
  return true;
}
/** Put a game at the top of the list (a new game never discards the running one). Returns whether it is kept
 * there (false: storage is full, and nothing changed). @param {GameRecord | null} record @param {State | null} [st] */
export function setAside(record, st) {
  if (!record || !record.events.length) return true;
  const c = cache || load();
  return save([record, ...c.list].slice(0, RECENT_MAX), [lineOf(record, st || undefined), ...c.lines].slice(0, RECENT_MAX));
}
/** Take game i out of the list, putting `instead` (the running game) at its top. Returns whether it was done
 * (false: storage is full, and nothing changed). @param {number} i @param {GameRecord | null} instead @param {State | null} st */
export function takeOut(i, instead, st) {
  const c = cache || load();
  const list = c.list.slice(), ls = c.lines.slice();
  list.splice(i, 1); ls.splice(i, 1);
  if (instead && instead.events.length) { list.unshift(instead); ls.unshift(lineOf(instead, st || undefined)); }
  return save(list.slice(0, RECENT_MAX), ls.slice(0, RECENT_MAX));
}
