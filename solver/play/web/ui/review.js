/* gonuts UI, the Review tab: each decision of a seat of a game (play, coach, table or a record file)
 * against the optimal one, and the record's export. */
GonutsUI.review = (function (ui) {
  "use strict";
  const { data, core, $, pct, pts, el, showError, ready, fillSelect } = ui;
  const play = ui.play.state, coach = ui.coach.state, table = ui.table.state;
  const rev = { file: null, fileError: null };
  function reviewRecord() {
    const src = $("rev-source").value;
    if (src === "play") return play.record;
    if (src === "coach") return coach.record;
    if (src === "table") return table.record;
    return rev.file;
  }
  async function renderReview() {
    const out = $("rev-out"), err = $("rev-error");
    $("rev-file-label").hidden = $("rev-source").value !== "file";
    const pick = reviewRecord();
    const seats = pick && typeof pick === "object" && Number.isInteger(pick.players) && pick.players >= 2 && pick.players <= 4 ? pick.players : 0;
    $("rev-seat-label").hidden = seats === 0;
    if (seats) {
      const label = (k) => (Array.isArray(pick.names) && typeof pick.names[k] === "string" ? pick.names[k] : `Seat ${k + 1}`);
      const keep = $("rev-seat").dataset.for === JSON.stringify([pick.players, pick.you]) ? $("rev-seat").value : String(pick.you);
      fillSelect($("rev-seat"), Array.from({ length: seats }, (_, k) => [k, label(k)]), keep);
      $("rev-seat").dataset.for = JSON.stringify([pick.players, pick.you]);
    }
    out.replaceChildren();
    showError(err, "");
    if ($("rev-source").value === "file" && rev.fileError) { showError(err, rev.fileError); $("rev-export").disabled = true; return; }
    const picked = reviewRecord(), fromFile = $("rev-source").value === "file" && rev.read;
    const record = picked === "null" ? null : picked;
    $("rev-export").disabled = !record || typeof record !== "object";
    if (fromFile && (picked === "null" || typeof record !== "object" || Array.isArray(record))) {
      showError(err, "a game record must be a JSON object"); return;                // false, 0, "", [] and null too
    }
    if (!record) {
      out.append(el("p", { text: "No game to review yet: play one, coach one, or open a record file." })); return;
    }
    let rv;
    try {
      if (record && typeof record === "object" && core.games().includes(`${record.players}-${record.rules}`)) {
        await ready(record.players, record.rules);
      }
      rv = core.review(record, $("rev-seat-label").hidden ? undefined : Number($("rev-seat").value));
    } catch (e) {
      if (!(e instanceof core.GonutsInputError)) throw e;
      showError(err, e.message); $("rev-export").disabled = true; return;
    }
    const name = (k) => (Array.isArray(record.names) && typeof record.names[k] === "string" ? record.names[k] : `Seat ${k + 1}`);
    const mine = rv.seat === rv.you && record.mode !== "table";
    const status = rv.winner === null ? `Game in progress: ${rv.scores.join(" \u2013 ")}.`
      : `${rv.winner === rv.seat && mine ? "You won" : `${name(rv.winner)} won`}, ${rv.scores.join(" \u2013 ")}.`;
    out.append(el("p", { text: `${status} ${rv.players} players, ${rv.rules} reading, ${mine ? `you at seat ${rv.you + 1}` : `${name(rv.seat)} (seat ${rv.seat + 1}) reviewed`}.` }));
    if (!rv.decisions.length) { out.append(el("p", { id: "rev-none", text: `${mine ? "You have" : `${name(rv.seat)} has`} no decisions to review in this game (turns entered as banked totals, or none decided yet).` })); }
    out.append(el("p", { class: "total", id: "rev-total", "data-value": String(rv.total_loss_points),
      text: `${rv.decisions.length} decision${rv.decisions.length === 1 ? "" : "s"}; total given up: ${pts(rv.total_loss_points)} of win probability` }));
    out.append(luckLine(rv, record, mine, name));
    if (rv.costliest.length) {
      const byEvent = new Map(rv.decisions.map((d) => [d.event, d]));
      out.append(el("p", { id: "rev-costliest", text: "Costliest: " + rv.costliest.map((e) => {
        const d = byEvent.get(e);
        return `${d.taken} at ${d.scores.join("\u2013")}, ${d.turn} point${d.turn === 1 ? "" : "s"}, ${d.dice} ${d.dice === 1 ? "die" : "dice"} (${pts(d.loss_points)})`;
      }).join("; ") }));
    }
    const costly = new Set(rv.costliest);
    for (const d of rv.decisions) {
      const zero = d.loss_points <= 0;
      out.append(el("div", { class: `dec${costly.has(d.event) ? " costly" : ""}`, "data-event": String(d.event), "data-loss": String(d.loss_points) },
        el("span", { class: `loss${zero ? " zero" : ""}`, text: zero ? "optimal" : `\u2212${d.loss_points.toFixed(2)}` }),
        el("div", { text: `Scores ${d.scores.join("\u2013")} (${mine ? "yours" : `${name(rv.seat)}\u2019s`} first), ${d.turn} turn point${d.turn === 1 ? "" : "s"}, ${d.dice} ${d.dice === 1 ? "die" : "dice"}` }),
        el("div", { class: "reading", text: `${mine ? "You" : name(rv.seat)}: ${d.taken}. Optimal: ${d.optimal}. Win if roll ${pct(d.win_if_roll)}, if stop ${pct(d.win_if_stop)}.` })));
    }
  }
  /* The seat's change in win probability in one sentence, as `gonuts-solve review` words it. */
  const signed = (x) => { const v = Math.round(1000 * x) / 10 + 0; return `${v >= 0 ? "+" : "\u2212"}${Math.abs(v).toFixed(1)}`; };
  function luckLine(rv, record, mine, name) {
    const who = mine ? "You" : name(rv.seat), whose = mine ? "your" : `${who}\u2019s`;
    const banked = record.events.some((e) => e && typeof e === "object" && "banked" in e);
    const cost = Math.round(-1000 * rv.own_decisions) / 10 + 0;
    const p = el("p", { class: "luck", id: "rev-luck" });
    for (const k of ["start", "end", "luck", "own_decisions", "others_decisions", "banked_turns"]) p.dataset[k] = String(rv[k]);
    p.textContent = `${who}: ${(100 * rv.start).toFixed(1)}% to ${(100 * rv.end).toFixed(1)}% (${signed(rv.end - rv.start)} points of win probability): ` +
      `the dice gave ${signed(rv.luck)}, ${whose} decisions cost ${cost.toFixed(1)}, the others\u2019 decisions gave ${signed(rv.others_decisions)}` +
      `${banked ? `, turns entered as banked totals ${signed(rv.banked_turns)}` : ""}.`;
    return p;
  }
  $("rev-source").addEventListener("change", renderReview);
  $("rev-seat").addEventListener("change", renderReview);
  $("rev-file").addEventListener("change", () => {
    const f = $("rev-file").files[0];
    if (!f) return;
    const reader = new FileReader();
    reader.onload = () => {
      rev.file = null; rev.fileError = null; rev.read = true;
      try { rev.file = core.recordFromBytes(new Uint8Array(reader.result), f.name); if (rev.file === null) rev.file = "null"; }
      catch (e) { if (!(e instanceof core.GonutsInputError)) throw e; rev.fileError = e.message; }
      renderReview();
    };
    reader.onerror = () => { rev.file = null; rev.fileError = `${f.name} cannot be read`; renderReview(); };
    if (f.size > data.record.max_bytes) { rev.file = null; rev.fileError = `${f.name} is ${f.size.toLocaleString("en")} bytes; a game record is at most ${data.record.max_bytes.toLocaleString("en")}`; renderReview(); return; }
    reader.readAsArrayBuffer(f);
  });
  $("rev-export").addEventListener("click", () => {
    const record = reviewRecord();
    if (!record) return;
    const blob = new Blob([JSON.stringify(record, null, 1)], { type: "application/json" });
    const a = el("a", { href: URL.createObjectURL(blob), download: `gonuts-${record.mode || "game"}-${record.seed !== undefined ? record.seed : Date.now()}.json` });
    document.body.append(a); a.click(); a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  });


  ui.hooks.review = renderReview;
  return { render: renderReview };
})(GonutsUI);
