/* The Coach tab: a real game with real dice, entered roll by roll; advice at each of the player's decisions,
 * the other players' turns entered as banked totals, Undo. */
import { core, PLAYERS, readingsFor } from "../../page/context.js";
import { $, showError, fillSelect } from "../../page/dom.js";
import { t, words, onLanguage } from "../../page/i18n.js";
import { store, storageKey, fullToSetAside } from "../../page/storage.js";
import { drawAdvice, readingText } from "../../page/advice.js";
import { owner } from "../../page/owner.js";
import { oneAtATime, tap, redrawn } from "../../page/taps.js";
import { ready, readyFor, checkTarget, wholeNumber, say, newRecord, youWin, drawBoard, moverAdvice, drawLog, turnText, drawOver,
  seatLabels, seatOptions, houseRule, pushEntered, undoEntered, hold, playersText, register, readingOf } from "../../page/gametab.js";
import { initGameFields, readGameFields } from "../../page/gamefields.js";

/** @typedef {import("../../core/types.js").GameRecord} GameRecord */
/** @typedef {import("../../core/types.js").GameEvent} GameEvent */
/** @typedef {import("../../page/gametab.js").Held} Held */

/** @type {Held} */
export const coach = { record: null, st: null, ctx: null };
const COACH_KEY = storageKey("gonuts.coach.v1");
register("coach", () => coach.record, COACH_KEY);
/** @param {GameRecord} r */
const coachNames = (r) => Array.from({ length: r.players }, (_, i) => i === r.you ? t("You") : t("Player {k}", { k: i + 1 }));
function coachSetupChanged() {
  const n = Number($("coach-players").value);
  fillSelect($("coach-rules"), readingsFor(n).map((r) => [r, t(r)]), $("coach-rules").value);
  fillSelect($("coach-seat"), seatOptions(n), $("coach-seat").value);
}
fillSelect($("coach-players"), PLAYERS.map((p) => [p, playersText(p)]));
initGameFields("coach");
$("coach-players").addEventListener("change", coachSetupChanged);
coachSetupChanged();
/* Starting or resuming a game waits (its data decoding, the game's lock): one at a time. */
const oneGameAction = oneAtATime(() => document.querySelectorAll("#coach-resume, #coach-setup button[type=submit]"));
$("coach-setup").addEventListener("submit", (e) => { e.preventDefault(); startCoached(); });
const startCoached = oneGameAction(async () => {
  let cfg;
  try {
    cfg = { players: Number($("coach-players").value), reading: $("coach-rules").value, seat: Number($("coach-seat").value), ...readGameFields("coach") };
    showError($("coach-error"), "");
    await ready(cfg.players, cfg.reading, cfg.target, cfg.speed);
  }
  catch (err) { showError($("coach-error"), say(err)); return; }
  await own.take(true);
  if (coach.record && coach.record.events.length && !store.set(ASIDE_KEY, coach.record, { quiet: true })) {   // undoable: Resume
    showError($("coach-error"), fullToSetAside()); return;
  }
  hold(coach, newRecord("coach", cfg));
  store.set(COACH_KEY, coach.record);
  showError($("coach-error"), "");
  $("coach-new").open = false;
  drawCoach();
});
/* A new coached game sets the running one aside (ASIDE_KEY): Resume brings it back, and the new one goes
 * aside in its place. */
const ASIDE_KEY = `${COACH_KEY}.aside`;
function drawAside() {
  let aside = null;
  try { aside = JSON.parse(localStorage.getItem(ASIDE_KEY) || "null"); } catch (e) { /* unreadable: none */ }
  const ok = !!aside && Array.isArray(aside.events);
  $("coach-resume").hidden = !ok;
  if (ok) $("coach-resume").textContent = t("Resume the game set aside ({players} players, {n} entries)", { players: aside.players, n: aside.events.length });
  return ok ? aside : null;
}
$("coach-resume").addEventListener("click", tap(() => { resumeAside(); }));
const resumeAside = oneGameAction(async () => {
  const aside = drawAside();
  if (!aside) return;
  try { core.replay(aside); checkTarget(aside); await readyFor(aside); }
  catch (err) { showError($("coach-error"), t("That game cannot be resumed: {why}", { why: say(err) })); return; }
  await own.take(true);
  if (!store.set(ASIDE_KEY, coach.record && coach.record.events.length ? coach.record : null, { quiet: true })) {
    showError($("coach-error"), fullToSetAside()); return;
  }
  hold(coach, aside);
  store.set(COACH_KEY, coach.record);
  $("coach-new").open = false;
  drawCoach();
});
/** @type {import("../../page/gametab.js").Entered} */
export const COACH = { mode: "coach", key: COACH_KEY, state: coach, draw: () => drawCoach() };
/** @param {GameEvent} ev */
const coachPush = (ev) => pushEntered(COACH, ev);
/** @param {() => void} fn */
function coachEntry(fn) {
  return (/** @type {Event | undefined} */ e) => {
    if (e) e.preventDefault();
    try { fn(); } catch (err) { showError($("coach-error"), say(err)); }
  };
}
const you = () => /** @type {GameRecord} */ (coach.record).you;
const seat = () => /** @type {import("../../core/types.js").State} */ (coach.st).seat;
$("coach-roll").addEventListener("submit", coachEntry(() => {
  const roll = [wholeNumber($("coach-a").value, t("Acorns")), wholeNumber($("coach-s").value, t("Squirrels")), wholeNumber($("coach-c").value, t("Cars"))];
  if (coachPush({ seat: seat(), roll })) for (const id of ["coach-a", "coach-s", "coach-c"]) $(id).value = "0";
}));
$("coach-nuts").addEventListener("submit", coachEntry(() => {
  if (coachPush({ seat: seat(), nuts: wholeNumber($("coach-nuts-n").value, t("Acorns of the Go Nuts! round")) })) $("coach-nuts-n").value = "0";
}));
$("coach-bank").addEventListener("submit", coachEntry(() => {
  if (coachPush({ seat: seat(), banked: wholeNumber($("coach-bank-n").value, t("Points banked")) })) $("coach-bank-n").value = "0";
}));
$("coach-do-roll").addEventListener("click", coachEntry(() => coachPush({ seat: you(), choice: "roll" })));
$("coach-do-stop").addEventListener("click", coachEntry(() => coachPush({ seat: you(), choice: "stop" })));
$("coach-undo").addEventListener("click", () => undoEntered(COACH));
function drawCoach() {
  redrawn();                 // a second tap of a double tap on Resume lands on what this draws: ignored (page/taps.js)
  drawAside();
  const r = coach.record;
  $("coach-game").hidden = !r;
  if (!r) return;
  const st = /** @type {import("../../core/types.js").State} */ (coach.st), names = coachNames(r);
  $("coach-reading").textContent = `${houseRule(r)}. ${readingText(readingOf(r))}`;
  drawBoard($("coach-board"), st, names);
  $("coach-turn").textContent = turnText(r, st, names);
  const mine = st.seat === r.you && st.phase !== "over";
  $("coach-roll").hidden = !(mine && (st.phase === "start" || st.phase === "roll"));
  $("coach-nuts").hidden = !(mine && st.phase === "nuts");
  $("coach-bank").hidden = !(!mine && st.phase === "start");
  $("coach-decide").hidden = !(mine && st.phase === "decide");
  $("coach-undo").disabled = r.events.length === 0;
  if (!$("coach-roll").hidden) {
    $("coach-roll-q").textContent = st.phase === "start"
      ? t("Your turn. Roll all 5 dice and enter what they show (your chance of winning from here: {pct}).", { pct: words.pct(youWin(r, st)) })
      : t("Roll your {n} live dice and enter what they show.", { n: st.n });
    for (const id of ["coach-a", "coach-s", "coach-c"]) $(id).max = String(st.n);
  }
  if (!$("coach-nuts").hidden) {
    const dice = st.nutsDice;
    /** @type {ChildNode} */ ($("coach-nuts-q").firstChild).textContent = `${t("Go Nuts! Throw {n} dice until every opponent rolls a dog. Acorns collected in the round", { n: dice })} `;
  }
  if (!$("coach-bank").hidden) /** @type {ChildNode} */ ($("coach-bank-q").firstChild).textContent = `${t("{who}'s turn: points banked (0 if the turn was lost)", { who: names[st.seat] })} `;
  if (!$("coach-decide").hidden) {
    const { a, why } = moverAdvice(r, st);
    drawAdvice($("coach-advice"), a, seatLabels(r), why);
  }
  drawOver("coach", r, st, names);
  drawLog($("coach-log"), r, names);
  if (own.following()) for (const c of $("coach-game").querySelectorAll("button, input")) /** @type {HTMLButtonElement} */ (c).disabled = true;
}


/* One tab writes the coached game (ui.owner); another follows it read-only until it takes it over. */
const own = owner(COACH_KEY, {
  follow(on) {
    $("coach-follow").hidden = !on;
    if (!on) for (const c of $("coach-game").querySelectorAll("button, input")) /** @type {HTMLButtonElement} */ (c).disabled = false;
    drawCoach();
  },
  reload(text) { try { hold(coach, JSON.parse(text)); } catch (e) { return; } drawCoach(); },
});
$("coach-take").addEventListener("click", () => own.take(true));
/** Claim the coached game for this tab (wait: ask another tab to let go). */
export const ownCoach = own.take;
onLanguage(() => {
  fillSelect($("coach-players"), PLAYERS.map((p) => [p, playersText(p)]), $("coach-players").value);
  coachSetupChanged();
  drawCoach();
});
