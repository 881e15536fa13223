/* Advice drawn the same way everywhere (Advise, Play's hint, Coach, Table): the verdict, a note, both chances
 * as labelled bars, and with 3 or 4 players every seat's chance; and the dice faces, drawn here (no font). */
import { el } from "./dom.js";
import { t, words } from "./i18n.js";

/** @typedef {import("../core/types.js").Advice} Advice */
const TOSS_UP = 0.001;                       // under 0.1 percentage points apart
/** Whether rolling and stopping are a toss-up. @param {Advice} a */
export const tossUp = (a) => Math.abs(/** @type {number} */ (a.win_if_roll) - /** @type {number} */ (a.win_if_stop)) < TOSS_UP;

const FACE_NAME = ["acorn", "squirrel", "car"];
/* The faces' icons. The acorn's and the squirrel's browns have a cream edge: on a dark roll button they were hard
 * to see (the edge is barely there on a light one). */
export const FACE_SVG = [
  '<svg viewBox="0 0 32 32" aria-hidden="true"><g stroke="#f6e7cf" stroke-width="1.6" paint-order="stroke"><ellipse cx="16" cy="19" rx="8" ry="9.5" fill="#b5651d"/><path d="M5 14 Q16 3 27 14 Z" fill="#6b3e10"/><rect x="15" y="2" width="2.4" height="6" rx="1" fill="#6b3e10"/></g></svg>',
  '<svg viewBox="0 0 32 32" aria-hidden="true"><g stroke="#f6e7cf" stroke-width="1.6" paint-order="stroke"><path d="M20 29 C31 24 31 7 22 4 C15 2 13 10 18 14 C12 14 7 18 7 24 C7 28 10 29 12 29 Z" fill="#8a6d57"/><circle cx="11" cy="13" r="5" fill="#8a6d57"/><path d="M8 9 L9 5 L12 8 Z" fill="#8a6d57"/></g><circle cx="9.5" cy="12" r="1.2" fill="#1f1a14"/></svg>',
  '<svg viewBox="0 0 32 32" aria-hidden="true"><path d="M5 19 L8.5 11 H23.5 L27 19 Z" fill="#c0392b"/><rect x="3" y="18" width="26" height="7" rx="2" fill="#c0392b"/><rect x="10" y="13" width="12" height="5" fill="#dbe9f4"/><circle cx="9" cy="26" r="3" fill="#222"/><circle cx="23" cy="26" r="3" fill="#222"/></svg>',
];
/** One die showing face f (0 acorn, 1 squirrel, 2 car), named for screen readers. @param {number} f */
export function die(f) {
  const d = el("span", { class: `die ${FACE_NAME[f]}`, role: "img", "aria-label": t(FACE_NAME[f]) });
  d.innerHTML = FACE_SVG[f];
  return d;
}

/** The rules' reading in one sentence. @param {string} reading */
export const readingText = (reading) => reading === "summary"
  ? t("Summary reading: a Go Nuts! round adds to the turn's points and is played with all five dice; the one-die rule fires when a roll leaves one live die and it shows an acorn.")
  : t("Rulebook reading: a Go Nuts! round replaces the turn's points and is played with the dice just rolled; the one-die rule fires when a single die is rolled and shows an acorn.");

/** Draw an advice into box. labels: the seats' names in turn order from the mover (else You, Next, ...).
 * @param {HTMLElement} box @param {Advice} a @param {string[] | null} labels @param {string | null} why */
export function drawAdvice(box, a, labels, why) {
  box.replaceChildren();
  let verdict, cls, note;
  const action = /** @type {string} */ (a.action);
  if (a.reason === "reaches_target") {
    verdict = t("STOP"); cls = "stop"; note = t("Banking {n} points reaches the target: you win.", { n: a.turn });
  } else if (a.reason === "forced") {
    verdict = t("ROLL"); cls = "roll"; note = t("The first roll of a turn is forced. Your chance of winning from here: {pct}.", { pct: words.pct(a.win_if_roll) });
  } else if (a.reason === "mixed") {      // the equilibrium mixes: neither is better for the mover
    verdict = t("EITHER"); cls = "tie";
    note = t("Rolling and stopping give you the same chance. The others' chances below assume the equilibrium's mix: roll {pct} of the time.",
             { pct: words.pct(/** @type {number} */ (a.roll_probability)) });
  } else if (tossUp(a)) {
    verdict = t("TOSS-UP"); cls = "tie";
    note = action === "roll" ? t("Rolling and stopping are within 0.1 points of each other (optimal, by a hair: roll).")
      : t("Rolling and stopping are within 0.1 points of each other (optimal, by a hair: stop).");
  } else {
    verdict = t(action === "roll" ? "ROLL" : "STOP"); cls = action;
    note = action === "roll" ? t("Rolling gives you the better chance.") : t("Stopping gives you the better chance.");
  }
  box.append(el("p", { class: `verdict ${cls}`, "data-action": action, "data-reason": String(a.reason), text: verdict }),
             el("p", { text: note }));
  if (why && a.reason === "optimal") box.append(el("p", { class: "why", text: why }));
  const bars = el("div", { class: "bars" });
  for (const [name, key] of /** @type {[string, "win_if_roll" | "win_if_stop"][]} */ ([[t("If you roll"), "win_if_roll"], [t("If you stop"), "win_if_stop"]])) {
    const v = a[key];
    if (v === null) continue;
    bars.append(el("span", { text: name }),
                el("span", { class: "bar", "aria-hidden": "true" }, el("i", { style: `width:${(100 * v).toFixed(2)}%` })),
                el("span", { class: "num", "data-key": key, "data-value": String(v), text: words.pct(v) }));
  }
  box.append(bars);
  const N = /** @type {number[]} */ (a.players_if_roll || a.players_if_stop).length;
  if (N > 2 || a.reason === "mixed") {                     // a row per seat, a column per action: fits the narrowest phone
    const keys = /** @type {[string, "players_if_roll" | "players_if_stop"][]} */ ([[t("if roll"), "players_if_roll"], [t("if stop"), "players_if_stop"]]).filter(([, key]) => a[key]);
    const head = el("tr", {}, el("th", { scope: "col", text: t("Chance to win") }),
                    ...keys.map(([name]) => el("th", { scope: "col", text: name })));
    const body = el("tbody");
    const plain = [t("You"), t("Next"), t("After next"), t("Last")];
    for (let k = 0; k < N; k++) {
      const row = el("tr", {}, el("th", { scope: "row" }, el("bdi", { text: labels ? labels[k] : plain[k] })));
      for (const [, key] of keys) {
        const v = /** @type {number[]} */ (a[key])[k];
        row.append(el("td", { "data-key": key, "data-seat": String(k), "data-value": String(v), text: words.pct(v) }));
      }
      body.append(row);
    }
    box.append(el("table", { class: "seats" }, el("thead", {}, head), body));
  }
  box.hidden = false;
}
