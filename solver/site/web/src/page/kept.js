/* Games the page solved, kept in this browser (IndexedDB), so that the next game at that target starts at once,
 * offline, after a reload or an update: each entry holds its game (players, reading, target, speed), the count of
 * its values' parts and their CRC-32; the parts (at most PART bytes each: Chromium refuses a value over 127 MB,
 * and the 4-player game to 50 has 216 MB) are records of their own, written in the entry's transaction. An entry that is not whole (another shape, another length, another checksum, numbers
 * that are not probabilities) is dropped and the game solved again. The entries share a budget; past it the one
 * used least recently goes first. An entry holds the decisions its equilibrium plays mixed (`mixed`, three lists,
 * checked as core/pagevalues.js add checks a solve's); one kept before it had them is read as having none where
 * no game of its players has any (2 and 3 players: docs/equilibria.md), else dropped and solved again. "Recently" is a counter, never the clock, kept with each game's size and spec in a
 * store of their own ("usage"), so that marking a game used or choosing what to drop never reads any game's values. */
import { crc32 } from "../core/pagevalues.js";
import { data } from "./context.js";

const DB = "gonuts-solved", GAMES = "games", USAGE = "usage", FORMAT = "gonuts-solved-2";
/** The largest part of a game's values kept as one record (solver/site/pagegames.py KEPT_PART). */
const PART = data.solve ? data.solve.part : 2 ** 25;
/** A part's key: after its game's, never a game's own (a key has no "#"). @param {string} key @param {number} i */
const partKey = (key, i) => `${key}#${String(i).padStart(4, "0")}`;
/** How long a database another tab holds open at an older version may keep this one waiting. */
const BLOCKED_MS = 3000;
/** What the kept games may take together (solver/site/pagegames.py KEPT_BUDGET). */
const BUDGET = data.solve ? data.solve.budget : 0;

/** @typedef {{players: number, reading: string, target: number, speed: number}} Spec */
/** @typedef {import("../core/types.js").Mixed} Mixed */
/** @typedef {{key: string, format: string, spec: Spec, bytes: number, parts: number, crc32: number, mixed?: Mixed}} Entry a game kept */
/** @typedef {{key: string, spec: Spec, size: number, used: number}} Usage when a kept game was last used, and its size */

/** @type {Promise<IDBDatabase | null> | null} */
let opening = null;
/** The database, or null where this browser keeps none (then nothing is kept: each game is solved once per visit).
 * Version 1 kept the counter inside each game; its games are let go (solved again when asked). When another tab
 * (an update of the page) opens a newer version, this one closes its connection at once, so that the other is
 * not blocked, and opens it again at the next use. A tab kept waiting by an older one that never closes keeps
 * nothing for this visit after BLOCKED_MS. */
function open() {
  if (!opening) {
    opening = new Promise((resolve) => {
      try {
        const req = indexedDB.open(DB, 2);
        /** @type {ReturnType<typeof setTimeout> | undefined} */
        let waiting;
        let givenUp = false;
        req.onupgradeneeded = () => {
          const db = req.result;
          for (const name of [GAMES, USAGE]) if (db.objectStoreNames.contains(name)) db.deleteObjectStore(name);
          db.createObjectStore(GAMES, { keyPath: "key" });
          db.createObjectStore(USAGE, { keyPath: "key" });
        };
        req.onsuccess = () => {
          const db = req.result;
          if (givenUp) { db.close(); return; }        // given up on: not used
          clearTimeout(waiting);
          db.onversionchange = () => { db.close(); opening = null; };
          resolve(db);
        };
        req.onerror = () => resolve(null);
        req.onblocked = () => { waiting = setTimeout(() => { givenUp = true; resolve(null); }, BLOCKED_MS); };
      } catch (e) { resolve(null); }
    });
  }
  return opening;
}
/** One request's answer, or null when it failed, its transaction included (Chromium says a value too large
 * only to the transaction). @template T @param {IDBRequest<T>} req @returns {Promise<T | null>} */
const answer = (req) => new Promise((resolve) => {
  req.onsuccess = () => resolve(req.result);
  req.onerror = () => resolve(null);
  const tx = req.transaction;
  if (tx) { tx.addEventListener("abort", () => resolve(null)); tx.addEventListener("error", () => resolve(null)); }
});
/** Whether a transaction committed. @param {IDBTransaction} tx @returns {Promise<boolean>} */
const committed = (tx) => new Promise((resolve) => {
  tx.oncomplete = () => resolve(true);
  tx.onabort = () => resolve(false);
  tx.onerror = () => resolve(false);
});
/** @param {IDBDatabase} db @param {string} name @param {IDBTransactionMode} mode */
const store = (db, name, mode) => db.transaction(name, mode).objectStore(name);
/** Every game's usage (small records: no values are read). @param {IDBDatabase} db @returns {Promise<Usage[]>} */
const usages = async (db) => (/** @type {Usage[] | null} */ (await answer(store(db, USAGE, "readonly").getAll())) || []);
/** The counter after every one kept. @param {Usage[]} all */
const nextUse = (all) => Math.max(0, ...all.map((u) => (Number.isFinite(u.used) ? u.used : 0))) + 1;
/** Let a game go: its entry, its parts and its usage. @param {IDBDatabase} db @param {string} key */
async function drop(db, key) {
  const tx = db.transaction([GAMES, USAGE], "readwrite");
  tx.objectStore(GAMES).delete(key);
  tx.objectStore(GAMES).delete(IDBKeyRange.bound(`${key}#`, `${key}#\uffff`));
  tx.objectStore(USAGE).delete(key);
  await committed(tx);
}

/** Whether an entry is the game asked for, in this format. @param {any} e @param {string} key @param {Spec} spec */
function isEntry(e, key, spec) {
  if (!e || typeof e !== "object" || e.key !== key || e.format !== FORMAT) return false;
  const s = e.spec;
  // a game kept before the reading had its name says "rules"
  if (!s || s.players !== spec.players || (s.reading !== undefined ? s.reading : s.rules) !== spec.reading || s.target !== spec.target ||
      s.speed !== spec.speed) return false;
  const n = 8 * spec.target ** spec.players * spec.players;
  if (e.mixed === undefined && spec.players > 3) return false;        // kept before its mixed decisions were
  return e.bytes === n && e.parts === Math.ceil(n / PART) && Number.isInteger(e.crc32);
}
/** Whether a game's values are whole: their checksum, and each state's seats probabilities that sum to 1.
 * @param {ArrayBuffer} values @param {number} crc @param {number} N */
function whole(values, crc, N) {
  if (crc32(new Uint8Array(values)) !== crc) return false;
  const v = new Float64Array(values);
  for (let i = 0; i < v.length; i += N) {
    let sum = 0;
    for (let j = 0; j < N; j++) { const x = v[i + j]; if (!(x >= 0 && x <= 1)) return false; sum += x; }
    if (Math.abs(sum - 1) > 1e-9) return false;
  }
  return true;
}

/** A kept game's values and mixed decisions, or null (none kept, or one that is not whole: then it is dropped;
 * its mixed decisions are checked when the game is added).
 * @param {string} key @param {Spec} spec @returns {Promise<{values: Float64Array, mixed: Mixed | undefined} | null>} */
export async function read(key, spec) {
  const db = await open();
  if (!db) return null;
  try {
    const e = await answer(store(db, GAMES, "readonly").get(key));
    if (!e) return null;
    if (!isEntry(e, key, spec)) { await drop(db, key); return null; }
    const values = new Uint8Array(e.bytes);
    const games = store(db, GAMES, "readonly");
    const parts = await Promise.all(Array.from({ length: e.parts }, (_, i) => answer(games.get(partKey(key, i)))));
    for (let i = 0; i < e.parts; i++) {
      const part = /** @type {any} */ (parts[i]), at = i * PART, size = Math.min(PART, e.bytes - at);
      if (!part || !(part.values instanceof ArrayBuffer) || part.values.byteLength !== size) { await drop(db, key); return null; }
      values.set(new Uint8Array(part.values), at);
    }
    if (!whole(values.buffer, e.crc32, spec.players)) { await drop(db, key); return null; }
    const used = nextUse(await usages(db));
    await answer(store(db, USAGE, "readwrite").put({ key, spec: e.spec, size: e.bytes, used }));
    return { values: new Float64Array(values.buffer), mixed: e.mixed };      // none: core.add reads it as none
  } catch (err) { return null; }
}

/** Keep a game's values and mixed decisions; the least recently used games go first when the budget is passed. Returns the specs
 * of the games dropped for it, and whether it was kept (a browser that keeps nothing, or a full disk: not kept;
 * nothing of it stays).
 * @param {string} key @param {Spec} spec @param {Float64Array} values @param {Mixed} mixed
 * @returns {Promise<{kept: boolean, dropped: Spec[]}>} */
export async function write(key, spec, values, mixed) {
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
    await drop(db, key);                            // an older copy's parts
    const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength), parts = Math.ceil(bytes.length / PART);
    const tx = db.transaction([GAMES, USAGE], "readwrite"), games = tx.objectStore(GAMES);
    /** @type {Entry} */
    const entry = { key, format: FORMAT, spec: { ...spec }, bytes: bytes.length, parts, crc32: crc32(bytes),
                    mixed: { state: [...mixed.state], decision: [...mixed.decision], roll: [...mixed.roll] } };
    games.put(entry);
    for (let i = 0; i < parts; i++) games.put({ key: partKey(key, i), values: bytes.slice(i * PART, (i + 1) * PART).buffer });
    tx.objectStore(USAGE).put({ key, spec: { ...spec }, size: bytes.length, used: nextUse(all) });
    const kept = await committed(tx);
    return { kept, dropped };
  } catch (err) { return { kept: false, dropped }; }
}

/** The games kept, for window.gonuts and the tests: [{key, spec, bytes, used}]. */
export async function list() {
  const db = await open();
  if (!db) return [];
  return (await usages(db)).map((u) => ({ key: u.key, spec: u.spec, bytes: u.size, used: u.used }));
}
