/* The Table tab: a whole table's game on one phone, one tap per roll. What the table reads at a glance stays in
 * the first screen of the smallest phone: the score strip (the rolling player marked), the mover and their turn,
 * then the one thing to do now: every possible roll as a button, or Roll and Stop with the verdict and both
 * chances, or the Go Nuts! count. Everything else (why, every seat's chances, banked turns, the advice switches,
 * the log, recent games) comes after it and may scroll. The game's state is held and stepped by each tap; a
 * full replay happens only on load, undo or another tab's write. */
import { core, PLAYERS } from "../../page/context.js";
import { $, el, show, showError, fillSelect, afterPaint } from "../../page/dom.js";
import { t, words, onLanguage } from "../../page/i18n.js";
import { store, keepStorage, fullToSetAside } from "../../page/storage.js";
import { onShown } from "../../page/tabs.js";
import { tap, redrawn, oneAtATime } from "../../page/taps.js";
import { graphemes, sameName } from "../../page/names.js";
import { drawAdvice, tossUp } from "../../page/advice.js";
import { showGrid, warmGrids, onRoll } from "./grids.js";
import { owner } from "../../page/owner.js";
import { ready, readyFor, gameOf, checkTarget, houseRule, targetOf, wholeNumber, say, newRecord, describe, drawLog, pushEntered, undoEntered, hold,
  playersText, register, backupOf, readingOf } from "../../page/gametab.js";
import { refuse } from "../../core/errors.js";
import { initSetup, setupChanged, remember, fillFrom, coloursOf, cleanName, NAME_MAX } from "./setup.js";
import { TABLE_KEY, RECENT_KEY, recent, lines, setAside, takeOut } from "./recent.js";
import * as history from "./history.js";
import { drawStrip } from "./strip.js";
import { wakeWhile } from "../../page/wake.js";
import { welcomed } from "../../page/welcome.js";
import { notesOf, noteText, stepped, sayNow, drawSaid } from "./said.js";
import { openChange, closeChange, changing } from "./change.js";
import { drawOver } from "./over.js";
import { startLink, drawn as linkDrawn, readOnly, enter, askHints, leave, role, guestSeat, restoreRole, linkOpen } from "./link.js";

/** @typedef {import("../../core/types.js").GameRecord} GameRecord */
/** @typedef {import("../../core/types.js").GameEvent} GameEvent */
/** @typedef {import("../../core/types.js").State} State */
/** @typedef {import("../../core/types.js").Advice} Advice */
/** @typedef {GameRecord & {names: string[], hints: boolean[]}} TableRecord */

/** @type {import("../../page/gametab.js").Held & {nuts: number, over: boolean}} */
export const table = { record: null, st: null, ctx: null, nuts: 0, over: false };
register("table", () => table.record, TABLE_KEY);
/* The game set aside last (by Play again, a new game or Resume) is a game to review too: after Play again the
 * running game has no entries yet, and the finished one is the game the table wants to look back on. */
register("recent", () => recent()[0] || null, RECENT_KEY);
history.source(() => table.record);
const NUTS_KEY = `${TABLE_KEY}.nuts`;          // the Go Nuts! count being entered: {events, count}
const rec = () => /** @type {TableRecord} */ (table.record);
const state = () => /** @type {State} */ (table.st);
/* While a Table game is on screen, the screen stays on. */
const keepAwake = wakeWhile(() => !!table.record && !table.over && !$("panel-table").hidden);

const save = () => store.set(TABLE_KEY, table.record);

function drawRecent() {
  history.count();
  const list = recent(), ls = lines(), box = $("table-recent");
  box.hidden = !list.length;
  $("table-recent-list").replaceChildren(...list.map((r, i) => {
    const line = ls[i], names = /** @type {TableRecord} */ (r).names;
    let text = t("a game that cannot be read");
    if (line && Array.isArray(names)) {
      const scores = line.scores.join(" \u2013 ");
      text = line.over ? t("{names}: {scores}, {who} won", { names: names.join(", "), scores, who: names[/** @type {number} */ (line.winner)] })
        : t("{names}: {scores}, in progress", { names: names.join(", "), scores });
    }
    const resume = el("button", { type: "button", id: `table-resume-${i}`, text: t("Resume") });
    // a tap like any at the table: a second tap on its spot lands on the resumed game's buttons and is ignored
    resume.addEventListener("click", tap(() => { resumeRecent(i); }));
    return el("li", {}, el("bdi", { text }), " ", resume);
  }));
}
/* Starting or resuming a game waits (its data decoding, the game's lock): one at a time, the buttons that could
 * start another disabled meanwhile. */
const oneGameAction = oneAtATime(() => document.querySelectorAll("#table-recent-list button, #table-again, #table-setup button[type=submit]"));
/** @param {number} i */
const resumeRecent = oneGameAction(async (/** @type {number} */ i) => {
  const r = recent()[i];
  try { core.replay(r); checkTable(r); checkTarget(r); await readyFor(r); }
  catch (err) { showError($("table-setup-error"), t("That game cannot be resumed: {why}", { why: say(err) })); return; }
  await own.take(true);
  if (recent()[i] !== r) return;                          // another tab changed the list meanwhile: tap again
  if (!takeOut(i, table.record, table.st)) { showError($("table-setup-error"), fullToSetAside()); return; }
  showError($("table-setup-error"), "");
  leave();
  hold(table, r); table.nuts = 0;
  save();
  $("table-new").open = false;
  drawRecent();
  drawTable();
});

/** Start a new game (the form's, or Play again's); the running one is set aside, never discarded.
 * @param {import("./setup.js").Setup} s */
const begin = oneGameAction(async (/** @type {import("./setup.js").Setup} */ s) => {
  try { await ready(s.players, s.reading, s.target, s.speed); }
  catch (err) { showError($("table-setup-error"), say(err)); return; }
  await own.take(true);
  if (!setAside(table.record, table.st)) {
    showError(table.record && table.st && table.st.phase === "over" ? $("table-error") : $("table-setup-error"), fullToSetAside());
    return;
  }
  showError($("table-setup-error"), "");
  leave();
  const extra = { names: s.names, hints: s.hints, ...(s.colours ? { colours: s.colours } : {}), started: new Date().toISOString() };
  hold(table, newRecord("table", { players: s.players, reading: s.reading, target: s.target, speed: s.speed, seat: 0 }, extra));
  table.nuts = 0;
  save();
  keepStorage();
  remember(s);
  welcomed();
  fillFrom(s);
  $("table-new").open = false;
  drawRecent();
  drawTable();
  window.scrollTo(0, 0);
});
initSetup(begin);
/** @type {import("../../page/gametab.js").Entered} */
export const TABLE = { mode: "table", key: TABLE_KEY, state: table, draw: () => drawTable(),
  stepped: (was, now, ev) => { closeChange(); stepped(rec(), /** @type {any} */ (table.ctx), was, now, ev.roll, rec().names); } };
/** An entry made here (a guest's goes to the table phone: link.js). @param {GameEvent} ev */
const push = (ev) => (role() === "guest" ? enter(ev, state(), /** @type {any} */ (table.ctx)) : pushEntered(TABLE, ev));
onRoll((roll) => push({ seat: state().seat, roll }));

/** The advice switches, drawn again only when they or the language change. @param {TableRecord} r */
function drawHints(r) {
  const mine = guestSeat(r), key = JSON.stringify([r.names, r.hints, words.lang, mine]), box = $("table-hints");
  if (box.dataset.drawn === key) return;
  box.dataset.drawn = key;
  // a guest's phone has its own player's switch only, kept in the table phone's game
  box.replaceChildren(...r.names.flatMap((name, i) => (role() === "guest" && i !== mine ? [] : [i])).map((i) => {
    const name = r.names[i];
    const b = el("button", { type: "button", class: "hint", id: `table-hint-toggle-${i}`, "aria-pressed": String(!!r.hints[i]) },
      `${t("Advice for")} `, el("bdi", { text: name }), `: ${r.hints[i] ? t("on") : t("off")}`);
    b.addEventListener("click", () => {
      if (role() === "guest") { askHints(!r.hints[i]); return; }
      r.hints[i] = !r.hints[i]; save(); drawTable();
    });
    return b;
  }));
}
/* One backup per score state of this game (page/gametab.js backupOf), shared by the advice and the why. */
/** @param {TableRecord} r @param {number[]} scores */
const valuesAt = (r, scores) => backupOf(r, scores);
/** The decision: the verdict (announced) and each action's chance under its button; the advised button is the
 * emphasised one (filled, bold, marked), and with advice off neither is. @param {TableRecord} r @param {State} st
 * @returns {Advice | null} */
function drawDecision(r, st) {
  /** @type {Advice | null} */
  let a = null;
  if (r.hints[st.seat] && (role() !== "guest" || guestSeat(r) === st.seat)) {
    const g = gameOf(r), f = core.frame(st);
    a = core.adviseIn(g, f, st.t, st.n, valuesAt(r, f));
  }
  const mixed = !!a && a.reason === "mixed", close = mixed || (!!a && tossUp(a));     // mixed: the same chance
  for (const [button, action] of /** @type {[HTMLElement, string][]} */ ([[$("table-roll"), "roll"], [$("table-stop"), "stop"]])) {
    const advised = !!a && !close && a.action === action;
    button.classList.toggle("advised", advised);
    show(/** @type {HTMLElement} */ (button.querySelector(".mark")), advised);
    button.dataset.born = String(performance.now());
  }
  const verdict = $("table-verdict");
  verdict.className = `verdict ${a ? (close ? "tie" : a.action) : "off"}`;
  verdict.dataset.action = a ? String(a.action) : "";
  verdict.textContent = !a ? t("Roll or stop?") : mixed ? t("EITHER") : close ? t("TOSS-UP") : a.action === "roll" ? t("ROLL is better") : t("STOP is better");
  verdict.classList.toggle("long", Array.from(verdict.textContent).length > 14);     // other languages say it longer
  $("table-chance-roll").textContent = a ? words.pct(a.win_if_roll) : "";
  $("table-chance-stop").textContent = a ? words.pct(a.win_if_stop) : "";
  show($("table-chances"), !!a);
  return a;
}
/* After an entry the strip and the action area are where the eyes are: back at the top of the page if the
 * player had scrolled away (to the log, the why) or the page was scrolled to the Start button. Known before the
 * draw (reading a position after it would make the browser lay the page out twice). */
let padInView = true;
/* The sticky tab bar covers the top of the screen: a strip under it is out of view. Its height is read after the
 * page's first paint (read while the page starts, it would make the browser lay the whole page out there). */
afterPaint(() => new IntersectionObserver((seen) => { for (const e of seen) padInView = e.intersectionRatio > 0.99; },
  { rootMargin: `-${Math.ceil(document.querySelector("nav.tabs")?.getBoundingClientRect().height || 0)}px 0px -66% 0px`,
    threshold: [0, 0.99, 1] }).observe($("table-pad")));
/** Whether the strip is out of the top third of the screen (an IntersectionObserver keeps count: no layout). */
const awayFromTop = () => !$("panel-table").hidden && !$("table-game").hidden && !padInView;
let detailsDrawn = 0;
let wasFollowing = false;
function drawTable() {
  const r = rec();
  const away = awayFromTop();
  show($("table-game"), !!r);
  if (!r) return;
  redrawn();
  const born = performance.now();
  const st = state(), names = r.names, N = r.players;
  table.over = st.phase === "over";
  drawStrip(r.names, st);
  const rule = houseRule(r);
  if ($("table-rule").textContent !== rule) $("table-rule").textContent = rule;
  drawColours(r);
  history.count();
  const who = st.phase === "over" ? names[/** @type {number} */ (st.winner)] : names[st.seat];
  const line = st.phase === "over" ? t("reached {target} and won!", { target: targetOf(r) })
    : st.phase === "start" ? t("starts a turn")
    : st.phase === "nuts" ? t("Go Nuts! round")
    : `${t("{n} points", { n: st.t })} \u00b7 ${t("{n} dice", { n: st.n })}`;
  const turn = $("table-turn");
  if (!turn.firstElementChild) turn.replaceChildren(el("bdi", { class: "who" }), el("span", { class: "state" }));
  const [whoBox, lineBox] = /** @type {HTMLElement[]} */ ([...turn.children]);
  const seat = String(st.phase === "over" ? st.winner : st.seat);
  if (turn.dataset.seat !== seat) turn.dataset.seat = seat;
  if (whoBox.textContent !== who) whoBox.textContent = who;
  if (lineBox.textContent !== line) lineBox.textContent = line;
  const prompt = st.phase === "start" ? t("Tap what the 5 dice show:")
    : st.phase === "roll" ? t("Tap what the {n} live dice show:", { n: st.n })
    : st.phase === "nuts" ? t("Go Nuts! Throw {n} dice until everyone else rolls a dog.", { n: /** @type {number} */ (st.nutsDice) }) : "";
  if ($("table-prompt").textContent !== prompt) $("table-prompt").textContent = prompt;
  show($("table-prompt"), !!prompt);
  $("table-prompt").classList.toggle("rolling", st.phase === "start" || st.phase === "roll");   // the buttons say it on small screens
  const rolling = st.phase === "start" || st.phase === "roll";
  show($("table-rolls"), rolling);
  showGrid(rolling ? st.n : 0, born);
  show($("table-decide"), st.phase === "decide");
  const a = st.phase === "decide" ? drawDecision(r, st) : null;
  show($("table-nuts"), st.phase === "nuts");
  if (st.phase !== "nuts") table.nuts = 0;
  drawNuts();
  for (const id of ["table-nuts-minus", "table-nuts-plus", "table-nuts-five", "table-nuts-done"]) $(id).dataset.born = String(born);
  show($("table-bank"), st.phase === "start");
  const details = $("table-advice"), drawing = ++detailsDrawn;
  if (a) {              // below what the table reads: drawn after the tap's paint, unless another draw came first
    if (details.firstChild) details.replaceChildren();
    show(details, true);
    details.setAttribute("aria-busy", "true");
    afterPaint(() => {
      if (drawing !== detailsDrawn) return;
      const g = gameOf(r), f = core.frame(st);
      const labels = Array.from({ length: N }, (_, k) => names[(st.seat + k) % N]);
      drawAdvice(details, a, labels, a.reason === "optimal" ? words.why(a, core.explainIn(g, f, st.t, st.n, valuesAt(r, f)), readingOf(r)) : null);
      details.removeAttribute("aria-busy");
    });
  } else {             // hidden as it is (kept laid out apart: no layout of the page now), emptied after the paint
    show(details, false);
    details.removeAttribute("aria-busy");
    if (details.firstChild) afterPaint(() => { if (drawing === detailsDrawn) details.replaceChildren(); });
  }
  warmGrids(core.reading(readingOf(r)).dice);
  if (st.phase === "start" && r.hints[st.seat]) {       // the turn's first decision will need this backup: made now, idle
    afterPaint(() => { if (table.st === st) valuesAt(r, core.frame(st)); });
  }
  const last = r.events[r.events.length - 1];
  const edit = lastEdit(r);
  $("table-undo").textContent = edit ? t("Undo: the change of entry {k}", { k: edit.k + 1 }) : last ? t("Undo: {what}", { what: describe(last, names) }) : t("Undo");
  drawHints(r);
  drawOver(r, st, (next) => begin(next), () => table.record);
  const notes = notesOf(r);
  drawLog($("table-log"), r, names, { note: (i) => { const n = notes[i]; return n ? noteText(n, names) : null; }, change: true });
  if (!changing()) closeChange();
  drawSaid();
  const following = own.following() || readOnly(r, st);
  if (following || wasFollowing) {           // controls are made enabled: only a follower's (or a former one's) need a pass
    for (const c of $("table-game").querySelectorAll("button:not([data-reads]), input")) {
      const b = /** @type {HTMLButtonElement} */ (c);
      if (b.disabled !== following) b.disabled = following;
    }
  }
  wasFollowing = following;
  // a guest's own advice switch works on every turn while the table phone is there
  for (const b of $("table-hints").querySelectorAll("button")) /** @type {HTMLButtonElement} */ (b).disabled = own.following() || (role() === "guest" && !linkOpen());
  $("table-undo").disabled = following || !last || role() === "guest";     // undo and changes stay with the table phone
  if (away || (!$("panel-table").hidden && !r.events.length)) window.scrollTo(0, 0);
  keepAwake();
  linkDrawn();
}
/** Each seat's colour is its player's (kept through Play again): the page's palette mapped onto the seats.
 * @param {TableRecord} r */
function drawColours(r) {
  const game = $("table-game"), colours = coloursOf(r), key = colours.join("");
  if (game.dataset.colours === key) return;
  game.dataset.colours = key;
  colours.forEach((c, k) => game.style.setProperty(`--seat${k}`, `var(--hue${c})`));
}
$("table-roll").addEventListener("click", tap(() => push({ seat: state().seat, choice: "roll" })));
$("table-stop").addEventListener("click", tap(() => push({ seat: state().seat, choice: "stop" })));
/** The Go Nuts! count, and what the round banks with it under the rules in play. */
function drawNuts() {
  $("table-nuts-n").textContent = String(table.nuts);
  const st = state(), r = rec();
  if (st.phase !== "nuts") return;
  const gain = table.nuts + (/** @type {import("../../core/types.js").Context} */ (table.ctx).reading.nutsReplaces ? 0 : st.t);
  const dice = /** @type {number} */ (st.nutsDice), mean = gameOf(r).nutsMean[dice];
  $("table-nuts-worth").textContent = `${t("{who} banks {n} points: {score} in all", { who: r.names[st.seat], n: gain, score: st.scores[st.seat] + gain })} ${
    t("(a round of {n} dice brings {x} acorns on average)", { n: dice, x: words.fixed(mean, 1) })}`;
}
/* The Go Nuts! count is saved as it is entered: a reload in the middle of a round keeps it. */
function saveNuts() { store.set(NUTS_KEY, { events: rec().events.length, count: table.nuts }); }
/** @param {number} d */
const nutsStep = (d) => tap(() => { table.nuts = Math.max(0, table.nuts + d); drawNuts(); saveNuts(); });
$("table-nuts-minus").addEventListener("click", nutsStep(-1));
$("table-nuts-plus").addEventListener("click", nutsStep(1));
$("table-nuts-five").addEventListener("click", nutsStep(5));
$("table-nuts-done").addEventListener("click", tap(() => {
  if (push({ seat: state().seat, nuts: table.nuts })) { table.nuts = 0; saveNuts(); }
}));
$("table-bank").addEventListener("submit", (e) => {
  e.preventDefault();
  try {
    if (push({ seat: state().seat, banked: wholeNumber($("table-bank-n").value, t("Points banked")) })) $("table-bank-n").value = "0";
  } catch (err) { showError($("table-error"), say(err)); }
});
/* Changes of past entries, newest last: Undo takes one back while no entry has been made since. */
/** @type {{record: TableRecord, before: GameEvent[], len: number, last: GameEvent, k: number}[]} */
const edits = [];
/** The change Undo would take back, if the game is as that change left it. @param {TableRecord} r */
function lastEdit(r) {
  const e = edits[edits.length - 1];
  return e && e.record === r && e.len === r.events.length && e.last === r.events[r.events.length - 1] ? e : null;
}
/** Entry i changed: the game is now these events (replayed), saved and said. @param {GameEvent[]} events @param {number} i */
function commitChange(events, i) {
  const r = rec();
  edits.push({ record: r, before: r.events, len: events.length, last: events[events.length - 1], k: i });
  const counting = table.st && table.st.phase === "nuts" && events.length === r.events.length;
  r.events = events;
  hold(table, r);
  // a change before a Go Nuts! round still being counted keeps the count, as a reload would; any other resets it
  if (!(counting && state().phase === "nuts")) { table.nuts = 0; saveNuts(); }
  save();
  showError($("table-error"), "");
  sayNow(t("Entry {k} changed: {what}", { k: i + 1, what: describe(events[i], r.names) }));
  drawTable();
}
$("table-log").addEventListener("click", (e) => {
  const b = /** @type {HTMLElement} */ (e.target).closest("button.change");
  if (b && !own.following() && role() !== "guest") openChange({ record: () => /** @type {TableRecord | null} */ (table.record), commit: commitChange }, Number(/** @type {HTMLElement} */ (b).dataset.i));
});
$("table-undo").addEventListener("click", tap(() => {
  const r = rec(), edit = lastEdit(r);
  closeChange();
  if (!edit) { undoEntered(TABLE); return; }
  edits.pop();
  r.events = edit.before;
  hold(table, r);
  save();
  sayNow(t("Change of entry {k} undone", { k: edit.k + 1 }));
  drawTable();
}));
/** A table game also needs its players' names and advice switches; names are kept as they were entered
 * (cleaned), and a saved one holding hidden characters is cleaned the same way. @param {any} saved */
export function checkTable(saved) {
  if (!Array.isArray(saved.names) || saved.names.length !== saved.players || !Array.isArray(saved.hints) ||
      !saved.names.every((/** @type {unknown} */ x) => typeof x === "string" && cleanName(x) && graphemes(cleanName(x)) <= NAME_MAX)) {
    refuse("it has no names for its players");
  }
  saved.names = saved.names.map(cleanName);
  const twice = saved.names.find((/** @type {string} */ x, /** @type {number} */ i) => saved.names.slice(0, i).some((/** @type {string} */ y) => sameName(x, y)));
  if (twice) refuse("Two players are called {name}: give each a name of their own", { name: twice });
}
/** After a restore: the Go Nuts! count of the round being entered, if the game is where it was. */
export function restoreNuts() {
  try {
    const kept = JSON.parse(localStorage.getItem(NUTS_KEY) || "null");
    if (kept && table.record && kept.events === table.record.events.length && Number.isSafeInteger(kept.count) && kept.count >= 0) {
      table.nuts = kept.count;
      drawNuts();
    }
  } catch (e) { /* unreadable: the count starts at 0 */ }
}

/* One tab writes the table game (page/owner.js); another follows it read-only until it takes it over. */
const own = owner(TABLE_KEY, {
  follow(on) { $("table-follow").hidden = !on; drawTable(); },
  reload(text) { try { hold(table, JSON.parse(text)); } catch (e) { return; } drawTable(); },
});
/** Claim the table game for this tab (wait: ask another tab to let go). */
export const ownTable = own.take;
$("table-take").addEventListener("click", () => own.take(true));
/** Draw the tab after a restore. */
export function drawAll() { restoreRole(); drawRecent(); drawTable(); }

/** A guest takes the table phone's game, checked as a saved game is; its own is set aside first. @param {any} r */
async function adopt(r) {
  core.replay(r); checkTable(r); checkTarget(r);
  if (typeof r.started !== "string" || !Array.isArray(r.hints) || r.hints.length !== r.players) refuse("it has no names for its players");
  await readyFor(r);
  const was = table.record;
  if (was && was.started !== r.started && !setAside(was, table.st)) refuse("This browser's storage is full: the game on screen could not be set aside, so it stays. Export it, or free some space, to start another.");
  if (!was || was.started !== r.started || was.events.length !== r.events.length) table.nuts = 0;
  hold(table, r); save();
  $("table-new").open = false;
  drawRecent(); drawTable();
}
startLink({
  record: () => /** @type {TableRecord | null} */ (table.record), state: () => table.st,
  // a guest's entry the rules refuse is the guest's to hear (it is answered as stale), not the table phone's
  push: (ev) => { try { core.apply(core.copy(state()), ev, rec().events.length, /** @type {any} */ (table.ctx)); } catch (e) { return false; } return pushEntered(TABLE, ev); },
  hints: (seat, on) => { rec().hints[seat] = on; save(); drawTable(); }, adopt, draw: () => drawTable(),
});

onShown(keepAwake);
onLanguage(() => {
  fillSelect($("table-players"), PLAYERS.map((p) => [p, playersText(p)]), $("table-players").value);
  setupChanged();
  drawAll();
});
