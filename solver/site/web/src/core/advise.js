/* One question from the table: at these scores, turn points and live dice, roll or stop? The object of
 * `gonuts-solve advise --json`, from one backup of the state (backup.js).
 * Twin: solver/play/advise.py (advise; its state checks are check_state of solver.game.states); fixture:
 * tests/fixtures/advice.json. */
import { fail, show } from "./errors.js";
import { flat, turnValues, vec } from "./backup.js";
import { mixAt } from "./pagevalues.js";

/** @typedef {import("./types.js").Game} Game */
/** @typedef {import("./types.js").Values} Values */
/** @typedef {import("./types.js").Advice} Advice */

/** @param {Game} g @param {unknown} scores @param {unknown} turn @param {unknown} dice
 * @returns {asserts scores is number[]} */
export function checkState(g, scores, turn, dice) {
  const N = g.players, G = g.target;
  if (!Array.isArray(scores)) fail("scores must be a list of banked scores, yours first");
  if (scores.length !== N) fail(`expected ${N} scores (one per player, the player to move first), got ${scores.length}`);
  for (const s of scores) {
    if (!Number.isInteger(s)) fail(`scores must be whole numbers, not ${show(s)}`);
    if (s < 0 || s >= G) fail(`score ${s} is outside 0..${G - 1}: a banked score of ${G} or more has already won`);
  }
  if (!Number.isInteger(turn)) fail(`turn points must be a whole number, not ${show(turn)}`);
  if (/** @type {number} */ (turn) < 0) fail(`turn points must be 0 or more, not ${turn}`);
  if (!Number.isInteger(dice)) fail(`live dice must be a whole number, not ${show(dice)}`);
  if (/** @type {number} */ (dice) < 1 || /** @type {number} */ (dice) > g.dice) fail(`live dice must be from 1 to ${g.dice}, not ${dice}`);
}

/** @param {Game} g */
const rulesDict = (g) => JSON.parse(JSON.stringify(g.rules));

/** The advice at a state (the object of `gonuts-solve advise --json`); `v` is the state's backup if known.
 * @param {Game} g @param {number[]} scores @param {number} turn @param {number} dice @param {Values} [v]
 * @returns {Advice} */
export function advise(g, scores, turn, dice, v) {
  checkState(g, scores, turn, dice);
  const N = g.players, G = g.target;
  /** @type {Advice} */
  const out = { scores: scores.slice(), turn, dice, action: null, reason: null, win_if_roll: null,
                win_if_stop: null, players_if_roll: null, players_if_stop: null, rules: rulesDict(g) };
  if (scores[0] + turn >= G) {
    const e0 = new Array(N).fill(0); e0[0] = 1;
    return Object.assign(out, { action: "stop", reason: "reaches_target", win_if_stop: 1.0, players_if_stop: e0 });
  }
  const vals = v || turnValues(g, scores);
  const at = (turn * (g.dice + 1) + dice) * N;
  const ifRoll = vec(vals.rollV, at, N);
  out.players_if_roll = ifRoll;
  out.win_if_roll = ifRoll[0];
  if (turn === 0 && dice === g.dice) return Object.assign(out, { action: "roll", reason: "forced" });
  const ifStop = vec(vals.stopV, at, N);
  out.players_if_stop = ifStop;
  out.win_if_stop = ifStop[0];
  const q = turn * (g.dice + 1) + dice, p = mixAt(g, flat(g, scores), q);
  if (p !== null) {              // both actions give the mover the same chance; the likelier is the action
    return Object.assign(out, { action: p >= 0.5 ? "roll" : "stop", reason: "mixed", roll_probability: p });
  }
  out.action = vals.roll[q] ? "roll" : "stop";
  out.reason = "optimal";
  return out;
}
