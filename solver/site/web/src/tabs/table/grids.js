/* The Table tab's roll grids: every roll of n live dice, one button each (faces.js), in a grid of their own, one
 * grid per n, made again when the language changes. Made once and kept in the page, the hidden ones parked where
 * the browser can (.park in style.css: their styles and boxes kept), so a tap that brings back the 21 rolls of
 * five dice neither builds them nor styles them again (measured in Chromium: the style pass of such a tap touches
 * 10-40 elements instead of 126-168, its layout a third of the objects); all are made, and laid out once out of
 * sight, after a game's first paint (warmGrids). */
import { $, el, show, afterPaint } from "../../page/dom.js";
import { onLanguage } from "../../page/i18n.js";
import { tap } from "../../page/taps.js";
import { rollButton } from "./faces.js";

/** @type {Map<number, HTMLElement>} */
const grids = new Map();
/** @type {(roll: number[]) => void} */
let enter = () => {};
/** What a tap on a roll does: it enters that roll for whoever is to move then. @param {(roll: number[]) => void} fn */
export function onRoll(fn) { enter = fn; }

/** The grid of n live dice in the current language, made (hidden) if it is not there yet. @param {number} n */
function grid(n) {
  let g = grids.get(n);
  if (g) return g;
  const buttons = [];
  for (let a = n; a >= 0; a--) {
    for (let sq = n - a; sq >= 0; sq--) {
      const roll = [a, sq, n - a - sq];
      const b = rollButton(roll);
      b.addEventListener("click", tap(() => enter(roll)));
      buttons.push(b);
    }
  }
  g = el("div", { class: "rolls park", "data-n": String(n) }, ...buttons);
  g.hidden = true;
  $("table-rolls").append(g);
  grids.set(n, g);
  return g;
}

onLanguage(() => { for (const g of grids.values()) g.remove(); grids.clear(); });     // made again, in the new words

/** Show the grid of n dice (0: none). A grid shown again marks its buttons as drawn now: a tap that began before
 * is not theirs (page/taps.js). @param {number} n @param {number} born performance.now() of the draw */
export function showGrid(n, born) {
  const on = n ? grid(n) : null;
  for (const g of grids.values()) {
    if (g === on && g.hidden) for (const b of g.children) /** @type {HTMLElement} */ (b).dataset.born = String(born);
    show(g, g === on);
  }
}

/** Make every grid up to `dice` dice and lay each out once, out of sight (.warm), after the next paint: the first
 * roll of four dice then costs what the hundredth does. Nothing to do (and nothing scheduled) once all are made.
 * @param {number} dice */
export function warmGrids(dice) {
  if (grids.size >= dice) return;
  afterPaint(() => {
    /** @type {HTMLElement[]} */
    const cold = [];
    for (let n = 1; n <= dice; n++) if (!grids.has(n)) cold.push(grid(n));
    for (const g of cold) g.classList.add("warm");
    if (cold.length) afterPaint(() => { for (const g of cold) g.classList.remove("warm"); });
  });
}
