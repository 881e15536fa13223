/* Refusals and how they quote what they refuse.
 * Twin: solver/errors.py (show); fixture: tests/fixtures/records.json (every refusal's exact words). */

/** Characters of an offending value that a message repeats. */
export const SHOWN = 60;

/** A refusal of bad input: its message is the one the command line gives. `key` and `params` name it in
 * the page's message catalogue, when the page says it in the player's language. */
export class GonutsInputError extends Error {
  /** @param {string} message @param {string} [key] @param {Record<string, any>} [params] */
  constructor(message, key, params) {
    super(message);
    this.name = "GonutsInputError";
    this.key = key;
    this.params = params;
  }
}

/** @param {string} message @param {string} [key] @param {Record<string, any>} [params] @returns {never} */
export function fail(message, key, params) { throw new GonutsInputError(message, key, params); }

/** A value as a refusal repeats it: its JSON text, cut to SHOWN characters; a number that is not finite named
 * (solver/errors.py show).
 * @param {unknown} value */
export function show(value) {
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);   // "NaN", never JSON's "null"
  let text;
  try { text = value === undefined ? "null" : JSON.stringify(value); } catch (e) { text = typeof value; }
  if (text === undefined) text = typeof value;
  const cps = Array.from(text);
  return cps.length <= SHOWN ? text : `${cps.slice(0, SHOWN).join("")}... (${cps.length} characters)`;
}

/** Text cut to SHOWN characters, marked with "..." (solver/lab/grammar.py clip). @param {string} text */
export function clip(text) {
  const cps = Array.from(text);
  return cps.length <= SHOWN ? text : cps.slice(0, SHOWN).join("") + "...";
}

/** Refuse with a catalogue key (the English text with {placeholders}) and its values: the message is the
 * English, and the page says it in the player's language. @param {string} key @param {Record<string, any>} [params]
 * @returns {never} */
export function refuse(key, params) {
  const p = params || {};
  throw new GonutsInputError(key.replace(/\{(\w+)\}/g, (all, k) => (k in p ? String(p[k]) : all)), key, p);
}
