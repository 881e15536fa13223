/* The Play tab: a game against computer players whose policies the player picks, with seeded dice (the seed
 * in the address), Go Nuts! rounds tick by tick, hints and the live chance. */
import { core, PLAYERS, readingsFor, TARGET } from "../../page/context.js";
import { initGameFields, readGameFields, TARGETS, SPEEDS } from "../../page/gamefields.js";
import { $, el, showError, fillSelect, sleep } from "../../page/dom.js";
import { t, words, onLanguage } from "../../page/i18n.js";
import { store, storageKey, raw, keepAside } from "../../page/storage.js";
import { setFragment, addressNumber } from "../../page/tabs.js";
import { tap, redrawn } from "../../page/taps.js";
import { die, drawAdvice, readingText } from "../../page/advice.js";
import { owner } from "../../page/owner.js";
import { ready, readyFor, gameOf, speedOf, wholeNumber, say, newRecord, youWin, drawBoard, moverAdvice, drawLog, turnText, drawOver,
  seatLabels, seatOptions, targetOf, checkTarget, houseRule, playersText, register, readingOf } from "../../page/gametab.js";
import { GonutsInputError, refuse } from "../../core/errors.js";

/** @typedef {import("../../core/types.js").GameRecord} GameRecord */
/** @typedef {import("../../core/dice.js").Rng} Rng */
/** @typedef {import("../../core/dice.js").Tick} Tick */
/** @typedef {{players: number, reading: string, target: number, speed: number, seat: number, opponents: Record<string, string>,
 *   seed: number, fast: boolean}} PlayConfig */
/** @typedef {{record: GameRecord, rng: number, fast?: boolean}} SavedPlay */

/** @type {{record: GameRecord | null, rng: Rng, busy: boolean, gen: number, fast: boolean, readOnly: boolean, unvalued: boolean,
 *   lastDice: {faces: number[], out: number, who: string} | null,
 *   nuts: {seat: number, dice: number, ticks: Tick[], shown: number, acorns: number} | null}} */
export const play = { record: null, rng: core.rng(0), busy: false, gen: 0, fast: false, readOnly: false, unvalued: false,
                      lastDice: null, nuts: null };
export const PLAY_KEY = storageKey("gonuts.play.v1");
register("play", () => play.record, PLAY_KEY);
const rec = () => /** @type {GameRecord} */ (play.record);
/** @param {GameRecord} r */
const playNames = (r) => Array.from({ length: r.players }, (_, i) => i === r.you ? t("You")
  : t("Computer ({policy})", { policy: r.opponents && typeof r.opponents[i] === "string" ? r.opponents[i].slice(0, 40) : "?" }));

function playSetupChanged() {
  const n = Number($("play-players").value);
  fillSelect($("play-rules"), readingsFor(n).map((r) => [r, t(r)]), $("play-rules").value);
  fillSelect($("play-seat"), seatOptions(n), $("play-seat").value);
  const seat = Number($("play-seat").value);
  const old = [...$("play-opps").querySelectorAll("input")].map((i) => i.value);
  $("play-opps").replaceChildren();
  let j = 0;
  for (let i = 0; i < n; i++) {
    if (i === seat) continue;
    $("play-opps").append(el("label", { text: t("Computer at seat {k}: policy", { k: i + 1 }) },
      el("input", { id: `play-opp-${i}`, "data-seat": String(i), type: "text", list: "play-policies", autocomplete: "off",
                    value: old[j] || "optimal", "aria-describedby": "play-policy-help" })));
    j++;
  }
  $("play-opps").append(el("p", { id: "play-policy-help", class: "reading",
    text: t("optimal, hold:K (stop at K turn points), hold:K/D (also stop with D or fewer dice live), or dice:K1-K2-K3-K4-K5 (stop at K_n points with n dice live).") }));
}
$("play-opps").after(el("datalist", { id: "play-policies" }, ...["optimal", "hold:20", "hold:10", "hold:11/1", "dice:5-7-15-27-37"].map((v) => el("option", { value: v }))));
fillSelect($("play-players"), PLAYERS.map((p) => [p, playersText(p)]));
$("play-players").addEventListener("change", playSetupChanged);
$("play-seat").addEventListener("change", playSetupChanged);
initGameFields("play");
playSetupChanged();

function playConfigFromForm() {
  const n = Number($("play-players").value);
  const seat = Number($("play-seat").value), game = readGameFields("play");
  /** @type {Record<string, string>} */
  const opponents = {};
  for (const inp of $("play-opps").querySelectorAll("input")) {
    const spec = inp.value.trim();
    core.policy(spec, { players: n, reading: $("play-rules").value, ...game });
    opponents[String(inp.dataset.seat)] = spec;
  }
  const seedText = $("play-seed").value.trim();
  const seed = seedText === "" ? Math.floor(Math.random() * 4294967296) : wholeNumber(seedText, t("The seed"));
  if (seed > 4294967295) refuse("The seed must be below 4294967296");
  return { players: n, reading: $("play-rules").value, ...game, seat, opponents, seed, fast: $("play-fast").checked };
}
/** @param {GameRecord} r @returns {Record<string, string | number>} */
function playFragment(r) {
  const opps = r.opponents || {};
  const opp = Object.keys(opps).sort().map((k) => opps[k]).join(",");
  /** @type {Record<string, string | number>} */
  const params = { seed: Number(r.seed), players: r.players, reading: readingOf(r), seat: r.you, opp };
  if (targetOf(r) !== TARGET) params.target = targetOf(r);        // a link to a game at the page's own target stays as it was
  if (speedOf(r) !== 1) params.speed = speedOf(r);
  if (play.fast) params.fast = 1;
  return params;
}
/** @param {PlayConfig} cfg */
function startPlay(cfg) {
  play.gen++;
  play.readOnly = false; play.unvalued = false;
  play.fast = !!cfg.fast;
  $("play-fast").checked = play.fast;
  play.record = newRecord("play", cfg, { seed: cfg.seed, opponents: cfg.opponents });
  play.rng = core.rng(cfg.seed);
  play.lastDice = null; play.nuts = null;
  $("play-new").open = false;
  savePlay();
  setFragment("play", playFragment(play.record));
  drawPlay();
  runComputers();
}
function savePlay() { store.set(PLAY_KEY, { record: play.record, rng: play.rng.state, fast: play.fast }); }
/** @param {import("../../core/types.js").GameEvent} ev */
function playPush(ev) { rec().events.push(ev); savePlay(); }
/** @param {GameRecord} record */
function rulesOf(record) { return gameOf(record).rules; }

/* One roll of the active seat (its forced first roll, or after a choice to roll). */
function playRoll() {
  const r = rec(), st = core.replay(r);
  const n = st.n, seat = st.seat;
  const thrown = core.rollDice(play.rng, rulesOf(r), n);
  play.lastDice = { faces: thrown.faces, out: core.N_DICE - n, who: playNames(r)[seat] };
  play.nuts = null;
  playPush({ seat, roll: thrown.counts });
  const after = core.replay(r);
  if (after.phase === "nuts") {
    const dice = /** @type {number} */ (after.nutsDice);
    const opponents = [];
    for (let k = 1; k < r.players; k++) opponents.push((seat + k) % r.players);
    const round = core.nutsRound(play.rng, rulesOf(r), dice, opponents);
    playPush({ seat, nuts: round.acorns });
    play.nuts = { seat, dice, ticks: round.ticks, shown: 0, acorns: round.acorns };
  }
}
/** @param {number} gen */
async function showNuts(gen) {
  while (play.nuts && play.nuts.shown < play.nuts.ticks.length && gen === play.gen) {
    play.nuts.shown++;
    drawNuts();
    if (!play.fast) await sleep(260);
  }
}
function drawNuts() {
  const box = $("play-nuts"), nuts = play.nuts;
  if (!nuts) { box.replaceChildren(); return; }
  const names = playNames(rec());
  const list = el("ol");
  nuts.ticks.slice(0, nuts.shown).forEach((tk) => {
    const dogs = tk.dogs.map((d) => `${names[d.seat]}: ${d.dog ? t("DOG!") : t("doghouse")}`).join(", ");
    list.append(el("li", {}, ...tk.faces.map((f) => die(f)), el("span", { text: t("+{n} (total {total}) \u00b7 {dogs}", { n: tk.acorns, total: tk.total, dogs }) })));
  });
  const done = nuts.shown === nuts.ticks.length;
  box.replaceChildren(el("p", { text: t("Go Nuts! {who} throws {n} dice each tick until every opponent rolls a dog.", { who: names[nuts.seat], n: nuts.dice }) }), list,
    el("p", { text: done ? t("Round over after {n} ticks: {acorns} acorns.", { n: nuts.ticks.length, acorns: nuts.acorns }) : "..." }));
}
function drawDice() {
  const box = $("play-dice"), last = play.lastDice;
  box.replaceChildren();
  if (!last) return;
  last.faces.forEach((f) => box.append(die(f)));
  for (let i = 0; i < last.out; i++) box.append(el("span", { class: "die out", role: "img", "aria-label": t("out of play") }));
  const c = [0, 1, 2].map((f) => last.faces.filter((x) => x === f).length);
  box.append(el("p", { class: "caption", text: t("{who} rolled {counts}", { who: last.who, counts: words.counts(c) }) }));
}
function drawPlay() {
  const r = play.record;
  $("play-game").hidden = !r;
  if (!r) return;
  const st = core.replay(r), names = playNames(r);
  redrawn();
  $("play-reading").textContent = `${t("{rule}, seed {seed}.", { rule: houseRule(r), seed: String(r.seed) })} ${readingText(readingOf(r))}`;
  drawBoard($("play-board"), st, names);
  $("play-turn").textContent = turnText(r, st, names);
  drawDice();
  drawNuts();
  const live = play.unvalued ? null : youWin(r, st);
  $("play-live").textContent = t("Your chance of winning (optimal play from here): {pct}", { pct: words.pct(live) });
  $("play-live").dataset.value = String(live);
  const yours = st.phase !== "over" && st.seat === r.you && !play.busy && !play.readOnly;
  $("play-roll").disabled = !yours;
  $("play-roll").textContent = st.phase === "start" ? t("Roll (start your turn)") : t("Roll");
  $("play-stop").disabled = !(yours && st.phase === "decide");
  $("play-hint").disabled = !(yours && st.phase === "decide");
  if (!(yours && st.phase === "decide")) $("play-hint-out").hidden = true;
  drawOver("play", r, st, names);
  drawLog($("play-log"), r, names);
}
async function runComputers() {
  const gen = play.gen;
  play.busy = true;
  drawPlay();
  await showNuts(gen);
  try {
    for (let guard = 0; guard < 100000 && gen === play.gen; guard++) {
      const r = rec(), st = core.replay(r);
      if (st.phase === "over" || st.seat === r.you) break;
      if (!play.fast) await sleep(st.phase === "start" ? 450 : 550);
      if (gen !== play.gen) return;
      if (st.phase === "decide") {
        const g = gameOf(r);
        const choice = core.policy((r.opponents || {})[st.seat], { players: r.players, reading: readingOf(r), target: targetOf(r), speed: speedOf(r) }).roll(g, core.frame(st), st.t, st.n) ? "roll" : "stop";
        playPush({ seat: st.seat, choice });
        if (choice === "roll") playRoll();
      } else {
        playRoll();
      }
      drawPlay();
      await showNuts(gen);
      if (play.fast) await sleep(0);
    }
  } finally {
    if (gen === play.gen) { play.busy = false; drawPlay(); }
  }
}
/** @param {string} choice */
async function userAct(choice) {
  const r = rec(), st = core.replay(r);
  if (play.busy || st.phase === "over" || st.seat !== r.you) return;
  if (choice === "stop") {
    if (st.phase !== "decide") return;
    playPush({ seat: r.you, choice: "stop" });
    play.lastDice = null; play.nuts = null;
  } else {
    if (st.phase === "decide") playPush({ seat: r.you, choice: "roll" });
    playRoll();
  }
  $("play-hint-out").hidden = true;
  await runComputers();
}
$("play-roll").addEventListener("click", tap(() => userAct("roll")));
$("play-stop").addEventListener("click", tap(() => userAct("stop")));
$("play-hint").addEventListener("click", () => {
  const r = rec(), st = core.replay(r);
  const { a, why } = moverAdvice(r, st);
  drawAdvice($("play-hint-out"), a, seatLabels(r), why);
});
$("play-fast").addEventListener("change", () => { play.fast = $("play-fast").checked; if (play.record) { savePlay(); setFragment("play", playFragment(play.record)); } });
$("play-setup").addEventListener("submit", async (e) => {
  e.preventDefault();
  try {
    const cfg = playConfigFromForm();
    showError($("play-error"), "");
    await ready(cfg.players, cfg.reading, cfg.target, cfg.speed);
    await own.take(true);
    showError($("play-error"), ""); $("play-seed").value = "";
    if (play.record && !play.readOnly && inProgress(play.record)) {          // asked, and kept either way
      ask({ record: play.record, rng: play.rng.state, fast: play.fast }, cfg, t("The form"));
      return;
    }
    startPlay(cfg);
  } catch (err) { showError($("play-error"), say(err)); }
});
/** @param {Record<string, string>} params @returns {PlayConfig} */
function playFromFragment(params) {
  const n = params.players === undefined ? 2 : addressNumber(params.players, "players");
  if (!PLAYERS.includes(n)) refuse("this page plays {list} players, not {n}", { list: PLAYERS.join("/"), n: params.players });
  if (params.reading !== undefined && params.rules !== undefined) refuse("give the reading once: reading (or its older name, rules), not both");
  const reading = params.reading || params.rules || "rulebook";        // links made before the reading had its name: rules=
  if (!readingsFor(n).includes(reading)) refuse("this page has no {n}-player {rules} table", { n, rules: reading });
  const seat = params.seat === undefined ? 0 : addressNumber(params.seat, "seat");
  const target = params.target === undefined ? TARGET : addressNumber(params.target, "target");
  if (target !== TARGET && (target < TARGETS[0] || target > TARGETS[1])) refuse("The target is a whole number from {min} to {max}.", { min: TARGETS[0], max: TARGETS[1] });
  // a speed as the page writes it in links ("0.5", "1", "2"), as a target is plain digits: not "0x2", " 2" or "2e0"
  const speed = params.speed === undefined ? 1 : SPEEDS.find((s) => String(s) === params.speed);
  if (speed === undefined) refuse("This page solves games to {min} to {max} points, at Go Nuts! speeds {speeds}; not this one.", { min: TARGETS[0], max: TARGETS[1], speeds: SPEEDS.join(", ") });
  if (seat >= n) refuse("seat {seat} does not exist with {n} players (0 to {last})", { seat, n, last: n - 1 });
  const specs = (params.opp || "").split(",").filter(Boolean);
  /** @type {Record<string, string>} */
  const opponents = {};
  let j = 0;
  for (let i = 0; i < n; i++) {
    if (i === seat) continue;
    const spec = specs[Math.min(j, specs.length - 1)] || "optimal";
    core.policy(spec, { players: n, reading, target, speed });
    opponents[String(i)] = spec; j++;
  }
  const seed = addressNumber(params.seed, "seed");
  if (seed > 4294967295) refuse("The seed must be below 4294967296");
  return { players: n, reading, target, speed, seat, opponents, seed, fast: params.fast === "1" };
}
/* A saved game the page can replay but not play (a computer policy it cannot play): shown read-only,
 * with the reason, when this page has its table; it is kept aside either way. */
/** @param {GameRecord} record @param {string} why */
async function openReadOnly(record, why) {
  const valued = core.offered(record.players, readingOf(record), targetOf(record), speedOf(record));
  if (valued) await readyFor(record, { cancel: false });
  play.gen++;
  play.record = record; play.readOnly = true; play.unvalued = !valued;
  play.rng = core.rng(0); play.lastDice = null; play.nuts = null;
  drawPlay();
  showError($("play-error"), t("Read-only: {why}. Start a new game to play.", { why }));
}
/* A saved play game this page can go on with: its table, its target, a policy for every computer seat. */
/** @param {GameRecord} r */
function playable(r) {
  checkTarget(r);
  if (!core.offered(r.players, readingOf(r), targetOf(r), speedOf(r))) refuse("this page has no {n}-player {rules} table", { n: r.players, rules: readingOf(r) });
  if (r.opponents === null || typeof r.opponents !== "object") refuse("it names no computer players");
  for (let i = 0; i < r.players; i++) {
    if (i !== r.you) core.policy(r.opponents[String(i)], { players: r.players, reading: readingOf(r), target: targetOf(r), speed: speedOf(r) });
  }
}
/** @param {GameRecord | null | undefined} a @param {PlayConfig | null} b */
function sameGame(a, b) {
  return a && b && a.seed === b.seed && a.players === b.players && readingOf(a) === b.reading && a.you === b.seat &&
    targetOf(a) === b.target && speedOf(a) === b.speed &&
    JSON.stringify(a.opponents) === JSON.stringify(b.opponents);
}
/* A link never replaces a game in progress without asking: the question offers both, and the game a
 * link did replace is kept (PREVIOUS_KEY), so that Back, to its address, brings it back. */
const PREVIOUS_KEY = `${PLAY_KEY}.previous`;
/** @param {GameRecord} r */
const inProgress = (r) => r.events.length > 0 && core.replay(r).phase !== "over";
/** @param {string | null} text @returns {any} */
const parsed = (text) => { try { return text === null ? null : JSON.parse(text); } catch (e) { return null; } };
/** @param {SavedPlay} saved @param {PlayConfig} cfg @param {string} [source] */
function ask(saved, cfg, source) {
  $("play-ask-q").textContent = t("{source} starts a new game (seed {seed}, {players} players). Your game in progress (seed {mine}, {n} entries) is kept: which one now?",
    { source: source || t("This link"), seed: String(cfg.seed), players: cfg.players, mine: String(saved.record.seed), n: saved.record.events.length });
  $("play-ask").hidden = false;
  $("play-ask-mine").onclick = () => {
    $("play-ask").hidden = true;
    setFragment("play", playFragment(saved.record));
    restorePlay({ tab: "play", params: {} });
  };
  $("play-ask-link").onclick = async () => {
    $("play-ask").hidden = true;
    await own.take(true);
    store.set(PREVIOUS_KEY, saved);
    startPlay(cfg);
  };
  $("play-ask-mine").focus();
}
/** @param {{tab: string | null, params: Record<string, string>}} frag */
export async function restorePlay(frag) {
  $("play-ask").hidden = true;
  let text = raw(PLAY_KEY);
  let saved = null, unreadable = false;
  try { saved = text === null ? null : JSON.parse(text); } catch (e) { unreadable = true; keepAside("play", PLAY_KEY, String(text), t("it is not JSON")); }
  let cfg = null;
  if (frag.tab === "play" && Object.keys(frag.params).length && frag.params.seed === undefined) {
    showError($("play-error"), t("This play address has no seed (#play&seed=42&...): it starts no game."));
  }
  if (frag.tab === "play" && frag.params.seed !== undefined) {
    try { cfg = playFromFragment(frag.params); await ready(cfg.players, cfg.reading, cfg.target, cfg.speed); }
    catch (err) { showError($("play-error"), say(err)); cfg = null; }
  }
  if (cfg && play.record && sameGame(play.record, cfg)) {
    play.fast = cfg.fast; $("play-fast").checked = play.fast;
    return;
  }
  const previous = cfg ? parsed(raw(PREVIOUS_KEY)) : null;
  if (previous && previous.record && sameGame(previous.record, cfg) && !(saved && saved.record && sameGame(saved.record, cfg))) {
    if (saved && saved.record) store.set(PREVIOUS_KEY, saved);
    store.set(PLAY_KEY, previous);                     // Back to the game a link replaced: it comes back
    saved = previous; text = JSON.stringify(previous);
  }
  if (saved && saved.record) {
    let replayed = false;
    try {
      core.replay(saved.record);
      replayed = true;
      playable(saved.record);
      if (!cfg || sameGame(saved.record, cfg)) {
        await readyFor(saved.record, { cancel: false });
        play.record = saved.record; play.rng = core.rng(0); play.rng.state = saved.rng;
        play.fast = cfg ? cfg.fast : !!saved.fast; $("play-fast").checked = play.fast;
        $("play-new").open = false;
        drawPlay();
        runComputers();
        own.take(false);                   // another tab plays it already: this one follows
        return;
      }
      if (inProgress(saved.record)) { ask(saved, cfg); return; }
    } catch (err) {
      const why = err instanceof GonutsInputError ? say(err) : String(err);
      keepAside("play", PLAY_KEY, /** @type {string} */ (text), why);
      if (replayed && !cfg && Number.isInteger(saved.record.you)) await openReadOnly(saved.record, why);
    }
  } else if (text !== null && !unreadable && !(saved && saved.record)) {
    keepAside("play", PLAY_KEY, text, "it holds no game record");
  }
  if (cfg) { startPlay(cfg); own.take(false); }
}


/* One tab plays the saved game (ui.owner); another follows it read-only, its computers still, until it
 * takes it over. */
const own = owner(PLAY_KEY, {
  follow(on) {
    $("play-follow").hidden = !on;
    if (on) { play.gen++; play.busy = false; play.readOnly = true; if (play.record) drawPlay(); }
    else if (play.readOnly) { play.readOnly = false; restorePlay({ tab: null, params: {} }); }
  },
  reload(text) {
    const saved = parsed(text);
    if (saved && saved.record) { play.record = saved.record; play.rng.state = saved.rng; drawPlay(); }
  },
});
$("play-take").addEventListener("click", () => own.take(true));
onLanguage(() => {
  fillSelect($("play-players"), PLAYERS.map((p) => [p, playersText(p)]), $("play-players").value);
  playSetupChanged();
  if (play.record) drawPlay();
});
