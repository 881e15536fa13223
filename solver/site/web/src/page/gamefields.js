/* A new game's target and Go Nuts! speed, asked alike in every setup (Table, Play, Coach, Advise, Practice): the
 * target a number field within what the page solves (page.html: `PREFIX-target`), the speed a select under the
 * form's "More" fold (`PREFIX-speed`). The page's own target and the printed speed are the defaults. */
import { data } from "./context.js";
import { $, fillSelect } from "./dom.js";
import { t, onLanguage } from "./i18n.js";
import { refuse } from "../core/errors.js";

/** The targets a page offers: its own, and the range it solves. */
export const TARGETS = data.solve ? data.solve.targets : [data.record.target, data.record.target];
/** @type {number[]} */
export const SPEEDS = data.solve ? data.solve.speeds : [1];

/** @param {number} s */
const speedText = (s) => (s === 1 ? t("1 throw per tick, as printed") : t("{speed} throws per tick", { speed: String(s) }));

/** Wire a form's fields. @param {string} prefix @param {() => void} [changed] */
export function initGameFields(prefix, changed) {
  const target = $(`${prefix}-target`);
  target.setAttribute("min", String(TARGETS[0]));
  target.setAttribute("max", String(TARGETS[1]));
  if (!target.value) target.value = String(data.record.target);
  const fill = () => fillSelect($(`${prefix}-speed`), SPEEDS.map((s) => [s, speedText(s)]), $(`${prefix}-speed`).value || "1");
  fill();
  onLanguage(fill);
  if (changed) { target.addEventListener("change", changed); $(`${prefix}-speed`).addEventListener("change", changed); }
}
/** The form's target and speed, or a refusal that says the range. @param {string} prefix @returns {{target: number, speed: number}} */
export function readGameFields(prefix) {
  const text = $(`${prefix}-target`).value.trim(), target = Number(text);
  if (!/^\d+$/.test(text) || target < TARGETS[0] || target > TARGETS[1]) {
    refuse("The target is a whole number from {min} to {max}.", { min: TARGETS[0], max: TARGETS[1] });
  }
  const speed = Number($(`${prefix}-speed`).value);
  return { target, speed: SPEEDS.includes(speed) ? speed : 1 };
}
/** Show a game's target and speed in a form (a kept setup, Play again). @param {string} prefix @param {{target?: number, speed?: number}} g */
export function setGameFields(prefix, g) {
  if (g.target !== undefined) $(`${prefix}-target`).value = String(g.target);
  if (g.speed !== undefined && SPEEDS.includes(g.speed)) $(`${prefix}-speed`).value = String(g.speed);
  if (g.speed !== undefined && g.speed !== 1) $(`${prefix}-more`).open = true;
}
