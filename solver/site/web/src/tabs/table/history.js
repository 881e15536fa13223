/* The Table tab's history: the table games this phone keeps (the running one and the 50 set aside, newest
 * first), each player's statistics by name (games, wins, mean loss per decision, total luck: the numbers of
 * `gonuts-solve review`), and the export of every game as one file that `gonuts-solve review` reads (format
 * gonuts-history) and as CSV. */
import { core } from "../../page/context.js";
import { $, el, showError, download } from "../../page/dom.js";
import { t, words, onLanguage } from "../../page/i18n.js";
import { readyFor } from "../../page/gametab.js";
import { GonutsInputError } from "../../core/errors.js";
import { csvCell } from "../../page/names.js";
import { recent } from "./recent.js";

/** @typedef {import("../../core/types.js").GameRecord} GameRecord */
/** @typedef {{game: number, started: string, players: number, reading: string, target: number, finished: boolean,
 *   winner: string, player: string, seat: number, score: number, won: boolean, decisions: number, loss_points: number,
 *   mean_loss_points: number, luck_points: number, own_decisions_points: number, others_decisions_points: number,
 *   banked_turns_points: number}} Row */
export const FORMAT = "gonuts-history";
const MAX = 50;
/** @type {() => GameRecord | null} */
let running = () => null;
/** Where the running game is read from (the Table tab). @param {() => GameRecord | null} fn */
export const source = (fn) => { running = fn; };

/** The games kept, the running one first. @returns {GameRecord[]} */
export function games() {
  const list = [running(), ...recent()].filter((r) => r && typeof r === "object" && Array.isArray(r.events) && r.events.length);
  return /** @type {GameRecord[]} */ (list.slice(0, MAX));
}
/** @param {GameRecord} r @param {number} k */
const nameOf = (r, k) => (Array.isArray(r.names) && typeof r.names[k] === "string" ? r.names[k] : t("Seat {k}", { k: k + 1 }));

/** One row per game and seat: what review says of it. Games that cannot be read or reviewed are skipped.
 * @returns {Promise<Row[]>} */
export async function rows() {
  /** @type {Row[]} */
  const out = [];
  for (const [i, r] of games().entries()) {
    try {
      await readyFor(r);
      core.reviews(r).forEach((rv, k) => {
        const n = rv.decisions.length;
        out.push({ game: i + 1, started: typeof r.started === "string" ? r.started : "", players: r.players, reading: rv.reading,
                   target: rv.target, finished: rv.winner !== null, winner: rv.winner === null ? "" : nameOf(r, rv.winner),
                   player: nameOf(r, k), seat: k + 1, score: rv.scores[k], won: rv.winner === k, decisions: n,
                   loss_points: rv.total_loss_points, mean_loss_points: n ? rv.total_loss_points / n : 0,
                   luck_points: 100 * rv.luck, own_decisions_points: 100 * rv.own_decisions,
                   others_decisions_points: 100 * rv.others_decisions, banked_turns_points: 100 * rv.banked_turns });
      });
    } catch (e) { if (!(e instanceof GonutsInputError)) throw e; }
  }
  return out;
}

/** {name: {games, wins, decisions, loss, luck}} over every kept game. @param {Row[]} list */
export function byPlayer(list) {
  /** @type {Map<string, {games: number, wins: number, decisions: number, loss: number, luck: number}>} */
  const stats = new Map();
  for (const row of list) {
    const s = stats.get(row.player) || { games: 0, wins: 0, decisions: 0, loss: 0, luck: 0 };
    s.games++; s.wins += row.won ? 1 : 0; s.decisions += row.decisions; s.loss += row.loss_points; s.luck += row.luck_points;
    stats.set(row.player, s);
  }
  return stats;
}

export function count() {
  const n = games().length;
  $("hist-count").textContent = n ? t("{n} games", { n }) : t("no games yet");
}
async function draw() {
  count();
  if (!$("table-history").open) return;
  showError($("hist-error"), "");
  const stats = byPlayer(await rows());
  if (!stats.size) { $("hist-stats").replaceChildren(el("p", { text: t("No table games yet.") })); return; }
  const head = el("tr", {}, ...["Player", "Games", "Wins", "Mean loss", "Luck"].map((x) => el("th", { scope: "col", text: t(x) })));
  const body = [...stats.entries()].sort((a, b) => b[1].games - a[1].games || a[0].localeCompare(b[0])).map(([name, s]) =>
    el("tr", { "data-player": name, "data-games": String(s.games), "data-wins": String(s.wins),
               "data-mean-loss": String(s.decisions ? s.loss / s.decisions : 0), "data-luck": String(s.luck) },
      el("th", { scope: "row" }, el("bdi", { text: name })), el("td", { "data-label": t("Games"), text: String(s.games) }),
      el("td", { "data-label": t("Wins"), text: String(s.wins) }),
      el("td", { "data-label": t("Mean loss"), text: s.decisions ? words.fixed(s.loss / s.decisions >= 0.005 ? s.loss / s.decisions : 0, 2) : "\u2013" }),
      el("td", { "data-label": t("Luck"), text: `${s.luck >= 0 ? "+" : "\u2212"}${words.fixed(Math.abs(s.luck), 1)}` })));
  $("hist-stats").replaceChildren(el("table", {}, el("caption", { class: "sr", text: t("Statistics by player") }),
    el("thead", {}, head), el("tbody", {}, ...body)));
}

$("hist-export").addEventListener("click", () => {
  const list = games();
  if (!list.length) { showError($("hist-error"), t("No table games to export yet.")); return; }
  download(`gonuts-history-${Date.now()}.json`, "application/json",
           JSON.stringify({ format: FORMAT, version: 1, games: list }, null, 1));
});
$("hist-csv").addEventListener("click", async () => {
  const list = await rows();
  if (!list.length) { showError($("hist-error"), t("No table games to export yet.")); return; }
  const cols = /** @type {(keyof Row)[]} */ (Object.keys(list[0]));
  download(`gonuts-history-${Date.now()}.csv`, "text/csv",
           [cols.join(","), ...list.map((row) => cols.map((c) => csvCell(row[c])).join(","))].join("\r\n") + "\r\n");
});
$("table-history").addEventListener("toggle", draw);
onLanguage(draw);
