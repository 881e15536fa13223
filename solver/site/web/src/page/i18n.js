/* The page in the player's language: the first of navigator.languages that the page has, or the one chosen
 * in the Language select (remembered), or ?lang=xx in a link. The page's fixed words carry data-t (their text
 * is the catalogue's key) and data-t-attr (attributes to translate); everything drawn later asks words.t. */
import { data } from "./context.js";
import { makeWords, pickLanguage, languageOf, LANGUAGES } from "../core/words.js";

/** @typedef {import("../core/words.js").Lang} Lang */
const KEY = "gonuts.language";
const askedTag = new URLSearchParams(location.search).get("lang");
const asked = askedTag === null ? null : languageOf(askedTag);
/** A ?lang= that names none of the page's languages (said at start), or null. */
export const unknownLanguage = askedTag !== null && !asked ? askedTag : null;
/** @returns {string | null} */
function remembered() { try { return localStorage.getItem(KEY); } catch (e) { return null; } }
/** @param {string | null} x @returns {x is Lang} */
const known = (x) => LANGUAGES.some((l) => l === x);
/* A browser may list no languages (an empty navigator.languages) and still say its one in navigator.language. */
const browsers = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
const first = asked || (() => { const r = remembered(); return known(r) ? r : pickLanguage(browsers); })();

/** The catalogues as the page carries them (webpage.py messages: the keys once, each language's messages in
 * their order, English's plural forms only) made keyed again, each language when it is first asked for (most
 * visits use one).
 * @param {{keys: string[], en: import("../core/words.js").Catalogue} & Record<string, any>} sent */
function keyed(sent) {
  /** @type {Record<string, import("../core/words.js").Catalogue>} */
  const out = { en: sent.en };
  for (const lang of LANGUAGES) {
    if (lang === "en") continue;
    Object.defineProperty(out, lang, {
      enumerable: true, configurable: true,
      get() {
        /** @type {import("../core/words.js").Catalogue} */
        const cat = {};
        sent.keys.forEach((k, i) => { cat[k] = sent[lang][i]; });
        Object.defineProperty(out, lang, { value: cat, enumerable: true });
        return cat;
      },
    });
  }
  return out;
}
export const words = makeWords(keyed(data.messages), first);
export const { t } = words;

/** @type {(() => void)[]} */
const listeners = [];
/** Call fn again whenever the language changes (a tab redraws its words). @param {() => void} fn */
export const onLanguage = (fn) => { listeners.push(fn); };

/** The page's fixed words in the language: each [data-t] element's first text (its key kept in data-t), and
 * each attribute named in data-t-attr. */
function translatePage() {
  document.documentElement.lang = words.lang;
  for (const e of document.querySelectorAll("[data-t]")) {
    const node = [...e.childNodes].find((c) => c.nodeType === Node.TEXT_NODE && (c.textContent || "").trim());
    const h = /** @type {HTMLElement} */ (e);
    if (!h.dataset.t) h.dataset.t = (node ? node.textContent || "" : h.textContent || "").replace(/\s+/g, " ").trim();
    const text = t(h.dataset.t, h.dataset.tParams ? JSON.parse(h.dataset.tParams) : undefined);
    if (node) node.textContent = (node.textContent || "").replace(/\S(.*\S)?/s, text);
    else h.textContent = text;
  }
  for (const e of document.querySelectorAll("[data-t-attr]")) {
    const h = /** @type {HTMLElement} */ (e);
    for (const name of (h.dataset.tAttr || "").split(" ")) {
      const keyName = `tKey${name.replace(/-./g, (m) => m[1].toUpperCase())}`;
      if (!h.dataset[keyName]) h.dataset[keyName] = h.getAttribute(name) || "";
      h.setAttribute(name, t(/** @type {string} */ (h.dataset[keyName])));
    }
  }
}

/** Change the language: remembered, the page's words and every tab's drawn words. @param {string} to */
export function setLanguage(to) {
  if (!known(to)) return;
  words.setLanguage(to);
  try { localStorage.setItem(KEY, to); } catch (e) { /* storage off: this visit only */ }
  translatePage();
  for (const fn of listeners) fn();
}

/** At start: the page's words in the first language (the page is written in English, its parameters filled by
 * webpage.py, so English needs no pass over it), and the Language select wired. */
export function startLanguage() {
  if (words.lang !== "en") translatePage();
  const sel = /** @type {HTMLSelectElement} */ (document.getElementById("lang"));
  sel.value = words.lang;
  sel.addEventListener("change", () => setLanguage(sel.value));
}
