/* What the game tabs (Play, Coach, Table) share: a game held as its record and its current state (stepped by
 * one event per tap; replayed whole only on load, undo or another tab's write), its data loaded on first use,
 * and its board, turn line, log and end drawn alike. A tab registers its game so that Review and the start
 * can find it without reaching into the tab. */
import { data, core, TARGET } from "./context.js";
import { solved } from "./solving.js";
import { $, el, show, showError, fetchBytes } from "./dom.js";
import { store, track, savedOrder } from "./storage.js";
import { openTab, onShown } from "./tabs.js";
import { t, words } from "./i18n.js";
import { GonutsInputError } from "../core/errors.js";
import { whole } from "../core/numbers.js";

/** @typedef {import("../core/types.js").GameRecord} GameRecord */
/** @typedef {import("../core/types.js").GameEvent} GameEvent */
/** @typedef {import("../core/types.js").State} State */
/** @typedef {import("../core/types.js").Context} Context */
/** @typedef {{record: GameRecord | null, st: State | null, ctx: Context | null}} Held a game as a tab holds it */
/** @typedef {{mode: string, key: string, state: Held, draw: () => void, stepped?: (was: State, now: State, ev: GameEvent) => void}} Entered
 * a game kept by hand (coach, table); stepped hears of each entry before the draw */

/** @type {Map<string, () => GameRecord | null>} */
const registry = new Map();
/** @type {Map<string, string>} each mode's storage key */
const keys = new Map();
/** A tab's game, for Review, window.gonuts and Export. @param {string} mode @param {() => GameRecord | null} get
 * @param {string} [key] where it is saved */
export const register = (mode, get, key) => { registry.set(mode, get); if (key) { keys.set(mode, key); track(key); } };
/** Of the modes holding a game now, the one saved last (one never saved here comes after, in the order the tabs
 * registered), or null. @returns {string | null} */
export function mostRecent() {
  const order = savedOrder(), rank = (/** @type {string} */ mode) => { const k = order.indexOf(keys.get(mode) || ""); return k < 0 ? Infinity : k; };
  const held = [...registry].filter(([, get]) => { const r = get(); return !!r && r.events.length > 0; }).map(([mode]) => mode);
  return held.reduce((/** @type {string | null} */ best, mode) => (best === null || rank(mode) < rank(best) ? mode : best), null);
}
/** The states before each entry made by a tap since the game was held, and how many entries it held then: an
 * undo steps back to the last of them without a replay. @type {WeakMap<Held, {base: number, states: State[]}>} */
const before = new WeakMap();
/** @param {string} mode @returns {GameRecord | null} */
export const recordOf = (mode) => { const get = registry.get(mode); return get ? get() : null; };

/* The page's top line says a target: the one of the game on screen (the game the tab shown holds), else the
 * page's own. */
let shownTab = "";
function headerTarget() {
  const line = document.getElementById("page-line");
  if (!line || !line.dataset.t) return;
  const r = recordOf(shownTab);
  const target = r && typeof r.target === "number" ? r.target : TARGET;
  const params = JSON.parse(line.dataset.tParams || "{}");
  if (params.target === target) return;
  params.target = target;
  line.dataset.tParams = JSON.stringify(params);
  line.textContent = t(line.dataset.t, params);
}
onShown((name) => { shownTab = name; headerTarget(); });

/** Hold a record: its context and its state replayed once (throws GonutsInputError if it does not replay).
 * @param {Held} held @param {GameRecord | null} record */
export function hold(held, record) {
  takeUpReading(record);                // held, saved and exported with the reading's name
  before.set(held, { base: record ? record.events.length : 0, states: [] });
  held.record = record;
  held.ctx = record ? core.context(record) : null;
  held.st = record ? core.replay(record) : null;
  headerTarget();
}

/** Make a game usable: a no-op when it is, else load it (the 4-player tables are decoded on first use), read
 * it from this browser's kept games, or solve it (page/solving.js: the estimate, a bar and Cancel on the page;
 * `cancel: false` when the game is being restored and cannot wait without its values).
 * @param {number} players @param {string} reading @param {number} [target] @param {number} [speed]
 * @param {{cancel?: boolean}} [opts] */
export async function ready(players, reading, target, speed, opts) {
  if (core.loaded(players, reading, target, speed)) return;
  if (!core.games().includes(core.key(players, reading, target, speed))) {
    await solved({ players, reading, target, speed }, { ui: true, cancel: !opts || opts.cancel !== false });
    return;
  }
  const note = $("loading");
  note.textContent = t("Loading the {players}-player {reading} tables\u2026", { players, reading: t(reading) });
  note.hidden = false;
  try { await core.load(players, reading, fetchBytes); } finally { note.hidden = true; }
}

/** A whole number of 0 or more typed in a form, by the one number reader. @param {string} text @param {string} what */
export const wholeNumber = (text, what) => whole(text, what);
/** A refusal in the player's language. @param {unknown} err */
export function say(err) {
  if (!(err instanceof GonutsInputError)) throw err;
  return err.key ? t(err.key, err.params) : err.message;
}

/** A refusal of an entry, in the player's language, without the record's "event N: " (the player entered it
 * now, or is changing it). @param {unknown} err */
export const sayEntry = (err) => say(err).replace(/^event \d+: /, "");

/** @param {number} i */
export const seatName = (i) => i === 0 ? t("Seat {k} (moves first)", { k: 1 }) : t("Seat {k}", { k: i + 1 });
/** @param {number} n @returns {[number, string][]} */
export const seatOptions = (n) => Array.from({ length: n }, (_, i) => [i, seatName(i)]);
/** @param {number} n */
export const playersText = (n) => t("{n} players", { n });
/** A seat's decisions and what they gave up, per decision (a sum over a game, "121.47 points", reads as a
 * percentage gone wrong; the sum stays in the element's data). @param {number} n @param {number} totalPoints */
export const lossPerDecision = (n, totalPoints) => `${t("{n} decisions", { n })}; ${t("on average {mean} points of win probability given up per decision (0 is perfect).", { mean: words.fixed(totalPoints / n, 2) })}`;

/** A new record of a mode: it always says its target, reading and Go Nuts! speed.
 * @param {string} mode @param {{reading: string, players: number, seat: number, target?: number, speed?: number}} cfg
 * @param {Record<string, any>} [extra] @returns {GameRecord} */
export function newRecord(mode, cfg, extra) {
  return Object.assign({ format: core.FORMAT, version: core.VERSION, reading: cfg.reading, players: cfg.players,
                         target: cfg.target === undefined ? TARGET : cfg.target, speed: cfg.speed === undefined ? 1 : cfg.speed,
                         you: cfg.seat, mode, events: [] }, extra || {});
}
/** A game's house rule in a few words, as every game's screen and its review show it: players, reading, target,
 * and the Go Nuts! speed unless as printed. @param {{players: number, target?: number, speed?: number}} r */
export function houseRule(r) {
  const rule = t("{n} players, {reading} reading, target {target}", { n: r.players, reading: t(readingOf(/** @type {GameRecord} */ (r))), target: targetOf(/** @type {GameRecord} */ (r)) });
  const speed = speedOf(/** @type {GameRecord} */ (r));
  return speed === 1 ? rule : t("{rule}, Go Nuts! speed {speed}", { rule, speed: words.fixed(speed, Number.isInteger(speed) ? 0 : 1) });
}
/** A record's Go Nuts! speed (a record without one: as printed). @param {GameRecord} r */
export const speedOf = (r) => (r.speed === undefined ? 1 : r.speed);
/** Something kept before the reading had its name (a record, a practice session, a table's setup) takes it up:
 * its "rules" becomes "reading", so that it is saved again with the new word. @param {any} kept */
export function takeUpReading(kept) {
  if (kept && kept.reading === undefined && kept.rules !== undefined) { kept.reading = kept.rules; delete kept.rules; }
}
/** A record's reading (records written before it had that name say "rules"). @param {any} r @returns {string} */
export const readingOf = (r) => /** @type {string} */ (core.readingOf(r));
/** The game a record is played in. @param {GameRecord} r */
export const gameOf = (r) => core.game(r.players, readingOf(r), targetOf(r), speedOf(r));
/** Make a record's game usable (ready). @param {GameRecord} r @param {{cancel?: boolean}} [opts] */
export const readyFor = (r, opts) => ready(r.players, readingOf(r), targetOf(r), speedOf(r), opts);
/** @type {Map<string, import("../core/types.js").ValuesAt>} one backup per score state and game, remembered */
const backups = new Map();
/** The backup of a start state, computed once and shared (the advice, the why, the live chance).
 * @param {GameRecord} record @param {number[]} scores */
export function backupOf(record, scores) {
  const key = core.key(record.players, readingOf(record), targetOf(record), speedOf(record));
  let at = backups.get(key);
  if (!at) { at = core.memoValues(gameOf(record)); backups.set(key, at); }
  return at(scores);
}
/** The recording seat's chance of winning now (optimal play from here). @param {GameRecord} record @param {State} st */
export function youWin(record, st) {
  const g = gameOf(record);
  if (st.phase === "over") return st.winner === record.you ? 1 : 0;
  const N = record.players, f = core.frame(st);
  if (f[0] + (st.phase === "decide" ? st.t : 0) >= g.target) return st.seat === record.you ? 1 : 0;
  const v = backupOf(record, f);
  const t = st.phase === "decide" ? st.t : 0, n = st.phase === "decide" ? st.n : core.N_DICE;
  return core.stateValue(g, f, t, n, v)[(record.you - st.seat + N) % N];
}
/** @param {HTMLElement} box @param {State} st @param {string[]} names */
export function drawBoard(box, st, names) {
  box.replaceChildren(...st.scores.map((s, i) => el("div", { class: `seat${i === st.seat && st.phase !== "over" ? " active" : ""}`,
    "data-seat": String(i) }, el("div", { class: "who", text: t("{who} \u00b7 seat {k}", { who: names[i], k: i + 1 }) }),
    el("div", { class: "pts", text: String(s) }))));
}
/** The advice to the mover, in the mover's frame, and its why (one backup for both).
 * @param {GameRecord} record @param {State} st */
export function moverAdvice(record, st) {
  const g = gameOf(record), f = core.frame(st);
  const v = st.scores[st.seat] + st.t >= g.target ? undefined : backupOf(record, f);
  const a = core.adviseIn(g, f, st.t, st.n, v);
  const why = a.reason === "optimal" ? words.why(a, core.explainIn(g, f, st.t, st.n, v), readingOf(record)) : null;
  return { a, why };
}
/** One entry of a log, in words. @param {GameEvent} ev @param {string[]} names */
export function describe(ev, names) {
  const who = names[ev.seat];
  if (ev.roll) return t("{who} rolled {counts}", { who, counts: words.counts(ev.roll) });
  if (ev.choice) return ev.choice === "roll" ? t("{who} chose to roll", { who }) : t("{who} chose to stop", { who });
  if (ev.nuts !== undefined) return t("{who}'s Go Nuts! round collected {n} acorns", { who, n: ev.nuts });
  return t("{who} banked {n} points", { who, n: /** @type {number} */ (ev.banked) });
}
/* The log of a game: its last LOG_SHOWN entries (a record holds up to 200,000: drawn whole, or spread into one
 * call, they would stall or break the page). */
const LOG_SHOWN = 300;
/** What each log shows: the record and language it was drawn for, and how many of its events.
 * @type {WeakMap<HTMLElement, {record: GameRecord, events: GameEvent[], lang: string, names: string, drawn: number}>} */
const logged = new WeakMap();
/** Draw a game's log. After a tap (an entry added, or undone) only the entries that changed are added or
 * removed; anything else (another game, language or names, a record edited in place) draws it whole. With
 * `opts`, an entry also shows what the rules made of it (note) and a button to change it (its data-i the
 * entry's index, its name "Change: " and the entry).
 * @param {HTMLElement} list @param {GameRecord} record @param {string[]} names
 * @param {{note?: (i: number) => string | null, change?: boolean}} [opts] */
export function drawLog(list, record, names, opts) {
  const n = record.events.length, from = Math.max(0, n - LOG_SHOWN), was = logged.get(list), key = names.join("\u0000");
  /** @param {number} i */
  const entry = (i) => {
    const what = describe(record.events[i], names);
    if (!opts) return el("li", { text: what });
    const note = opts.note ? opts.note(i) : null;
    const li = el("li", { "data-seat": String(record.events[i].seat) }, el("span", { text: what }));
    if (note) li.append(el("span", { class: "note", text: ` \u2014 ${note}` }));
    if (opts.change) li.append(" ", el("button", { type: "button", class: "change", "data-i": String(i), "aria-label": t("Change: {what}", { what }), text: t("Change") }));
    return li;
  };
  const wasFrom = was ? Math.max(0, was.drawn - LOG_SHOWN) : 0;
  const step = !!was && was.record === record && was.lang === words.lang && was.names === key && was.events === record.events &&
    Math.abs(n - was.drawn) < LOG_SHOWN && n >= wasFrom;
  logged.set(list, { record, events: record.events, lang: words.lang, names: key, drawn: n });
  if (was && step) {
    for (let i = was.drawn; i > Math.max(n, wasFrom); i--) /** @type {Element} */ (list.lastElementChild).remove();   // undone
    for (let i = Math.max(was.drawn, from); i < n; i++) list.append(entry(i));                                     // entered
    let reading = list.firstElementChild && list.firstElementChild.classList.contains("reading") ? list.firstElementChild : null;
    if (from > wasFrom) {                    // the oldest shown entries give way; the line above them counts them
      for (let i = wasFrom; i < from; i++) /** @type {Element} */ (reading ? reading.nextElementSibling : list.firstElementChild).remove();
    } else if (from < wasFrom) {             // an undo brings the older ones back
      const first = reading ? reading.nextElementSibling : list.firstElementChild;
      for (let i = from; i < wasFrom; i++) list.insertBefore(entry(i), first);
    }
    if (from && !reading) { reading = el("li", { class: "reading" }); list.prepend(reading); }
    if (reading && !from) reading.remove();
    else if (reading) reading.textContent = t("{n} earlier entries are in the exported record", { n: from });
    list.setAttribute("start", String(from + 1));
    return;
  }
  list.setAttribute("start", String(from + 1));
  list.replaceChildren();
  if (from) list.append(el("li", { class: "reading", text: t("{n} earlier entries are in the exported record", { n: from }) }));
  for (let i = from; i < n; i++) list.append(entry(i));
}
/** Forget what a log shows (its record's events were changed in place): the next draw makes it whole.
 * @param {HTMLElement} list */
export const redrawLog = (list) => { logged.delete(list); };
/** @param {GameRecord} record @param {State} st @param {string[]} names */
export function turnText(record, st, names) {
  if (st.phase === "over") return t("{who} reached {target} and won.", { who: names[/** @type {number} */ (st.winner)], target: targetOf(record) });
  const who = names[st.seat];
  if (st.phase === "start") return t("{who} to start a turn (5 dice).", { who });
  if (st.phase === "nuts") return t("{who}: Go Nuts! round.", { who });
  return t("{who}: {points}, {dice} live.", { who, points: t("{n} turn points", { n: st.t }), dice: t("{n} dice", { n: st.n }) });
}
/** The end-of-game banner of a mode ("play" or "coach"), with its way to the review.
 * @param {string} mode @param {GameRecord} record @param {State} st @param {string[]} names */
export function drawOver(mode, record, st, names) {
  const over = $(`${mode}-over`);
  show(over, st.phase === "over");
  if (st.phase !== "over") return;
  const scores = st.scores.join(" \u2013 ");
  const text = st.winner === record.you ? t("You win, {scores}!", { scores }) : t("{who} wins, {scores}.", { who: names[/** @type {number} */ (st.winner)], scores });
  const button = el("button", { id: `${mode}-to-review`, class: "primary", type: "button", text: t("Review my decisions") });
  button.addEventListener("click", () => openTab("review", { source: mode }));
  over.replaceChildren(el("p", { class: "total", text }), button);
}
/** Column labels of an advice table: you, then the others in turn order, by seat. @param {GameRecord} r */
export const seatLabels = (r) => Array.from({ length: r.players }, (_, k) => k === 0 ? t("You") : t("Seat {k}", { k: (r.you + k) % r.players + 1 }));

/** A record's target (a record without one is to the format's default). @param {GameRecord} r */
export const targetOf = (r) => (r.target === undefined ? data.record.default_target : r.target);
/** Refuse a record unless this page has its game: its target and speed embedded, or ones it solves.
 * @param {GameRecord} r */
export function checkTarget(r) {
  const speed = speedOf(r);
  if (!Number.isFinite(speed) || !core.offered(r.players, readingOf(r), targetOf(r), speed)) {
    const s = data.solve, params = { target: targetOf(r), min: s.targets[0], max: s.targets[1], speed: String(speed), speeds: s.speeds.join(", ") };
    throw new GonutsInputError(`it is a game to ${params.target} at Go Nuts! speed ${params.speed}, and this page plays to ${params.min} to ${params.max} at speeds ${params.speeds}`,
                               "it is a game to {target} at Go Nuts! speed {speed}, and this page plays to {min} to {max} at speeds {speeds}", params);
  }
}

/** An entered event of a game kept by hand: refused with the rules' message, or applied to the held state (one
 * step, no replay), saved and drawn. @param {Entered} game @param {GameEvent} ev */
export function pushEntered(game, ev) {
  const held = game.state, r = /** @type {GameRecord} */ (held.record);
  const box = $(`${game.mode}-error`);
  if (r.events.length >= data.record.max_events) {
    showError(box, t("this game holds {n} entries, the most a game record holds: export it and start a new one", { n: data.record.max_events }));
    return false;
  }
  const next = core.copy(/** @type {State} */ (held.st));
  try { core.apply(next, ev, r.events.length, /** @type {Context} */ (held.ctx)); }
  catch (e) { showError(box, sayEntry(e)); return false; }
  r.events.push(ev);
  const past = before.get(held);
  if (past && past.base + past.states.length === r.events.length - 1) past.states.push(/** @type {State} */ (held.st));
  const was = /** @type {State} */ (held.st);
  held.st = next;
  store.set(game.key, r);
  showError(box, "");
  if (game.stepped) game.stepped(was, next, ev);
  game.draw();
  return true;
}
/** Take back the last entry: the state before it, kept when it was entered (else the game replayed).
 * @param {Entered} game */
export function undoEntered(game) {
  const r = game.state.record;
  if (!r || !r.events.length) return;
  r.events.pop();
  const past = before.get(game.state);
  game.state.st = past && past.states.length && past.base + past.states.length === r.events.length + 1
    ? /** @type {State} */ (past.states.pop()) : core.replay(r);
  store.set(game.key, r);
  showError($(`${game.mode}-error`), "");
  $(`${game.mode}-new`).open = false;
  game.draw();
}
