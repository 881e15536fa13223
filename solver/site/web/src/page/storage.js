/* Saved games: keys scoped to this page's own folder, writes that fail said at once, and a saved game that
 * cannot be restored kept aside, never thrown away without a word. */
import { $, el, download, show } from "./dom.js";
import { t } from "./i18n.js";

/* Two sites on one origin, /a/ and /b/, never touch each other's games; a game saved by an older version
 * under the bare key moves over once. */
const SCOPE = new URL(".", location.href).pathname;
/** @param {string} name */
export function storageKey(name) {
  const key = `${name}@${SCOPE}`;
  try {
    const old = localStorage.getItem(name);
    if (old !== null && localStorage.getItem(key) === null) {
      localStorage.removeItem(name);             // first, so that a game near the quota fits once
      try { localStorage.setItem(key, old); } catch (e) { localStorage.setItem(name, old); return name; }
    }
  } catch (e) { /* storage off: nothing to move */ }
  return key;
}

/* The games' keys, the one saved last first (for "the most recent game"): written only when another game is
 * saved than the one before, not at every entry. Only keys given to `track` count. */
const ORDER_KEY = storageKey("gonuts.saved-order");
/** @type {Set<string>} */
const tracked = new Set();
/** Count saves under this key as a game's. @param {string} key */
export const track = (key) => { tracked.add(key); };
/** @type {string[] | null} null: not read yet */
let order = null;
/** The games' keys, the one saved last first (a key never saved here is not in it). @returns {string[]} */
export const savedOrder = () => {
  if (!order) {
    try { const v = JSON.parse(localStorage.getItem(ORDER_KEY) || "[]"); order = Array.isArray(v) ? v.filter((k) => typeof k === "string") : []; }
    catch (e) { order = []; }
  }
  return /** @type {string[]} */ (order);
};
window.addEventListener("storage", (e) => { if (e.key === ORDER_KEY || e.key === null) order = null; });

/* A write that fails (storage full, or off as in a private window) is said at once, with Export offered: the
 * game in memory stays as it is. The warning stays until every write that failed has been saved since: a save of
 * something else (another game, a Go Nuts! count) does not take it down. */
/** @type {Set<string>} the keys whose last write failed, oldest first */
const unsaved = new Set();
export const store = {
  /** The key whose failed write is the newest not saved since, or null. @returns {string | null} */
  get failed() { return [...unsaved].pop() || null; },
  /** Save; on failure say so (unless `quiet`: the caller keeps what it tried to save and says it itself).
   * Returns whether it was saved. @param {string} key @param {unknown} value @param {{quiet?: boolean}} [how] */
  set(key, value, how) {
    try {
      localStorage.setItem(key, JSON.stringify(value));
      unsaved.delete(key);
      if (!unsaved.size) show($("unsaved"), false);
      if (tracked.has(key) && savedOrder()[0] !== key) {
        order = [key, ...savedOrder().filter((k) => k !== key)];
        try { localStorage.setItem(ORDER_KEY, JSON.stringify(order)); } catch (e) { /* a convenience */ }
      }
      return true;
    }
    catch (e) {
      if (how && how.quiet) return false;
      unsaved.delete(key); unsaved.add(key);                 // the newest failure last
      const full = e instanceof Error && e.name === "QuotaExceededError";
      $("unsaved-why").textContent = full
        ? t("This browser did not save the game (its storage is full): it is safe on this screen until you close it. Export it to keep it.")
        : t("This browser did not save the game (storage is off or full): it is safe on this screen until you close it. Export it to keep it.");
      $("unsaved").hidden = false;
      return false;
    }
  },
};

/** What a tab says when storage is too full to set its running game aside: the game stays on screen (it is saved
 * under its own key), and no other game is started. */
export const fullToSetAside = () => t("This browser's storage is full: the game on screen could not be set aside, so it stays. Export it, or free some space, to start another.");

/* Ask once that this site's storage be kept under pressure (a browser may clear it otherwise). */
let persisting = false;
export function keepStorage() {
  if (persisting || !navigator.storage || !navigator.storage.persist) return;
  persisting = true;
  navigator.storage.persist().catch(() => { /* refused: the game is still saved */ });
}

/** A stored text, or null (storage off). @param {string} key */
export const raw = (key) => { try { return localStorage.getItem(key); } catch (e) { return null; } };
const SLOTS = 9;        // damaged games kept per key: KEY.damaged, KEY.damaged.2, ...
/** @param {string} key @param {number} i */
const slot = (key, i) => `${key}.damaged${i ? `.${i + 1}` : ""}`;
/** @param {string} key @returns {string[]} */
const keptTexts = (key) => /** @type {string[]} */ (Array.from({ length: SLOTS }, (_, i) => raw(slot(key, i))).filter((x) => x !== null));

/** Keep a text that cannot be restored under KEY.damaged, and say so in the tab's box (#MODE-kept).
 * @param {string} mode @param {string} key @param {string} text @param {string} reason */
export function keepAside(mode, key, text, reason) {
  try {
    if (!keptTexts(key).includes(text)) {
      let i = 0;
      while (i < SLOTS - 1 && raw(slot(key, i)) !== null) i++;
      localStorage.setItem(slot(key, i), text);
      localStorage.setItem(`${slot(key, i)}.why`, String(reason).slice(0, 200));
    }
  } catch (e) { /* storage full or off: the message below still shows */ }
  showKept(mode, key, reason);
}
/** Say what is kept aside for a tab, with Download and Delete. @param {string} mode @param {string} key @param {string} [reason] */
export function showKept(mode, key, reason) {
  const box = $(`${mode}-kept`), texts = keptTexts(key);
  if (!texts.length) { box.hidden = true; return; }
  const why = reason || raw(`${slot(key, 0)}.why`) || t("it could not be read");
  const save = el("button", { type: "button", id: `${mode}-kept-download`, text: t("Download it") });
  const drop = el("button", { type: "button", id: `${mode}-kept-delete`, text: t("Delete it") });
  save.addEventListener("click", () => download(`gonuts-${mode}-kept.json`, "application/json", texts.length === 1 ? texts[0] : JSON.stringify(texts)));
  drop.addEventListener("click", () => {
    try { for (let i = 0; i < SLOTS; i++) { localStorage.removeItem(slot(key, i)); localStorage.removeItem(`${slot(key, i)}.why`); } }
    catch (e) { /* off */ }
    box.hidden = true;
  });
  const text = texts.length > 1
    ? t("Your saved {mode} game could not be restored: {why}. It is kept in this browser until you download or delete it ({n} games kept).", { mode: t(mode), why, n: texts.length })
    : t("Your saved {mode} game could not be restored: {why}. It is kept in this browser until you download or delete it.", { mode: t(mode), why });
  box.replaceChildren(el("p", { text }), el("div", { class: "actions" }, save, drop));
  box.hidden = false;
}
