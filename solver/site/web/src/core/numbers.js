/* Numbers as a person types them, read one way: the page's one whole-number reader (the forms, the
 * address), with the rule of the command line's.
 * Twin: solver/numbers.py (whole, MAX_DIGITS); fixture: tests/fixtures/numbers.json. */
import { fail, show } from "./errors.js";

export const MAX_DIGITS = 12;
const WHOLE = /^-?[0-9]+$/;
const BLANKS = /^[ \t\n\r\f\v]+|[ \t\n\r\f\v]+$/g;

/** A safe integer of at least lo (default 0): the check every record field gets. @param {unknown} x @param {number} [lo] */
export const isWhole = (x, lo) => Number.isSafeInteger(x) && /** @type {number} */ (x) >= (lo === undefined ? 0 : lo);

/** The words of a range, as a catalogue key. @param {number | null} lo @param {number | null} hi */
function span(lo, hi) {
  if (lo !== null && hi !== null) return "{what} must be from {lo} to {hi}, not {value}";
  return lo !== null ? "{what} must be at least {lo}, not {value}" : "{what} must be at most {hi}, not {value}";
}
/** @param {string} key @param {Record<string, any>} params */
const fill = (key, params) => key.replace(/\{(\w+)\}/g, (_, k) => String(params[k]));

/**
 * One whole number in [lo, hi] (either bound may be null): ASCII digits, optionally after a minus sign (so
 * that -3 is out of range, not "not a number"), with ASCII blanks around; no plus, no other digits, no
 * exponent. Refusals carry their catalogue key and its values (the page says them in the player's language).
 * @param {unknown} text @param {string} what @param {number | null} [lo] @param {number | null} [hi]
 * @returns {number}
 */
export function whole(text, what, lo = 0, hi = null) {
  const s = String(text).replace(BLANKS, "");
  if (!WHOLE.test(s)) {
    const key = "{what} must be a whole number (digits 0-9), not {text}", params = { what, text: show(String(text)) };
    fail(fill(key, params), key, params);
  }
  const digits = s.replace(/^-/, "").replace(/^0+/, "") || "0";
  if (digits.length > MAX_DIGITS) {
    const key = hi !== null ? "{what} must be at most {hi}, not a number of {digits} digits"
      : "{what} must be less than 10^{max}, not a number of {digits} digits";
    const params = { what, hi, max: MAX_DIGITS, digits: digits.length };
    fail(fill(key, params), key, params);
  }
  const value = Number(s) + 0;          // "-0" is 0
  if ((lo !== null && value < lo) || (hi !== null && value > hi)) {
    const key = span(lo, hi), params = { what, lo, hi, value: show(value) };
    fail(fill(key, params), key, params);
  }
  return value;
}
