/* The Table tab's new-game form: players, rules, target (and the Go Nuts! speed under More), a name and an
 * advice switch per seat. It starts from the last
 * table's players and settings (kept in this browser), and Play again starts the next game from the one that
 * ended: the same players, rules and switches, the next player in turn order first. */
import { PLAYERS, readingsFor, data } from "../../page/context.js";
import { $, el, showError, fillSelect } from "../../page/dom.js";
import { t } from "../../page/i18n.js";
import { cleanName as clean, graphemes, sameName } from "../../page/names.js";
import { ready, say, playersText, readingOf, takeUpReading } from "../../page/gametab.js";
import { initGameFields, readGameFields, setGameFields, TARGETS, SPEEDS } from "../../page/gamefields.js";
import { refuse } from "../../core/errors.js";
import { storageKey } from "../../page/storage.js";

/** The longest name, in letters as a person counts them (solver/play/names.py NAME_MAX, as the page's data). */
export const NAME_MAX = data.record.names.max;
/** A name as the page keeps it (page/names.js), with the marks a letter may carry from the page's data.
 * @param {unknown} text */
export const cleanName = (text) => clean(text, data.record.names.marks);
/** @typedef {{players: number, reading: string, target?: number, speed?: number, names: string[], hints: boolean[], colours?: number[]}} Setup */
const SETUP_KEY = storageKey("gonuts.table-setup.v1");

/** The last table's setup, if one is kept and has the shape of one (anything else is ignored: a convenience).
 * @returns {Setup | null} */
function last() {
  try {
    const s = JSON.parse(localStorage.getItem(SETUP_KEY) || "null");
    takeUpReading(s);
    if (s && PLAYERS.includes(s.players) && typeof s.reading === "string" && Array.isArray(s.names) && Array.isArray(s.hints) &&
        s.names.length === s.players && s.names.every((/** @type {unknown} */ x) => typeof x === "string" && graphemes(cleanName(x)) <= NAME_MAX)) {
      const target = Number.isInteger(s.target) && s.target >= TARGETS[0] && s.target <= TARGETS[1] ? s.target : undefined;
      const speed = SPEEDS.includes(s.speed) ? s.speed : undefined;
      return { players: s.players, reading: s.reading, target, speed, names: s.names.map(cleanName), hints: s.names.map((/** @type {string} */ _, /** @type {number} */ i) => s.hints[i] !== false) };
    }
  } catch (e) { /* unreadable: the form's defaults */ }
  return null;
}
/** Keep a table's setup for the next new-game form. @param {Setup} s */
export function remember(s) {
  try { localStorage.setItem(SETUP_KEY, JSON.stringify(s)); } catch (e) { /* storage full: the form's defaults next time */ }
}

/** Draw the names and switches for the players chosen, keeping what was typed (or `from`, a kept setup).
 * @param {Setup} [from] */
export function setupChanged(from) {
  const n = Number($("table-players").value);
  fillSelect($("table-rules"), readingsFor(n).map((r) => [r, t(r)]), from ? from.reading : $("table-rules").value);
  const old = from ? from.names : [...$("table-names").querySelectorAll("input[type=text]")].map((i) => /** @type {HTMLInputElement} */ (i).value);
  const hints = from ? from.hints : [...$("table-names").querySelectorAll("input[type=checkbox]")].map((i) => /** @type {HTMLInputElement} */ (i).checked);
  $("table-names").replaceChildren(...Array.from({ length: n }, (_, i) => el("div", { class: "row" },
    el("label", { text: i === 0 ? t("Player {k} (moves first)", { k: 1 }) : t("Player {k}", { k: i + 1 }) },
      el("input", { id: `table-name-${i}`, type: "text", autocomplete: "off", dir: "auto", spellcheck: "false",
                    value: old[i] !== undefined ? old[i] : "", placeholder: t("Player {k}", { k: i + 1 }) })),
    (() => { const box = /** @type {HTMLInputElement} */ (el("input", { id: `table-hint-${i}`, type: "checkbox" }));
             box.checked = hints[i] !== undefined ? hints[i] : true;
             return el("label", { class: "check" }, box, ` ${t("advice shown")}`); })())));
}
/** Fill the form from a setup (the last table's). @param {Setup} s */
export function fillFrom(s) {
  fillSelect($("table-players"), PLAYERS.map((p) => [p, playersText(p)]), s.players);
  setGameFields("table", s);
  setupChanged(s);
}

/** The form, wired: a valid setup is handed to `begin`; anything else is said under the form.
 * @param {(s: Setup) => Promise<void>} begin */
export function initSetup(begin) {
  const kept = last();
  initGameFields("table");
  if (kept) setGameFields("table", kept);
  fillSelect($("table-players"), PLAYERS.map((p) => [p, playersText(p)]), kept ? kept.players : PLAYERS.includes(3) ? 3 : PLAYERS[0]);
  $("table-players").addEventListener("change", () => setupChanged());
  setupChanged(kept || undefined);
  $("table-setup").addEventListener("submit", async (e) => {
    e.preventDefault();
    const n = Number($("table-players").value), reading = $("table-rules").value;
    /** @type {string[]} */
    const names = [];
    const hints = [];
    /** @type {{target: number, speed: number}} */
    let game;
    try {
      game = readGameFields("table");
      for (let i = 0; i < n; i++) {
        // an empty field is its placeholder's name ("Player 2"); one that holds only what cannot be seen is no name
        const typed = $(`table-name-${i}`).value, name = typed.trim() ? cleanName(typed) : t("Player {k}", { k: i + 1 });
        if (!name) refuse("Player {k} needs a name", { k: i + 1 });
        if (graphemes(name) > NAME_MAX) refuse("Player {k}'s name is longer than {max} characters", { k: i + 1, max: NAME_MAX });
        if (names.some((x) => sameName(x, name))) refuse("Two players are called {name}: give each a name of their own", { name });
        names.push(name); hints.push($(`table-hint-${i}`).checked);
      }
      showError($("table-setup-error"), "");           // a refusal of an earlier try is not this one's
      await ready(n, reading, game.target, game.speed);
    } catch (err) { showError($("table-setup-error"), say(err)); return; }
    showError($("table-setup-error"), "");
    await begin({ players: n, reading, ...game, names, hints });
  });
}
/** The setup of the game after `r`: the same players, rules, target, speed and switches, the next in turn order
 * first, each player keeping their colour.
 * @param {{players: number, reading?: string, rules?: string, target?: number, speed?: number, names: string[], hints: boolean[], colours?: unknown}} r
 * @returns {Setup} */
export function nextSetup(r) {
  const N = r.players, k = (/** @type {number} */ i) => (i + 1) % N, colours = coloursOf(r);
  return { players: N, reading: readingOf(r), target: r.target, speed: r.speed, names: r.names.map((_, i) => r.names[k(i)]), hints: r.names.map((_, i) => !!r.hints[k(i)]),
           colours: r.names.map((_, i) => colours[k(i)]) };
}
/** Each seat's colour (0 to 3) in a table game: its record's `colours` when they are one each, else the seat's own.
 * @param {{players: number, colours?: unknown}} r @returns {number[]} */
export function coloursOf(r) {
  const c = r.colours, N = r.players;
  const ok = Array.isArray(c) && c.length === N && c.every((x) => Number.isInteger(x) && x >= 0 && x < N) && new Set(c).size === N;
  return ok ? /** @type {number[]} */ (c) : Array.from({ length: N }, (_, i) => i);
}
