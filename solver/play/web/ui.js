/* gonuts UI: reads inputs, calls the pure core (core.js), draws. Game state is a record of
 * events (the format `gonuts-solve review` reads); the screen is the record replayed. */
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("gonuts-data").textContent);
  document.getElementById("gonuts-data").textContent = "";     // parsed: free the page's copy of the text
  const core = GonutsCore(data);
  const $ = (id) => document.getElementById(id);
  const TOSS_UP = 0.001;                       // under 0.1 percentage points apart
  const FACE_NAME = ["acorn", "squirrel", "car"];
  const FACE_SVG = [   // drawn here, not emoji: no font is needed
    '<svg viewBox="0 0 32 32" aria-hidden="true"><ellipse cx="16" cy="19" rx="8" ry="9.5" fill="#b5651d"/><path d="M5 14 Q16 3 27 14 Z" fill="#6b3e10"/><rect x="15" y="2" width="2.4" height="6" rx="1" fill="#6b3e10"/></svg>',
    '<svg viewBox="0 0 32 32" aria-hidden="true"><path d="M20 29 C31 24 31 7 22 4 C15 2 13 10 18 14 C12 14 7 18 7 24 C7 28 10 29 12 29 Z" fill="#8a6d57"/><circle cx="11" cy="13" r="5" fill="#8a6d57"/><path d="M8 9 L9 5 L12 8 Z" fill="#8a6d57"/><circle cx="9.5" cy="12" r="1.2" fill="#1f1a14"/></svg>',
    '<svg viewBox="0 0 32 32" aria-hidden="true"><path d="M5 19 L8.5 11 H23.5 L27 19 Z" fill="#c0392b"/><rect x="3" y="18" width="26" height="7" rx="2" fill="#c0392b"/><rect x="10" y="13" width="12" height="5" fill="#dbe9f4"/><circle cx="9" cy="26" r="3" fill="#222"/><circle cx="23" cy="26" r="3" fill="#222"/></svg>',
  ];
  function die(f) {
    const d = el("span", { class: `die ${FACE_NAME[f]}`, role: "img", "aria-label": FACE_NAME[f] });
    d.innerHTML = FACE_SVG[f];
    return d;
  }
  const counts = (c) => `${c[0]} acorn${c[0] === 1 ? "" : "s"}, ${c[1]} squirrel${c[1] === 1 ? "" : "s"}, ${c[2]} car${c[2] === 1 ? "" : "s"}`;
  const READING = {
    rulebook: "Rulebook reading: a Go Nuts! round replaces the turn's points and is played with the dice just rolled; the one-die rule fires when a single die is rolled and shows an acorn.",
    summary: "Summary reading: a Go Nuts! round adds to the turn's points and is played with all five dice; the one-die rule fires when a roll leaves one live die and it shows an acorn.",
  };
  const KEYS = core.games().map((k) => { const [p, r] = k.split("-"); return { players: Number(p), reading: r }; });
  const PLAYERS = [...new Set(KEYS.map((k) => k.players))].sort();
  const readingsFor = (n) => KEYS.filter((k) => k.players === n).map((k) => k.reading);
  const pct = (x) => (x === null || x === undefined) ? "\u2013" : `${(100 * x).toFixed(2)}%`;
  const pts = (x) => `${x.toFixed(2)} points`;
  const sleep = (ms) => new Promise((res) => setTimeout(res, ms));
  const el = (tag, attrs, ...kids) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
    }
    for (const kid of kids) e.append(kid);
    return e;
  };
  const store = {
    set(key, value) { try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode: no saving */ } },
  };
  const showError = (box, msg) => { box.textContent = msg; box.hidden = !msg; };

  /* A saved game that cannot be restored is never thrown away without a word: its raw text is kept
   * under KEY.damaged, and the tab says what is wrong and offers to download or delete it. */
  const raw = (key) => { try { return localStorage.getItem(key); } catch (e) { return null; } };
  const SLOTS = 9;        // damaged games kept per key: KEY.damaged, KEY.damaged.2, ...
  const slot = (key, i) => `${key}.damaged${i ? `.${i + 1}` : ""}`;
  const keptTexts = (key) => Array.from({ length: SLOTS }, (_, i) => raw(slot(key, i))).filter((t) => t !== null);
  function keepAside(mode, key, text, reason) {
    try {
      if (!keptTexts(key).includes(text)) {
        let i = 0;
        while (i < SLOTS - 1 && raw(slot(key, i)) !== null) i++;
        localStorage.setItem(slot(key, i), text);
        localStorage.setItem(`${slot(key, i)}.why`, String(reason).slice(0, 200));
      }
    } catch (e) { /* storage full or off: the message below still shows */ }
    showKept(mode, key, reason);
  }
  function showKept(mode, key, reason) {
    const box = $(`${mode}-kept`), texts = keptTexts(key);
    if (!texts.length) { box.hidden = true; return; }
    const why = reason || raw(`${slot(key, 0)}.why`) || "it could not be read";
    const download = el("button", { type: "button", id: `${mode}-kept-download`, text: "Download it" });
    const drop = el("button", { type: "button", id: `${mode}-kept-delete`, text: "Delete it" });
    download.addEventListener("click", () => {
      const body = texts.length === 1 ? texts[0] : JSON.stringify(texts);
      const a = el("a", { href: URL.createObjectURL(new Blob([body], { type: "application/json" })),
                          download: `gonuts-${mode}-kept.json` });
      document.body.append(a); a.click(); a.remove();
    });
    drop.addEventListener("click", () => {
      try { for (let i = 0; i < SLOTS; i++) { localStorage.removeItem(slot(key, i)); localStorage.removeItem(`${slot(key, i)}.why`); } }
      catch (e) { /* off */ }
      box.hidden = true;
    });
    const more = texts.length > 1 ? ` (${texts.length} games kept)` : "";
    box.replaceChildren(el("p", { text: `Your saved ${mode} game could not be restored: ${why}. It is kept in this browser until you download or delete it${more}.` }),
                        el("div", { class: "actions" }, download, drop));
    box.hidden = false;
  }
  const TARGET = data.record.target;

  /* The site's data files are fetched (the service worker answers offline); the single file embeds its data. */
  async function fetchBytes(url) {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return new Uint8Array(await res.arrayBuffer());
  }
  /* Make a game usable: a no-op when it is, else load it (the 4-player tables are decoded on first use). */
  async function ready(players, reading) {
    if (core.loaded(players, reading)) return;
    const note = $("loading");
    note.textContent = `Loading the ${players}-player ${reading} tables\u2026`;
    note.hidden = false;
    try { await core.load(players, reading, fetchBytes); } finally { note.hidden = true; }
  }
  const precision = Object.entries(data.precision).map(([n, e]) => e > 0 ? `${n} players: within ${e.toExponential(1)}` : `${n} players: exact`);
  $("precision").textContent = `Numbers as stored: ${precision.join("; ")}.`;

  function fillSelect(sel, options, value) {
    sel.replaceChildren(...options.map(([v, text]) => el("option", { value: String(v), text })));
    if (value !== undefined && options.some(([v]) => String(v) === String(value))) sel.value = String(value);
  }
  function seatName(i) { return `Seat ${i + 1}${i === 0 ? " (moves first)" : ""}`; }
  function wholeNumber(text, what) {
    const s = String(text).trim();
    if (!/^-?\d+$/.test(s)) throw new core.GonutsInputError(`${what} must be a whole number, not "${s}"`);
    const v = Number(s);
    if (v < 0) throw new core.GonutsInputError(`${what} cannot be negative (${v})`);
    return v;
  }

  // -- tabs and the URL fragment -------------------------------------------------------------
  const TABS = ["advise", "play", "coach", "table", "review"];
  function showTab(name, focus) {
    for (const t of TABS) {
      const on = t === name;
      $(`tab-${t}`).setAttribute("aria-selected", String(on));
      $(`tab-${t}`).tabIndex = on ? 0 : -1;
      $(`panel-${t}`).hidden = !on;
    }
    if (focus) $(`tab-${name}`).focus();
    if (name === "review") renderReview();
  }
  TABS.forEach((t, i) => {
    $(`tab-${t}`).addEventListener("click", () => { showTab(t); setFragment(t); });
    $(`tab-${t}`).addEventListener("keydown", (e) => {
      const step = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
      if (step) { const next = TABS[(i + step + TABS.length) % TABS.length]; showTab(next, true); setFragment(next); }
    });
  });
  /* The address after #: a tab and key=value pairs. One that cannot be read is reported in one line, and
   * the page opens as if it had no address. */
  function parseFragment() {
    const parts = location.hash.replace(/^#/, "").split("&").filter(Boolean);
    const out = { tab: TABS.includes(parts[0]) ? parts[0] : null, params: {} };
    try {
      for (const p of parts.slice(out.tab ? 1 : 0)) {
        const i = p.indexOf("=");
        if (i > 0) out.params[decodeURIComponent(p.slice(0, i))] = decodeURIComponent(p.slice(i + 1));
        else throw new Error(`"${p.slice(0, 40)}" is not key=value`);
      }
    } catch (e) {
      notice(`The address after # cannot be read (${e instanceof URIError ? "a malformed % sequence" : e.message}); opening without it.`);
      return { tab: null, params: {} };
    }
    return out;
  }
  function notice(msg) { const box = $("notice"); box.textContent = msg; box.hidden = !msg; }
  /* A number in the address: plain digits only (not 0x2, 2.0 or " 2"). */
  function addressNumber(text, what) {
    if (!/^[0-9]{1,10}$/.test(String(text))) throw new core.GonutsInputError(`${what} in the address must be plain digits, not ${core.show(String(text))}`);
    return Number(text);
  }
  function setFragment(tab, params) {
    const rest = Object.entries(params || {}).map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
    history.replaceState(null, "", "#" + [tab].concat(rest).join("&"));
  }

  // -- advice, drawn the same way everywhere ------------------------------------------------------
  const oneIn = (p) => p <= 0 ? "never" : p < 0.5 ? `1 in ${Math.round(1 / p).toLocaleString("en")}` : `${Math.round(100 * p)}%`;
  /* The explain numbers in one or two plain sentences. */
  function whyText(a, e, reading) {
    const h = e.turn_gain_if_roll.length - 1, dice = `${a.dice} ${a.dice === 1 ? "die" : "dice"}`;
    const stop = e.stop_at < h ? `With ${dice} here, optimal play stops at ${e.stop_at}.` : `With ${dice} here, optimal play rolls on to the target.`;
    const refill = e.p_one_die_refill > 0 ? `, ${oneIn(e.p_one_die_refill)} all five dice back` : "";
    const nuts = `${oneIn(e.p_all_squirrels)} a Go Nuts! round (${e.nuts_mean.toFixed(1)} acorns on average${reading === "summary" ? ", added to them" : ""})`;
    const risk = a.turn > 0
      ? (reading === "summary" ? `Rolling risks your ${a.turn} points: ${oneIn(e.p_all_cars)} all cars; ${nuts}${refill}.`
                               : `Rolling risks your ${a.turn} points: ${nuts}, ${oneIn(e.p_all_cars)} all cars${refill}.`)
      : `The next roll: ${oneIn(e.p_all_cars)} all cars, ${nuts}${refill}.`;
    return `${risk} ${stop} Rolling now, this turn adds ${e.turn_gain_mean_if_roll.toFixed(1)} points on average.`;
  }
  function drawAdvice(box, a, labels, why) {
    box.replaceChildren();
    let verdict, cls, note;
    if (a.reason === "reaches_target") {
      verdict = "STOP"; cls = "stop"; note = `Banking ${a.turn} points reaches the target: you win.`;
    } else if (a.reason === "forced") {
      verdict = "ROLL"; cls = "roll"; note = `The first roll of a turn is forced. Your chance of winning from here: ${pct(a.win_if_roll)}.`;
    } else if (Math.abs(a.win_if_roll - a.win_if_stop) < TOSS_UP) {
      verdict = "TOSS-UP"; cls = "tie";
      note = `Rolling and stopping are within 0.1 points of each other (optimal, by a hair: ${a.action}).`;
    } else {
      verdict = a.action.toUpperCase(); cls = a.action;
      note = a.action === "roll" ? "Rolling gives you the better chance." : "Stopping gives you the better chance.";
    }
    box.append(el("p", { class: `verdict ${cls}`, "data-action": a.action, "data-reason": a.reason, text: verdict }),
               el("p", { text: note }));
    if (why && a.reason === "optimal") box.append(el("p", { class: "why", text: why }));
    const bars = el("div", { class: "bars" });
    for (const [name, key] of [["If you roll", "win_if_roll"], ["If you stop", "win_if_stop"]]) {
      const v = a[key];
      if (v === null) continue;
      bars.append(el("span", { text: name }),
                  el("span", { class: "bar", "aria-hidden": "true" }, el("i", { style: `width:${(100 * v).toFixed(2)}%` })),
                  el("span", { class: "num", "data-key": key, "data-value": String(v), text: pct(v) }));
    }
    box.append(bars);
    const N = (a.players_if_roll || a.players_if_stop).length;
    if (N > 2) {
      const head = el("tr", {}, el("th", { text: "Chance of winning" }));
      for (let k = 0; k < N; k++) head.append(el("th", { text: labels ? labels[k] : ["You", "Next", "After next", "Last"][k] }));
      const table = el("table", { class: "seats" }, el("thead", {}, head));
      const body = el("tbody");
      for (const [name, key] of [["if you roll", "players_if_roll"], ["if you stop", "players_if_stop"]]) {
        if (!a[key]) continue;
        const row = el("tr", {}, el("td", { text: name }));
        a[key].forEach((v, k) => row.append(el("td", { "data-key": key, "data-seat": String(k), "data-value": String(v), text: pct(v) })));
        body.append(row);
      }
      table.append(body);
      box.append(table);
    }
    box.hidden = false;
  }

  // -- Advise ----------------------------------------------------------------------------------
  const adv = { players: $("adv-players"), rules: $("adv-rules"), scores: $("adv-scores"), turn: $("adv-turn"),
                dice: $("adv-dice"), out: $("adv-out"), error: $("adv-error") };
  function advPlayersChanged() {
    const n = Number(adv.players.value);
    fillSelect(adv.rules, readingsFor(n).map((r) => [r, r]), adv.rules.value);
    const old = [...adv.scores.querySelectorAll("input")].map((i) => i.value);
    adv.scores.replaceChildren();
    for (let k = 0; k < n; k++) {
      const name = k === 0 ? "Your score" : k === 1 ? "Next player's score" : k === 2 ? "Then the next's score" : "Then the last's score";
      adv.scores.append(el("label", { text: name }, el("input", { id: `adv-score-${k}`, type: "number", inputmode: "numeric",
        min: "0", max: String(TARGET - 1), step: "1", value: old[k] !== undefined ? old[k] : "0" })));
    }
    $("adv-reading").textContent = READING[adv.rules.value];
  }
  fillSelect(adv.players, PLAYERS.map((p) => [p, `${p} players`]));
  fillSelect(adv.dice, [1, 2, 3, 4, 5].map((d) => [d, `${d} ${d === 1 ? "die" : "dice"}`]), 5);
  adv.players.addEventListener("change", advPlayersChanged);
  adv.rules.addEventListener("change", () => { $("adv-reading").textContent = READING[adv.rules.value]; });
  advPlayersChanged();
  $("advise-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const n = Number(adv.players.value);
      const scores = [];
      for (let k = 0; k < n; k++) scores.push(wholeNumber($(`adv-score-${k}`).value, k === 0 ? "Your score" : `Score ${k + 1}`));
      const turn = wholeNumber(adv.turn.value, "Turn points");
      await ready(n, adv.rules.value);
      const q = { scores, turn, dice: Number(adv.dice.value), rules: adv.rules.value };
      const a = core.advise(q);
      showError(adv.error, "");
      drawAdvice(adv.out, a, null, a.reason === "optimal" ? whyText(a, core.explain(q), q.rules) : null);
    } catch (err) {
      if (!(err instanceof core.GonutsInputError)) throw err;
      showError(adv.error, err.message);
      adv.out.hidden = true;
    }
  });

  // -- shared game drawing ------------------------------------------------------------------------
  function newRecord(mode, cfg, extra) {
    return Object.assign({ format: core.FORMAT, version: core.VERSION, rules: cfg.rules, players: cfg.players,
                           target: TARGET, you: cfg.seat, mode, events: [] }, extra || {});
  }
  function frameOf(st, N) { const f = []; for (let k = 0; k < N; k++) f.push(st.scores[(st.seat + k) % N]); return f; }
  function youWin(record, st) {
    const g = core.game(record.players, record.rules);
    if (st.phase === "over") return st.winner === record.you ? 1 : 0;
    const N = record.players;
    const v = st.phase === "decide" ? core.stateValue(g, frameOf(st, N), st.t, st.n)
                                    : core.stateValue(g, frameOf(st, N), 0, core.N_DICE);
    return v[(record.you - st.seat + N) % N];
  }
  function drawBoard(box, record, st, names) {
    box.replaceChildren(...st.scores.map((s, i) => el("div", { class: `seat${i === st.seat && st.phase !== "over" ? " active" : ""}`,
      "data-seat": String(i) }, el("div", { class: "who", text: `${names[i]} \u00b7 seat ${i + 1}` }),
      el("div", { class: "pts", text: String(s) }))));
  }
  function youFrameAdvice(record, st) {
    const g = core.game(record.players, record.rules);
    return core.adviseIn(g, frameOf(st, record.players), st.t, st.n);
  }
  function youFrameWhy(record, st, a) {
    if (a.reason !== "optimal") return null;
    const g = core.game(record.players, record.rules);
    return whyText(a, core.explainIn(g, frameOf(st, record.players), st.t, st.n), record.rules);
  }
  function describe(record, ev, names) {
    const who = names[ev.seat];
    if ("roll" in ev) return `${who} rolled ${counts(ev.roll)}`;
    if ("choice" in ev) return `${who} chose to ${ev.choice}`;
    if ("nuts" in ev) return `${who}'s Go Nuts! round collected ${ev.nuts} acorn${ev.nuts === 1 ? "" : "s"}`;
    return `${who} banked ${ev.banked} point${ev.banked === 1 ? "" : "s"}`;
  }
  function drawLog(list, record, names) {
    list.replaceChildren(...record.events.map((ev) => el("li", { text: describe(record, ev, names) })));
  }
  function turnText(record, st, names) {
    if (st.phase === "over") return `${names[st.winner]} reached ${record.target} and won.`;
    const who = names[st.seat];
    if (st.phase === "start") return `${who} to start a turn (5 dice).`;
    if (st.phase === "nuts") return `${who}: Go Nuts! round.`;
    return `${who}: ${st.t} turn point${st.t === 1 ? "" : "s"}, ${st.n} ${st.n === 1 ? "die" : "dice"} live.`;
  }
  /* The end-of-game banner of a mode ("play" or "coach"), with its way to the review. */
  function drawOver(mode, record, st, names) {
    const over = $(`${mode}-over`);
    over.hidden = st.phase !== "over";
    if (st.phase !== "over") return;
    const text = st.winner === record.you ? `You win, ${st.scores.join(" \u2013 ")}!` : `${names[st.winner]} wins, ${st.scores.join(" \u2013 ")}.`;
    const button = el("button", { id: `${mode}-to-review`, class: "primary", type: "button", text: "Review my decisions" });
    button.addEventListener("click", () => { $("rev-source").value = mode; showTab("review"); setFragment("review"); });
    over.replaceChildren(el("p", { class: "total", text }), button);
  }
  /* Column labels of an advice table: you, then the others in turn order, by seat. */
  function seatLabels(r) { return Array.from({ length: r.players }, (_, k) => k === 0 ? "You" : `Seat ${(r.you + k) % r.players + 1}`); }
  function seatOptions(n) { return Array.from({ length: n }, (_, i) => [i, seatName(i)]); }

  // -- Play ----------------------------------------------------------------------------------------
  const play = { record: null, rng: null, busy: false, gen: 0, fast: false, lastDice: null, nuts: null };
  const PLAY_KEY = "gonuts.play.v1";
  const playNames = (r) => Array.from({ length: r.players }, (_, i) => i === r.you ? "You"
    : `Computer (${r.opponents && typeof r.opponents[i] === "string" ? r.opponents[i].slice(0, 40) : "?"})`);

  function playSetupChanged() {
    const n = Number($("play-players").value);
    fillSelect($("play-rules"), readingsFor(n).map((r) => [r, r]), $("play-rules").value);
    fillSelect($("play-seat"), seatOptions(n), $("play-seat").value);
    const seat = Number($("play-seat").value);
    const old = [...$("play-opps").querySelectorAll("input")].map((i) => i.value);
    $("play-opps").replaceChildren();
    let j = 0;
    for (let i = 0; i < n; i++) {
      if (i === seat) continue;
      $("play-opps").append(el("label", { text: `Computer at seat ${i + 1}: policy` },
        el("input", { id: `play-opp-${i}`, "data-seat": String(i), type: "text", list: "play-policies", autocomplete: "off",
                      value: old[j] || "optimal", "aria-describedby": "play-policy-help" })));
      j++;
    }
    $("play-opps").append(el("p", { id: "play-policy-help", class: "reading",
      text: "optimal, hold:K (stop at K turn points), hold:K/D (also stop with D or fewer dice live), or dice:K1-K2-K3-K4-K5 (stop at K_n points with n dice live)." }));
  }
  $("play-opps").after(el("datalist", { id: "play-policies" }, ...["optimal", "hold:20", "hold:10", "hold:11/1", "dice:5-7-15-27-37"].map((v) => el("option", { value: v }))));
  fillSelect($("play-players"), PLAYERS.map((p) => [p, `${p} players`]));
  $("play-players").addEventListener("change", playSetupChanged);
  $("play-seat").addEventListener("change", playSetupChanged);
  playSetupChanged();

  function playConfigFromForm() {
    const n = Number($("play-players").value);
    const seat = Number($("play-seat").value);
    const opponents = {};
    for (const inp of $("play-opps").querySelectorAll("input")) {
      const spec = inp.value.trim();
      core.policy(spec, { players: n, rules: $("play-rules").value });
      opponents[inp.dataset.seat] = spec;
    }
    const seedText = $("play-seed").value.trim();
    const seed = seedText === "" ? Math.floor(Math.random() * 4294967296) : wholeNumber(seedText, "The seed");
    if (seed > 4294967295) throw new core.GonutsInputError("The seed must be below 4294967296");
    return { players: n, rules: $("play-rules").value, seat, opponents, seed, fast: $("play-fast").checked };
  }
  function playFragment(r) {
    const opp = Object.keys(r.opponents).sort().map((k) => r.opponents[k]).join(",");
    const params = { seed: r.seed, players: r.players, rules: r.rules, seat: r.you, opp };
    if (play.fast) params.fast = 1;
    return params;
  }
  function startPlay(cfg) {
    play.gen++;
    play.readOnly = false; play.unvalued = false;
    play.fast = !!cfg.fast;
    $("play-fast").checked = play.fast;
    play.record = newRecord("play", cfg, { seed: cfg.seed, opponents: cfg.opponents });
    play.rng = core.rng(cfg.seed);
    play.lastDice = null; play.nuts = null;
    $("play-new").open = false;
    savePlay();
    setFragment("play", playFragment(play.record));
    drawPlay();
    runComputers();
  }
  function savePlay() { store.set(PLAY_KEY, { record: play.record, rng: play.rng.state, fast: play.fast }); }
  function playPush(ev) { play.record.events.push(ev); savePlay(); }
  function rulesOf(record) { return core.game(record.players, record.rules).rules; }

  /* One roll of the active seat (its forced first roll, or after a choice to roll). */
  function playRoll() {
    const r = play.record, st = core.replay(r);
    const n = st.n, seat = st.seat;
    const thrown = core.rollDice(play.rng, rulesOf(r), n);
    play.lastDice = { faces: thrown.faces, out: core.N_DICE - n, who: playNames(r)[seat] };
    play.nuts = null;
    playPush({ seat, roll: thrown.counts });
    const after = core.replay(r);
    if (after.phase === "nuts") {
      const dice = after.nutsDice;
      const opponents = [];
      for (let k = 1; k < r.players; k++) opponents.push((seat + k) % r.players);
      const round = core.nutsRound(play.rng, rulesOf(r), dice, opponents);
      playPush({ seat, nuts: round.acorns });
      play.nuts = { seat, dice, ticks: round.ticks, shown: 0, acorns: round.acorns };
    }
  }
  async function showNuts(gen) {
    while (play.nuts && play.nuts.shown < play.nuts.ticks.length && gen === play.gen) {
      play.nuts.shown++;
      drawNuts();
      if (!play.fast) await sleep(260);
    }
  }
  function drawNuts() {
    const box = $("play-nuts"), nuts = play.nuts;
    if (!nuts) { box.replaceChildren(); return; }
    const names = playNames(play.record);
    const list = el("ol");
    nuts.ticks.slice(0, nuts.shown).forEach((tk) => {
      const dogs = tk.dogs.map((d) => `${names[d.seat]}: ${d.dog ? "DOG!" : "doghouse"}`).join(", ");
      list.append(el("li", {}, ...tk.faces.map((f) => die(f)), el("span", { text: `+${tk.acorns} (total ${tk.total}) \u00b7 ${dogs}` })));
    });
    const done = nuts.shown === nuts.ticks.length;
    box.replaceChildren(el("p", { text: `Go Nuts! ${names[nuts.seat]} throws ${nuts.dice} dice each tick until every opponent rolls a dog.` }), list,
      el("p", { text: done ? `Round over after ${nuts.ticks.length} tick${nuts.ticks.length === 1 ? "" : "s"}: ${nuts.acorns} acorns.` : "..." }));
  }
  function drawDice() {
    const box = $("play-dice");
    box.replaceChildren();
    if (!play.lastDice) return;
    play.lastDice.faces.forEach((f) => box.append(die(f)));
    for (let i = 0; i < play.lastDice.out; i++) box.append(el("span", { class: "die out", role: "img", "aria-label": "out of play" }));
    const c = [0, 1, 2].map((f) => play.lastDice.faces.filter((x) => x === f).length);
    box.append(el("p", { class: "caption", text: `${play.lastDice.who} rolled ${counts(c)}` }));
  }
  function drawPlay() {
    const r = play.record;
    $("play-game").hidden = !r;
    if (!r) return;
    const st = core.replay(r), names = playNames(r);
    $("play-reading").textContent = `${r.players} players, target ${r.target}, seed ${r.seed}. ${READING[r.rules]}`;
    drawBoard($("play-board"), r, st, names);
    $("play-turn").textContent = turnText(r, st, names);
    drawDice();
    drawNuts();
    const live = play.unvalued ? null : youWin(r, st);
    $("play-live").textContent = `Your chance of winning (optimal play from here): ${pct(live)}`;
    $("play-live").dataset.value = String(live);
    const yours = st.phase !== "over" && st.seat === r.you && !play.busy && !play.readOnly;
    $("play-roll").disabled = !yours;
    $("play-roll").textContent = st.phase === "start" ? "Roll (start your turn)" : "Roll";
    $("play-stop").disabled = !(yours && st.phase === "decide");
    $("play-hint").disabled = !(yours && st.phase === "decide");
    if (!(yours && st.phase === "decide")) $("play-hint-out").hidden = true;
    drawOver("play", r, st, names);
    drawLog($("play-log"), r, names);
  }
  async function runComputers() {
    const gen = play.gen;
    play.busy = true;
    drawPlay();
    await showNuts(gen);
    try {
      for (let guard = 0; guard < 100000 && gen === play.gen; guard++) {
        const r = play.record, st = core.replay(r);
        if (st.phase === "over" || st.seat === r.you) break;
        if (!play.fast) await sleep(st.phase === "start" ? 450 : 550);
        if (gen !== play.gen) return;
        if (st.phase === "decide") {
          const g = core.game(r.players, r.rules);
          const choice = core.policy(r.opponents[st.seat], { players: r.players, rules: r.rules }).roll(g, frameOf(st, r.players), st.t, st.n) ? "roll" : "stop";
          playPush({ seat: st.seat, choice });
          if (choice === "roll") playRoll();
        } else {
          playRoll();
        }
        drawPlay();
        await showNuts(gen);
        if (play.fast) await sleep(0);
      }
    } finally {
      if (gen === play.gen) { play.busy = false; drawPlay(); }
    }
  }
  async function userAct(choice) {
    const r = play.record, st = core.replay(r);
    if (play.busy || st.phase === "over" || st.seat !== r.you) return;
    if (choice === "stop") {
      if (st.phase !== "decide") return;
      playPush({ seat: r.you, choice: "stop" });
      play.lastDice = null; play.nuts = null;
    } else {
      if (st.phase === "decide") playPush({ seat: r.you, choice: "roll" });
      playRoll();
    }
    $("play-hint-out").hidden = true;
    await runComputers();
  }
  $("play-roll").addEventListener("click", () => userAct("roll"));
  $("play-stop").addEventListener("click", () => userAct("stop"));
  $("play-hint").addEventListener("click", () => {
    const r = play.record, st = core.replay(r);
    const a = youFrameAdvice(r, st);
    drawAdvice($("play-hint-out"), a, seatLabels(r), youFrameWhy(r, st, a));
  });
  $("play-fast").addEventListener("change", () => { play.fast = $("play-fast").checked; if (play.record) { savePlay(); setFragment("play", playFragment(play.record)); } });
  $("play-setup").addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const cfg = playConfigFromForm();
      await ready(cfg.players, cfg.rules);
      showError($("play-error"), ""); $("play-seed").value = ""; startPlay(cfg);
    } catch (err) { if (!(err instanceof core.GonutsInputError)) throw err; showError($("play-error"), err.message); }
  });
  function playFromFragment(params) {
    const n = params.players === undefined ? 2 : addressNumber(params.players, "players");
    if (!PLAYERS.includes(n)) throw new core.GonutsInputError(`this page plays ${PLAYERS.join(" or ")} players, not ${params.players}`);
    const rules = params.rules || "rulebook";
    if (!readingsFor(n).includes(rules)) throw new core.GonutsInputError(`this page has no ${n}-player ${rules} table`);
    const seat = params.seat === undefined ? 0 : addressNumber(params.seat, "seat");
    if (seat >= n) throw new core.GonutsInputError(`seat ${seat} does not exist with ${n} players (0 to ${n - 1})`);
    const specs = (params.opp || "").split(",").filter(Boolean);
    const opponents = {};
    let j = 0;
    for (let i = 0; i < n; i++) {
      if (i === seat) continue;
      const spec = specs[Math.min(j, specs.length - 1)] || "optimal";
      core.policy(spec, { players: n, rules });
      opponents[String(i)] = spec; j++;
    }
    const seed = addressNumber(params.seed, "seed");
    if (seed > 4294967295) throw new core.GonutsInputError("The seed must be below 4294967296");
    return { players: n, rules, seat, opponents, seed, fast: params.fast === "1" };
  }
  /* A record's target (a record without one is to the format's default), refused unless it is this page's. */
  const targetOf = (r) => (r.target === undefined ? data.record.default_target : r.target);
  function checkTarget(r) {
    if (targetOf(r) !== TARGET) throw new core.GonutsInputError(`it is a game to ${targetOf(r)}, and this page plays to ${TARGET}`);
  }
  /* A saved game the page can replay but not play (a computer policy it cannot play): shown read-only,
   * with the reason, when this page has its table; it is kept aside either way. */
  async function openReadOnly(record, why) {
    const valued = targetOf(record) === TARGET && core.games().includes(`${record.players}-${record.rules}`);
    if (valued) await ready(record.players, record.rules);
    play.gen++;
    play.record = record; play.readOnly = true; play.unvalued = !valued;
    play.rng = core.rng(0); play.lastDice = null; play.nuts = null;
    drawPlay();
    showError($("play-error"), `Read-only: ${why}. Start a new game to play.`);
  }
  /* A saved play game this page can go on with: its table, its target, a policy for every computer seat. */
  function playable(r) {
    checkTarget(r);
    if (!core.games().includes(`${r.players}-${r.rules}`)) throw new core.GonutsInputError(`this page has no ${r.players}-player ${r.rules} table`);
    if (r.opponents === null || typeof r.opponents !== "object") throw new core.GonutsInputError("it names no computer players");
    for (let i = 0; i < r.players; i++) {
      if (i !== r.you) core.policy(r.opponents[String(i)], { players: r.players, rules: r.rules });
    }
  }
  function sameGame(a, b) {
    return a && b && a.seed === b.seed && a.players === b.players && a.rules === b.rules && a.you === b.seat &&
      JSON.stringify(a.opponents) === JSON.stringify(b.opponents);
  }
  async function restorePlay(frag) {
    const text = raw(PLAY_KEY);
    let saved = null, unreadable = false;
    try { saved = text === null ? null : JSON.parse(text); } catch (e) { unreadable = true; keepAside("play", PLAY_KEY, text, "it is not JSON"); }
    let cfg = null;
    if (frag.tab === "play" && Object.keys(frag.params).length && frag.params.seed === undefined) {
      showError($("play-error"), "This play address has no seed (#play&seed=42&...): it starts no game.");
    }
    if (frag.tab === "play" && frag.params.seed !== undefined) {
      try { cfg = playFromFragment(frag.params); await ready(cfg.players, cfg.rules); }
      catch (err) { if (!(err instanceof core.GonutsInputError)) throw err; showError($("play-error"), err.message); cfg = null; }
    }
    if (cfg && play.record && sameGame(play.record, cfg)) {
      play.fast = cfg.fast; $("play-fast").checked = play.fast;
      return;
    }
    if (saved && saved.record) {
      let replayed = false;
      try {
        core.replay(saved.record);
        replayed = true;
        playable(saved.record);
        if (!cfg || sameGame(saved.record, cfg)) {
          await ready(saved.record.players, saved.record.rules);
          play.record = saved.record; play.rng = core.rng(0); play.rng.state = saved.rng;
          play.fast = cfg ? cfg.fast : !!saved.fast; $("play-fast").checked = play.fast;
          $("play-new").open = false;
          drawPlay();
          runComputers();
          return;
        }
      } catch (err) {
        keepAside("play", PLAY_KEY, text, err.message);
        if (replayed && !cfg && Number.isInteger(saved.record.you)) await openReadOnly(saved.record, err.message);
      }
    } else if (text !== null && !unreadable && !(saved && saved.record)) {
      keepAside("play", PLAY_KEY, text, "it holds no game record");
    }
    if (cfg) startPlay(cfg);
  }

  // -- Coach ---------------------------------------------------------------------------------------
  const coach = { record: null };
  const COACH_KEY = "gonuts.coach.v1";
  const coachNames = (r) => Array.from({ length: r.players }, (_, i) => i === r.you ? "You" : `Player ${i + 1}`);
  function coachSetupChanged() {
    const n = Number($("coach-players").value);
    fillSelect($("coach-rules"), readingsFor(n).map((r) => [r, r]), $("coach-rules").value);
    fillSelect($("coach-seat"), seatOptions(n), $("coach-seat").value);
  }
  fillSelect($("coach-players"), PLAYERS.map((p) => [p, `${p} players`]));
  $("coach-players").addEventListener("change", coachSetupChanged);
  coachSetupChanged();
  $("coach-setup").addEventListener("submit", async (e) => {
    e.preventDefault();
    const cfg = { players: Number($("coach-players").value), rules: $("coach-rules").value, seat: Number($("coach-seat").value) };
    try { await ready(cfg.players, cfg.rules); }
    catch (err) { if (!(err instanceof core.GonutsInputError)) throw err; showError($("coach-error"), err.message); return; }
    coach.record = newRecord("coach", cfg);
    store.set(COACH_KEY, coach.record);
    showError($("coach-error"), "");
    $("coach-new").open = false;
    drawCoach();
  });
  /* An entered event of a game kept by hand (coach, table): refused with the rules' message, or saved and drawn. */
  function pushEntered(game, ev) {
    const msg = core.check(game.state.record, ev);
    if (msg) { showError($(`${game.mode}-error`), msg); return false; }
    game.state.record.events.push(ev);
    store.set(game.key, game.state.record);
    showError($(`${game.mode}-error`), "");
    game.draw();
    return true;
  }
  function undoEntered(game) {
    const r = game.state.record;
    if (!r || !r.events.length) return;
    r.events.pop();
    store.set(game.key, r);
    showError($(`${game.mode}-error`), "");
    $(`${game.mode}-new`).open = false;
    game.draw();
  }
  const COACH = { mode: "coach", key: COACH_KEY, state: coach, draw: () => drawCoach() };
  const coachPush = (ev) => pushEntered(COACH, ev);
  function coachEntry(fn) {
    return (e) => {
      if (e) e.preventDefault();
      try { fn(); } catch (err) { if (!(err instanceof core.GonutsInputError)) throw err; showError($("coach-error"), err.message); }
    };
  }
  $("coach-roll").addEventListener("submit", coachEntry(() => {
    const st = core.replay(coach.record);
    const roll = [wholeNumber($("coach-a").value, "Acorns"), wholeNumber($("coach-s").value, "Squirrels"), wholeNumber($("coach-c").value, "Cars")];
    if (coachPush({ seat: st.seat, roll })) for (const id of ["coach-a", "coach-s", "coach-c"]) $(id).value = "0";
  }));
  $("coach-nuts").addEventListener("submit", coachEntry(() => {
    const st = core.replay(coach.record);
    if (coachPush({ seat: st.seat, nuts: wholeNumber($("coach-nuts-n").value, "Acorns of the Go Nuts! round") })) $("coach-nuts-n").value = "0";
  }));
  $("coach-bank").addEventListener("submit", coachEntry(() => {
    const st = core.replay(coach.record);
    if (coachPush({ seat: st.seat, banked: wholeNumber($("coach-bank-n").value, "Points banked") })) $("coach-bank-n").value = "0";
  }));
  $("coach-do-roll").addEventListener("click", coachEntry(() => coachPush({ seat: coach.record.you, choice: "roll" })));
  $("coach-do-stop").addEventListener("click", coachEntry(() => coachPush({ seat: coach.record.you, choice: "stop" })));
  $("coach-undo").addEventListener("click", () => undoEntered(COACH));
  function drawCoach() {
    const r = coach.record;
    $("coach-game").hidden = !r;
    if (!r) return;
    const st = core.replay(r), names = coachNames(r);
    $("coach-reading").textContent = `${r.players} players, target ${r.target}. ${READING[r.rules]}`;
    drawBoard($("coach-board"), r, st, names);
    $("coach-turn").textContent = turnText(r, st, names);
    const mine = st.seat === r.you && st.phase !== "over";
    $("coach-roll").hidden = !(mine && (st.phase === "start" || st.phase === "roll"));
    $("coach-nuts").hidden = !(mine && st.phase === "nuts");
    $("coach-bank").hidden = !(!mine && st.phase === "start");
    $("coach-decide").hidden = !(mine && st.phase === "decide");
    $("coach-undo").disabled = r.events.length === 0;
    if (!$("coach-roll").hidden) {
      $("coach-roll-q").textContent = st.phase === "start"
        ? `Your turn. Roll all 5 dice and enter what they show (your chance of winning from here: ${pct(youWin(r, st))}).`
        : `Roll your ${st.n} live ${st.n === 1 ? "die" : "dice"} and enter what ${st.n === 1 ? "it shows" : "they show"}.`;
      for (const id of ["coach-a", "coach-s", "coach-c"]) $(id).max = String(st.n);
    }
    if (!$("coach-nuts").hidden) {
      const dice = st.nutsDice;
      $("coach-nuts-q").firstChild.textContent = `Go Nuts! Throw ${dice} ${dice === 1 ? "die" : "dice"} until every opponent rolls a dog. Acorns collected in the round `;
    }
    if (!$("coach-bank").hidden) $("coach-bank-q").firstChild.textContent = `${names[st.seat]}'s turn: points banked (0 if the turn was lost) `;
    if (!$("coach-decide").hidden) {
      const a = youFrameAdvice(r, st);
      drawAdvice($("coach-advice"), a, seatLabels(r), youFrameWhy(r, st, a));
    }
    drawOver("coach", r, st, names);
    drawLog($("coach-log"), r, names);
  }

  // -- Table: a whole table's game on one phone ----------------------------------------------------
  const table = { record: null, nuts: 0 };
  const TABLE_KEY = "gonuts.table.v1";
  const NAME_MAX = 20;
  function tableSetupChanged() {
    const n = Number($("table-players").value);
    fillSelect($("table-rules"), readingsFor(n).map((r) => [r, r]), $("table-rules").value);
    const old = [...$("table-names").querySelectorAll("input[type=text]")].map((i) => i.value);
    const hints = [...$("table-names").querySelectorAll("input[type=checkbox]")].map((i) => i.checked);
    $("table-names").replaceChildren(...Array.from({ length: n }, (_, i) => el("div", { class: "row" },
      el("label", { text: `Player ${i + 1}${i === 0 ? " (moves first)" : ""}` },
        el("input", { id: `table-name-${i}`, type: "text", maxlength: String(NAME_MAX + 10), autocomplete: "off",
                      value: old[i] !== undefined ? old[i] : `Player ${i + 1}` })),
      (() => { const box = el("input", { id: `table-hint-${i}`, type: "checkbox" }); box.checked = hints[i] !== undefined ? hints[i] : true;
               return el("label", { class: "check" }, box, " advice shown"); })())));
  }
  fillSelect($("table-players"), PLAYERS.map((p) => [p, `${p} players`]), PLAYERS.includes(3) ? 3 : PLAYERS[0]);
  $("table-players").addEventListener("change", tableSetupChanged);
  tableSetupChanged();
  function tableSave() { store.set(TABLE_KEY, table.record); }
  $("table-setup").addEventListener("submit", async (e) => {
    e.preventDefault();
    const n = Number($("table-players").value), rules = $("table-rules").value;
    const names = [], hints = [];
    try {
      for (let i = 0; i < n; i++) {
        const name = $(`table-name-${i}`).value.trim();
        if (!name) throw new core.GonutsInputError(`Player ${i + 1} needs a name`);
        if (Array.from(name).length > NAME_MAX) throw new core.GonutsInputError(`Player ${i + 1}'s name is longer than ${NAME_MAX} characters`);
        if (names.includes(name)) throw new core.GonutsInputError(`Two players are called ${name}: give each a name of their own`);
        names.push(name); hints.push($(`table-hint-${i}`).checked);
      }
      await ready(n, rules);
    } catch (err) { if (!(err instanceof core.GonutsInputError)) throw err; showError($("table-setup-error"), err.message); return; }
    showError($("table-setup-error"), "");
    table.record = newRecord("table", { players: n, rules, seat: 0 }, { names, hints });
    table.nuts = 0;
    tableSave();
    $("table-new").open = false;
    drawTable();
  });
  const TABLE = { mode: "table", key: TABLE_KEY, state: table, draw: () => drawTable() };
  const tablePush = (ev) => pushEntered(TABLE, ev);
  function faceCount(f, k) {
    const d = el("span", {}, String(k));
    const icon = el("span", { "aria-hidden": "true" });
    icon.innerHTML = FACE_SVG[f];
    d.append(icon);
    return d;
  }
  function drawTable() {
    const r = table.record;
    $("table-game").hidden = !r;
    if (!r) return;
    const st = core.replay(r), names = r.names, N = r.players;
    $("table-pad").replaceChildren(...names.map((name, i) => {
      const active = i === st.seat && st.phase !== "over";
      const hint = el("button", { type: "button", class: "hint", id: `table-hint-toggle-${i}`, "aria-pressed": String(!!r.hints[i]),
                                  text: r.hints[i] ? "Advice: on" : "Advice: off" });
      hint.addEventListener("click", () => { r.hints[i] = !r.hints[i]; tableSave(); drawTable(); });
      const now = active && st.phase !== "start" ? `${st.t} turn point${st.t === 1 ? "" : "s"} \u00b7 ${st.n} ${st.n === 1 ? "die" : "dice"}` : "";
      return el("div", { class: `card${active ? " active" : ""}`, "data-seat": String(i) },
        el("div", { class: "name", text: name }), el("div", { class: "score", text: String(st.scores[i]) }),
        el("div", { class: "now", text: now }), hint);
    }));
    const who = st.phase === "over" ? names[st.winner] : names[st.seat];
    $("table-turn").textContent = st.phase === "over" ? `${who} reached ${r.target} and won!`
      : st.phase === "start" ? `${who}: roll all 5 dice and tap what they show.`
      : st.phase === "roll" ? `${who}: roll the ${st.n} live ${st.n === 1 ? "die" : "dice"}.`
      : st.phase === "nuts" ? `${who}: Go Nuts! Throw ${st.nutsDice} ${st.nutsDice === 1 ? "die" : "dice"} until everyone else rolls a dog.`
      : `${who}: ${st.t} turn points, ${st.n} ${st.n === 1 ? "die" : "dice"} live. Roll or stop?`;
    const rolling = st.phase === "start" || st.phase === "roll";
    $("table-rolls").hidden = !rolling;
    if (rolling) {
      const buttons = [];
      for (let a = st.n; a >= 0; a--) {
        for (let sq = st.n - a; sq >= 0; sq--) {
          const c = st.n - a - sq;
          const b = el("button", { type: "button", "data-roll": `${a}-${sq}-${c}`,
                                   "aria-label": `${a} acorn${a === 1 ? "" : "s"}, ${sq} squirrel${sq === 1 ? "" : "s"}, ${c} car${c === 1 ? "" : "s"}` },
            el("span", { class: "faces" }, faceCount(0, a), " ", faceCount(1, sq)), el("span", { class: "cars", text: `${c} car${c === 1 ? "" : "s"}` }));
          b.addEventListener("click", () => tablePush({ seat: st.seat, roll: [a, sq, c] }));
          buttons.push(b);
        }
      }
      $("table-rolls").replaceChildren(...buttons);
    }
    $("table-decide").hidden = st.phase !== "decide";
    $("table-nuts").hidden = st.phase !== "nuts";
    if (st.phase !== "nuts") table.nuts = 0;
    $("table-nuts-n").textContent = String(table.nuts);
    $("table-bank").hidden = st.phase !== "start";
    const showAdvice = st.phase === "decide" && r.hints[st.seat];
    $("table-advice").hidden = !showAdvice;
    if (showAdvice) {
      const g = core.game(r.players, r.rules), frame = frameOf(st, N);
      const a = core.adviseIn(g, frame, st.t, st.n);
      const labels = Array.from({ length: N }, (_, k) => names[(st.seat + k) % N]);
      drawAdvice($("table-advice"), a, labels, a.reason === "optimal" ? whyText(a, core.explainIn(g, frame, st.t, st.n), r.rules) : null);
    }
    $("table-undo").disabled = r.events.length === 0;
    drawTableOver(r, st);
    drawLog($("table-log"), r, names);
  }
  function drawTableOver(r, st) {
    const over = $("table-over");
    over.hidden = st.phase !== "over";
    if (st.phase !== "over") return;
    const rows = [el("p", { class: "total", text: `${r.names[st.winner]} wins, ${st.scores.join(" \u2013 ")}.` })];
    for (let k = 0; k < r.players; k++) {
      const rv = core.review(r, k);
      rows.push(el("p", { class: "seat-review", "data-seat": String(k), "data-loss": String(rv.total_loss_points),
        text: rv.decisions.length
          ? `${r.names[k]}: ${rv.decisions.length} decision${rv.decisions.length === 1 ? "" : "s"}, ${pts(rv.total_loss_points)} of win probability given up.`
          : `${r.names[k]}: no decisions to review (turns entered as banked totals).` }));
    }
    const button = el("button", { id: "table-to-review", class: "primary", type: "button", text: "Review every player" });
    button.addEventListener("click", () => { $("rev-source").value = "table"; showTab("review"); setFragment("review"); });
    over.replaceChildren(...rows, button);
  }
  $("table-roll").addEventListener("click", () => { const st = core.replay(table.record); tablePush({ seat: st.seat, choice: "roll" }); });
  $("table-stop").addEventListener("click", () => { const st = core.replay(table.record); tablePush({ seat: st.seat, choice: "stop" }); });
  const nutsStep = (d) => () => { table.nuts = Math.max(0, table.nuts + d); $("table-nuts-n").textContent = String(table.nuts); };
  $("table-nuts-minus").addEventListener("click", nutsStep(-1));
  $("table-nuts-plus").addEventListener("click", nutsStep(1));
  $("table-nuts-five").addEventListener("click", nutsStep(5));
  $("table-nuts-done").addEventListener("click", () => {
    const st = core.replay(table.record);
    if (tablePush({ seat: st.seat, nuts: table.nuts })) table.nuts = 0;
  });
  $("table-bank").addEventListener("submit", (e) => {
    e.preventDefault();
    try {
      const st = core.replay(table.record);
      if (tablePush({ seat: st.seat, banked: wholeNumber($("table-bank-n").value, "Points banked") })) $("table-bank-n").value = "0";
    } catch (err) { if (!(err instanceof core.GonutsInputError)) throw err; showError($("table-error"), err.message); }
  });
  $("table-undo").addEventListener("click", () => undoEntered(TABLE));
  /* A table game also needs its players' names and advice switches. */
  function checkTable(saved) {
    if (!Array.isArray(saved.names) || saved.names.length !== saved.players || !Array.isArray(saved.hints) ||
        !saved.names.every((x) => typeof x === "string")) {
      throw new core.GonutsInputError("it has no names for its players");
    }
  }

  // -- Review --------------------------------------------------------------------------------------
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
    const record = reviewRecord() === "null" ? null : reviewRecord();
    $("rev-export").disabled = !record;
    if (!record) {
      if ($("rev-source").value === "file" && reviewRecord() === "null") { showError(err, "a game record must be a JSON object"); return; }
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
    if (rv.costliest.length) {
      const byEvent = new Map(rv.decisions.map((d) => [d.event, d]));
      out.append(el("p", { id: "rev-costliest", text: "Costliest: " + rv.costliest.map((e) => {
        const d = byEvent.get(e);
        return `${d.taken} at ${d.scores.join("\u2013")}, ${d.turn} points, ${d.dice} dice (${pts(d.loss_points)})`;
      }).join("; ") }));
    }
    const costly = new Set(rv.costliest);
    for (const d of rv.decisions) {
      const zero = d.loss_points <= 0;
      out.append(el("div", { class: `dec${costly.has(d.event) ? " costly" : ""}`, "data-event": String(d.event), "data-loss": String(d.loss_points) },
        el("span", { class: `loss${zero ? " zero" : ""}`, text: zero ? "optimal" : `\u2212${d.loss_points.toFixed(2)}` }),
        el("div", { text: `Scores ${d.scores.join("\u2013")} (yours first), ${d.turn} turn points, ${d.dice} ${d.dice === 1 ? "die" : "dice"}` }),
        el("div", { class: "reading", text: `You: ${d.taken}. Optimal: ${d.optimal}. Win if roll ${pct(d.win_if_roll)}, if stop ${pct(d.win_if_stop)}.` })));
    }
  }
  $("rev-source").addEventListener("change", renderReview);
  $("rev-seat").addEventListener("change", renderReview);
  $("rev-file").addEventListener("change", () => {
    const f = $("rev-file").files[0];
    if (!f) return;
    const reader = new FileReader();
    reader.onload = () => {
      rev.file = null; rev.fileError = null;
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

  /* window.gonuts answers at once when the game is ready (2 and 3 players in the single file), and with a
   * Promise of the same answer when its data must be loaded first (4 players: decoded on first use; the
   * site's data files), so that `await gonuts.advise(...)` works for every game. */
  const onceLoaded = (fn, gameOf) => (...args) => {
    let key = null;
    try { key = gameOf(...args); } catch (e) { /* a malformed query: fn gives the message */ }
    const known = key && Number.isInteger(key[0]) && typeof key[1] === "string" && core.games().includes(`${key[0]}-${key[1]}`);
    if (!known || core.loaded(key[0], key[1])) return fn(...args);
    return core.load(key[0], key[1], fetchBytes).then(() => fn(...args));
  };
  const ofQuery = (q) => [q.scores.length, q.rules === undefined ? "rulebook" : q.rules];
  window.gonuts = Object.freeze({
    version: data.package_version,
    games: core.games(),
    advise: onceLoaded(core.advise, ofQuery),
    explain: onceLoaded(core.explain, ofQuery),
    review: onceLoaded(core.review, (r) => [r.players, r.rules]),
    replay: (record) => core.replay(record),
    policy: core.policyName,
    load: (players, rules) => core.load(players, rules === undefined ? "rulebook" : rules, fetchBytes).then(() => true),
    loaded: core.loaded,
    record: (mode) => JSON.parse(JSON.stringify(mode === "coach" ? coach.record : mode === "table" ? table.record : play.record)),
    core,
  });

  // -- start -------------------------------------------------------------------------------------
  const frag = parseFragment();
  /* Restore a game kept by hand (coach, table) from storage; one that cannot be restored is kept aside. */
  async function restoreEntered(game, check) {
    const text = raw(game.key);
    if (text === null) { showKept(game.mode, game.key); return; }
    try {
      const saved = JSON.parse(text);
      core.replay(saved);
      checkTarget(saved);
      if (check) check(saved);
      await ready(saved.players, saved.rules);
      game.state.record = saved; $(`${game.mode}-new`).open = false; game.draw();
      showKept(game.mode, game.key);
    } catch (err) {
      keepAside(game.mode, game.key, text, err instanceof SyntaxError ? "it is not JSON" : err.message);
    }
  }
  /* Nothing read at start-up (address, storage) may stop it: every step's failure becomes a message. */
  const guarded = (box, job) => Promise.resolve().then(job).catch((e) => showError($(box), `Could not restore: ${e && e.message ? e.message : e}`));
  window.addEventListener("hashchange", () => {
    const f = parseFragment();
    showError($("play-error"), "");
    if (f.tab === "play") guarded("play-error", () => restorePlay(f));
    showTab(f.tab || "advise");
  });
  guarded("coach-error", () => restoreEntered(COACH));
  guarded("table-error", () => restoreEntered(TABLE, checkTable));
  showKept("play", PLAY_KEY);
  guarded("play-error", () => restorePlay(frag));
  showTab(frag.tab || "advise");
  if (data.site && "serviceWorker" in navigator && /^https?:$/.test(location.protocol)) {
    navigator.serviceWorker.register("sw.js").catch(() => { /* no worker (a private window): online only */ });
  }

})();
