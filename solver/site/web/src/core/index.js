/* The page's pure core: makeCore(data) binds the modules to the page's data (solver/site/pagegames.py
 * page_data: the rules as data and each table's game) and returns functions of plain values. No DOM, no
 * globals read, no I/O of its own. window.gonuts is this object's scriptable face (page/api.js).
 *   advise({scores, turn, dice, reading, target, speed}) -> the object of `gonuts-solve advise --json`
 *   explain(same)                        -> its why (`explain --json`)
 *   replay(record) / review(record, seat) / reviews(record) / luck(record)
 *   policy(spec, {players, reading}), rng(seed), rollDice, nutsRound: play mode's computer and dice
 *   practice({seed, count, players, reading}) -> decisions drawn as `gonuts-solve practice` draws them
 *   solveGame(kernel, kernelData, progress) -> a game solved by the WebAssembly kernel (core/solve.js) */
import { GonutsInputError, fail, show } from "./errors.js";
import { makeGames } from "./pagevalues.js";
import { turnValues, memoValues, stateValue } from "./backup.js";
import { advise as adviseAt } from "./advise.js";
import { explain as explainAt } from "./explain.js";
import { read as readPolicy, player } from "./grammar.js";
import { rng, rollDice, nutsRound } from "./dice.js";
import { newGame, frame, copy, noteOf } from "./loop.js";
import { apply } from "./events.js";
import * as records from "./record.js";
import { split } from "./luck.js";
import * as practice from "./practice.js";
import { solveGame } from "./solve.js";

/** @typedef {import("./types.js").GameRecord} GameRecord */
/** @typedef {import("./types.js").GameEvent} GameEvent */
/** @typedef {import("./types.js").State} State */
/** @typedef {import("./types.js").Game} Game */
/** @typedef {import("./types.js").Advice} Advice */
/** @typedef {import("./types.js").Why} Why */
/** @typedef {import("./record.js").Review} Review */
/** @typedef {ReturnType<typeof makeCore>} Core */

/** @param {any} data */
export function makeCore(data) {
  const games = makeGames(data);
  const { reading, game } = games;
  const R = data.record;
  const N_DICE = reading("rulebook").dice;

  /** The reading a query asks for: `reading` ("rulebook" by default), or `rules`, its older name; not both.
   * @param {any} q */
  function readingIn(q) {
    if (q.reading !== undefined && q.rules !== undefined) fail("give the reading once: reading (or its older name, rules), not both", "give the reading once: reading (or its older name, rules), not both", {});
    const name = q.reading !== undefined ? q.reading : q.rules;
    const r = name === undefined ? "rulebook" : name;
    if (r !== "rulebook" && r !== "summary") fail(`reading must be "rulebook" or "summary", not ${show(name)}`);
    return /** @type {string} */ (r);
  }
  /** A game's target and speed as a query gives them (the page's target and the printed speed by default).
   * @param {any} q @returns {[number | undefined, number | undefined]} */
  function targetSpeed(q) {
    const target = q.target, speed = q.speed;
    if (target !== undefined && !(Number.isInteger(target) && target >= 1)) fail(`target must be a whole number of at least 1, not ${show(target)}`);
    if (speed !== undefined && !(typeof speed === "number" && speed > 0 && speed <= 100)) fail(`speed must be a number above 0 and at most 100, not ${show(speed)}`);
    return [target, speed];
  }
  /** One state asked about by window.gonuts: {scores: [yours, next, ...], turn = 0, dice = 5, reading, target, speed}. Every
   * field is read once into a copy, then checked and used: a getter cannot answer one value to the check and
   * another to the computation, and a hole in a sparse list is refused, never read as a score.
   * @template T @param {string} what @param {any} q @param {(g: Game, s: number[], t: number, d: number) => T} inner */
  function ask(what, q, inner) {
    if (q === null || typeof q !== "object") fail(`${what} takes one object: {scores, turn, dice, reading}`);
    const given = q.scores, turn = q.turn, dice = q.dice, reading_ = readingIn(q), [target, speed] = targetSpeed(q);
    if (!Array.isArray(given) || given.length < 2) fail("scores must list 2 or more banked scores, yours first");
    const scores = [];
    for (let i = 0; i < given.length; i++) {
      if (!(i in given)) fail(`scores must list 2 or more banked scores, yours first: a hole at place ${i + 1}`);
      scores.push(given[i]);
    }
    const g = game(scores.length, reading_, target, speed);
    return inner(g, scores, turn === undefined ? 0 : turn, dice === undefined ? N_DICE : dice);
  }
  /** @param {GameRecord} record */
  const context = (record) => records.context(record, R, reading);
  /** @param {GameRecord} record */
  const replay = (record) => records.replay(record, context(record));
  /** The game a record is played in, if this page has it. @param {GameRecord} record */
  function recordGame(record) {
    const ctx = context(record), speed = record.speed === undefined ? 1 : record.speed, name = ctx.reading.name;
    if (!games.offered(ctx.N, name, ctx.G, speed)) fail(`this page has no table for ${ctx.N} players, ${name}, target ${ctx.G}${speed === 1 ? "" : `, Go Nuts! speed ${show(speed)}`}`);
    return { ctx, g: game(ctx.N, name, ctx.G, speed) };
  }
  /** Every seat's review of a record, sharing one replay, one backup per turn and one luck split.
   * @param {GameRecord} record @returns {Review[]} */
  function reviews(record) {
    const { ctx, g } = recordGame(record);
    const st = records.replay(record, ctx), at = memoValues(g), splits = split(record, ctx, g, at);
    return Array.from({ length: ctx.N }, (_, k) => records.review(record, ctx, g, st, k, at, splits));
  }
  return {
    N_DICE, FORMAT: R.format, VERSION: R.version, GonutsInputError, show,
    games: games.games, game, load: games.load, loaded: games.loaded, reading, targetSpeed, readingIn,
    add: games.add, corner: games.corner, offered: games.offered, solvable: games.solvable, key: games.key, describe: games.describe,
    values: turnValues, memoValues, adviseIn: adviseAt, explainIn: explainAt, stateValue,
    /** @param {any} q @returns {Advice} */
    advise: (q) => ask("advise", q, (g, s, t, d) => adviseAt(g, s, t, d)),
    /** @param {any} q @returns {Why} */
    explain: (q) => ask("explain", q, (g, s, t, d) => explainAt(g, s, t, d)),
    readPolicy,
    /** A computer player: {name, roll(g, scores, t, n)}, for a game {players = 2, reading = "rulebook", target}.
     * @param {unknown} spec @param {any} [opts] */
    policy(spec, opts) {
      if (opts !== undefined && (opts === null || typeof opts !== "object")) fail("policy options are {players, reading, target, speed}");
      const o = opts || {};
      const players = o.players === undefined ? 2 : o.players;
      if (!Number.isInteger(players)) fail(`players must be a whole number, not ${show(String(players))}`);
      const [target, speed] = targetSpeed(o), reading_ = readingIn(o);
      if (!games.offered(players, reading_, target, speed)) games.rawGame(players, reading_);    // its refusal
      return player(spec, target === undefined ? games.rawGame(players, reading_).target : target, N_DICE);
    },
    /** @param {unknown} spec @param {any} [opts] */
    policyName(spec, opts) { return this.policy(spec, opts).name; },
    rng, rollDice, nutsRound,
    context, replay, frame, copy, apply, noteOf,
    /** A record's reading (its older records: "rules"). */
    readingOf: records.readingOf,
    /** What each event of a record did that the rules decide. @param {GameRecord} record */
    notes: (record) => records.notes(record, context(record)),
    /** @param {number} N */
    newState: (N) => newGame(N, N_DICE),
    /** @param {GameRecord} record */
    replayState: (record) => records.replayState(replay(record)),
    /** Would this event be accepted next? null, or the refusal's message.
     * @param {GameRecord} record @param {GameEvent} ev @param {State} [st] the record's state, if known */
    check(record, ev, st) {
      try {
        const ctx = context(record);
        apply(st ? copy(st) : records.replay(record, ctx), ev, record.events.length, ctx);
        return null;
      } catch (e) { return records.refusal(e); }
    },
    /** @param {Uint8Array} bytes @param {string} name */
    recordFromBytes: (bytes, name) => records.parseBytes(bytes, name, R),
    /** Every seat's luck split. @param {GameRecord} record */
    luck(record) {
      const { ctx, g } = recordGame(record);
      records.replay(record, ctx);
      return split(record, ctx, g, memoValues(g));
    },
    /** @param {GameRecord} record @param {number} [seat] */
    review(record, seat) {
      const { ctx, g } = recordGame(record);
      const st = records.replay(record, ctx);
      return records.review(record, ctx, g, st, seat === undefined ? record.you : seat);
    },
    reviews,
    /** @param {any} q */
    practice(q) {
      const p = practice.query(q, data.practice.max_count, readingIn), [target, speed] = targetSpeed(q);
      return practice.draw(game(p.players, p.reading, target, speed), reading(p.reading), p.seed, p.count, data.practice);
    },
    /** @param {any} q */
    practiceQuery: (q) => practice.query(q, data.practice.max_count, readingIn),
    /** @param {Game} g @param {number} seed @param {number} count */
    practiceIn: (g, seed, count) => practice.draw(g, reading(g.reading), seed, count, data.practice),
    dailySeed: practice.dailySeed,
    solveGame,
  };
}
