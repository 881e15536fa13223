/* gonuts core: the page's pure computation. No DOM, no globals read.
 *
 * GonutsCore(data) takes the embedded tables (see solver/play/pagegames.py) and returns
 * functions of plain values:
 *   advise({scores, turn, dice, rules})  -> the object of `gonuts-solve advise --json`
 *   values(game, scores)                 -> both actions' value vectors at every (t, n) of one turn
 *   replay(record) / review(record)      -> the rules applied to a game record; its review, with the
 *                                           seat's luck split (luck, own and others' decisions)
 *   rng(seed), rollDice, nutsRound        -> the seeded dice of play mode
 *   policy(spec, {players, rules})        -> a computer player; policyName(...) its normalized name
 *   practice({seed, count, players, rules}) -> decisions drawn as `gonuts-solve practice` draws them
 *
 * The numbers are those of solver/play/advise.py: one Bellman backup of the start state
 * from the embedded start-of-turn win probabilities (start_win) and the exact Go Nuts!
 * payouts, as solver/reference/bellman.py computes it.
 *
 * The rules are data (data.readings, written by solver/play/pagegames.py from solver/game/moves.py):
 * every roll of n live dice with its probability and what it does (bust, a Go Nuts! round with
 * so many dice, or so many acorns and live dice after the one-die rule): no roll's outcome is
 * derived here. What is written twice, here for the page offline and in Python, is held to
 * fixtures that both test suites run (tests/fixtures/): the game loop (solver/game/loop.py: whose
 * turn, turn points, live dice, a win at the target; records.json), the turn's backup and the why
 * (solver/play/backup.py, explain.py; advice.json, checked under Node against Python's numbers),
 * and the policy grammar (solver/lab/grammar.py; policies.json).
 */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory;
  else root.GonutsCore = factory;
}(typeof self !== "undefined" ? self : this, function GonutsCore(data) {
  "use strict";
  const N_DICE = data.readings.rulebook.dice;
  const FORMAT = data.record.format;
  const VERSION = data.record.version;
  const SHOWN = 60;   // characters of an offending value that a message repeats (solver/errors.py)

  class GonutsInputError extends Error {
    constructor(message) { super(message); this.name = "GonutsInputError"; }
  }
  const fail = (msg) => { throw new GonutsInputError(msg); };
  /* A value as a refusal repeats it: its JSON text, cut to SHOWN characters (solver/errors.py show). */
  function show(value) {
    let text;
    try { text = value === undefined ? "null" : JSON.stringify(value); } catch (e) { text = typeof value; }
    if (text === undefined) text = typeof value;
    const cps = Array.from(text);
    return cps.length <= SHOWN ? text : `${cps.slice(0, SHOWN).join("")}... (${cps.length} characters)`;
  }
  const isWhole = (x, lo) => Number.isSafeInteger(x) && x >= (lo === undefined ? 0 : lo);

  // -- the embedded games ---------------------------------------------------------------------
  const cache = new Map();

  function bytes64(text) {
    const bin = atob(text);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return bytes;
  }

  const CRC = new Uint32Array(256);
  for (let n = 0; n < 256; n++) { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320 ^ (c >>> 1) : c >>> 1; CRC[n] = c >>> 0; }
  function crc32(bytes) {
    let c = 0xFFFFFFFF;
    for (let i = 0; i < bytes.length; i++) c = CRC[(c ^ bytes[i]) & 255] ^ (c >>> 8);
    return (c ^ 0xFFFFFFFF) >>> 0;
  }

  /* A reading's rolls, from the data: table[n] lists {a, s, c, p, kind, x, live}; byFaces finds one. */
  const readings = new Map();
  function reading(name) {
    if (readings.has(name)) return readings.get(name);
    const raw = data.readings[name];
    const table = [null], byFaces = new Map();
    for (let n = 1; n <= N_DICE; n++) {
      table.push(raw.rolls[String(n)].map(([a, s, c, p, kind, x, live]) => {
        const m = { a, s, c, p, kind, x, live };
        byFaces.set(`${n}:${a}:${s}:${c}`, m);
        return m;
      }));
    }
    const r = { name, rules: raw.rules, moves: table, byFaces, nutsReplaces: raw.nuts_gain === "replaces" };
    readings.set(name, r);
    return r;
  }

  function gameKey(players, reading) { return `${players}-${reading}`; }

  /* How a game's start-of-turn values are reached: w(i, j) is seat j's win probability at state i. */
  function winAccess(raw, bytes) {
    const N = raw.players, S = Math.pow(raw.target, N), d = raw.start_win;
    if (d.encoding === "f64") {
      const stored = new Float64Array(bytes.buffer, bytes.byteOffset, S * (N - 1));
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

  /* The 4-player encoding of solver/play/pagedata.py undone: inflate, byte planes, zigzag, and a
   * cumulative sum along each score axis; returns the cumulative sums as a Float32Array (exact: they
   * are multiples of 2^-17 below 2). */
  async function decodeLorenzo(raw, bytes) {
    const N = raw.players, G = raw.target, S = Math.pow(G, N), d = raw.start_win, M = N - 1;
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
    const planes = new Uint8Array(await new Response(stream).arrayBuffer());
    const want = S * d.planes.reduce((a, b) => a + b, 0);
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

  function describeGame(key) { const [p, r] = key.split("-"); return `${p}-player ${r}`; }
  function rawGame(players, reading_) {
    const raw = data.games[gameKey(players, reading_)];
    if (!raw) {
      const have = Object.keys(data.games).sort().join(", ");
      fail(`this page has no ${players}-player ${reading_} table (it has ${have})`);
    }
    return raw;
  }
  function makeGame(key, raw, access) {
    return { key, players: raw.players, target: raw.target, reading: raw.reading, rules: raw.rules, w: access,
             payout: raw.nuts_payout.map((row) => Float64Array.from(row)), precision: raw.start_win.precision,
             moves: reading(raw.reading).moves, maxpoints: raw.maxpoints, nutsMean: raw.nuts_mean, source: raw.source };
  }

  /* A game ready to use. Values embedded as float64 are read at once; the others (a site's data files,
   * the 4-player encoding) must be loaded first with load(), which is asynchronous. */
  function game(players, reading_) {
    const key = gameKey(players, reading_);
    if (cache.has(key)) return cache.get(key);
    const raw = rawGame(players, reading_);
    if (raw.start_win.encoding !== "f64" || raw.start_win.data === undefined) {
      fail(`the ${describeGame(key)} game is not loaded yet (load it first: await gonuts.load(${players}, "${reading_}"))`);
    }
    const bytes = bytes64(raw.start_win.data);
    const g = makeGame(key, raw, winAccess(raw, bytes));
    cache.set(key, g);
    delete raw.start_win.data;           // decoded: the text is no longer needed
    return g;
  }

  /* Whether a game can be used at once (game() would not throw that it is not loaded). */
  function loaded(players, reading_) {
    const key = gameKey(players, reading_);
    const raw = data.games[key];
    return cache.has(key) || (!!raw && raw.start_win.encoding === "f64" && raw.start_win.data !== undefined);
  }

  /* Load a game's values: fetch (a site) or read (the single file), check length and CRC-32, decode.
   * fetchBytes(url) -> Promise<Uint8Array> is given by the UI (the core does no I/O of its own). A
   * damaged or missing file is refused with a message that names the game; the other games still work. */
  const pending = new Map();
  function load(players, reading_, fetchBytes) {
    const key = gameKey(players, reading_);
    if (cache.has(key)) return Promise.resolve(cache.get(key));
    if (pending.has(key)) return pending.get(key);
    const raw = rawGame(players, reading_), d = raw.start_win;
    const job = (async () => {
      let bytes;
      try {
        if (d.data !== undefined) bytes = bytes64(d.data);
        else if (fetchBytes) bytes = await fetchBytes(d.url);
        else throw new Error("no way to fetch it");
      } catch (e) {
        fail(`the ${describeGame(key)} data (${d.url || "embedded"}) cannot be read: ${e.message}`);
      }
      if (bytes.length !== d.bytes || crc32(bytes) !== d.crc32) {
        fail(`the ${describeGame(key)} data (${d.url || "embedded"}) is damaged: ${bytes.length} bytes, CRC-32 ${crc32(bytes).toString(16)}; expected ${d.bytes} bytes, ${d.crc32.toString(16)}`);
      }
      let access;
      try {
        access = winAccess(raw, d.encoding === "f64" ? bytes : await decodeLorenzo(raw, bytes));
      } catch (e) {
        fail(`the ${describeGame(key)} data (${d.url || "embedded"}) is damaged: ${e.message}`);
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

  function flat(g, scores) {
    let i = 0;
    for (const s of scores) i = i * g.target + s;
    return i;
  }

  /* One Bellman backup of the start state `scores` (turn order, the active player first).
   * Returns Float64Arrays indexed [(t * (D+1) + n) * N + k]: roll and stop value vectors,
   * and `roll` decisions (greedy on the active player's own component; an exact tie stops;
   * the opening (0, D) is a forced roll). Where scores[0] + t >= G both vectors are e0. */
  function values(g, scores) {
    const N = g.players, G = g.target, D = N_DICE, s0 = scores[0];
    const e0 = new Float64Array(N); e0[0] = 1;
    // C[gain]: the value, in the active player's frame, of ending the turn with that gain.
    const C = [];
    const next = scores.slice(1);
    for (let gain = 0; gain <= 2 * G; gain++) {
      if (s0 + gain >= G) { C.push(e0); continue; }
      const at = flat(g, next.concat([s0 + gain]));
      const v = new Float64Array(N);
      for (let k = 0; k < N; k++) v[k] = g.w(at, (k - 1 + N) % N);
      C.push(v);
    }
    const costs = reading(g.reading).nutsReplaces;
    const nutsAbs = [];
    if (costs) {
      for (let n = 0; n <= D; n++) {
        const v = new Float64Array(N);
        if (n > 0) for (let x = 0; x <= G; x++) { const p = g.payout[n][x]; for (let k = 0; k < N; k++) v[k] += p * C[x][k]; }
        nutsAbs.push(v);
      }
    }
    const W = D + 1;
    const rollV = new Float64Array(G * W * N), stopV = new Float64Array(G * W * N);
    const best = new Float64Array(G * W * N);
    const roll = new Uint8Array(G * W);
    for (let t = G - 1; t >= 0; t--) {
      const win = s0 + t >= G;
      for (let n = 1; n <= D; n++) {
        const at = (t * W + n) * N;
        if (win) {
          for (let k = 0; k < N; k++) { rollV[at + k] = e0[k]; stopV[at + k] = e0[k]; best[at + k] = e0[k]; }
          continue;
        }
        const r = new Float64Array(N);
        for (const m of g.moves[n]) {
          if (m.kind === "bust") {
            for (let k = 0; k < N; k++) r[k] += m.p * C[0][k];
          } else if (m.kind === "nuts") {
            if (costs) {
              for (let k = 0; k < N; k++) r[k] += m.p * nutsAbs[m.x][k];
            } else {
              const pay = g.payout[m.x];
              for (let x = 0; x <= G; x++) { const q = m.p * pay[x]; for (let k = 0; k < N; k++) r[k] += q * C[t + x][k]; }
            }
          } else {
            const t2 = t + m.x;
            if (t2 >= G) { r[0] += m.p; continue; }
            const src = (t2 * W + m.live) * N;
            for (let k = 0; k < N; k++) r[k] += m.p * best[src + k];
          }
        }
        const st = C[t];
        const choose = (t === 0 && n === D) || r[0] > st[0];
        roll[t * W + n] = choose ? 1 : 0;
        for (let k = 0; k < N; k++) {
          rollV[at + k] = r[k]; stopV[at + k] = st[k]; best[at + k] = choose ? r[k] : st[k];
        }
      }
    }
    return { N, G, D, roll, rollV, stopV, best, C };
  }

  function vec(arr, at, N) { return Array.from(arr.subarray(at, at + N)); }

  // -- advise -----------------------------------------------------------------------------------
  function checkState(g, scores, turn, dice) {
    const N = g.players, G = g.target;
    if (!Array.isArray(scores)) fail("scores must be a list of banked scores, yours first");
    if (scores.length !== N) fail(`expected ${N} scores (one per player, the player to move first), got ${scores.length}`);
    for (const s of scores) {
      if (!Number.isInteger(s)) fail(`scores must be whole numbers, not ${show(s)}`);
      if (s < 0 || s >= G) fail(`score ${s} is outside 0..${G - 1}: a banked score of ${G} or more has already won`);
    }
    if (!Number.isInteger(turn)) fail(`turn points must be a whole number, not ${show(turn)}`);
    if (turn < 0) fail(`turn points must be 0 or more, not ${turn}`);
    if (!Number.isInteger(dice)) fail(`live dice must be a whole number, not ${show(dice)}`);
    if (dice < 1 || dice > N_DICE) fail(`live dice must be from 1 to ${N_DICE}, not ${dice}`);
  }

  function adviseIn(g, scores, turn, dice, vals) {
    checkState(g, scores, turn, dice);
    const N = g.players, G = g.target;
    const out = { scores: scores.slice(), turn, dice, action: null, reason: null, win_if_roll: null,
                  win_if_stop: null, players_if_roll: null, players_if_stop: null, rules: rulesDict(g) };
    if (scores[0] + turn >= G) {
      const e0 = new Array(N).fill(0); e0[0] = 1;
      return Object.assign(out, { action: "stop", reason: "reaches_target", win_if_stop: 1.0, players_if_stop: e0 });
    }
    const v = vals || values(g, scores);
    const at = (turn * (N_DICE + 1) + dice) * N;
    out.players_if_roll = vec(v.rollV, at, N);
    out.win_if_roll = out.players_if_roll[0];
    if (turn === 0 && dice === N_DICE) return Object.assign(out, { action: "roll", reason: "forced" });
    out.players_if_stop = vec(v.stopV, at, N);
    out.win_if_stop = out.players_if_stop[0];
    out.action = v.roll[turn * (N_DICE + 1) + dice] ? "roll" : "stop";
    out.reason = "optimal";
    return out;
  }

  function rulesDict(g) { return JSON.parse(JSON.stringify(g.rules)); }

  function readingOf(name) {
    const reading = name === undefined ? "rulebook" : name;
    if (reading !== "rulebook" && reading !== "summary") fail(`rules must be "rulebook" or "summary", not ${show(name)}`);
    return reading;
  }

  /* One state asked about by window.gonuts: {scores: [yours, next, ...], turn = 0, dice = 5, rules = "rulebook"},
   * answered by inner(g, scores, turn, dice). */
  function ask(what, q, inner) {
    if (q === null || typeof q !== "object") fail(`${what} takes one object: {scores, turn, dice, rules}`);
    // every field read once into a copy, then checked and used: a getter cannot answer one value to the
    // check and another to the computation, and a hole in a sparse list is refused, never read as a score
    const given = q.scores, turn = q.turn, dice = q.dice, rules = q.rules;
    if (!Array.isArray(given) || given.length < 2) fail("scores must list 2 or more banked scores, yours first");
    const scores = [];
    for (let i = 0; i < given.length; i++) {
      if (!(i in given)) fail(`scores must list 2 or more banked scores, yours first: a hole at place ${i + 1}`);
      scores.push(given[i]);
    }
    const g = game(scores.length, readingOf(rules));
    return inner(g, scores, turn === undefined ? 0 : turn, dice === undefined ? N_DICE : dice);
  }
  const advise = (q) => ask("advise", q, adviseIn);

  /* Why (solver/play/explain.py, number for number): where optimal play stops with these dice, the
   * next roll's risks, and the distribution of what this turn adds if the mover rolls now and then
   * plays optimally (g = 0 .. h-1, then reaching the target). */
  function explainIn(g, scores, turn, dice, vals) {
    checkState(g, scores, turn, dice);
    const G = g.target, h = G - scores[0], D = N_DICE, W1 = D + 1;
    const v = vals || values(g, scores);
    let stopAt = turn;
    while (stopAt < h && v.roll[stopAt * W1 + dice]) stopAt++;
    const next = g.moves[dice];
    const sum = (f) => next.reduce((acc, m) => acc + (f(m) ? m.p : 0), 0);
    const nutsDice = next.find((m) => m.kind === "nuts").x;
    const P = new Array(h + 1).fill(0), mass = new Map();
    const replaces = reading(g.reading).nutsReplaces;
    const roll = (t, n, m) => {
      for (const mv of g.moves[n]) {
        const q = m * mv.p;
        if (mv.kind === "bust") P[0] += q;
        else if (mv.kind === "nuts") {
          const base = replaces ? 0 : t, pay = g.payout[mv.x];
          for (let x = 0; x < pay.length; x++) if (pay[x]) P[Math.min(base + x, h)] += q * pay[x];
        } else if (t + mv.x >= h) P[h] += q;
        else { const k2 = (t + mv.x) * W1 + mv.live; mass.set(k2, (mass.get(k2) || 0) + q); }
      }
    };
    roll(turn, dice, 1);                 // the roll asked about (at or past the target too: it risks the win)
    for (let t = turn; t < h; t++) {
      for (let n = D; n >= 1; n--) {
        const key = t * W1 + n, m = mass.get(key) || 0;
        if (!m) continue;
        mass.delete(key);
        if (!v.roll[key]) P[t] += m; else roll(t, n, m);
      }
    }
    return { stop_at: stopAt, p_all_cars: sum((m) => m.kind === "bust"), p_all_squirrels: sum((m) => m.kind === "nuts"),
             p_one_die_refill: sum((m) => m.kind === "move" && m.live === D && dice - m.c !== D),
             nuts_mean: g.nutsMean[nutsDice], turn_gain_if_roll: P,
             turn_gain_mean_if_roll: P.reduce((acc, q, k) => acc + k * q, 0) };
  }

  /* window.gonuts.explain: the same query as advise. */
  const explain = (q) => ask("explain", q, (g, scores, turn, dice) => explainIn(g, scores, turn, dice));

  /* The optimal value vector (turn order from the active player) at a decision state, or at the
   * start of the turn when t = 0 and n = D. */
  function stateValue(g, scores, turn, dice) {
    const N = g.players;
    if (scores[0] + turn >= g.target) { const e0 = new Array(N).fill(0); e0[0] = 1; return e0; }
    const v = values(g, scores);
    return vec(v.best, (turn * (N_DICE + 1) + dice) * N, N);
  }

  // -- policies ---------------------------------------------------------------------------------
  /* The policy grammar of solver/lab/grammar.py, message for message (tests/fixtures/policies.json). */
  const BLANKS = /^[ \t\n\r\f\v]+|[ \t\n\r\f\v]+$/g;
  const MAX_PACE = 1000;
  const quote = (text) => show(String(text));
  const clip = (text) => { const cps = Array.from(text); return cps.length <= SHOWN ? text : cps.slice(0, SHOWN).join("") + "..."; };
  function whole(text, label, what, lo, hi) {
    if (!/^[0-9]+$/.test(text)) fail(`policy ${label}: ${what} must be a whole number, not ${quote(text)}`);
    const digits = text.replace(/^0+(?=.)/, "");
    const v = digits.length > 9 ? Infinity : Number(digits);
    if (!(v >= lo && v <= hi)) fail(`policy ${label}: ${what} must be from ${lo} to ${hi}, not ${clip(digits)}`);
    return v;
  }
  function thresholdsOf(text, label, G, D) {
    const parts = text.split("-");
    if (parts.length !== D) fail(`policy ${label}: give ${D} thresholds, one per number of live dice (1..${D})`);
    return parts.map((x) => whole(x, label, "threshold", 0, G));
  }
  /* {kind, name, args} of a policy name in a game to G with D live dice, or GonutsInputError. */
  function readPolicy(spec, G, D) {
    if (typeof spec !== "string") fail("a policy is a name such as optimal or hold:20");
    spec = spec.replace(BLANKS, "");
    const label = clip(spec);
    if (spec === "optimal" || spec === "best" || spec === "maxpoints") return { kind: spec, name: spec, args: [] };
    if (spec.startsWith("hold:")) {
      const body = spec.slice(5), at = body.indexOf("/");
      const k = whole(at < 0 ? body : body.slice(0, at), label, "K", 1, G);
      if (at < 0) return { kind: "hold", name: `hold:${k}`, args: [k, null] };
      const d = whole(body.slice(at + 1), label, "D", 0, D - 1);
      return { kind: "hold", name: `hold:${k}/${d}`, args: [k, d] };
    }
    if (spec.startsWith("dice:")) {
      const ks = thresholdsOf(spec.slice(5), label, G, D);
      if (Math.max(...ks) < 1) fail(`policy ${label}: a player who never rolls never scores`);
      return { kind: "dice", name: `dice:${ks.join("-")}`, args: ks };
    }
    if (spec.startsWith("race:")) {
      const body = spec.slice(5).split("/");
      if (body.length !== 3) fail(`policy ${label}: write race:K1-...-K${D}/P/E (thresholds per live dice, pace divisor, end-race distance)`);
      const ks = thresholdsOf(body[0], label, G, D);
      const pace = whole(body[1], label, "P", 0, MAX_PACE), end = whole(body[2], label, "E", 0, G - 1);
      if (Math.max(...ks) < 1 && end === 0) fail(`policy ${label}: a player who never rolls never scores`);
      return { kind: "race", name: `race:${ks.join("-")}/${pace}/${end}`, args: [ks, pace, end] };
    }
    if (spec.endsWith(".npz")) return { kind: "table", name: spec, args: [] };
    if (spec.includes(":")) return { kind: "callable", name: spec, args: [] };
    fail(`unknown policy ${quote(spec)}: use optimal, best, maxpoints, hold:K, hold:K/D, dice:K1-...-K${D}, race:K1-...-K${D}/P/E, a table .npz, or module:function`);
  }

  const PAGE_CANNOT = {
    best: "best is solved for each game by the command line (gonuts-solve evaluate)",
    table: "a table file is read by the command line, not by the page",
    callable: "a Python function runs in the command line, not in the page",
  };

  /* The game a policy is for: {players = 2, rules = "rulebook"}. */
  function gameOf(opts) {
    if (opts !== undefined && (opts === null || typeof opts !== "object")) fail("policy options are {players, rules}");
    const o = opts || {};
    const players = o.players === undefined ? 2 : o.players;
    if (!Number.isInteger(players)) fail(`players must be a whole number, not ${quote(players)}`);
    return rawGame(players, readingOf(o.rules));      // its target; the values are read when it plays
  }

  /* A computer player: {name, roll(g, scores in turn order from it, t, n) -> true to roll}. The CLI's
   * policies that the page cannot play (best, a table file, a Python function) are refused by name. */
  function policy(spec, opts) {
    const g = gameOf(opts);
    const sp = readPolicy(spec, g.target, N_DICE);
    if (PAGE_CANNOT[sp.kind]) fail(`policy ${clip(sp.name)}: ${PAGE_CANNOT[sp.kind]}`);
    const G = g.target;
    const wins = (scores, t) => scores[0] + t >= G;
    let roll;
    if (sp.kind === "optimal") roll = (h, scores, t, n) => values(h, scores).roll[t * (N_DICE + 1) + n] === 1;
    else if (sp.kind === "maxpoints") roll = (h, scores, t, n) => !wins(scores, t) && h.maxpoints[n][t] === "1";
    else if (sp.kind === "hold") {
      const [k, d] = sp.args;
      roll = (h, scores, t, n) => !wins(scores, t) && t < k && (d === null || n > d);
    } else if (sp.kind === "dice") {
      const ks = sp.args;
      roll = (h, scores, t, n) => !wins(scores, t) && t < ks[n - 1];
    } else {
      const [ks, pace, end] = sp.args;
      roll = (h, scores, t, n) => {
        if (wins(scores, t)) return false;
        const lead = Math.max(...scores.slice(1));
        if (end && Math.max(scores[0], lead) >= G - end) return true;
        const thr = ks[n - 1] + (pace ? Math.floor((lead - scores[0]) / pace + 0.5) : 0);
        return t < thr;
      };
    }
    return { name: sp.name, roll };
  }

  /* window.gonuts.policy: the normalized name, or the message that refuses the spec. */
  function policyName(spec, opts) { return policy(spec, opts).name; }

  // -- dice -------------------------------------------------------------------------------------
  /* mulberry32: a small, well-known 32-bit generator; its state is one integer. */
  function rng(seed) {
    let state = seed >>> 0;
    return {
      get state() { return state; },
      set state(v) { state = v >>> 0; },
      next() {
        state = (state + 0x6D2B79F5) >>> 0;
        let z = state;
        z = Math.imul(z ^ (z >>> 15), z | 1);
        z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
        return ((z ^ (z >>> 14)) >>> 0) / 4294967296;
      },
    };
  }

  function face(r, counts) {
    const tot = counts.reduce((x, y) => x + y, 0);
    let u = Math.floor(r.next() * tot);
    for (let i = 0; i < counts.length; i++) { if (u < counts[i]) return i; u -= counts[i]; }
    return counts.length - 1;
  }

  /* Throw n squirrel dice: the faces (0 acorn, 1 squirrel, 2 car) and the counts [a, s, c]. */
  function rollDice(r, rules, n) {
    const faces = [];
    const counts = [0, 0, 0];
    for (let i = 0; i < n; i++) { const f = face(r, rules.faces); faces.push(f); counts[f]++; }
    return { faces, counts };
  }

  /* A Go Nuts! round, tick by tick: the active player throws `dice` dice (speed 1), every
   * opponent still waiting throws a dog die; the round ends after the tick in which the last
   * opponent rolls a dog. Returns the ticks and the acorns. */
  function nutsRound(r, rules, dice, opponents) {
    const waiting = opponents.slice();
    const ticks = [];
    let acorns = 0;
    for (let tick = 1; waiting.length > 0; tick++) {
      if (tick > 100000) throw new Error("a Go Nuts! round did not end (dog die without a dog face?)");
      const throwN = rollDice(r, rules, dice);
      acorns += throwN.counts[0];
      const dogs = waiting.map((seat) => ({ seat, dog: face(r, rules.dog) === 0 }));
      ticks.push({ faces: throwN.faces, acorns: throwN.counts[0], total: acorns, dogs });
      for (const d of dogs) if (d.dog) waiting.splice(waiting.indexOf(d.seat), 1);
    }
    return { ticks, acorns };
  }

  // -- game records -----------------------------------------------------------------------------
  function header(record) {
    if (record === null || typeof record !== "object" || Array.isArray(record)) fail("a game record must be a JSON object");
    if (record.format !== FORMAT) fail(`not a game record: "format" must be "${FORMAT}"`);
    if (record.version !== VERSION) fail(`unknown record version ${show(record.version)} (this version reads ${VERSION})`);
    if (record.rules !== "rulebook" && record.rules !== "summary") fail(`"rules" must be one of rulebook, summary, not ${show(record.rules)}`);
    const N = record.players;
    if (!isWhole(N) || N < 2 || N > 4) fail(`"players" must be 2, 3 or 4, not ${show(N)}`);
    const G = record.target === undefined ? data.record.default_target : record.target;
    if (!isWhole(G, 1)) fail(`"target" must be a whole number of at least 1, not ${show(G)}`);
    if (!isWhole(record.you) || record.you >= N) fail(`"you" must be a seat from 0 to ${N - 1}, not ${show(record.you)}`);
    if (!Array.isArray(record.events)) fail('"events" must be a list');
    const most = data.record.max_events;
    if (record.events.length > most) fail(`a game record holds at most ${most.toLocaleString("en")} events, not ${record.events.length.toLocaleString("en")}`);
    // a sparse list (only a script can make one): a hole is refused as null is, never skipped
    for (let i = 0; i < record.events.length; i++) if (!(i in record.events)) fail(`event ${i}: must be an object, not a hole in the list`);
    return { N, G };
  }

  /* The scores in turn order from the player to move (solver/game/loop.py State.frame). */
  function frameOf(st) {
    const N = st.scores.length, f = [];
    for (let k = 0; k < N; k++) f.push(st.scores[(st.seat + k) % N]);
    return f;
  }

  function newState(N) {
    return { scores: new Array(N).fill(0), seat: 0, t: 0, n: N_DICE, phase: "start", winner: null, last: null,
             bySeat: Array.from({ length: N }, () => []),
             nutsDice: null };
  }

  /* Apply one event to a replay state (in place). Throws GonutsInputError naming the problem. */
  function apply(st, ev, i, ctx) {
    const { N, G, you } = ctx;
    const where = `event ${i}`;
    if (ev === null || typeof ev !== "object" || Array.isArray(ev)) fail(`${where}: must be an object, not ${show(ev)}`);
    const keys = Object.keys(ev);
    const kinds = ["roll", "choice", "nuts", "banked"].filter((k) => k in ev);
    const extra = keys.filter((k) => !["seat", "roll", "choice", "nuts", "banked"].includes(k));
    if (kinds.length !== 1 || extra.length) fail(`${where}: needs "seat" and exactly one of roll, choice, nuts, banked (got ${keys.sort().join(", ") || "nothing"})`);
    const kind = kinds[0], value = ev[kind];
    if (st.phase === "over") fail(`${where}: the game is already over (seat ${st.winner} reached ${G})`);
    if (ev.seat !== st.seat) fail(`${where}: seat ${show(ev.seat)} is not the player to move (seat ${st.seat} is)`);
    const expect = { start: "a roll or a banked turn", roll: "a roll", decide: "a choice", nuts: "the acorns of the Go Nuts! round" }[st.phase];
    const endTurn = (gain) => {
      st.scores[st.seat] += gain;
      st.last = { seat: st.seat, gain };
      st.nutsDice = null;
      if (st.scores[st.seat] >= G) { st.winner = st.seat; st.phase = "over"; return; }
      st.seat = (st.seat + 1) % N; st.t = 0; st.n = N_DICE; st.phase = "start";
    };
    if (kind === "banked") {
      if (st.phase !== "start") fail(`${where}: a banked turn must replace a whole turn; expected ${expect}`);
      if (st.seat === you && !ctx.table) fail(`${where}: your own turns are entered roll by roll, not as a banked total`);
      if (!isWhole(value)) fail(`${where}: banked points must be a whole number of 0 or more, not ${show(value)}`);
      endTurn(value);
    } else if (kind === "roll") {
      if (st.phase !== "start" && st.phase !== "roll") fail(`${where}: expected ${expect}, not a roll`);
      if (!Array.isArray(value) || value.length !== 3 || !value.every((x) => isWhole(x))) {
        fail(`${where}: a roll is [acorns, squirrels, cars], three whole numbers of 0 or more, not ${show(value)}`);
      }
      const [a, s, c] = value, n = st.n;
      if (a + s + c !== n) fail(`${where}: ${a}+${s}+${c} = ${a + s + c} dice, but ${n} ${n === 1 ? "die is" : "dice are"} live`);
      const m = ctx.reading.byFaces.get(`${n}:${a}:${s}:${c}`);
      if (m.kind === "bust") endTurn(0);
      else if (m.kind === "nuts") { st.phase = "nuts"; st.nutsDice = m.x; }
      else {
        st.t += m.x;
        st.n = m.live;
        if (st.scores[st.seat] + st.t >= G) endTurn(st.t);
        else st.phase = "decide";
      }
    } else if (kind === "choice") {
      if (st.phase !== "decide") fail(`${where}: expected ${expect}, not a choice`);
      if (value !== "roll" && value !== "stop") fail(`${where}: a choice is "roll" or "stop", not ${show(value)}`);
      st.bySeat[st.seat].push({ event: i, scores: frameOf(st), turn: st.t, dice: st.n, taken: value });
      if (value === "stop") endTurn(st.t); else st.phase = "roll";
    } else {
      if (st.phase !== "nuts") fail(`${where}: expected ${expect}, not a Go Nuts! round`);
      if (!isWhole(value)) fail(`${where}: the acorns of a Go Nuts! round are a whole number of 0 or more, not ${show(value)}`);
      endTurn(value + (ctx.reading.nutsReplaces ? 0 : st.t));
    }
    return st;
  }

  /* A record's setup. The rules come from the data of its reading; no table is needed to replay it. */
  function context(record) {
    const { N, G } = header(record);
    return { N, G, reading: reading(record.rules), you: record.you, table: record.mode === "table" };
  }

  /* The state after every event of the record; throws on the first impossible one. */
  function replay(record) {
    const ctx = context(record);
    const st = newState(ctx.N);
    record.events.forEach((ev, i) => apply(st, ev, i, ctx));
    return Object.assign(st, { events: record.events.length, decisions: st.bySeat[ctx.you] });
  }

  /* A record file's bytes -> its JSON, by the rules of solver/play/record.py parse_bytes (tests/fixtures/
   * record_files.json): UTF-8 with or without a byte-order mark, anything else refused by name; bounded
   * size and nesting. */
  const BOMS = [[[0xFF, 0xFE, 0, 0], "UTF-32 (little-endian)"], [[0, 0, 0xFE, 0xFF], "UTF-32 (big-endian)"],
                [[0xFF, 0xFE], "UTF-16 (little-endian)"], [[0xFE, 0xFF], "UTF-16 (big-endian)"]];
  function nesting(text) {
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
  function recordFromBytes(bytes, name) {
    const R = data.record;
    if (bytes.length > R.max_bytes) fail(`${name} is ${bytes.length.toLocaleString("en")} bytes; a game record is at most ${R.max_bytes.toLocaleString("en")}`);
    for (const [bom, encoding] of BOMS) {
      if (bom.every((b, i) => bytes[i] === b)) fail(`${name} is ${encoding} text, not UTF-8: save it as UTF-8`);
    }
    let text;
    try { text = new TextDecoder("utf-8", { fatal: true }).decode(bytes); } catch (e) { fail(`${name} is not UTF-8 text`); }
    if (nesting(text) > R.max_depth) fail(`${name} nests deeper than ${R.max_depth} levels; a game record needs 4`);
    try { return JSON.parse(text); } catch (e) { fail(`${name} is not JSON`); }
  }

  /* Where a record leaves the game, in the form of solver/play/record.py's Replay.state(). */
  function replayState(record) {
    const st = replay(record);
    return { scores: st.scores, winner: st.winner, seat: st.seat, turn: st.t, dice: st.n, phase: st.phase,
             nuts_dice: st.nutsDice, events: st.events,
             decisions: st.decisions.map((d) => ({ event: d.event, scores: d.scores, turn: d.turn, dice: d.dice, taken: d.taken })) };
  }

  /* Would this event be accepted next? Returns null, or the message of the refusal. */
  function check(record, ev) {
    try { replay(Object.assign({}, record, { events: record.events.concat([ev]) })); return null; }
    catch (e) { if (e instanceof GonutsInputError) return e.message.replace(/^event \d+: /, ""); throw e; }
  }

  /* Luck against skill (solver/play/luck.py): every seat's change in win probability over the record,
   * split by what moved it. W(state) is the start-of-turn value at a turn's start, the optimal action's
   * value at a decision, rolling's value once rolling is chosen, a Go Nuts! round's expectation before its
   * acorns, and 1 or 0 at the end; each event's W(after) - W(before) counts as luck (a roll, a round's
   * acorns), own or others' decisions (a choice, by the seat that made it) or banked turns. */
  function luckSplit(record, g, valuesAt) {
    const ctx = context(record), N = ctx.N, W1 = N_DICE + 1;
    const seatOrder = (vec, seat) => Array.from({ length: N }, (_, k) => vec[(k - seat + N) % N]);
    const at = (arr, t, n) => Array.from(arr.subarray((t * W1 + n) * N, (t * W1 + n) * N + N));
    function value(st) {
      if (st.phase === "over") return Array.from({ length: N }, (_, k) => (k === st.winner ? 1 : 0));
      const frame = frameOf(st);
      if (st.phase === "start") {
        const i = flat(g, frame);
        return seatOrder(Array.from({ length: N }, (_, j) => g.w(i, j)), st.seat);
      }
      const v = valuesAt(frame);
      if (st.phase === "nuts") {
        const pay = g.payout[st.nutsDice], base = reading(g.reading).nutsReplaces ? 0 : st.t, out = new Array(N).fill(0);
        for (let x = 0; x < pay.length; x++) { const p = pay[x]; if (p) for (let k = 0; k < N; k++) out[k] += p * v.C[base + x][k]; }
        return seatOrder(out, st.seat);
      }
      return seatOrder(at(st.phase === "roll" ? v.rollV : v.best, st.t, st.n), st.seat);
    }
    const parts = Array.from({ length: N }, () => ({ luck: 0, own_decisions: 0, others_decisions: 0, banked_turns: 0 }));
    const st = newState(N);
    const first = value(st);
    let before = first;
    record.events.forEach((ev, i) => {
      const mover = st.seat, kind = ["roll", "choice", "nuts", "banked"].find((k) => k in ev);
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

  // -- practice ---------------------------------------------------------------------------------
  /* The draw of solver/play/practice.py, step for step: seeded games of optimal play with the seeded dice
   * of play mode, picking about half close calls and half clear ones on the way, then a seeded shuffle.
   * Returns objects with the keys of `advise --json` (and `close`). */
  function practiceIn(g, seed, count) {
    const P = data.practice, N = g.players, W1 = N_DICE + 1;
    const need = { true: Math.floor(count / 2), false: count - Math.floor(count / 2) };
    const r = rng(seed), picked = [], seen = new Set(), valuesAt = memoValues(g);
    const ctx = { N, G: g.target, reading: reading(g.reading), you: 0, table: true };
    const opponents = Array.from({ length: N - 1 }, (_, k) => k + 1);
    for (let games = 0; games < P.max_games && picked.length < count; games++) {
      const st = newState(N);
      while (st.phase !== "over" && picked.length < count) {
        if (st.phase === "nuts") {
          apply(st, { seat: st.seat, nuts: nutsRound(r, g.rules, st.nutsDice, opponents).acorns }, 0, ctx);
        } else if (st.phase !== "decide") {
          apply(st, { seat: st.seat, roll: rollDice(r, g.rules, st.n).counts }, 0, ctx);
        } else {
          const frame = frameOf(st), fk = frame.join(",");
          const v = valuesAt(frame), at = (st.t * W1 + st.n) * N;
          const roll = vec(v.rollV, at, N), stop = vec(v.stopV, at, N), gap = Math.abs(roll[0] - stop[0]);
          const key = `${fk}|${st.t}|${st.n}`;
          if (gap >= P.skip && !seen.has(key)) {
            const u = r.next(), close = gap < P.close;
            const slot = need[close] > 0 ? close : games >= P.fill_after && need[!close] > 0 ? !close : null;
            if (u < (close ? P.p_close : P.p_clear) && slot !== null) {
              need[slot]--; seen.add(key);
              picked.push({ scores: frame, turn: st.t, dice: st.n, action: roll[0] > stop[0] ? "roll" : "stop", reason: "optimal",
                            win_if_roll: roll[0], win_if_stop: stop[0], players_if_roll: roll, players_if_stop: stop,
                            rules: rulesDict(g), close });
            }
          }
          apply(st, { seat: st.seat, choice: roll[0] > stop[0] + P.tie ? "roll" : "stop" }, 0, ctx);
        }
      }
    }
    if (picked.length < count) fail(`${P.max_games} games of ${N} players to ${g.target} gave only ${picked.length} different decisions of the ${count} asked for: ask for fewer`);
    for (let i = picked.length - 1; i > 0; i--) {
      const j = Math.floor(r.next() * (i + 1));
      [picked[i], picked[j]] = [picked[j], picked[i]];
    }
    return picked;
  }
  /* window.gonuts.practice: {seed, count = 10, players = 2, rules = "rulebook"}. */
  function practiceQuery(q) {
    if (q === null || typeof q !== "object" || Array.isArray(q)) fail("practice takes one object: {seed, count, players, rules}");
    const seed = q.seed === undefined ? 0 : q.seed, count = q.count === undefined ? 10 : q.count;
    const players = q.players === undefined ? 2 : q.players;
    if (!Number.isInteger(seed) || seed < 0 || seed > 4294967295) fail(`seed must be a whole number from 0 to 4294967295, not ${show(q.seed)}`);
    if (!Number.isInteger(count) || count < 1 || count > data.practice.max_count) fail(`count must be from 1 to ${data.practice.max_count}, not ${show(q.count)}`);
    if (!Number.isInteger(players) || players < 2 || players > 4) fail(`players must be 2, 3 or 4, not ${show(q.players)}`);
    return { seed, count, players, rules: readingOf(q.rules) };
  }
  const practice = (q) => { const p = practiceQuery(q); return practiceIn(game(p.players, p.rules), p.seed, p.count); };
  /* The daily set's seed: the date as the number YYYYMMDD. */
  const dailySeed = (y, m, d) => y * 10000 + m * 100 + d;

  /* Every decision of one seat (default: the record's `you`) against the optimal one, and the seat's luck
   * split: the numbers of `gonuts-solve review --seat K --json`. The record's game must be loaded. */
  /* The game a record is played in, if this page has it; and one backup per score state, remembered. */
  function recordGame(record) {
    const ctx = context(record);
    const g = data.games[gameKey(ctx.N, record.rules)] ? game(ctx.N, record.rules) : null;
    if (!g || ctx.G !== g.target) fail(`this page has no table for ${ctx.N} players, ${record.rules}, target ${ctx.G}`);
    return { ctx, g };
  }
  function memoValues(g) {
    const memo = new Map();      // one backup per score state: a turn's decisions share it
    return (scores) => {
      const key = scores.join(",");
      if (!memo.has(key)) { if (memo.size > 256) memo.clear(); memo.set(key, values(g, scores)); }
      return memo.get(key);
    };
  }
  /* Every seat's luck split of a record (solver/play/luck.py split). */
  function luck(record) {
    const { g } = recordGame(record);
    replay(record);
    return luckSplit(record, g, memoValues(g));
  }

  function review(record, seat) {
    const { ctx, g } = recordGame(record);
    const st = replay(record);
    const who = seat === undefined ? record.you : seat;
    if (!Number.isInteger(who) || who < 0 || who >= ctx.N) fail(`seat ${show(who)} does not exist with ${ctx.N} players (0 to ${ctx.N - 1})`);
    const valuesAt = memoValues(g);
    const decisions = st.bySeat[who].map((d) => {
      const a = d.scores[0] + d.turn >= g.target ? adviseIn(g, d.scores, d.turn, d.dice) : adviseIn(g, d.scores, d.turn, d.dice, valuesAt(d.scores));
      const best = Math.max(a.win_if_roll, a.win_if_stop);
      const took = d.taken === "roll" ? a.win_if_roll : a.win_if_stop;
      return { event: d.event, scores: d.scores, turn: d.turn, dice: d.dice, taken: d.taken, optimal: a.action,
               win_if_roll: a.win_if_roll, win_if_stop: a.win_if_stop, loss_points: 100 * (best - took) };
    });
    const ranked = decisions.slice().sort((x, y) => (y.loss_points - x.loss_points) || (x.event - y.event));
    return { rules: record.rules, players: ctx.N, target: ctx.G, you: record.you, seat: who, scores: st.scores,
             winner: st.winner, events: st.events, decisions,
             total_loss_points: decisions.reduce((acc, d) => acc + d.loss_points, 0),
             costliest: ranked.slice(0, 3).filter((d) => d.loss_points > 0).map((d) => d.event),
             ...luckSplit(record, g, valuesAt)[who] };
  }

  return {
    N_DICE, FORMAT, VERSION, GonutsInputError, show,
    games: () => Object.keys(data.games).sort(),
    game, load, loaded, reading, values, advise, adviseIn, explain, explainIn, stateValue, policy, policyName, readPolicy,
    rng, rollDice, nutsRound,
    replay, replayState, check, review, newState, apply, recordFromBytes, luck,
    practice, practiceQuery, practiceIn, dailySeed,
  };
}));
