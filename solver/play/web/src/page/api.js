/* window.gonuts, the page's scriptable face: it answers at once when the game is ready (2 and 3 players in the
 * single file), and with a Promise of the same answer when its data must be loaded first (4 players: decoded on
 * first use; the site's data files), so that `await gonuts.advise(...)` works for every game. */
import { data, core } from "./context.js";
import { fetchBytes, recordOf } from "./games.js";
import { sameName, csvCell } from "./names.js";

/** @template {any[]} A @template R @param {(...args: A) => R} fn @param {(...args: A) => [number, string]} gameOf
 * @returns {(...args: A) => R | Promise<R>} */
const onceLoaded = (fn, gameOf) => (...args) => {
  /** @type {[number, string] | null} */
  let key = null;
  try { key = gameOf(...args); } catch (e) { /* a malformed query: fn gives the message */ }
  const known = key && Number.isInteger(key[0]) && typeof key[1] === "string" && core.games().includes(`${key[0]}-${key[1]}`);
  if (!key || !known || core.loaded(key[0], key[1])) return fn(...args);
  const [p, r] = key;
  return core.load(p, r, fetchBytes).then(() => fn(...args));
};
/** @param {any} q @returns {[number, string]} */
const ofQuery = (q) => [q.scores.length, q.rules === undefined ? "rulebook" : q.rules];
/** @param {any} r @returns {[number, string]} */
const ofRecord = (r) => [r.players, r.rules];

export function publish() {
  /** @type {any} */ (window).gonuts = Object.freeze({
    version: data.package_version,
    games: core.games(),
    advise: onceLoaded(core.advise, ofQuery),
    explain: onceLoaded(core.explain, ofQuery),
    review: onceLoaded((/** @type {any} */ record, /** @type {number | undefined} */ seat) => core.review(record, seat),
                       (/** @type {any} */ r) => ofRecord(r)),
    /** @param {any} record */
    replay: (record) => core.replay(record),
    practice: onceLoaded(core.practice, (q) => [q.players === undefined ? 2 : q.players, q.rules === undefined ? "rulebook" : q.rules]),
    luck: onceLoaded(core.luck, ofRecord),
    /** @param {unknown} spec @param {any} [opts] */
    policy: (spec, opts) => core.policyName(spec, opts),
    /** @param {number} players @param {string} [rules] */
    load: (players, rules) => core.load(players, rules === undefined ? "rulebook" : rules, fetchBytes).then(() => true),
    loaded: core.loaded,
    /** @param {string} mode */
    record: (mode) => JSON.parse(JSON.stringify(recordOf(["coach", "table", "recent"].includes(mode) ? mode : "play"))),
    /** The page's own helpers that scripts and tests may check: a name comparison, a CSV field. */
    text: Object.freeze({ sameName, csvCell }),
    core,
  });
}
