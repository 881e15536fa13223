/* window.gonuts, the page's scriptable face: it answers at once when the game is ready (2 and 3 players in the
 * single file), and with a Promise of the same answer when its data must be loaded first (4 players: decoded on
 * first use; the site's data files) or the game solved first (another target or speed: read from this browser's
 * kept games, else solved in a worker), so that `await gonuts.advise(...)` works for every game. */
import { data, core } from "./context.js";
import { readingOf, recordOf } from "./gametab.js";
import { fetchBytes } from "./dom.js";
import { solved, keptGames, lastSolve } from "./solving.js";
import { sameName, csvCell } from "./names.js";

/** The game a call asks about: [players, reading, target, speed]. @typedef {[number, string, number | undefined, number | undefined]} Asked */
/** @template {any[]} A @template R @param {(...args: A) => R} fn @param {(...args: A) => Asked} gameOf
 * @returns {(...args: A) => R | Promise<R>} */
const onceLoaded = (fn, gameOf) => (...args) => {
  /** @type {Asked | null} */
  let key = null;
  try { key = gameOf(...args); } catch (e) { /* a malformed query: fn gives the message */ }
  const known = key && Number.isInteger(key[0]) && typeof key[1] === "string" && (key[2] === undefined || Number.isInteger(key[2])) &&
    (key[3] === undefined || typeof key[3] === "number") && core.offered(key[0], key[1], key[2], key[3]);
  if (!key || !known || core.loaded(...key)) return fn(...args);
  return ensure(key).then(() => fn(...args));
};
/** Make a game usable: load an embedded one; read a kept one or solve one (no panel: the caller asked).
 * @param {Asked} key @param {(p: {done: number, total: number}) => void} [onProgress] */
function ensure(key, onProgress) {
  const [p, r, g, v] = key;
  if (core.games().includes(core.key(p, r, g, v))) return core.load(p, r, fetchBytes).then(() => undefined);
  return solved({ players: p, reading: r, target: g, speed: v }, { onProgress });
}
/** @param {any} q @returns {Asked} */
const ofQuery = (q) => [q.scores.length, core.readingIn(q), q.target, q.speed];
/** @param {any} r @returns {Asked} */
const ofRecord = (r) => [r.players, readingOf(r), r.target === undefined ? data.record.default_target : r.target, r.speed];

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
    practice: onceLoaded(core.practice, (q) => [q.players === undefined ? 2 : q.players, core.readingIn(q), q.target, q.speed]),
    luck: onceLoaded(core.luck, ofRecord),
    /** @param {unknown} spec @param {any} [opts] */
    policy: (spec, opts) => core.policyName(spec, opts),
    /** Solve a game ahead (or find it embedded or kept): resolves to true once it answers at once.
     * @param {any} q {players = 2, reading = "rulebook", target, speed = 1} @param {(p: {done: number, total: number}) => void} [onProgress] */
    solve: (q, onProgress) => Promise.resolve().then(() => {
      if (q === null || typeof q !== "object") throw new core.GonutsInputError(`solve takes one object: {players, reading, target, speed}, not ${core.show(q)}`);
      const players = q.players === undefined ? 2 : q.players, reading = core.readingIn(q);
      const [target, speed] = core.targetSpeed(q);
      if (!core.offered(players, reading, target, speed)) {
        core.game(players, reading, target, speed);                      // says why (no such game)
      }
      return ensure([players, reading, target, speed], onProgress);
    }).then(() => true),
    /** The games this browser keeps solved: [{key, spec, bytes, used}]. */
    kept: () => keptGames(),
    /** The last game solved on this page: {key, seconds, memory (the kernel's, bytes), iterations, residual, equilibrium
     * (orbits_searched, orbits_with_several, mixed_decisions: as a table's meta says them), estimate}. */
    lastSolve: () => JSON.parse(JSON.stringify(lastSolve())),
    /** @param {number} players @param {string} [reading] */
    load: (players, reading) => core.load(players, reading === undefined ? "rulebook" : reading, fetchBytes).then(() => true),
    /** The page's own target and what it solves: {target, targets: [lowest, highest], speeds}. */
    targets: Object.freeze({ target: data.record.target, targets: data.solve ? [...data.solve.targets] : [data.record.target, data.record.target],
                             speeds: data.solve ? [...data.solve.speeds] : [1] }),
    loaded: core.loaded,
    /** @param {string} mode */
    record: (mode) => JSON.parse(JSON.stringify(recordOf(["coach", "table", "recent"].includes(mode) ? mode : "play"))),
    /** The page's own helpers that scripts and tests may check: a name comparison, a CSV field. */
    text: Object.freeze({ sameName, csvCell }),
    core,
  });
}
