/* gonuts UI, the Table tab's history: the table games this phone keeps (the running one and the 50 set aside,
 * newest first), each player's statistics by name (games, wins, mean loss per decision, total luck: the
 * numbers of `gonuts-solve review`), and the export of every game as one file that `gonuts-solve review`
 * reads (format gonuts-history) and as CSV. */
GonutsUI.history = (function (ui) {
  "use strict";
  const { core, $, el, showError, ready } = ui;
  const HISTORY_FORMAT = "gonuts-history", MAX = 50;

  function games() {
    const now = ui.table.state.record;
    const list = [now, ...ui.table.recent()].filter((r) => r && typeof r === "object" && Array.isArray(r.events) && r.events.length);
    return list.slice(0, MAX);
  }
  const nameOf = (r, k) => (Array.isArray(r.names) && typeof r.names[k] === "string" ? r.names[k] : `Seat ${k + 1}`);

  /* One row per game and seat: what review says of it. Games that cannot be read or reviewed are skipped. */
  async function rows() {
    const out = [];
    for (const [i, r] of games().entries()) {
      try {
        await ready(r.players, r.rules);
        for (let k = 0; k < r.players; k++) {
          const rv = core.review(r, k), n = rv.decisions.length;       // with the seat's luck split
          out.push({ game: i + 1, started: typeof r.started === "string" ? r.started : "", players: r.players, rules: r.rules,
                     target: rv.target, finished: rv.winner !== null, winner: rv.winner === null ? "" : nameOf(r, rv.winner),
                     player: nameOf(r, k), seat: k + 1, score: rv.scores[k], won: rv.winner === k, decisions: n,
                     loss_points: rv.total_loss_points, mean_loss_points: n ? rv.total_loss_points / n : 0,
                     luck_points: 100 * rv.luck, own_decisions_points: 100 * rv.own_decisions,
                     others_decisions_points: 100 * rv.others_decisions, banked_turns_points: 100 * rv.banked_turns });
        }
      } catch (e) { if (!(e instanceof core.GonutsInputError)) throw e; }
    }
    return out;
  }

  /* {name: {games, wins, decisions, loss, luck}} over every kept game. */
  function byPlayer(list) {
    const stats = new Map();
    for (const row of list) {
      const s = stats.get(row.player) || { games: 0, wins: 0, decisions: 0, loss: 0, luck: 0 };
      s.games++; s.wins += row.won ? 1 : 0; s.decisions += row.decisions; s.loss += row.loss_points; s.luck += row.luck_points;
      stats.set(row.player, s);
    }
    return stats;
  }

  function count() {
    const n = games().length;
    $("hist-count").textContent = n ? `${n} game${n === 1 ? "" : "s"}` : "no games yet";
  }
  async function draw() {
    count();
    if (!$("table-history").open) return;
    showError($("hist-error"), "");
    const stats = byPlayer(await rows());
    if (!stats.size) { $("hist-stats").replaceChildren(el("p", { text: "No table games yet." })); return; }
    const head = el("tr", {}, ...["Player", "Games", "Wins", "Mean loss", "Luck"].map((t) => el("th", { scope: "col", text: t })));
    const body = [...stats.entries()].sort((a, b) => b[1].games - a[1].games || a[0].localeCompare(b[0])).map(([name, s]) =>
      el("tr", { "data-player": name, "data-games": String(s.games), "data-wins": String(s.wins),
                 "data-mean-loss": String(s.decisions ? s.loss / s.decisions : 0), "data-luck": String(s.luck) },
        el("th", { scope: "row" }, el("bdi", { text: name })), el("td", { text: String(s.games) }), el("td", { text: String(s.wins) }),
        el("td", { text: s.decisions ? s.loss / s.decisions >= 0.005 ? (s.loss / s.decisions).toFixed(2) : "0.00" : "\u2013" }),
        el("td", { text: `${s.luck >= 0 ? "+" : "\u2212"}${Math.abs(s.luck).toFixed(1)}` })));
    $("hist-stats").replaceChildren(el("table", {}, el("caption", { class: "sr", text: "Statistics by player" }),
      el("thead", {}, head), el("tbody", {}, ...body)));
  }

  function download(name, type, text) {
    const a = el("a", { href: URL.createObjectURL(new Blob([text], { type })), download: name });
    document.body.append(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  }
  /* A CSV field: numbers as they are; every text field quoted (so no separator, comma or semicolon, splits
   * it), and one that a spreadsheet would run as a formula (a leading =, +, -, @, tab or CR) kept as text by
   * a leading apostrophe. */
  const csvCell = (v) => {
    if (typeof v === "number" || typeof v === "boolean") return String(v);
    const t = /^[=+\-@\t\r]/.test(String(v)) ? `'${v}` : String(v);
    return `"${t.replace(/"/g, '""')}"`;
  };
  $("hist-export").addEventListener("click", () => {
    const list = games();
    if (!list.length) { showError($("hist-error"), "No table games to export yet."); return; }
    download(`gonuts-history-${Date.now()}.json`, "application/json",
             JSON.stringify({ format: HISTORY_FORMAT, version: 1, games: list }, null, 1));
  });
  $("hist-csv").addEventListener("click", async () => {
    const list = await rows();
    if (!list.length) { showError($("hist-error"), "No table games to export yet."); return; }
    const cols = Object.keys(list[0]);
    download(`gonuts-history-${Date.now()}.csv`, "text/csv",
             [cols.join(","), ...list.map((row) => cols.map((c) => csvCell(row[c])).join(","))].join("\r\n") + "\r\n");
  });
  $("table-history").addEventListener("toggle", draw);

  return { draw, count, games, rows, byPlayer, csvCell, FORMAT: HISTORY_FORMAT };
})(GonutsUI);
