/* A roll as a button: its acorns and squirrels with their icons, its cars below; the visible text is in its
 * accessible name ("3 acorns, 1 squirrel, 1 car"). Used for entering a roll and for changing one. */
import { el } from "../../page/dom.js";
import { t } from "../../page/i18n.js";
import { FACE_SVG } from "../../page/advice.js";

/** Each face's icon, parsed once and cloned for every button (parsing SVG text 40 times a tap is slow). */
const ICONS = FACE_SVG.map((svg) => { const icon = el("span", { class: "icon", "aria-hidden": "true" }); icon.innerHTML = svg; return icon; });
/** @param {number} f @param {number} k @param {string} word */
function faces(f, k, word) {
  return [el("span", { text: String(k) }), ICONS[f].cloneNode(true), el("span", { class: "sr", text: ` ${word}, ` })];
}
/** @param {number[]} roll [acorns, squirrels, cars] */
export function rollButton([a, sq, c]) {
  return el("button", { type: "button", class: "res", "data-roll": `${a}-${sq}-${c}` },
    el("span", { class: "faces" }, ...faces(0, a, t("acorns", { n: a })), ...faces(1, sq, t("squirrels", { n: sq }))),
    el("span", { class: "cars", text: t("{n} cars", { n: c }) }));
}
