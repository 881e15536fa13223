/* The score strip: a card per player, the mover's marked, made once per game and updated in place. A name
 * that does not fit its card is shown in its shortest form that still tells it from the others (page/names.js
 * shortNames); its full name stays there for screen readers, and the turn line shows the mover's in full.
 * Whether a name fits is measured when the names or the strip's size change, never per tap. */
import { $, el } from "../../page/dom.js";
import { shortNames } from "../../page/names.js";

/** @typedef {import("../../core/types.js").State} State */

/** Cut the names that do not fit, in the layout the browser has already made: the whole name, else its short
 * form, else its letters alone (very large text). Run when the names or the strip's size change. */
function fit() {
  for (const card of $("table-pad").children) {
    const box = /** @type {HTMLElement | null} */ (card.querySelector(".name"));
    if (!box) continue;
    const over = () => box.scrollWidth > box.clientWidth + 0.5;
    card.classList.remove("cut", "cut2");
    if (over()) card.classList.add("cut");
    if (card.classList.contains("cut") && over()) card.classList.add("cut2");
  }
}
new ResizeObserver(() => fit()).observe($("table-pad"));

/** @param {string[]} names @param {State} st */
export function drawStrip(names, st) {
  const pad = $("table-pad"), key = JSON.stringify(names);
  if (pad.dataset.names !== key) {
    pad.dataset.names = key;
    const short = shortNames(names);
    pad.replaceChildren(...names.map((name, i) => el("li", { class: "card", "data-seat": String(i) },
      el("bdi", { class: "name" }, el("span", { class: "full", text: name }), el("span", { class: "short", "aria-hidden": "true" },
        ...short[i].split("\u2026").flatMap((part, k) => (k ? [el("span", { class: "dots", text: "\u2026" }), part] : [part]))),
        el("span", { class: "tiny", "aria-hidden": "true", text: short[i].replace("\u2026", "") })),
      el("span", { class: "score" }))));
    requestAnimationFrame(() => requestAnimationFrame(fit));
  }
  [...pad.children].forEach((card, i) => {
    const active = i === st.seat && st.phase !== "over";
    card.classList.toggle("active", active);
    card.classList.toggle("won", st.winner === i);
    if (active) card.setAttribute("aria-current", "true"); else card.removeAttribute("aria-current");
    const score = /** @type {HTMLElement} */ (card.querySelector(".score"));
    if (score.textContent !== String(st.scores[i])) score.textContent = String(st.scores[i]);
  });
}
