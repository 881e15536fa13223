/* A player's name as a person sees it: bidirectional controls, invisible characters and other controls removed,
 * its length in what a person counts as characters (grapheme clusters), and one comparison in every language;
 * and any text a player typed as a spreadsheet cell (csvCell). */
const HIDDEN = /(?![\u200c\u200d])[\p{Cc}\p{Cf}\u115f\u1160\u3164\uffa0]/gu;     // ZWNJ and ZWJ join letters and emoji
const VISIBLE = /[\p{L}\p{N}\p{S}\p{P}]/u;

/** @param {unknown} text */
export const cleanName = (text) => {
  const name = String(text).normalize("NFC").replace(HIDDEN, "").replace(/\s+/g, " ").trim();
  return VISIBLE.test(name) ? name : "";
};
/** @type {Intl.Segmenter | null | undefined} made on first use: it loads locale data */
let seen;
/** @param {string} text */
export const graphemes = (text) => {
  if (seen === undefined) {
    seen = typeof Intl !== "undefined" && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;
  }
  return seen ? [...seen.segment(text)].length : Array.from(text).length;
};
/** One name in every browser language: Unicode's case mapping, not the locale's ("I" is "ı" in Turkish).
 * @param {string} a @param {string} b */
export const sameName = (a, b) => a.normalize("NFKC").toLowerCase() === b.normalize("NFKC").toLowerCase();
/** A CSV field: numbers as they are; every text field quoted (so no separator, comma or semicolon, splits it),
 * and one that a spreadsheet would run as a formula (a leading =, +, -, at sign, tab or CR) kept as
 * text by a leading apostrophe. @param {unknown} v */
export const csvCell = (v) => {
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  const text = /^[=+\-@\t\r]/.test(String(v)) ? `'${v}` : String(v);
  return `"${text.replace(/"/g, '""')}"`;
};
