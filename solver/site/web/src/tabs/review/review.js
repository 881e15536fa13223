/* The Review tab: each decision of a seat of a game (play, coach, table or a record file) against the optimal
 * one, the seat's luck split, and the record's export. It finds the tabs' games through page/gametab.js. */
import { data, core } from "../../page/context.js";
import { $, el, showError, fillSelect, download } from "../../page/dom.js";
import { t, words, onLanguage } from "../../page/i18n.js";
import { onOpen } from "../../page/tabs.js";
import { readyFor, readingOf, targetOf, speedOf, houseRule, recordOf, say, mostRecent, lossPerDecision } from "../../page/gametab.js";

/** @typedef {import("../../core/types.js").GameRecord} GameRecord */
/** @typedef {import("../../core/record.js").Review} Review */

/** @type {{file: any, fileError: string | null, read: boolean, chosen: boolean}} */
const rev = { file: null, fileError: null, read: false, chosen: false };
const source = () => $("rev-source").value;
/** @returns {any} */
const reviewRecord = () => (source() === "file" ? rev.file : recordOf(source()));

/** @param {number} x */
const points = (x) => t("{x} points", { x: words.fixed(x, 2) });

async function render() {
  const out = $("rev-out"), err = $("rev-error");
  $("rev-file-label").hidden = source() !== "file";
  const pick = reviewRecord();
  const seats = pick && typeof pick === "object" && Number.isInteger(pick.players) && pick.players >= 2 && pick.players <= 4 ? pick.players : 0;
  $("rev-seat-label").hidden = seats === 0;
  if (seats) {
    /** @param {number} k */
    const label = (k) => (Array.isArray(pick.names) && typeof pick.names[k] === "string" ? pick.names[k] : t("Seat {k}", { k: k + 1 }));
    const keep = $("rev-seat").dataset.for === JSON.stringify([pick.players, pick.you]) ? $("rev-seat").value : String(pick.you);
    fillSelect($("rev-seat"), Array.from({ length: seats }, (_, k) => [k, label(k)]), keep);
    $("rev-seat").dataset.for = JSON.stringify([pick.players, pick.you]);
  }
  out.replaceChildren();
  showError(err, "");
  if (source() === "file" && rev.fileError) { showError(err, rev.fileError); $("rev-export").disabled = true; return; }
  const fromFile = source() === "file" && rev.read;
  const record = pick === "null" ? null : pick;
  $("rev-export").disabled = !record || typeof record !== "object";
  if (fromFile && (pick === "null" || typeof record !== "object" || Array.isArray(record))) {
    showError(err, t("a game record must be a JSON object")); return;                // false, 0, "", [] and null too
  }
  if (!record) { out.append(el("p", { text: t("No game to review yet: play one, coach one, or open a record file.") })); return; }
  /** @type {Review} */
  let rv;
  try {
    if (record && typeof record === "object" && core.offered(record.players, readingOf(record), targetOf(record), speedOf(record))) await readyFor(record);
    rv = core.review(record, $("rev-seat-label").hidden ? undefined : Number($("rev-seat").value));
  } catch (e) { showError(err, say(e)); $("rev-export").disabled = true; return; }
  /** @param {number} k */
  const name = (k) => (Array.isArray(record.names) && typeof record.names[k] === "string" ? record.names[k] : t("Seat {k}", { k: k + 1 }));
  const mine = rv.seat === rv.you && record.mode !== "table";
  const scores = rv.scores.join(" \u2013 "), who = name(rv.seat);
  const status = rv.winner === null ? t("Game in progress: {scores}.", { scores })
    : rv.winner === rv.seat && mine ? t("You won, {scores}.", { scores }) : t("{who} won, {scores}.", { who: name(rv.winner), scores });
  const game = houseRule(record);
  const whose = mine ? t("you at seat {k}", { k: rv.you + 1 }) : t("{who} (seat {k}) reviewed", { who, k: rv.seat + 1 });
  out.append(el("p", { text: `${status} ${game}, ${whose}.` }));
  if (!rv.decisions.length) {
    out.append(el("p", { id: "rev-none", text: mine ? t("You have no decisions to review in this game (turns entered as banked totals, or none decided yet).")
      : t("{who} has no decisions to review in this game (turns entered as banked totals, or none decided yet).", { who }) }));
  }
  out.append(el("p", { class: "total", id: "rev-total", "data-value": String(rv.total_loss_points),
    text: rv.decisions.length ? lossPerDecision(rv.decisions.length, rv.total_loss_points) : t("{n} decisions", { n: 0 }) }));
  out.append(luckLine(rv, record, mine, who));
  /** @param {import("../../core/record.js").Reviewed} d */
  const where = (d) => t("{scores}, {turn}, {dice}", { scores: d.scores.join("\u2013"), turn: t("{n} points", { n: d.turn }), dice: t("{n} dice", { n: d.dice }) });
  if (rv.costliest.length) {
    const byEvent = new Map(rv.decisions.map((d) => [d.event, d]));
    out.append(el("p", { id: "rev-costliest", text: t("Costliest: {list}", { list: rv.costliest.map((e) => {
      const d = /** @type {import("../../core/record.js").Reviewed} */ (byEvent.get(e));
      return t("{action} at {where} ({points})", { action: t(d.taken), where: where(d), points: points(d.loss_points) });
    }).join("; ") }) }));
  }
  const costly = new Set(rv.costliest);
  for (const d of rv.decisions) {
    const zero = d.loss_points <= 0;
    const state = mine ? t("Scores {scores} (yours first), {turn}, {dice}", { scores: d.scores.join("\u2013"), turn: t("{n} turn points", { n: d.turn }), dice: t("{n} dice", { n: d.dice }) })
      : t("Scores {scores} ({who}’s first), {turn}, {dice}", { scores: d.scores.join("\u2013"), who, turn: t("{n} turn points", { n: d.turn }), dice: t("{n} dice", { n: d.dice }) });
    out.append(el("div", { class: `dec${costly.has(d.event) ? " costly" : ""}`, "data-event": String(d.event), "data-loss": String(d.loss_points) },
      el("span", { class: `loss${zero ? " zero" : ""}`, text: zero ? t("optimal") : `\u2212${words.fixed(d.loss_points, 2)}` }),
      el("div", { text: state }),
      el("div", { class: "reading", text: d.optimal === "either"
        ? t("{who}: {taken}. A mixed decision: rolling and stopping give the same chance, {roll}, so neither costs anything; the equilibrium rolls {pct} of the time.", {
          who: mine ? t("You") : who, taken: t(d.taken), roll: words.pct(d.win_if_roll), pct: words.pct(/** @type {number} */ (d.roll_probability)) })
        : t("{who}: {taken}. Optimal: {optimal}. Win if roll {roll}, if stop {stop}.", {
          who: mine ? t("You") : who, taken: t(d.taken), optimal: t(String(d.optimal)), roll: words.pct(d.win_if_roll), stop: words.pct(d.win_if_stop) }) })));
  }
}
/** The seat's change in win probability in one sentence, as `gonuts-solve review` words it.
 * @param {Review} rv @param {GameRecord} record @param {boolean} mine @param {string} who */
function luckLine(rv, record, mine, who) {
  const banked = record.events.some((e) => e && typeof e === "object" && "banked" in e);
  const cost = Math.round(-1000 * rv.own_decisions) / 10 + 0;
  const p = el("p", { class: "luck", id: "rev-luck" });
  for (const k of /** @type {const} */ (["start", "end", "luck", "own_decisions", "others_decisions", "banked_turns"])) p.dataset[k] = String(rv[k]);
  const params = { who: mine ? t("You") : who, start: words.fixed(100 * rv.start, 1), end: words.fixed(100 * rv.end, 1),
                   change: words.signed(rv.end - rv.start), dice: words.signed(rv.luck), cost: words.fixed(cost, 1),
                   others: words.signed(rv.others_decisions), banked: words.signed(rv.banked_turns) };
  p.textContent = mine
    ? (banked ? t("You: {start}% to {end}% ({change} points of win probability): the dice gave {dice}, your decisions cost {cost}, the others\u2019 decisions gave {others}, turns entered as banked totals {banked}.", params)
      : t("You: {start}% to {end}% ({change} points of win probability): the dice gave {dice}, your decisions cost {cost}, the others\u2019 decisions gave {others}.", params))
    : (banked ? t("{who}: {start}% to {end}% ({change} points of win probability): the dice gave {dice}, {who}\u2019s decisions cost {cost}, the others\u2019 decisions gave {others}, turns entered as banked totals {banked}.", params)
      : t("{who}: {start}% to {end}% ({change} points of win probability): the dice gave {dice}, {who}\u2019s decisions cost {cost}, the others\u2019 decisions gave {others}.", params));
  return p;
}
$("rev-source").addEventListener("change", () => { rev.chosen = true; render(); });
$("rev-seat").addEventListener("change", render);
$("rev-file").addEventListener("change", () => {
  const f = /** @type {FileList} */ ($("rev-file").files)[0];
  if (!f) return;
  const reader = new FileReader();
  reader.onload = () => {
    rev.file = null; rev.fileError = null; rev.read = true;
    try { rev.file = core.recordFromBytes(new Uint8Array(/** @type {ArrayBuffer} */ (reader.result)), f.name); if (rev.file === null) rev.file = "null"; }
    catch (e) { rev.fileError = say(e); }
    render();
  };
  reader.onerror = () => { rev.file = null; rev.fileError = t("{name} cannot be read", { name: f.name }); render(); };
  if (f.size > data.record.max_bytes) {
    rev.file = null;
    rev.fileError = t("{name} is {size} bytes; a game record is at most {max}", { name: f.name, size: f.size, max: data.record.max_bytes });
    render(); return;
  }
  reader.readAsArrayBuffer(f);
});
$("rev-export").addEventListener("click", () => {
  const record = reviewRecord();
  if (!record) return;
  // the file's name says the game's house rule, as its screen does: gonuts-table-3p-rulebook-t40-speed2-<seed or time>.json
  const rule = typeof record.players === "number" ? `-${record.players}p-${readingOf(record)}-t${targetOf(record)}${speedOf(record) === 1 ? "" : `-speed${speedOf(record)}`}` : "";
  download(`gonuts-${record.mode || "game"}${rule}-${record.seed !== undefined ? record.seed : Date.now()}.json`, "application/json", JSON.stringify(record, null, 1));
});
/* Opened from a game's end, the tab reviews that game; opened by hand, the game saved last (of any mode), until
 * the player picks a source. */
onOpen("review", (opts) => {
  const latest = mostRecent();
  if (opts && opts.source) $("rev-source").value = opts.source;
  else if (!rev.chosen && latest) $("rev-source").value = latest;
  render();
});
onLanguage(() => { if (!$("panel-review").hidden) render(); });
