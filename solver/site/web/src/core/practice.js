/* The practice draw: seeded games of optimal play with the seeded dice of play mode, picking half close calls
 * and half clear ones on the way (never two from one turn), then a seeded shuffle; and the daily set's seed.
 * Twin: solver/play/practice.py (draw, check_count, daily_seed); fixture: tests/fixtures/practice.json. */
import { fail, show } from "./errors.js";
import { memoValues, vec } from "./backup.js";
import { newGame, frame } from "./loop.js";
import { apply } from "./events.js";
import { rng, rollDice, nutsRound } from "./dice.js";

/** @typedef {import("./types.js").Game} Game */
/** @typedef {import("./types.js").Reading} Reading */
/** @typedef {import("./types.js").Advice & {close: boolean}} Pick */
/** @typedef {{max_games: number, skip: number, close: number, close_round_adds: number, p_close: number, p_clear: number,
 *   fill_after: number, tie: number, max_count: number}} PracticeRules the page's data.practice */

/** Decisions as `gonuts-solve practice` draws them: objects with the keys of `advise --json` (and `close`).
 * @param {Game} g @param {Reading} reading @param {number} seed @param {number} count @param {PracticeRules} P
 * @returns {Pick[]} */
export function draw(g, reading, seed, count, P) {
  const N = g.players, W1 = g.dice + 1;
  /** @type {Record<string, number>} */
  const need = { true: Math.floor(count / 2), false: count - Math.floor(count / 2) };
  const r = rng(seed), valuesAt = memoValues(g);
  /** @type {Pick[]} */
  const picked = [];
  const seen = new Set();
  const ctx = { N, G: g.target, D: g.dice, reading, you: 0, table: true, refusals: {} };     // its events are legal
  const opponents = Array.from({ length: N - 1 }, (_, k) => k + 1);
  const near = reading.nutsReplaces ? P.close : P.close_round_adds;     // practice.py close_for
  for (let games = 0; games < P.max_games && picked.length < count; games++) {
    const st = newGame(N, g.dice);
    let turns = 0, taken = 0;               // this game's turns begun; the turn of the last pick (0: none)
    while (st.phase !== "over" && picked.length < count) {
      if (st.phase === "start") turns++;
      if (st.phase === "nuts") {
        apply(st, { seat: st.seat, nuts: nutsRound(r, g.rules, /** @type {number} */ (st.nutsDice), opponents).acorns }, 0, ctx);
      } else if (st.phase !== "decide") {
        apply(st, { seat: st.seat, roll: rollDice(r, g.rules, st.n).counts }, 0, ctx);
      } else {
        const f = frame(st), fk = f.join(",");
        const v = valuesAt(f), at = (st.t * W1 + st.n) * N;
        const roll = vec(v.rollV, at, N), stop = vec(v.stopV, at, N), gap = Math.abs(roll[0] - stop[0]);
        const key = `${fk}|${st.t}|${st.n}`;
        if (gap >= P.skip && !seen.has(key) && taken !== turns) {
          const u = r.next(), close = gap < near;
          const slot = need[String(close)] > 0 ? close : games >= P.fill_after && need[String(!close)] > 0 ? !close : null;
          if (u < (close ? P.p_close : P.p_clear) && slot !== null) {
            need[String(slot)]--; seen.add(key); taken = turns;
            picked.push({ scores: f, turn: st.t, dice: st.n, action: roll[0] > stop[0] ? "roll" : "stop", reason: "optimal",
                          win_if_roll: roll[0], win_if_stop: stop[0], players_if_roll: roll, players_if_stop: stop,
                          rules: JSON.parse(JSON.stringify(g.rules)), close });
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

/** window.gonuts.practice's query: {seed, count = 10, players = 2, reading = "rulebook"}, checked.
 * @param {any} q @param {number} maxCount @param {(q: any) => string} readingIn */
export function query(q, maxCount, readingIn) {
  if (q === null || typeof q !== "object" || Array.isArray(q)) fail("practice takes one object: {seed, count, players, reading}");
  const seed = q.seed === undefined ? 0 : q.seed, count = q.count === undefined ? 10 : q.count;
  const players = q.players === undefined ? 2 : q.players;
  if (!Number.isInteger(seed) || seed < 0 || seed > 4294967295) fail(`seed must be a whole number from 0 to 4294967295, not ${show(q.seed)}`);
  if (!Number.isInteger(count) || count < 1 || count > maxCount) fail(`count must be from 1 to ${maxCount}, not ${show(q.count)}`);
  if (!Number.isInteger(players) || players < 2 || players > 4) fail(`players must be 2, 3 or 4, not ${show(q.players)}`);
  return { seed, count, players, reading: readingIn(q) };
}

/** The daily set's seed: the date as the number YYYYMMDD. @param {number} y @param {number} m @param {number} d */
export const dailySeed = (y, m, d) => y * 10000 + m * 100 + d;
