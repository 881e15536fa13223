/* gonuts UI, the Table tab: a whole table's game on one phone, one tap per roll. What the table reads at a
 * glance stays in the first screen of the smallest phone: the score strip (the rolling player marked), the
 * mover and their turn, then the one thing to do now: every possible roll as a button, or Roll and Stop
 * with the verdict and both chances, or the Go Nuts! count. Everything else (why, every seat's chances,
 * banked turns, the advice switches, the log, recent games) comes after it and may scroll. */
GonutsUI.table = (function (ui) {
  "use strict";
  const { core, $, FACE_SVG, PLAYERS, readingsFor, pts, pct, el, store, showError, ready, fillSelect, wholeNumber,
    showTab, setFragment, whyText, drawAdvice, newRecord, frameOf, drawLog, pushEntered, undoEntered, tap, redrawn,
    cleanName, graphemes, sameName, storageKey, keepStorage, describe } = ui;
  const table = { record: null, nuts: 0, over: false };
  const TABLE_KEY = storageKey("gonuts.table.v1");
  const NUTS_KEY = `${TABLE_KEY}.nuts`;          // the Go Nuts! count being entered: {events, count}
  const RECENT_KEY = `${TABLE_KEY}.recent`;      // games set aside by a new one, newest first
  const RECENT_MAX = 50;
  const NAME_MAX = 20;                           // characters as a person counts them
  const TOSS_UP = 0.001;
  const plural = (k, one, many) => `${k} ${k === 1 ? one : many}`;

  function tableSetupChanged() {
    const n = Number($("table-players").value);
    fillSelect($("table-rules"), readingsFor(n).map((r) => [r, r]), $("table-rules").value);
    const old = [...$("table-names").querySelectorAll("input[type=text]")].map((i) => i.value);
    const hints = [...$("table-names").querySelectorAll("input[type=checkbox]")].map((i) => i.checked);
    $("table-names").replaceChildren(...Array.from({ length: n }, (_, i) => el("div", { class: "row" },
      el("label", { text: `Player ${i + 1}${i === 0 ? " (moves first)" : ""}` },
        el("input", { id: `table-name-${i}`, type: "text", autocomplete: "off", dir: "auto", spellcheck: "false",
                      value: old[i] !== undefined ? old[i] : `Player ${i + 1}` })),
      (() => { const box = el("input", { id: `table-hint-${i}`, type: "checkbox" }); box.checked = hints[i] !== undefined ? hints[i] : true;
               return el("label", { class: "check" }, box, " advice shown"); })())));
  }
  fillSelect($("table-players"), PLAYERS.map((p) => [p, `${p} players`]), PLAYERS.includes(3) ? 3 : PLAYERS[0]);
  $("table-players").addEventListener("change", tableSetupChanged);
  tableSetupChanged();
  function tableSave() { return store.set(TABLE_KEY, table.record); }

  /* Games set aside: a new game never discards the running one; it goes to the top of this list. */
  function recent() {
    try { const list = JSON.parse(localStorage.getItem(RECENT_KEY) || "[]"); return Array.isArray(list) ? list : []; }
    catch (e) { return []; }
  }
  function setAside(record) {
    if (!record || !record.events.length) return;
    const list = [record, ...recent()].slice(0, RECENT_MAX);
    while (!store.set(RECENT_KEY, list) && list.length > 1) list.pop();        // full: drop the oldest
  }
  function drawRecent() {
    if (ui.history) ui.history.count();
    const list = recent(), box = $("table-recent");
    box.hidden = !list.length;
    $("table-recent-list").replaceChildren(...list.map((r, i) => {
      let text = "a game that cannot be read";
      try {
        const st = core.replay(r);
        text = `${r.names.join(", ")}: ${st.scores.join(" \u2013 ")}${st.phase === "over" ? `, ${r.names[st.winner]} won` : ", in progress"}`;
      } catch (e) { /* listed as unreadable: Resume refuses it with the reason */ }
      const resume = el("button", { type: "button", id: `table-resume-${i}`, text: "Resume" });
      resume.addEventListener("click", () => resumeRecent(i));
      return el("li", {}, el("bdi", { text }), " ", resume);
    }));
  }
  async function resumeRecent(i) {
    const list = recent(), r = list[i];
    try { core.replay(r); checkTable(r); await ready(r.players, r.rules); }
    catch (err) { showError($("table-setup-error"), `That game cannot be resumed: ${err.message}`); return; }
    await ownGame(true);
    list.splice(i, 1);
    if (table.record && table.record.events.length) list.unshift(table.record);
    store.set(RECENT_KEY, list.slice(0, RECENT_MAX));
    table.record = r; table.nuts = 0;
    tableSave();
    $("table-new").open = false;
    drawTable();
  }

  $("table-setup").addEventListener("submit", async (e) => {
    e.preventDefault();
    const n = Number($("table-players").value), rules = $("table-rules").value;
    const names = [], hints = [];
    try {
      for (let i = 0; i < n; i++) {
        const name = cleanName($(`table-name-${i}`).value);
        if (!name) throw new core.GonutsInputError(`Player ${i + 1} needs a name`);
        if (graphemes(name) > NAME_MAX) throw new core.GonutsInputError(`Player ${i + 1}'s name is longer than ${NAME_MAX} characters`);
        if (names.some((x) => sameName(x, name))) throw new core.GonutsInputError(`Two players are called ${name}: give each a name of their own`);
        names.push(name); hints.push($(`table-hint-${i}`).checked);
      }
      await ready(n, rules);
    } catch (err) { if (!(err instanceof core.GonutsInputError)) throw err; showError($("table-setup-error"), err.message); return; }
    showError($("table-setup-error"), "");
    await ownGame(true);
    setAside(table.record);
    table.record = newRecord("table", { players: n, rules, seat: 0 }, { names, hints, started: new Date().toISOString() });
    table.nuts = 0;
    tableSave();
    keepStorage();
    $("table-new").open = false;
    drawTable();
  });
  const TABLE = { mode: "table", key: TABLE_KEY, state: table, draw: () => drawTable() };
  const tablePush = (ev) => pushEntered(TABLE, ev);

  function faces(f, k, word) {
    const icon = el("span", { class: "icon", "aria-hidden": "true" });
    icon.innerHTML = FACE_SVG[f];
    return [el("span", { text: String(k) }), icon, el("span", { class: "sr", text: ` ${word}${k === 1 ? "" : "s"}, ` })];
  }
  /* Every roll of n live dice, one button each: its visible text is in its accessible name, which reads
   * "3 acorns, 1 squirrel, 1 car". */
  function rollButtons(st, born) {
    const buttons = [];
    for (let a = st.n; a >= 0; a--) {
      for (let sq = st.n - a; sq >= 0; sq--) {
        const c = st.n - a - sq;
        const b = el("button", { type: "button", class: "res", "data-roll": `${a}-${sq}-${c}`, "data-born": String(born) },
          el("span", { class: "faces" }, ...faces(0, a, "acorn"), ...faces(1, sq, "squirrel")),
          el("span", { class: "cars", text: plural(c, "car", "cars") }));
        b.addEventListener("click", tap(() => tablePush({ seat: st.seat, roll: [a, sq, c] })));
        buttons.push(b);
      }
    }
    return buttons;
  }
  function drawStrip(r, st) {
    $("table-pad").replaceChildren(...r.names.map((name, i) => {
      const active = i === st.seat && st.phase !== "over";
      const card = el("li", { class: `card${active ? " active" : ""}${st.winner === i ? " won" : ""}`, "data-seat": String(i) },
        el("bdi", { class: "name", text: name }), el("span", { class: "score", text: String(st.scores[i]) }));
      if (active) card.setAttribute("aria-current", "true");
      return card;
    }));
  }
  function drawHints(r) {
    $("table-hints").replaceChildren(...r.names.map((name, i) => {
      const b = el("button", { type: "button", class: "hint", id: `table-hint-toggle-${i}`, "aria-pressed": String(!!r.hints[i]) },
        "Advice for ", el("bdi", { text: name }), `: ${r.hints[i] ? "on" : "off"}`);
      b.addEventListener("click", () => { r.hints[i] = !r.hints[i]; tableSave(); drawTable(); });
      return b;
    }));
  }
  /* The decision: the verdict (announced) and each action's chance under its button; the advised button is
   * the emphasised one (filled, bold, marked), and with advice off neither is. */
  function drawDecision(r, st) {
    const shown = !!r.hints[st.seat];
    const roll = $("table-roll"), stop = $("table-stop");
    let a = null;
    if (shown) {
      const g = core.game(r.players, r.rules);
      a = core.adviseIn(g, frameOf(st, r.players), st.t, st.n);
    }
    const close = a && Math.abs(a.win_if_roll - a.win_if_stop) < TOSS_UP;
    for (const [button, action] of [[roll, "roll"], [stop, "stop"]]) {
      const advised = !!a && !close && a.action === action;
      button.classList.toggle("advised", advised);
      button.querySelector(".mark").hidden = !advised;
      button.dataset.born = String(performance.now());
    }
    const verdict = $("table-verdict");
    verdict.className = `verdict ${a ? (close ? "tie" : a.action) : "off"}`;
    verdict.dataset.action = a ? a.action : "";
    verdict.textContent = !a ? "Roll or stop?" : close ? "TOSS-UP" : `${a.action.toUpperCase()} is better`;
    $("table-chance-roll").textContent = a ? pct(a.win_if_roll) : "";
    $("table-chance-stop").textContent = a ? pct(a.win_if_stop) : "";
    $("table-chances").hidden = !a;
    return a;
  }
  /* After an entry the strip and the action area are where the eyes are: back at the top of the page if
   * the player had scrolled away (to the log, the why) or the page was scrolled to the Start button. */
  function inView() {
    const pad = $("table-pad").getBoundingClientRect();
    if (pad.top < 0 || pad.top > window.innerHeight / 3) window.scrollTo(0, 0);
  }
  function drawTable() {
    const r = table.record;
    $("table-game").hidden = !r;
    drawRecent();
    if (!r) return;
    redrawn();
    const born = performance.now();
    const st = core.replay(r), names = r.names, N = r.players;
    table.over = st.phase === "over";                 // read by keepAwake: no second replay of the game
    drawStrip(r, st);
    const who = st.phase === "over" ? names[st.winner] : names[st.seat];
    const state = st.phase === "over" ? `reached ${r.target} and won!` : st.phase === "start" ? "starts a turn"
      : `${plural(st.t, "point", "points")} \u00b7 ${plural(st.n, "die", "dice")}`;
    $("table-turn").replaceChildren(el("bdi", { class: "who", text: who }), el("span", { class: "state", text: state }));
    const prompt = st.phase === "start" ? "Tap what the 5 dice show:"
      : st.phase === "roll" ? `Tap what the ${plural(st.n, "live die", "live dice")} ${st.n === 1 ? "shows" : "show"}:`
      : st.phase === "nuts" ? `Go Nuts! Throw ${plural(st.nutsDice, "die", "dice")} until everyone else rolls a dog.` : "";
    $("table-prompt").textContent = prompt;
    $("table-prompt").hidden = !prompt;
    const rolling = st.phase === "start" || st.phase === "roll";
    $("table-rolls").hidden = !rolling;
    $("table-rolls").replaceChildren(...(rolling ? rollButtons(st, born) : []));
    $("table-decide").hidden = st.phase !== "decide";
    const a = st.phase === "decide" ? drawDecision(r, st) : null;
    $("table-nuts").hidden = st.phase !== "nuts";
    if (st.phase !== "nuts") table.nuts = 0;
    $("table-nuts-n").textContent = String(table.nuts);
    for (const id of ["table-nuts-minus", "table-nuts-plus", "table-nuts-five", "table-nuts-done"]) $(id).dataset.born = String(born);
    $("table-bank").hidden = st.phase !== "start";
    $("table-advice").hidden = !a;
    if (a) {
      const g = core.game(r.players, r.rules), frame = frameOf(st, N);
      const labels = Array.from({ length: N }, (_, k) => names[(st.seat + k) % N]);
      drawAdvice($("table-advice"), a, labels, a.reason === "optimal" ? whyText(a, core.explainIn(g, frame, st.t, st.n), r.rules) : null);
    }
    const last = r.events[r.events.length - 1];
    $("table-undo").textContent = last ? `Undo: ${describe(r, last, names)}` : "Undo";
    drawHints(r);
    drawTableOver(r, st);
    drawLog($("table-log"), r, names);
    for (const c of $("table-game").querySelectorAll("button, input")) c.disabled = own.following();   // a follower reads
    $("table-undo").disabled = own.following() || !last;
    if (!$("panel-table").hidden) inView();
    keepAwake();
  }
  function drawTableOver(r, st) {
    const over = $("table-over");
    over.hidden = st.phase !== "over";
    if (st.phase !== "over") return;
    const rows = [el("p", { class: "total" }, el("bdi", { text: r.names[st.winner] }), ` wins, ${st.scores.join(" \u2013 ")}.`)];
    for (let k = 0; k < r.players; k++) {
      const rv = core.review(r, k);
      rows.push(el("p", { class: "seat-review", "data-seat": String(k), "data-loss": String(rv.total_loss_points) },
        el("bdi", { text: r.names[k] }), rv.decisions.length
          ? `: ${plural(rv.decisions.length, "decision", "decisions")}, ${pts(rv.total_loss_points)} of win probability given up.`
          : ": no decisions to review (turns entered as banked totals)."));
    }
    const button = el("button", { id: "table-to-review", class: "primary", type: "button", text: "Review every player" });
    button.addEventListener("click", () => { $("rev-source").value = "table"; showTab("review"); setFragment("review"); });
    over.replaceChildren(...rows, button);
  }
  $("table-roll").addEventListener("click", tap(() => { const st = core.replay(table.record); tablePush({ seat: st.seat, choice: "roll" }); }));
  $("table-stop").addEventListener("click", tap(() => { const st = core.replay(table.record); tablePush({ seat: st.seat, choice: "stop" }); }));
  /* The Go Nuts! count is saved as it is entered: a reload in the middle of a round keeps it. */
  function saveNuts() { store.set(NUTS_KEY, { events: table.record.events.length, count: table.nuts }); }
  const nutsStep = (d) => tap(() => { table.nuts = Math.max(0, table.nuts + d); $("table-nuts-n").textContent = String(table.nuts); saveNuts(); });
  $("table-nuts-minus").addEventListener("click", nutsStep(-1));
  $("table-nuts-plus").addEventListener("click", nutsStep(1));
  $("table-nuts-five").addEventListener("click", nutsStep(5));
  $("table-nuts-done").addEventListener("click", tap(() => {
    const st = core.replay(table.record);
    if (tablePush({ seat: st.seat, nuts: table.nuts })) { table.nuts = 0; saveNuts(); }
  }));
  $("table-bank").addEventListener("submit", (e) => {
    e.preventDefault();
    try {
      const st = core.replay(table.record);
      if (tablePush({ seat: st.seat, banked: wholeNumber($("table-bank-n").value, "Points banked") })) $("table-bank-n").value = "0";
    } catch (err) { if (!(err instanceof core.GonutsInputError)) throw err; showError($("table-error"), err.message); }
  });
  $("table-undo").addEventListener("click", tap(() => undoEntered(TABLE)));
  /* A table game also needs its players' names and advice switches; names are kept as they were entered
   * (cleaned), and a saved one holding hidden characters is cleaned the same way. */
  function checkTable(saved) {
    if (!Array.isArray(saved.names) || saved.names.length !== saved.players || !Array.isArray(saved.hints) ||
        !saved.names.every((x) => typeof x === "string" && cleanName(x) && graphemes(cleanName(x)) <= NAME_MAX)) {
      throw new core.GonutsInputError("it has no names for its players");
    }
    saved.names = saved.names.map(cleanName);
  }
  /* After a restore: the Go Nuts! count of the round being entered, if the game is where it was. */
  function restoreNuts() {
    try {
      const kept = JSON.parse(localStorage.getItem(NUTS_KEY) || "null");
      if (kept && table.record && kept.events === table.record.events.length && Number.isSafeInteger(kept.count) && kept.count >= 0) {
        table.nuts = kept.count;
        $("table-nuts-n").textContent = String(table.nuts);
      }
    } catch (e) { /* unreadable: the count starts at 0 */ }
  }

  /* One tab writes the table game (ui.owner); another follows it read-only until it takes it over. */
  const own = ui.owner(TABLE_KEY, {
    follow(on) { $("table-follow").hidden = !on; drawTable(); },
    reload(text) { try { table.record = JSON.parse(text); } catch (e) { return; } drawTable(); },
  });
  const ownGame = own.take;
  $("table-take").addEventListener("click", () => ownGame(true));

  /* While a Table game is on screen, the screen stays on (Screen Wake Lock); the browser releases the lock
   * when the page is hidden, and it is taken again when the page shows. */
  let wake = null;
  const wanted = () => !!table.record && !table.over && !$("panel-table").hidden && document.visibilityState === "visible";
  async function keepAwake() {
    if (!("wakeLock" in navigator)) return;
    try {
      if (wanted() && !wake) {
        wake = await navigator.wakeLock.request("screen");
        wake.addEventListener("release", () => { wake = null; });
      } else if (!wanted() && wake) {
        const held = wake;
        wake = null;
        await held.release();
      }
    } catch (e) { wake = null; /* refused (battery saver, a frame): the screen may dim */ }
  }
  document.addEventListener("visibilitychange", keepAwake);
  ui.hooks.shown = keepAwake;

  return { state: table, game: TABLE, check: checkTable, restoreNuts, recent, keepAwake, own: ownGame };
})(GonutsUI);
