/* The page's games: the embedded ones (each table's start-of-turn win probabilities as the page carries them:
 * float64, or the 4-player quantised encoding), checked (length, CRC-32) and decoded once, on first use; and the
 * games the page solved itself (core/solve.js), added with their values and the rules data of their reading.
 * Twin: solver/site/pagevalues.py (page_game);
 * fixture: tests/fixtures/page-t12.json (a 4-player encoding), advice.json (its numbers). */
import { fail } from "./errors.js";
import { rollTable } from "./moves.js";
import { nutsPayoutTable, speedFraction } from "./payout.js";

/** @typedef {import("./types.js").Game} Game */
/** @typedef {import("./types.js").Reading} Reading */
/** @typedef {import("./types.js").Mixed} Mixed */
/** @typedef {(url: string) => Promise<Uint8Array>} FetchBytes */

/** @param {string} text */
function bytes64(text) {
  const bin = atob(text);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

const CRC = new Uint32Array(256);
for (let n = 0; n < 256; n++) { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320 ^ (c >>> 1) : c >>> 1; CRC[n] = c >>> 0; }
/** @param {Uint8Array} bytes */
export function crc32(bytes) {
  let c = 0xFFFFFFFF;
  for (let i = 0; i < bytes.length; i++) c = CRC[(c ^ bytes[i]) & 255] ^ (c >>> 8);
  return (c ^ 0xFFFFFFFF) >>> 0;
}

/** How a game's start-of-turn values are reached: w(i, j) is seat j's win probability at state i.
 * @param {any} raw @param {Uint8Array | Float32Array} bytes @returns {(i: number, j: number) => number} */
function winAccess(raw, bytes) {
  const N = raw.players, S = Math.pow(raw.target, N), d = raw.start_win;
  if (d.encoding === "f64") {
    const b = /** @type {Uint8Array} */ (bytes);
    const stored = new Float64Array(b.buffer, b.byteOffset, S * (N - 1));
    const W = new Float64Array(S * N);
    for (let i = 0; i < S; i++) {
      let rest = 1;
      for (let k = 0; k < N - 1; k++) { const x = stored[i * (N - 1) + k]; W[i * N + k] = x; rest -= x; }
      W[i * N + N - 1] = rest;
    }
    return (i, j) => W[i * N + j];
  }
  const cum = bytes, M = N - 1;     // Float32Array of the cumulative sums C_0..C_{N-2} (decodeLorenzo)
  return (i, j) => (j === M ? 1 - cum[i * M + M - 1] : cum[i * M + j] - (j ? cum[i * M + j - 1] : 0));
}

/** The 4-player encoding of solver/site/pagedata.py undone: inflate, byte planes, zigzag, and a cumulative sum
 * along each score axis; returns the cumulative sums (exact: multiples of 2^-17 below 2).
 * @param {any} raw @param {Uint8Array} bytes */
async function decodeLorenzo(raw, bytes) {
  const N = raw.players, G = raw.target, S = Math.pow(G, N), d = raw.start_win, M = N - 1;
  const stream = new Blob([/** @type {Uint8Array<ArrayBuffer>} */ (bytes)]).stream().pipeThrough(new DecompressionStream("deflate"));
  const planes = new Uint8Array(await new Response(stream).arrayBuffer());
  const want = S * d.planes.reduce((/** @type {number} */ a, /** @type {number} */ b) => a + b, 0);
  if (planes.length !== want) throw new Error(`${planes.length} bytes of planes, not ${want}`);
  const cum = new Float32Array(S * M), r = new Int32Array(S), step = Math.pow(2, -d.step_bits);
  let at = 0;
  for (let c = 0; c < M; c++) {
    r.fill(0);
    for (let k = 0; k < d.planes[c]; k++, at += S) {
      const shift = 8 * k;
      for (let i = 0; i < S; i++) r[i] |= planes[at + i] << shift;
    }
    for (let i = 0; i < S; i++) { const z = r[i]; r[i] = (z >>> 1) ^ -(z & 1); }
    for (let axis = N - 1, stride = 1; axis >= 0; axis--, stride *= G) {      // undo the difference on each axis
      const block = stride * G;
      for (let base = 0; base < S; base += block) {
        for (let i = base + stride; i < base + block; i++) r[i] += r[i - stride];
      }
    }
    for (let i = 0; i < S; i++) cum[i * M + c] = r[i] * step;
  }
  return cum;
}

/** A game's key: "3-summary" for an embedded game (the page's target, the round at its printed speed), else
 * "3-summary-30-1" (players, reading, target, speed).
 * @param {number} players @param {string} reading @param {number} [target] @param {number} [speed] @param {number} [home] */
export const gameKey = (players, reading, target, speed, home) =>
  (target === undefined || target === home) && (speed === undefined || speed === 1) ? `${players}-${reading}`
    : `${players}-${reading}-${target === undefined ? home : target}-${speed === undefined ? 1 : speed}`;      // a target left out is the page's
/** No decision played mixed. @type {Mixed} */
const NO_MIX = Object.freeze({ state: [], decision: [], roll: [] });
/** Refuse mixed decisions that are not a solve's: states and decisions in range, ascending by state, once each, each
 * probability strictly between 0 and 1 (solver/store/contract.py check_mixed, for a table).
 * @param {Mixed} m @param {number} N @param {number} G @param {number} D @param {string} what */
function checkMixed(m, N, G, D, what) {
  const k = m && Array.isArray(m.state) ? m.state.length : -1;
  if (k < 0 || !Array.isArray(m.decision) || !Array.isArray(m.roll) || m.decision.length !== k || m.roll.length !== k) {
    fail(`the ${what}'s mixed decisions are not three lists of one length`);
  }
  for (let e = 0; e < k; e++) {
    const s = m.state[e], q = m.decision[e], p = m.roll[e];
    if (!Number.isInteger(s) || s < 0 || s >= G ** N || (e > 0 && s < m.state[e - 1]) ||
        !Number.isInteger(q) || q < 0 || q >= G * (D + 1) || (e > 0 && s === m.state[e - 1] && q <= m.decision[e - 1]) ||
        !(p > 0 && p < 1)) fail(`the ${what}'s mixed decision ${e} is not a solve's`);
  }
}
/** The mixed decisions of the corner of a game to L that is the game to T: those at states whose every score is
 * at least L - T, the states renumbered (the decisions, turn points and dice, are the same).
 * @param {Mixed} m @param {number} N @param {number} L @param {number} T @returns {Mixed} */
export function cornerMixed(m, N, L, T) {
  /** @type {Mixed} */
  const out = { state: [], decision: [], roll: [] };
  m.state.forEach((s, e) => {
    let x = s, i = 0, mul = 1;
    for (let a = 0; a < N; a++) {
      const d = x % L - (L - T);
      if (d < 0) return;
      x = (x - (x % L)) / L; i += d * mul; mul *= T;
    }
    out.state.push(i); out.decision.push(m.decision[e]); out.roll.push(m.roll[e]);
  });
  return out;
}
/** The probability that the equilibrium rolls at flat state i, decision q: a number where it mixes, else null.
 * @param {Game} g @param {number} i @param {number} q @returns {number | null} */
export function mixAt(g, i, q) {
  const m = g.mixed;
  if (!m || !m.state.length) return null;
  for (let e = 0; e < m.state.length; e++) if (m.state[e] === i && m.decision[e] === q) return m.roll[e];
  return null;
}

/** @param {string} key */
function describeGame(key) { const [p, r, g, v] = key.split("-"); return `${p}-player ${r}${g ? ` game to ${g}${v !== "1" ? ` (Go Nuts! speed ${v})` : ""}` : ""}`; }

/** The games of the page's data: game(players, reading) when it is ready, load() to make it ready.
 * @param {any} data the page's data (solver/site/pagegames.py page_data) */
export function makeGames(data) {
  const home = data.record.target;
  /** @param {number} p @param {string} r @param {number} [g] @param {number} [v] */
  const keyOf = (p, r, g, v) => gameKey(p, r, g, v, home);
  /** @type {Map<string, Game>} */
  const cache = new Map();
  /** @type {Map<string, Reading>} */
  const readings = new Map();
  /** @type {Map<string, Promise<Game>>} */
  const pending = new Map();

  /** @param {string} name @returns {Reading} */
  function reading(name) {
    let r = readings.get(name);
    if (!r) { r = rollTable(data.readings[name], name); readings.set(name, r); }
    return r;
  }
  /** @param {number} players @param {string} reading_ @returns {any} */
  function rawGame(players, reading_) {
    const raw = data.games[gameKey(players, reading_)];
    if (!raw) {
      const have = Object.keys(data.games).sort().join(", ");
      fail(`this page has no ${players}-player ${reading_} table (it has ${have})`);
    }
    return raw;
  }
  /** @param {string} key @param {any} raw @param {(i: number, j: number) => number} access @returns {Game} */
  function makeGame(key, raw, access) {
    const r = reading(raw.reading);
    return { key, players: raw.players, target: raw.target, reading: raw.reading, rules: raw.rules, dice: r.dice, w: access,
             payout: raw.nuts_payout.map((/** @type {number[]} */ row) => Float64Array.from(row)), precision: raw.start_win.precision,
             moves: r.moves, maxpoints: raw.maxpoints, nutsMean: raw.nuts_mean, nutsReplaces: r.nutsReplaces, source: raw.source };
  }
  /** A game ready to use. Values embedded as float64 are read at once; the others (a site's data files, the
   * 4-player encoding) must be loaded first with load(), which is asynchronous; a game at another target or
   * speed must be solved first (add()).
   * @param {number} players @param {string} reading_ @param {number} [target] @param {number} [speed] @returns {Game} */
  function game(players, reading_, target, speed) {
    const key = keyOf(players, reading_, target, speed);
    const have = cache.get(key);
    if (have) return have;
    if (!(key in data.games) && !solvable(players, reading_, target, speed)) {
      if (key === gameKey(players, reading_)) rawGame(players, reading_);           // its refusal: the games it has
      const s = data.solve;
      fail(`this page has no ${describeGame(key)}${s ? `: it solves games to ${s.targets[0]} to ${s.targets[1]} at Go Nuts! speeds ${s.speeds.join(", ")}` : ""}`);
    }
    if (!(key in data.games)) fail(`the ${describeGame(key)} is not solved yet (solve it first: await gonuts.solve({players: ${players}, reading: "${reading_}", target: ${target}, speed: ${speed === undefined ? 1 : speed}}))`);
    const raw = rawGame(players, reading_);
    if (raw.start_win.encoding !== "f64" || raw.start_win.data === undefined) {
      fail(`the ${describeGame(key)} game is not loaded yet (load it first: await gonuts.load(${players}, "${reading_}"))`);
    }
    const g = makeGame(key, raw, winAccess(raw, bytes64(raw.start_win.data)));
    cache.set(key, g);
    delete raw.start_win.data;           // decoded: the text is no longer needed
    return g;
  }
  /** Whether game() would answer at once. @param {number} players @param {string} reading_ @param {number} [target] @param {number} [speed] */
  function loaded(players, reading_, target, speed) {
    const key = keyOf(players, reading_, target, speed);
    const raw = data.games[key];
    return cache.has(key) || (!!raw && raw.start_win.encoding === "f64" && raw.start_win.data !== undefined);
  }
  /** Whether the page has this game: embedded, or one it can solve (its players, reading, target and speed
   * within what the page's data offers). @param {number} players @param {string} reading_ @param {number} [target] @param {number} [speed] */
  function offered(players, reading_, target, speed) {
    const key = keyOf(players, reading_, target, speed);
    return key in data.games || solvable(players, reading_, target, speed);
  }
  /** Whether the page can solve this game itself. @param {number} players @param {string} reading_ @param {number} [target] @param {number} [speed] */
  function solvable(players, reading_, target, speed) {
    const s = data.solve, g = target === undefined ? home : target, v = speed === undefined ? 1 : speed;
    return !!s && Number.isInteger(players) && players >= 2 && players <= 4 && reading_ in data.readings &&
      Number.isInteger(g) && g >= s.targets[0] && g <= s.targets[1] && s.speeds.includes(v);
  }
  /** A game the page solved: its start-of-turn win probabilities (G^N by N, every seat's column), the decisions
   * its equilibrium plays mixed (the solve's, none if left out), and the rest from its reading's data and
   * core/payout.js, as the embedded games have them from Python.
   * @param {number} players @param {string} reading_ @param {number} target @param {number} speed @param {Float64Array} startWin
   * @param {Mixed} [mixed] @returns {Game} */
  function add(players, reading_, target, speed, startWin, mixed) {
    if (!solvable(players, reading_, target, speed)) fail(`this page does not solve the ${describeGame(keyOf(players, reading_, target, speed))}`);
    const key = keyOf(players, reading_, target, speed), N = players, G = target;
    if (startWin.length !== G ** N * N) fail(`the ${describeGame(key)}'s values are ${startWin.length} numbers, not ${G ** N * N}`);
    if (mixed) checkMixed(mixed, N, G, reading(reading_).dice, describeGame(key));
    const r = reading(reading_), turn = data.solve.turn[reading_][String(N)][String(speed)];
    const rules = { ...data.readings[reading_].rules, players: N, target: G, speed };
    const flat = nutsPayoutTable(rules, /** @type {[number, number]} */ (speedFraction(String(speed))));
    /** @type {Game} */
    const g = { key, players: N, target: G, reading: reading_, rules, dice: r.dice, w: (i, j) => startWin[i * N + j],
                payout: Array.from({ length: 6 }, (_, n) => flat.slice(n * (G + 1), (n + 1) * (G + 1))), precision: 0,
                moves: r.moves, maxpoints: turn.maxpoints.map((/** @type {string} */ m) => m.slice(0, G)), nutsMean: turn.nuts_mean,
                nutsReplaces: r.nutsReplaces, source: { solved: "page", speed }, values: startWin,
                mixed: mixed || NO_MIX };
    cache.set(key, g);
    return g;
  }
  /** The game to a smaller target read off a larger one this page has ready (embedded and loaded, or solved): its
   * corner, the states where every score is at least the larger target less this one (docs/model.md, "The
   * corner"), whose values are the game's own to the bit (within the larger game's precision where that is an
   * encoding). It is made ready as add() makes a solved game (no values copied: each is read from the larger
   * game's); null where this page has no larger game of the same players, reading and speed ready.
   * Twin: solver/store/corner.py (corner_arrays).
   * @param {number} players @param {string} reading_ @param {number} target @param {number} [speed] @returns {Game | null} */
  function corner(players, reading_, target, speed) {
    const v = speed === undefined ? 1 : speed, key = keyOf(players, reading_, target, v);
    const have = cache.get(key);
    if (have) return have;
    if (!solvable(players, reading_, target, v)) return null;
    if (v === 1 && target < home && loaded(players, reading_)) game(players, reading_);    // the page's own, decoded
    /** @type {Game | null} */
    let src = null;
    for (const g of cache.values()) {
      const gv = g.rules.speed === undefined ? 1 : g.rules.speed;
      if (g.players === players && g.reading === reading_ && gv === v && g.target > target && !g.source.corner_of &&
          (!src || g.target < src.target)) src = g;
    }
    if (!src) return null;
    const N = players, T = target, L = src.target, o = L - T, at = src.w;
    /** The larger game's flat index of this game's state i: each score (base T digit) moved up by L - T. @param {number} i */
    const up = (i) => {
      let x = i, k = 0, mul = 1;
      for (let a = 0; a < N; a++) { const d = x % T; x = (x - d) / T; k += (d + o) * mul; mul *= L; }
      return k;
    };
    const r = reading(reading_), turn = data.solve.turn[reading_][String(N)][String(v)];
    const rules = { ...src.rules, players: N, target: T, speed: v };
    const flat = nutsPayoutTable(rules, /** @type {[number, number]} */ (speedFraction(String(v))));
    /** @type {Game} */
    const g = { key, players: N, target: T, reading: reading_, rules, dice: r.dice, w: (i, j) => at(up(i), j),
                payout: Array.from({ length: 6 }, (_, n) => flat.slice(n * (T + 1), (n + 1) * (T + 1))), precision: src.precision,
                moves: r.moves, maxpoints: turn.maxpoints.map((/** @type {string} */ m) => m.slice(0, T)), nutsMean: turn.nuts_mean,
                nutsReplaces: r.nutsReplaces, source: { corner_of: L, speed: v }, mixed: cornerMixed(src.mixed || NO_MIX, N, L, T) };
    cache.set(key, g);
    return g;
  }
  /** Load a game's values: fetch (a site) or read (the single file), check length and CRC-32, decode. The
   * UI gives fetchBytes (the core does no I/O of its own). A damaged or missing file is refused with a
   * message that names the game; the other games still work.
   * @param {number} players @param {string} reading_ @param {FetchBytes} [fetchBytes] @returns {Promise<Game>} */
  function load(players, reading_, fetchBytes) {
    const key = gameKey(players, reading_);
    const have = cache.get(key);
    if (have) return Promise.resolve(have);
    const waiting = pending.get(key);
    if (waiting) return waiting;
    const raw = rawGame(players, reading_), d = raw.start_win;
    const job = (async () => {
      /** @type {Uint8Array} */
      let bytes;
      try {
        if (d.data !== undefined) bytes = bytes64(d.data);
        else if (fetchBytes) bytes = await fetchBytes(d.url);
        else throw new Error("no way to fetch it");
      } catch (e) {
        return fail(`the ${describeGame(key)} data (${d.url || "embedded"}) cannot be read: ${/** @type {Error} */ (e).message}`);
      }
      if (bytes.length !== d.bytes || crc32(bytes) !== d.crc32) {
        fail(`the ${describeGame(key)} data (${d.url || "embedded"}) is damaged: ${bytes.length} bytes, CRC-32 ${crc32(bytes).toString(16)}; expected ${d.bytes} bytes, ${d.crc32.toString(16)}`);
      }
      let access;
      try {
        access = winAccess(raw, d.encoding === "f64" ? bytes : await decodeLorenzo(raw, bytes));
      } catch (e) {
        return fail(`the ${describeGame(key)} data (${d.url || "embedded"}) is damaged: ${/** @type {Error} */ (e).message}`);
      }
      const g = makeGame(key, raw, access);
      cache.set(key, g);
      delete d.data;                     // decoded: the text is no longer needed
      return g;
    })();
    pending.set(key, job);
    job.catch(() => pending.delete(key));
    return job;
  }
  return { reading, rawGame, game, loaded, load, add, corner, offered, solvable, key: keyOf, describe: describeGame,
           games: () => Object.keys(data.games).sort() };
}
