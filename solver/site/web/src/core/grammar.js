/* The policy grammar: a computer player's name (optimal, hold:K, hold:K/D, dice:..., race:...), read
 * message for message as the command line reads it, and the players the page can run.
 * Twin: solver/lab/grammar.py (read, whole, thresholds_of, quote, clip); fixture: tests/fixtures/policies.json. */
import { fail, show, clip } from "./errors.js";
import { turnValues } from "./backup.js";

/** @typedef {import("./types.js").Game} Game */
/** @typedef {{kind: string, name: string, args: any[]}} Spec */
/** @typedef {(g: Game, scores: number[], t: number, n: number) => boolean} RollRule */

const BLANKS = /^[ \t\n\r\f\v]+|[ \t\n\r\f\v]+$/g;
const MAX_PACE = 1000;
/** @param {unknown} text */
const quote = (text) => show(String(text));

/** @param {string} text @param {string} label @param {string} what @param {number} lo @param {number} hi */
function whole(text, label, what, lo, hi) {
  if (!/^[0-9]+$/.test(text)) fail(`policy ${label}: ${what} must be a whole number, not ${quote(text)}`);
  const digits = text.replace(/^0+(?=.)/, "");
  const v = digits.length > 9 ? Infinity : Number(digits);
  if (!(v >= lo && v <= hi)) fail(`policy ${label}: ${what} must be from ${lo} to ${hi}, not ${clip(digits)}`);
  return v;
}
/** @param {string} text @param {string} label @param {number} G @param {number} D */
function thresholdsOf(text, label, G, D) {
  const parts = text.split("-");
  if (parts.length !== D) fail(`policy ${label}: give ${D} thresholds, one per number of live dice (1..${D})`);
  return parts.map((x) => whole(x, label, "threshold", 0, G));
}

/** {kind, name, args} of a policy name in a game to G with D live dice, or GonutsInputError.
 * @param {unknown} given @param {number} G @param {number} D @returns {Spec} */
export function read(given, G, D) {
  if (typeof given !== "string") return fail("a policy is a name such as optimal or hold:20");
  const spec = given.replace(BLANKS, "");
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
  return fail(`unknown policy ${quote(spec)}: use optimal, best, maxpoints, hold:K, hold:K/D, dice:K1-...-K${D}, race:K1-...-K${D}/P/E, a table .npz, or module:function`);
}

/** @type {Record<string, string>} */
const PAGE_CANNOT = {
  best: "best is solved for each game by the command line (gonuts-solve evaluate)",
  table: "a table file is read by the command line, not by the page",
  callable: "a Python function runs in the command line, not in the page",
};

/** A computer player of a game to G with D dice: {name, roll(g, scores in turn order from it, t, n)}. The
 * command line's policies the page cannot play (best, a table file, a Python function) are refused by name.
 * @param {unknown} spec @param {number} G @param {number} D @returns {{name: string, roll: RollRule}} */
export function player(spec, G, D) {
  const sp = read(spec, G, D);
  if (PAGE_CANNOT[sp.kind]) fail(`policy ${clip(sp.name)}: ${PAGE_CANNOT[sp.kind]}`);
  /** @param {number[]} scores @param {number} t */
  const wins = (scores, t) => scores[0] + t >= G;
  /** @type {RollRule} */
  let roll;
  if (sp.kind === "optimal") roll = (h, scores, t, n) => turnValues(h, scores).roll[t * (D + 1) + n] === 1;
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
