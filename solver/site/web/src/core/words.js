/* The page's words: every string it shows comes from one message catalogue per language (solver/site/web/
 * messages/*.json, keyed by the English text, as gettext does), with numbers through Intl.NumberFormat and
 * plurals through Intl.PluralRules; and the sentences the command line also says (the why, one in N).
 * Twin: solver/play/words.py (one_in, explain, points); fixture: the catalogues (tests/js/words.test.mjs). */

/** @typedef {Record<string, string | Record<string, string>>} Catalogue */
/** @typedef {Record<string, string | number | null | undefined>} Params */

export const LANGUAGES = /** @type {const} */ (["en", "es", "fr", "de"]);
/** @typedef {typeof LANGUAGES[number]} Lang */

/** The page's language that a tag names, or null: "de", "DE", "de-AT" and "de_DE" are all de.
 * @param {unknown} tag @returns {Lang | null} */
export function languageOf(tag) {
  const base = String(tag).trim().toLowerCase().split(/[-_]/)[0];
  return LANGUAGES.find((l) => l === base) || null;
}
/** The first of a browser's languages that the page has ("de-AT" is de), else English.
 * @param {readonly string[]} wanted @returns {Lang} */
export function pickLanguage(wanted) {
  for (const w of wanted) {
    const hit = languageOf(w);
    if (hit) return hit;
  }
  return "en";
}

/** @param {Record<string, Catalogue>} catalogues @param {Lang} [start] */
export function makeWords(catalogues, start) {
  /** @type {Lang} */
  let lang = start || "en";
  /* Intl's formatters load locale data when made (tens of ms on a slow phone): each is made on first use and
   * kept per language. */
  /** @type {Map<string, any>} */
  const made = new Map();
  /** @template T @param {string} name @param {() => T} make @returns {T} */
  const once = (name, make) => {
    const key = `${lang}:${name}`;
    let f = made.get(key);
    if (f === undefined) { f = make(); made.set(key, f); }
    return f;
  };
  const plurals = () => once("plural", () => new Intl.PluralRules(lang));
  const whole = () => once("whole", () => new Intl.NumberFormat(lang, { maximumFractionDigits: 0, useGrouping: true }));
  const percent = () => once("pct", () => new Intl.NumberFormat(lang,
    { style: "percent", minimumFractionDigits: 2, maximumFractionDigits: 2 }));
  const pct0 = () => once("pct0", () => new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }));
  /** The language's decimal mark ("." or ","). */
  const mark = () => once("mark", () => {
    const part = new Intl.NumberFormat(lang).formatToParts(1.5).find((x) => x.type === "decimal");
    return part ? part.value : ".";
  });

  /** A whole number under 1000 is written alike in all four languages (no grouping, ASCII digits and minus), so
   * the start-up screen needs no locale data for its counts; a test holds it to Intl.
   * @param {number} x */
  const plain = (x) => Number.isInteger(x) && Math.abs(x) < 1000;

  /** @param {Lang} to */
  function setLanguage(to) { lang = to; }

  /** x with d decimals, in the language's digits. @param {number} x @param {number} d */
  function fixed(x, d) {
    return once(`fixed${d}`, () => new Intl.NumberFormat(lang, { minimumFractionDigits: d, maximumFractionDigits: d }))
      .format(x === 0 ? 0 : x);
  }
  /** A probability as a percentage with 2 decimals ("42.40%", "42,40 %"), or a dash. @param {number | null | undefined} x */
  const pct = (x) => (x === null || x === undefined) ? "\u2013" : percent().format(x);
  /** A whole number ("1,234", "1.234"). @param {number} x */
  const num = (x) => plain(x) ? String(x) : whole().format(x);
  /** A signed number of points with one decimal, a true minus sign for a loss. @param {number} x */
  const signed = (x) => { const v = Math.round(1000 * x) / 10 + 0; return `${v >= 0 ? "+" : "\u2212"}${fixed(Math.abs(v), 1)}`; };

  /** The message of `key` in the language, its {placeholders} filled (numbers in the language: whole ones
   * grouped, others with its decimal mark), its plural chosen
   * by params.n. A key missing from a catalogue falls back to English (a test keeps them complete).
   * @param {string} key @param {Params} [params] @returns {string} */
  function t(key, params) {
    const own = catalogues[lang], en = catalogues.en;
    let msg = (own && own[key] !== undefined ? own[key] : en && en[key] !== undefined ? en[key] : key);
    const p = params || {};
    if (typeof msg === "object") {
      const n = typeof p.n === "number" ? p.n : 0;
      msg = msg[plurals().select(n)] || msg.other;
    }
    return msg.replace(/\{(\w+)\}/g, (all, name) => {
      const v = p[name];
      if (v === undefined || v === null) return all;
      if (typeof v !== "number") return v;
      if (Number.isInteger(v)) return plain(v) ? String(v) : whole().format(v);
      return String(v).replace(".", mark());     // its own digits, the language's mark: "6.1 s", "6,1 s"
    });
  }

  /** The chance of a roll's outcome as a person says it: "1 in 16", "25%", "never". @param {number} p */
  const oneIn = (p) => p <= 0 ? t("never") : p < 0.5 ? t("1 in {k}", { k: Math.round(1 / p) }) : pct0().format(p);

  /** The why of a decision in one or two plain sentences (text.py explain).
   * @param {import("./types.js").Advice} a @param {import("./types.js").Why} e @param {string} reading */
  function why(a, e, reading) {
    const h = e.turn_gain_if_roll.length - 1;
    const dice = t("{n} dice", { n: a.dice });
    const stop = e.stop_at < h ? t("With {dice} here, optimal play stops at {k}.", { dice, k: e.stop_at })
      : t("With {dice} here, optimal play rolls on to the target.", { dice });
    const refill = e.p_one_die_refill > 0 ? t(", {chance} all five dice back", { chance: oneIn(e.p_one_die_refill) }) : "";
    const mean = fixed(e.nuts_mean, 1);
    const nuts = reading === "summary"
      ? t("{chance} a Go Nuts! round ({mean} acorns on average, added to the turn's points)", { chance: oneIn(e.p_all_squirrels), mean })
      : t("{chance} a Go Nuts! round ({mean} acorns on average, replacing the turn's points)", { chance: oneIn(e.p_all_squirrels), mean });
    const cars = oneIn(e.p_all_cars);
    const risk = a.turn > 0
      ? t("Rolling risks your {n} points: {cars} all cars; {nuts}{refill}.", { n: a.turn, cars, nuts, refill })
      : t("The next roll: {cars} all cars, {nuts}{refill}.", { cars, nuts, refill });
    return `${risk} ${stop} ${t("Rolling now, this turn adds {mean} points on average.", { mean: fixed(e.turn_gain_mean_if_roll, 1) })}`;
  }

  /** "2 acorns, 2 squirrels, 1 car". @param {number[]} c */
  const counts = (c) => t("{acorns}, {squirrels}, {cars}", { acorns: t("{n} acorns", { n: c[0] }),
    squirrels: t("{n} squirrels", { n: c[1] }), cars: t("{n} cars", { n: c[2] }) });

  return { t, pct, num, fixed, signed, oneIn, why, counts, setLanguage, get lang() { return lang; } };
}
/** @typedef {ReturnType<typeof makeWords>} Words */
