/* What the dice just did, in one line, when the rules decide it: all cars, one die's acorn bringing every die
 * back, a Go Nuts! round begun. Said under the turn line until the next entry (covering nothing: on the smallest
 * phones it takes two or three lines), announced to screen readers (a status region), and kept in the log beside
 * its entry. The notes of a game come from one replay
 * when it is held, then one step per entry. */
import { core } from "../../page/context.js";
import { $ } from "../../page/dom.js";
import { t } from "../../page/i18n.js";

/** @typedef {import("../../core/types.js").GameRecord} GameRecord */
/** @typedef {import("../../core/types.js").Note} Note */

/** A note in words. @param {Note} note @param {string[]} names */
export function noteText(note, names) {
  const who = names[note.seat], n = note.t;
  if (note.kind === "cars") return n ? t("All cars: {who} loses {n} turn points", { who, n }) : t("All cars: {who}'s turn ends", { who });
  if (note.kind === "refill") return t("One die, an acorn: all {n} dice back", { n: core.N_DICE });
  if (!n) return t("Go Nuts!: count {who}'s acorns", { who });
  return note.kept ? t("Go Nuts!: {who} keeps {n} turn points; count the acorns", { who, n })
    : t("Go Nuts!: {who}'s {n} turn points are gone; count the acorns", { who, n });
}

/** @type {{events: unknown[] | null, notes: (Note | null)[]}} */
const memo = { events: null, notes: [] };
/** Every entry's note, in step with the record (an entry adds one, an undo drops one, anything else replays).
 * @param {GameRecord} r */
export function notesOf(r) {
  if (memo.events !== r.events || memo.notes.length < r.events.length || memo.notes.length > r.events.length + 1) {
    try { memo.notes = core.notes(r); } catch (e) { memo.notes = r.events.map(() => null); }
    memo.events = r.events;
  }
  memo.notes.length = r.events.length;
  return memo.notes;
}
/** @type {string | null} what the last entry did, to be said by the next draw */
let fresh = null;
/** An entry was made: its note kept, and said by the draw that follows.
 * @param {GameRecord} r @param {import("../../core/types.js").Context} ctx @param {{seat: number, t: number, n: number}} was
 * @param {import("../../core/types.js").State} now @param {number[] | undefined} roll @param {string[]} names */
export function stepped(r, ctx, was, now, roll, names) {
  const note = roll ? core.noteOf(was, now, ctx, roll) : null;
  if (memo.events === r.events && memo.notes.length === r.events.length - 1) memo.notes.push(note);
  fresh = note ? noteText(note, names) : null;
}
/** Say a line now (a change of a past entry, say). @param {string} text */
export function sayNow(text) { fresh = text; }
/** The draw's part: the fresh line shown (and announced), or the last one taken away. */
export function drawSaid() {
  const box = $("table-said");
  if (fresh) {
    if (box.textContent !== fresh) box.textContent = fresh;
    box.classList.add("on");
  } else if (box.classList.contains("on")) { box.classList.remove("on"); box.textContent = ""; }
  fresh = null;
}
