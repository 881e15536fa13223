/* Fix a past entry of the Table game: each log entry's Change button opens this editor on it, which offers what
 * that entry could have been (every roll of the dice then live, roll or stop, a number). The game replays from
 * there; later entries that no longer fit are named, and dropped only when the player says so. The change is
 * saved like an entry, and Undo takes it back. */
import { core } from "../../page/context.js";
import { $, el, showError } from "../../page/dom.js";
import { t, onLanguage } from "../../page/i18n.js";
import { rollButton } from "./faces.js";
import { describe, say, sayEntry, wholeNumber } from "../../page/gametab.js";
import { GonutsInputError } from "../../core/errors.js";

/** @typedef {import("../../core/types.js").GameRecord} GameRecord */
/** @typedef {import("../../core/types.js").GameEvent} GameEvent */
/** @typedef {import("../../core/types.js").State} State */
/** @typedef {{record: () => (GameRecord & {names: string[]}) | null, commit: (events: GameEvent[], i: number) => void}} Host */

/* The editor belongs to the game as it was when it opened (`on`: the record, its events and their number): once
 * the game on screen is another (Play again, a game resumed, another tab's copy) or has another entry, the
 * editor and its question close, and an answer still on its way changes nothing. */
/** @type {{i: number, ev: GameEvent | null, host: Host | null, events: GameEvent[] | null, tried: GameEvent | null,
 *   on: {record: GameRecord, events: GameEvent[], len: number} | null}} */
const open = { i: -1, ev: null, host: null, events: null, tried: null, on: null };
const box = () => $("table-change");

/** Close the editor. */
export function closeChange() {
  if (!open.ev) return;                     // not open (open.ev is set while it is)
  box().hidden = true;
  $("table-change-options").replaceChildren();
  open.ev = null; open.events = null; open.on = null;
}
/** Whether the editor is open, on the game on screen as it was when it opened. */
export const changing = () => {
  const on = open.on, r = open.host && open.host.record();
  return !box().hidden && !!on && r === on.record && r.events === on.events && r.events.length === on.len;
};
/** Close the editor unless its game is still the one on screen, as it was; returns whether it still is. */
function stillOpen() {
  if (changing()) return true;
  closeChange();
  return false;
}

/** The state before entry i: a replay of the entries before it. @param {GameRecord} r @param {number} i @returns {State} */
const stateBefore = (r, i) => core.replay({ ...r, events: r.events.slice(0, i) });

/** Try the game with entry i made `ev`: all later entries that still fit are kept; if some do not, say which and
 * ask. @param {GameEvent} ev */
function attempt(ev) {
  if (!stillOpen()) return;
  const host = /** @type {Host} */ (open.host), r = /** @type {GameRecord & {names: string[]}} */ (host.record()), i = open.i;
  showError($("table-change-error"), "");
  $("table-change-drop").hidden = true;
  open.tried = ev;
  const ctx = core.context(r), st = stateBefore(r, i);
  try { core.apply(st, ev, i, ctx); } catch (e) { showError($("table-change-error"), sayEntry(e)); return; }
  const events = [...r.events.slice(0, i), ev, ...r.events.slice(i + 1)];
  let bad = events.length;
  for (let j = i + 1; j < events.length; j++) {
    try { core.apply(st, events[j], j, ctx); } catch (e) { if (!(e instanceof GonutsInputError)) throw e; bad = j; break; }
  }
  if (bad === events.length) { closeChange(); host.commit(events, i); return; }
  open.events = events.slice(0, bad);
  const later = events.length - bad;
  $("table-change-drop-text").textContent = t("{n} later entries no longer fit after this change, from entry {k} ({what}). Drop them?",
    { n: later, k: bad + 1, what: describe(events[bad], r.names) });
  $("table-change-drop").hidden = false;
}

/** Open the editor on entry i. @param {Host} host @param {number} i */
export function openChange(host, i) {
  const r = host.record();
  if (!r || !(i >= 0 && i < r.events.length)) return;
  const ev = r.events[i], st = stateBefore(r, i);
  Object.assign(open, { i, ev, host, events: null, on: { record: r, events: r.events, len: r.events.length } });
  $("table-change-title").textContent = t("Change entry {k}: {what}", { k: i + 1, what: describe(ev, r.names) });
  showError($("table-change-error"), "");
  $("table-change-drop").hidden = true;
  /** @type {HTMLElement[]} */
  const options = [];
  /** @param {GameEvent} next @param {HTMLElement} b */
  const option = (next, b) => {
    if (b.dataset.roll) { b.dataset.pick = b.dataset.roll; b.removeAttribute("data-roll"); }   // data-roll: the entry's own buttons
    b.setAttribute("aria-pressed", String(JSON.stringify(next) === JSON.stringify(ev)));
    b.addEventListener("click", () => attempt(next));
    options.push(b);
  };
  if (ev.roll) {
    for (let a = st.n; a >= 0; a--) for (let s = st.n - a; s >= 0; s--) option({ seat: ev.seat, roll: [a, s, st.n - a - s] }, rollButton([a, s, st.n - a - s]));
  } else if (ev.choice) {
    for (const choice of /** @type {const} */ (["roll", "stop"])) option({ seat: ev.seat, choice }, el("button", { type: "button", text: describe({ seat: ev.seat, choice }, r.names) }));
  }
  $("table-change-options").replaceChildren(...options);
  $("table-change-options").className = ev.roll ? "options rolls" : "options";
  const number = ev.nuts !== undefined || ev.banked !== undefined;
  $("table-change-number").hidden = !number;
  if (number) {
    $("table-change-what").textContent = ev.nuts !== undefined ? t("Acorns collected") : t("Points banked");
    $("table-change-n").value = String(ev.nuts !== undefined ? ev.nuts : ev.banked);
  }
  box().hidden = false;
  box().scrollIntoView({ block: "nearest" });
  $("table-change-title").focus({ preventScroll: true });
}

$("table-change-number").addEventListener("submit", (e) => {
  e.preventDefault();
  if (!stillOpen()) return;
  const ev = /** @type {GameEvent} */ (open.ev);
  try {
    const n = wholeNumber($("table-change-n").value, ev.nuts !== undefined ? t("Acorns collected") : t("Points banked"));
    attempt(ev.nuts !== undefined ? { seat: ev.seat, nuts: n } : { seat: ev.seat, banked: n });
  } catch (err) { showError($("table-change-error"), say(err)); }
});
$("table-change-drop-yes").addEventListener("click", () => {
  const events = open.events, host = open.host, i = open.i;
  if (!events || !host || !stillOpen()) return;
  closeChange();
  host.commit(events, i);
});
$("table-change-cancel").addEventListener("click", closeChange);
/* Another language: the open editor is drawn again in it, its question too. */
onLanguage(() => {
  if (!changing()) return;
  const host = /** @type {Host} */ (open.host), asked = open.events ? open.tried : null;
  openChange(host, open.i);
  if (asked) attempt(asked);
});
