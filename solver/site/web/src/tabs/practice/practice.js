/* The Practice tab: decisions drawn as `gonuts-solve practice` draws them (core practice), each answered Roll or
 * Stop and then judged (right or not, its cost, both chances, why); the score is the mean loss per decision, the
 * best and the last sessions kept. The daily set is the same for everyone on a date, with a line to share that
 * gives nothing away. A session in progress survives a reload: its seed redraws it. */
import { data, core, PLAYERS, readingsFor } from "../../page/context.js";
import { $, el, showError, fillSelect } from "../../page/dom.js";
import { t, words, onLanguage } from "../../page/i18n.js";
import { storageKey, raw, keepAside } from "../../page/storage.js";
import { ready, say, playersText, takeUpReading } from "../../page/gametab.js";
import { initGameFields, readGameFields, TARGETS, SPEEDS } from "../../page/gamefields.js";
import { refuse } from "../../core/errors.js";
import { drawCards } from "./cards.js";

/** @typedef {import("../../core/practice.js").Pick} Pick */
/** @typedef {{seed: number, count: number, players: number, reading: string, rules?: string, target?: number, speed?: number, daily: string | null,
 *   answers: string[]}} Session a session (target and speed: the page's target and the printed speed when absent) */
/** @typedef {{mean: number, n: number, right: number, what: string}} Result */

const KEY = storageKey("gonuts.practice.v1");
const DAILY = data.practice.daily;
const SQUARES = ["\u{1F7E9}", "\u{1F7E8}", "\u{1F7E5}"];    // right, a slip under a point, a mistake
/** @type {{session: Session | null, picks: Pick[], g: import("../../core/types.js").Game | null}} */
const prac = { session: null, picks: [], g: null };

/* The saved scores, or {} with the stored text kept aside and named (as a damaged game is) when any part has
 * another shape: a stored value never breaks the tab. */
/** @param {any} r */
const isResult = (r) => r !== null && typeof r === "object" && Number.isFinite(r.mean) && Number.isInteger(r.n) &&
  Number.isInteger(r.right) && typeof r.what === "string";
/** @param {any} m */
const isMap = (m) => m !== null && typeof m === "object" && !Array.isArray(m);
/** @returns {{last?: Result, best?: Result, daily?: Record<string, number[]>, session?: Session}} */
function saved() {
  const text = raw(KEY);
  if (text === null) return {};
  /** @type {any} */
  let v = null;
  try { v = JSON.parse(text); } catch (e) { /* kept aside below */ }
  if (isMap(v) && (v.last === undefined || isResult(v.last)) && (v.best === undefined || isResult(v.best)) &&
      (v.daily === undefined || (isMap(v.daily) && Object.values(v.daily).every((/** @type {unknown} */ d) => Array.isArray(d) &&
        d.every(Number.isFinite)))) && (v.session === undefined || isMap(v.session))) return v;
  keepAside("prac", KEY, text, t("the saved practice scores have a shape this page does not know"));
  try { localStorage.removeItem(KEY); } catch (e) { /* storage off: kept aside all the same */ }
  return {};
}
/** @param {unknown} v */
const keep = (v) => { try { localStorage.setItem(KEY, JSON.stringify(v)); } catch (e) { /* a score is not a game: lost quietly */ } };
/** @returns {[number, number, number]} */
const today = () => { const d = new Date(); return [d.getFullYear(), d.getMonth() + 1, d.getDate()]; };
/** @param {[number, number, number]} ymd */
const iso = ([y, m, d]) => `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
/** @param {number[]} losses */
const mean = (losses) => (losses.length ? losses.reduce((a, b) => a + b, 0) / losses.length : 0);
/** @param {Pick} p @param {string} answer */
const lossOf = (p, answer) => {
  const roll = /** @type {number} */ (p.win_if_roll), stop = /** @type {number} */ (p.win_if_stop);
  return 100 * (Math.max(roll, stop) - (answer === "roll" ? roll : stop));
};

function fillSetup() {
  const n = Number($("prac-players").value) || PLAYERS[0];
  fillSelect($("prac-players"), PLAYERS.map((p) => [p, playersText(p)]), n);
  fillSelect($("prac-rules"), readingsFor(Number($("prac-players").value)).map((r) => [r, t(r)]), $("prac-rules").value);
  drawScores();
  drawCards();
}
function drawScores() {
  const s = saved();
  /** @param {string} key @param {Result} r */
  const line = (key, r) => t(key, { mean: words.fixed(r.mean, 2), n: r.n, right: r.right, what: whatText(r.what) });
  $("prac-scores").textContent = [s.last ? line("Last session: {mean} points per decision over {n} ({right} right, {what}).", s.last) : "",
    s.best ? line("Best: {mean} points per decision over {n} ({right} right, {what}).", s.best) : ""].filter(Boolean).join(" ");
}

/* A session: {seed, count, players, reading (older sessions: rules), daily: "YYYY-MM-DD" or null, answers: ["roll" | "stop", ...]}. */
/** @param {Session} session @param {boolean} [restoring] a session taken up at start: its game is solved without a Cancel */
async function start(session, restoring) {
  showError($("prac-error"), "");
  try {
    const { target, speed } = session;
    if (target !== undefined && !(Number.isInteger(target) && target >= TARGETS[0] && target <= TARGETS[1])) {
      refuse("The target is a whole number from {min} to {max}.", { min: TARGETS[0], max: TARGETS[1] });
    }
    if (speed !== undefined && !SPEEDS.includes(speed)) refuse("The solver stopped: {why}", { why: `speed ${speed}` });
    await ready(session.players, session.reading, target, speed, { cancel: !restoring });
    prac.g = core.game(session.players, session.reading, target, speed);
    prac.picks = core.practiceIn(prac.g, session.seed, session.count);
  } catch (e) {
    const msg = say(e);
    const st = saved();                      // a session this page cannot draw (another page's game) is let go
    if (st.session) { delete st.session; keep(st); }
    showError($("prac-error"), msg); return;
  }
  prac.session = session;
  keep(Object.assign(saved(), { session }));
  drawFew();
  $("prac-setup").hidden = true; $("prac-result").hidden = true; $("prac-quiz").hidden = false;
  if (session.answers.length >= session.count) finish(); else ask(session.answers.length);
}
/** A set with fewer close calls than half (a reading whose decisions are clear) says so, as the command does. */
function drawFew() {
  const s = prac.session, close = prac.picks.filter((p) => p.close).length;
  const few = !!s && close < Math.floor(s.count / 2);
  $("prac-few").hidden = !few;
  $("prac-few").textContent = few && s ? t("{n} of these decisions are close calls: the games drawn had no more, and clear ones fill the rest.", { n: close }) : "";
}
/** @param {number} i */
function ask(i) {
  const s = /** @type {Session} */ (prac.session), p = prac.picks[i];
  $("prac-progress").textContent = t("{what}: decision {k} of {n}", { what: s.daily ? t("Daily set {date}", { date: s.daily }) : t("{n} players, {reading}", { n: s.players, reading: t(s.reading) }), k: i + 1, n: s.count });
  $("prac-state").textContent = t("Scores {scores}; {turn}; {dice} live.", { scores: p.scores.map((x, k) => (k === 0 ? t("{x} (you)", { x }) : String(x))).join(", "),
    turn: t("{n} turn points", { n: p.turn }), dice: t("{n} dice", { n: p.dice }) });
  for (const b of ["prac-roll", "prac-stop"]) { $(b).removeAttribute("aria-disabled"); $(b).classList.remove("advised", "chosen"); }
  $("prac-verdict").replaceChildren();
  $("prac-why").textContent = "";
  $("prac-next").hidden = true;
  $("prac-quiz").scrollIntoView({ block: "start" });
  $("prac-roll").focus({ preventScroll: true });
}
/** @param {string} choice */
function answer(choice) {
  const s = /** @type {Session} */ (prac.session), i = s.answers.length, p = prac.picks[i];
  if (!p || $("prac-roll").getAttribute("aria-disabled") === "true") return;      // answered: a second tap is ignored
  s.answers.push(choice);
  keep(Object.assign(saved(), { session: s }));
  const loss = lossOf(p, choice), best = p.action;
  for (const b of ["prac-roll", "prac-stop"]) $(b).setAttribute("aria-disabled", "true");
  $(`prac-${best}`).classList.add("advised"); $(`prac-${choice}`).classList.add("chosen");
  const why = words.why(p, core.explainIn(/** @type {import("../../core/types.js").Game} */ (prac.g), p.scores, p.turn, p.dice), s.reading);
  $("prac-verdict").replaceChildren(
    el("p", { class: `verdict ${loss === 0 ? "roll" : "stop"}`, id: "prac-judged", "data-loss": String(loss),
              text: loss === 0 ? (best === "roll" ? t("Right: roll.") : t("Right: stop."))
        : best === "roll" ? t("Not quite: roll is better by {x} points.", { x: words.fixed(loss, 2) })
        : t("Not quite: stop is better by {x} points.", { x: words.fixed(loss, 2) }) }),
    el("p", { text: t(p.close ? "Win if roll {roll}, if stop {stop} (a close call)." : "Win if roll {roll}, if stop {stop}.", { roll: words.pct(p.win_if_roll), stop: words.pct(p.win_if_stop) }) }));
  $("prac-why").textContent = why;
  $("prac-next").hidden = false;
  $("prac-next").textContent = i + 1 < s.count ? t("Next") : t("See the score");
  $("prac-next").focus({ preventScroll: true });
}
/** @param {number[]} losses */
function squares(losses) { return losses.map((x) => SQUARES[x === 0 ? 0 : x < 1 ? 1 : 2]).join(""); }
function finish() {
  const s = /** @type {Session} */ (prac.session), losses = s.answers.map((a, i) => lossOf(prac.picks[i], a));
  const right = losses.filter((x) => x === 0).length, m = mean(losses), n = losses.length;
  const st = saved();
  if (n) {
    const result = { mean: m, n, right, what: s.daily ? `daily set ${s.daily}` : `${s.players} players, ${s.reading}` };
    st.last = result;
    if (!st.best || m < st.best.mean || (m === st.best.mean && n > st.best.n)) st.best = result;
    if (s.daily && n === s.count) { st.daily = Object.assign({}, st.daily); if (!st.daily[s.daily]) st.daily[s.daily] = losses; }
  }
  delete st.session;
  keep(st);
  prac.session = null;
  $("prac-quiz").hidden = true; $("prac-result").hidden = false;
  $("prac-total").dataset.mean = String(m);
  $("prac-total").textContent = n ? t("{right} of {n} right; {mean} points of win probability given up per decision (0 is perfect).", { right, n, mean: words.fixed(m, 2) }) : t("No decisions answered.");
  const line = s.daily && n === s.count ? t("Go Nuts! practice {date} \u00b7 {right}/{n} \u00b7 {mean} points {squares}", { date: s.daily, right, n, mean: words.fixed(m, 1), squares: squares(losses) }) : "";
  $("prac-share-line").textContent = line;
  $("prac-share").hidden = !line;
  $("prac-shared").textContent = "";
  drawScores();
}
async function share() {
  const text = $("prac-share-line").textContent;
  try {
    if (navigator.share) { await navigator.share({ text }); $("prac-shared").textContent = t("Shared."); return; }
    await navigator.clipboard.writeText(text); $("prac-shared").textContent = t("Copied: paste it anywhere.");
  } catch (e) {
    $("prac-shared").textContent = e instanceof Error && e.name === "AbortError" ? "" : t("Select the line above and copy it.");
  }
}

$("prac-players").addEventListener("change", fillSetup);
initGameFields("prac");
$("prac-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const count = Number($("prac-count").value);
  if (!Number.isInteger(count) || count < 1 || count > data.practice.max_count) {
    showError($("prac-error"), t("Decisions must be a whole number from 1 to {max}", { max: data.practice.max_count })); return;
  }
  let game;
  try { game = readGameFields("prac"); } catch (err) { showError($("prac-error"), say(err)); return; }
  const seed = crypto.getRandomValues(new Uint32Array(1))[0];
  start({ seed, count, players: Number($("prac-players").value), reading: $("prac-rules").value, ...game, daily: null, answers: [] });
});
$("prac-daily").addEventListener("click", () => {
  const d = today();
  start({ seed: core.dailySeed(d[0], d[1], d[2]), count: DAILY.count, players: DAILY.players, reading: DAILY.reading, daily: iso(d), answers: [] });
});
$("prac-roll").addEventListener("click", () => answer("roll"));
$("prac-stop").addEventListener("click", () => answer("stop"));
$("prac-next").addEventListener("click", () => {
  const s = prac.session;
  if (s && s.answers.length < s.count) ask(s.answers.length); else if (s) finish();
});
$("prac-quit").addEventListener("click", finish);
$("prac-again").addEventListener("click", () => { $("prac-result").hidden = true; $("prac-setup").hidden = false; });
$("prac-share").addEventListener("click", share);
$("rule-print").addEventListener("click", () => window.print());

/* At start: a session in progress (saved before a reload) is taken up where it was. */
export function restore() {
  fillSetup();
  const s = saved().session;
  const ok = s && Number.isInteger(s.seed) && Number.isInteger(s.count) && Array.isArray(s.answers) &&
    s.answers.every((/** @type {unknown} */ a) => a === "roll" || a === "stop") && s.answers.length <= s.count;
  if (!ok) return null;
  takeUpReading(s);
  return start(s, true);
}
/** A saved result's "what" (stored in English: "daily set DATE" or "N players, READING") in the language. @param {string} what */
function whatText(what) {
  const daily = /^daily set (.+)$/.exec(what), game = /^(\d) players, (\w+)$/.exec(what);
  if (daily) return t("daily set {date}", { date: daily[1] });
  if (game) return t("{n} players, {reading}", { n: Number(game[1]), reading: t(game[2]) });
  return what;
}
onLanguage(() => { fillSetup(); drawFew(); if (prac.session) ask(prac.session.answers.length); });
