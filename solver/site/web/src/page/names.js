/* A player's name as a person sees it: bidirectional controls, invisible characters and other controls removed,
 * its length in what a person counts as characters (grapheme clusters), one comparison in every language that
 * ignores what cannot be seen; and any text a player typed as a spreadsheet cell (csvCell).
 * Twin: solver/play/names.py (clean_name, name_key; its NAME_MAX and MARKS_MAX reach the page as data.record.names). */
const HIDDEN = /(?![\u200c\u200d])[\p{Cc}\p{Cf}\u115f\u1160\u3164\uffa0]/gu;     // ZWNJ and ZWJ join letters and emoji
const BLANK = /\u2800/gu;                                  // a blank Braille pattern shows as a space
const VISIBLE = /[\p{L}\p{N}\p{S}\p{P}]/u;

/** A name as the page keeps it, or "" when nothing visible is left; a letter keeps at most `marks` combining
 * marks (the page's data.record.names.marks: Vietnamese needs two, and 200 would spill over the lines around).
 * @param {unknown} text @param {number} marks */
export const cleanName = (text, marks) => {
  const name = String(text).normalize("NFC").replace(HIDDEN, "").replace(BLANK, " ")
    .replace(new RegExp(`(\\p{M}{${marks}})\\p{M}+`, "gu"), "$1").replace(/\s+/g, " ").trim();
  return VISIBLE.test(name) ? name : "";
};
/** @type {Intl.Segmenter | null | undefined} made on first use: it loads locale data */
let seen;
/** A text's grapheme clusters (what a person counts as characters). @param {string} text @returns {string[]} */
export const letters = (text) => {
  if (seen === undefined) {
    seen = typeof Intl !== "undefined" && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;
  }
  return seen ? [...seen.segment(text)].map((x) => x.segment) : Array.from(text);
};
/** @param {string} text */
export const graphemes = (text) => letters(text).length;
/** The shortest form of each name that still tells it from every other: its first letters up to the first
 * that no other name shares, or, when names differ only at the end ("Player 1", "Player 2"), its first letter,
 * an ellipsis and the last letters that no other name ends with; at least three letters from the start. A name
 * that needs all its letters is whole.
 * @param {string[]} names @returns {string[]} */
export function shortNames(names) {
  const low = names.map((n) => letters(n.normalize("NFKC").toLowerCase()));
  return names.map((name, i) => {
    const g = letters(name), mine = low[i], others = low.filter((_, j) => j !== i);
    const starts = (/** @type {string[]} */ o, /** @type {number} */ k) => k <= o.length && o.slice(0, k).join("") === mine.slice(0, k).join("");
    const ends = (/** @type {string[]} */ o, /** @type {number} */ k) => k <= o.length && o.slice(-k).join("") === mine.slice(-k).join("");
    let k = 1;
    while (k < g.length && others.some((o) => starts(o, k))) k++;
    k = Math.max(k, Math.min(3, g.length));                    // three letters read better than one, where they fit
    let e = 1;
    while (e < g.length && others.some((o) => ends(o, e))) e++;
    const byEnd = e < g.length - 1 ? `${g[0]}\u2026${g.slice(-e).join("")}` : null;
    const byStart = k < g.length ? `${g.slice(0, k).join("")}\u2026` : name;
    const best = byEnd && letters(byStart).length > 4 && letters(byEnd).length < letters(byStart).length ? byEnd : byStart;
    return letters(best).length < g.length ? best : name;           // a short form no shorter than the name is the name
  });
}
const IGNORED = /\p{Default_Ignorable_Code_Point}/gu;
/** What a person sees of a name, to compare: compatibility forms folded, Unicode's case mapping (not the locale's:
 * "I" is "ı" in Turkish), and nothing that cannot be seen ("Ann" with a joiner inside is "Ann").
 * @param {string} name */
export const nameKey = (name) => name.normalize("NFKC").toLowerCase().replace(IGNORED, "").replace(/\s+/g, " ").trim();
/** One name in every browser language. @param {string} a @param {string} b */
export const sameName = (a, b) => nameKey(a) === nameKey(b);
/** A CSV field: numbers as they are; every text field quoted, and one that a spreadsheet would run as a formula
 * (a leading =, +, -, at sign, tab or CR) kept as text by a leading apostrophe. A spreadsheet that splits on
 * another separator (";" in many European locales, or a tab) reads quotes only at a field's start and so splits
 * inside this one: a formula start after a comma, semicolon, tab or line break is kept as text the same way.
 * @param {unknown} v */
export const csvCell = (v) => {
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  const text = String(v).replace(/^(?=[=+\-@\t\r])/, "'").replace(/([,;\t\r\n])(?=[=+\-@])/g, "$1'");
  return `"${text.replace(/"/g, '""')}"`;
};
