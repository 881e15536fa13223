/* gonuts UI, the shared part (loaded first): the data and the core, small DOM helpers, storage and
 * saved games kept aside, the tabs and the address, advice and game drawing, and entering events of a
 * game kept by hand. The tab modules (advise, play, coach, table, review) and main.js read it as
 * GonutsUI; each tab module adds its own part there. Game state is a record of events (the format
 * `gonuts-solve review` reads); the screen is the record replayed. */
const GonutsUI = (function () {
  "use strict";
  const data = JSON.parse(document.getElementById("gonuts-data").textContent);
  document.getElementById("gonuts-data").textContent = "";     // parsed: free the page's copy of the text
  /* The site opened as /sub/dir (a host that does not add the slash): its own files are beside index.html,
   * so it goes on at /sub/dir/, where their relative addresses resolve. */
  if (data.site && /^https?:$/.test(location.protocol) && !/\/$|\.html?$/i.test(location.pathname)) {
    location.replace(`${location.pathname}/${location.search}${location.hash}`);
  }
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
      if (k === "class") e.className = v; else if (k === "text") e.textContent = v;
      else if (k === "style") e.style.cssText = v;        // through the CSSOM: the CSP allows no style attribute
      else e.setAttribute(k, v);
    }
    for (const kid of kids) e.append(kid);
    return e;
  };
  /* Saved games live under keys scoped to this page's own folder (two sites on one origin, /a/ and /b/,
   * never touch each other's games); a game saved by an older version under the bare key moves over once. */
  const SCOPE = new URL(".", location.href).pathname;
  function storageKey(name) {
    const key = `${name}@${SCOPE}`;
    try {
      const old = localStorage.getItem(name);
      if (old !== null && localStorage.getItem(key) === null) {
        localStorage.removeItem(name);             // first, so that a game near the quota fits once
        try { localStorage.setItem(key, old); } catch (e) { localStorage.setItem(name, old); return name; }
      }
    } catch (e) { /* storage off: nothing to move */ }
    return key;
  }
  /* A write that fails (storage full, or off as in a private window) is said at once, with Export offered:
   * the game in memory stays as it is. Returns whether it was saved. */
  const store = {
    failed: null,
    set(key, value) {
      try { localStorage.setItem(key, JSON.stringify(value)); store.failed = null; $("unsaved").hidden = true; return true; }
      catch (e) {
        store.failed = key;
        $("unsaved-why").textContent = `This browser did not save the game (${e && e.name === "QuotaExceededError" ? "its storage is full" : "storage is off or full"}): it is safe on this screen until you close it. Export it to keep it.`;
        $("unsaved").hidden = false;
        return false;
      }
    },
  };
  /* Ask once that this site's storage be kept under pressure (a browser may clear it otherwise). */
  let persisting = false;
  function keepStorage() {
    if (persisting || !navigator.storage || !navigator.storage.persist) return;
    persisting = true;
    navigator.storage.persist().catch(() => { /* refused: the game is still saved */ });
  }

  /* Taps at a table: a tap on a control drawn after the finger went down does nothing (it was meant for what
   * was there before), and neither does the second tap of a double tap: within TAP_GAP ms of the redraw
   * that the first tap caused, where the first one landed (so +1 can be tapped as fast as a finger goes).
   * Keyboard presses are never ignored. */
  const TAP_GAP = 350, TAP_NEAR = 24;
  const taps = { down: -Infinity, drawn: -Infinity, last: -Infinity, x: NaN, y: NaN, lastX: NaN, lastY: NaN };
  document.addEventListener("pointerdown", (e) => { taps.down = performance.now(); taps.x = e.clientX; taps.y = e.clientY; }, true);
  function redrawn() { taps.drawn = performance.now(); }
  function tap(fn) {
    return (e) => {
      if (e.detail > 0) {                          // a pointer's click (a key's has detail 0)
        const now = performance.now(), born = Number(e.currentTarget.dataset.born || -Infinity);
        const near = Math.hypot(taps.x - taps.lastX, taps.y - taps.lastY) < TAP_NEAR;
        const doubled = near && taps.drawn >= taps.last && now - taps.drawn < TAP_GAP;
        if (taps.down < born || doubled) return;
        taps.last = now; taps.lastX = taps.x; taps.lastY = taps.y;
      }
      fn(e);
    };
  }

  /* A player's name as a person sees it: bidirectional controls, invisible characters and other controls
   * removed, and its length in what a person counts as characters (grapheme clusters). */
  const HIDDEN = /(?![\u200c\u200d])[\p{Cc}\p{Cf}\u115f\u1160\u3164\uffa0]/gu;     // ZWNJ and ZWJ join letters and emoji
  const VISIBLE = /[\p{L}\p{N}\p{S}\p{P}]/u;
  const cleanName = (text) => {
    const name = String(text).normalize("NFC").replace(HIDDEN, "").replace(/\s+/g, " ").trim();
    return VISIBLE.test(name) ? name : "";
  };
  const seen = typeof Intl !== "undefined" && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;
  const graphemes = (text) => (seen ? [...seen.segment(text)].length : Array.from(text).length);
  /* One name in every browser language: Unicode's case mapping, not the locale's ("I" is "ı" in Turkish). */
  const sameName = (a, b) => a.normalize("NFKC").toLowerCase() === b.normalize("NFKC").toLowerCase();
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
  const TABS = ["advise", "play", "coach", "table", "review", "practice"];
  function showTab(name, focus) {
    for (const t of TABS) {
      const on = t === name;
      $(`tab-${t}`).setAttribute("aria-selected", String(on));
      $(`tab-${t}`).tabIndex = on ? 0 : -1;
      $(`panel-${t}`).hidden = !on;
    }
    if (focus) $(`tab-${name}`).focus();
    if (name === "review" && hooks.review) hooks.review();
    if (hooks.shown) hooks.shown(name);
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
    if (N > 2) {                     // a row per seat, a column per action: fits the narrowest phone
      const keys = [["if roll", "players_if_roll"], ["if stop", "players_if_stop"]].filter(([, key]) => a[key]);
      const head = el("tr", {}, el("th", { scope: "col", text: "Chance to win" }),
                      ...keys.map(([name]) => el("th", { scope: "col", text: name })));
      const body = el("tbody");
      for (let k = 0; k < N; k++) {
        const row = el("tr", {}, el("th", { scope: "row" }, el("bdi", { text: labels ? labels[k] : ["You", "Next", "After next", "Last"][k] })));
        for (const [, key] of keys) {
          const v = a[key][k];
          row.append(el("td", { "data-key": key, "data-seat": String(k), "data-value": String(v), text: pct(v) }));
        }
        body.append(row);
      }
      box.append(el("table", { class: "seats" }, el("thead", {}, head), body));
    }
    box.hidden = false;
  }

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
  /* The log of a game: its last LOG_SHOWN entries (a record holds up to 200,000: drawn whole, or spread
   * into one call, they would stall or break the page). */
  const LOG_SHOWN = 300;
  function drawLog(list, record, names) {
    const from = Math.max(0, record.events.length - LOG_SHOWN);
    list.start = from + 1;
    list.replaceChildren();
    if (from) list.append(el("li", { class: "reading", text: `${from.toLocaleString("en")} earlier entries are in the exported record` }));
    for (let i = from; i < record.events.length; i++) list.append(el("li", { text: describe(record, record.events[i], names) }));
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

  /* A record's target (a record without one is to the format's default), refused unless it is this page's. */
  const targetOf = (r) => (r.target === undefined ? data.record.default_target : r.target);
  function checkTarget(r) {
    if (targetOf(r) !== TARGET) throw new core.GonutsInputError(`it is a game to ${targetOf(r)}, and this page plays to ${TARGET}`);
  }
  /* An entered event of a game kept by hand (coach, table): refused with the rules' message, or saved and drawn. */
  function pushEntered(game, ev) {
    const full = game.state.record.events.length >= data.record.max_events;
    const msg = full ? `this game holds ${data.record.max_events.toLocaleString("en")} entries, the most a game record holds: export it and start a new one`
      : core.check(game.state.record, ev);
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

  const hooks = {};      // what a tab module asks to be called back for (review: when its tab opens)
  return {
    hooks, storageKey, keepStorage, tap, redrawn, cleanName, graphemes, sameName, describe, notice,
    data, core, $, FACE_SVG, die, counts, READING, PLAYERS, readingsFor, pct, pts, sleep, el, store, showError,
    raw, keepAside, showKept, TARGET, fetchBytes, ready, fillSelect, wholeNumber, showTab, parseFragment,
    addressNumber, setFragment, whyText, drawAdvice, newRecord, frameOf, youWin, drawBoard, youFrameAdvice,
    youFrameWhy, drawLog, turnText, drawOver, seatLabels, seatOptions, targetOf, checkTarget, pushEntered,
    undoEntered,
  };
})();
