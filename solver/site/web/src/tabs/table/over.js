/* The end of a table game: the winner at once, then every seat's review, and Play again. */
import { core } from "../../page/context.js";
import { $, el, show, afterPaint } from "../../page/dom.js";
import { t, words } from "../../page/i18n.js";
import { openTab } from "../../page/tabs.js";
import { tap } from "../../page/taps.js";
import { lossPerDecision } from "../../page/gametab.js";
import { nextSetup } from "./setup.js";

/** @typedef {import("../../core/types.js").State} State */
/** @typedef {import("../../core/types.js").GameRecord & {names: string[], hints: boolean[], started?: string}} TableRecord */

/** The end: the winner at once, then every seat's review (one replay, one backup per turn, one luck split), drawn
 * after the tap's paint: a long game's review must not hold up the tap that ends it.
 * @param {TableRecord} r @param {State} st @param {(next: import("./setup.js").Setup) => void} again Play again
 * @param {() => unknown} held the game on screen now */
export function drawOver(r, st, again, held) {
  const over = $("table-over");
  show(over, st.phase === "over");
  if (st.phase !== "over") { over.dataset.drawn = ""; over.removeAttribute("aria-busy"); return; }
  // the entries themselves: a changed past entry of a finished game changes its score and its reviews
  const drawn = `${r.started}|${JSON.stringify(r.events)}|${words.lang}|${JSON.stringify(r.names)}`;
  if (over.dataset.drawn === drawn) return;
  over.dataset.drawn = drawn;
  const total = el("p", { class: "total" }, el("bdi", { text: r.names[/** @type {number} */ (st.winner)] }), ` ${t("wins, {scores}.", { scores: st.scores.join(" \u2013 ") })}`);
  const playAgain = el("button", { id: "table-again", class: "primary", type: "button", text: t("Play again") });
  playAgain.addEventListener("click", tap(() => { again(nextSetup(r)); }));
  // it only reads the game: on a guest's phone too, where the game's own controls are the table phone's
  const button = el("button", { id: "table-to-review", type: "button", "data-reads": "", text: t("Review every player") });
  button.addEventListener("click", () => openTab("review", { source: "table" }));
  const actions = el("div", { class: "actions" }, playAgain, button);
  over.replaceChildren(total, actions);
  over.setAttribute("aria-busy", "true");
  afterPaint(() => {
    if (over.dataset.drawn !== drawn || held() !== r) return;        // another draw since
    over.removeAttribute("aria-busy");
    const rows = core.reviews(r).map((rv, k) => el("p", { class: "seat-review", "data-seat": String(k), "data-loss": String(rv.total_loss_points) },
      el("bdi", { text: r.names[k] }), rv.decisions.length
        ? `: ${lossPerDecision(rv.decisions.length, rv.total_loss_points)}`
        : `: ${t("no decisions to review (turns entered as banked totals).")}`));
    actions.after(...rows);
  });
}
