/* The Advise tab: one question (scores, turn points, live dice) and its answer with why (named apart from
 * core/advise.js, the twin of solver/play/advise.py, which answers it). */
import { core, PLAYERS, readingsFor } from "../../page/context.js";
import { $, el, showError, fillSelect } from "../../page/dom.js";
import { t, words, onLanguage } from "../../page/i18n.js";
import { drawAdvice, readingText } from "../../page/advice.js";
import { ready, wholeNumber, say, playersText } from "../../page/gametab.js";
import { initGameFields, readGameFields, TARGETS } from "../../page/gamefields.js";

const adv = { players: $("adv-players"), reading: $("adv-rules"), scores: $("adv-scores"), turn: $("adv-turn"),
              dice: $("adv-dice"), out: $("adv-out"), error: $("adv-error") };
const SCORE_NAMES = ["Your score", "Next player's score", "Then the next's score", "Then the last's score"];

function playersChanged() {
  const n = Number(adv.players.value);
  fillSelect(adv.reading, readingsFor(n).map((r) => [r, t(r)]), adv.reading.value);
  const old = [...adv.scores.querySelectorAll("input")].map((i) => i.value);
  adv.scores.replaceChildren();
  for (let k = 0; k < n; k++) {
    adv.scores.append(el("label", { text: t(SCORE_NAMES[k]) }, el("input", { id: `adv-score-${k}`, type: "number", inputmode: "numeric",
      min: "0", max: String(topScore()), step: "1", value: old[k] !== undefined ? old[k] : "0" })));
  }
  drawReading();
}
/** The highest score a field takes: one below the target (the form's, when it is one the page plays). */
function topScore() {
  const g = Number($("adv-target").value);
  return (Number.isInteger(g) && g >= TARGETS[0] && g <= TARGETS[1] ? g : TARGETS[1]) - 1;
}
initGameFields("adv", () => { for (const i of adv.scores.querySelectorAll("input")) i.setAttribute("max", String(topScore())); });
/* The first reading is in the page as written (webpage.py reading_line): written again only when it changes. */
function drawReading() {
  const text = readingText(adv.reading.value);
  if ($("adv-reading").textContent !== text) $("adv-reading").textContent = text;
}
function fill() {
  fillSelect(adv.players, PLAYERS.map((p) => [p, playersText(p)]), adv.players.value || undefined);
  fillSelect(adv.dice, [1, 2, 3, 4, 5].map((d) => [d, t("{n} dice", { n: d })]), adv.dice.value || 5);
  playersChanged();
}
fill();
adv.players.addEventListener("change", playersChanged);
adv.reading.addEventListener("change", drawReading);
/** @type {(() => void) | null} the last answer, drawn again in another language */
let redraw = null;
onLanguage(() => { fill(); if (redraw) redraw(); });
$("advise-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  try {
    const n = Number(adv.players.value);
    /** @type {number[]} */
    const scores = [];
    for (let k = 0; k < n; k++) scores.push(wholeNumber($(`adv-score-${k}`).value, k === 0 ? t("Your score") : t("Score {k}", { k: k + 1 })));
    const turn = wholeNumber(adv.turn.value, t("Turn points"));
    const { target, speed } = readGameFields("adv");
    showError(adv.error, "");
    await ready(n, adv.reading.value, target, speed);
    const q = { scores, turn, dice: Number(adv.dice.value), reading: adv.reading.value };
    const g = core.game(n, q.reading, target, speed), v = scores[0] + turn < g.target ? core.values(g, scores) : undefined;
    const a = core.adviseIn(g, scores, turn, q.dice, v);
    showError(adv.error, "");
    redraw = () => drawAdvice(adv.out, a, null, a.reason === "optimal" ? words.why(a, core.explainIn(g, scores, turn, q.dice, v), q.reading) : null);
    redraw();
  } catch (err) {
    showError(adv.error, say(err));
    adv.out.hidden = true;
    redraw = null;
  }
});
