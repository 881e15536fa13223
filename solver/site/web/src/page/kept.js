/* Games the page solved, kept in this browser (IndexedDB), so that the next game at that target starts at once,
 * offline, after a reload or an update: each entry holds its game (players, reading, target, speed), its values'
 * bytes and their CRC-32. An entry that is not whole (another shape, another length, another checksum, numbers
 * that are not probabilities) is dropped and the game solved again. The entries share a budget; past it the one
 * used least recently goes first. "Recently" is a counter, never the clock, kept with each game's size and spec in a
 * store of their own ("usage"), so that marking a game used or choosing what to drop never reads any game's values. */
import { crc32 } from "../core/pagevalues.js";
import { data } from "./context.js";

const DB = "gonuts-solved", GAMES = "games", USAGE = "usage", FORMAT = "gonuts-solved-1";
/** What the kept games may take together (solver/site/pagegames.py KEPT_BUDGET). */
const BUDGET = data.solve ? data.solve.budget : 0;

/** @typedef {{players: number, reading: string, target: number, speed: number}} Spec */
/** @typedef {{key: string, format: string, spec: Spec, values: ArrayBuffer, crc32: number}} Entry a game kept */
/** @typedef {{key: string, spec: Spec, size: number, used: number}} Usage when a kept game was last used, and its size */

/** @type {Promise<IDBDatabase | null> | null} */
let opening = null;
/** The database, or null where this browser keeps none (then nothing is kept: each game is solved once per visit).
 * Version 1 kept the counter inside each game; its games are let go (solved again when asked). */
function open() {
  if (!opening) {
    opening = new Promise((resolve) => {
      try {
        const req = indexedDB.open(DB, 2);
        req.onupgradeneeded = () => {
          const db = req.result;
          for (const name of [GAMES, USAGE]) if (db.objectStoreNames.contains(name)) db.deleteObjectStore(name);
          db.createObjectStore(GAMES, { keyPath: "key" });
          db.createObjectStore(USAGE, { keyPath: "key" });
        };
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => resolve(null);
        req.onblocked = () => resolve(null);
      } catch (e) { resolve(null); }
    });
  }
  return opening;
}
/** One request's answer (or null when it failed). @template T @param {IDBRequest<T>} req @returns {Promise<T | null>} */
const answer = (req) => new Promise((resolve) => { req.onsuccess = () => resolve(req.result); req.onerror = () => resolve(null); });
/** @param {IDBDatabase} db @param {string} name @param {IDBTransactionMode} mode */
const store = (db, name, mode) => db.transaction(name, mode).objectStore(name);
/** Every game's usage (small records: no values are read). @param {IDBDatabase} db @returns {Promise<Usage[]>} */
const usages = async (db) => (/** @type {Usage[] | null} */ (await answer(store(db, USAGE, "readonly").getAll())) || []);
/** The counter after every one kept. @param {Usage[]} all */
const nextUse = (all) => Math.max(0, ...all.map((u) => (Number.isFinite(u.used) ? u.used : 0))) + 1;
/** Let a game go, its values and its usage. @param {IDBDatabase} db @param {string} key */
async function drop(db, key) {
  await answer(store(db, GAMES, "readwrite").delete(key));
  await answer(store(db, USAGE, "readwrite").delete(key));
}

/** Whether an entry is whole and is the game asked for. @param {any} e @param {string} key @param {Spec} spec */
function whole(e, key, spec) {
  if (!e || typeof e !== "object" || e.key !== key || e.format !== FORMAT || !(e.values instanceof ArrayBuffer)) return false;
  const s = e.spec;
  // a game kept before the reading had its name says "rules"
  if (!s || s.players !== spec.players || (s.reading !== undefined ? s.reading : s.rules) !== spec.reading || s.target !== spec.target ||
      s.speed !== spec.speed) return false;
  const N = spec.players, n = spec.target ** N * N;
  if (e.values.byteLength !== 8 * n || crc32(new Uint8Array(e.values)) !== e.crc32) return false;
  const v = new Float64Array(e.values);
  for (let i = 0; i < n; i += N) {               // each state's seats: probabilities that sum to 1
    let sum = 0;
    for (let j = 0; j < N; j++) { const x = v[i + j]; if (!(x >= 0 && x <= 1)) return false; sum += x; }
    if (Math.abs(sum - 1) > 1e-9) return false;
  }
  return true;
}

/** A kept game's values, or null (none kept, or one that is not whole: then it is dropped).
 * @param {string} key @param {Spec} spec @returns {Promise<Float64Array | null>} */
export async function read(key, spec) {
  const db = await open();
  if (!db) return null;
  try {
    const e = await answer(store(db, GAMES, "readonly").get(key));
    if (!e) return null;
    if (!whole(e, key, spec)) { await drop(db, key); return null; }
    const used = nextUse(await usages(db));
    await answer(store(db, USAGE, "readwrite").put({ key, spec: e.spec, size: e.values.byteLength, used }));
    return new Float64Array(e.values);
  } catch (err) { return null; }
}

/** Keep a game's values; the least recently used games go first when the budget is passed. Returns the specs
 * of the games dropped for it, and whether it was kept (a browser that keeps nothing, or a full disk: not kept).
 * @param {string} key @param {Spec} spec @param {Float64Array} values @returns {Promise<{kept: boolean, dropped: Spec[]}>} */
export async function write(key, spec, values) {
  const db = await open();
  /** @type {Spec[]} */
  const dropped = [];
  if (!db || values.byteLength > BUDGET) return { kept: false, dropped };
  try {
    const all = (await usages(db)).filter((u) => u && u.key !== key);
    const size = (/** @type {Usage} */ u) => (Number.isFinite(u.size) ? u.size : 0);
    let taken = values.byteLength + all.reduce((a, u) => a + size(u), 0);
    for (const u of [...all].sort((a, b) => (Number(a.used) || 0) - (Number(b.used) || 0))) {
      if (taken <= BUDGET) break;
      await drop(db, u.key);
      taken -= size(u);
      if (u.spec) dropped.push(u.spec);
    }
    const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength).slice().buffer;
    /** @type {Entry} */
    const entry = { key, format: FORMAT, spec: { ...spec }, values: bytes, crc32: crc32(new Uint8Array(bytes)) };
    const ok = await answer(store(db, GAMES, "readwrite").put(entry));
    if (ok !== null) await answer(store(db, USAGE, "readwrite").put({ key, spec: { ...spec }, size: bytes.byteLength, used: nextUse(all) }));
    return { kept: ok !== null, dropped };
  } catch (err) { return { kept: false, dropped }; }
}

/** The games kept, for window.gonuts and the tests: [{key, spec, bytes, used}]. */
export async function list() {
  const db = await open();
  if (!db) return [];
  return (await usages(db)).map((u) => ({ key: u.key, spec: u.spec, bytes: u.size, used: u.used }));
}
