/* gonuts UI, the start (loaded last): window.gonuts for scripts, then the games saved in this browser
 * and the address restored, and the site's service worker registered. */
(function (ui) {
  "use strict";
  const { data, core, $, showError, raw, keepAside, showKept, fetchBytes, ready, showTab, parseFragment,
    checkTarget } = ui;
  const { state: play, restore: restorePlay, key: PLAY_KEY } = ui.play;
  const { state: coach, game: COACH } = ui.coach;
  const { state: table, game: TABLE, check: checkTable } = ui.table;
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
    practice: onceLoaded(core.practice, (q) => [q.players === undefined ? 2 : q.players, q.rules === undefined ? "rulebook" : q.rules]),
    luck: onceLoaded(core.luck, (r) => [r.players, r.rules]),
    policy: core.policyName,
    load: (players, rules) => core.load(players, rules === undefined ? "rulebook" : rules, fetchBytes).then(() => true),
    loaded: core.loaded,
    record: (mode) => JSON.parse(JSON.stringify(mode === "coach" ? coach.record : mode === "table" ? table.record : play.record)),
    core,
  });

  /* A game this browser could not save: exported from memory, whichever tab's it is. */
  $("unsaved-export").addEventListener("click", () => {
    const r = ui.store.failed === TABLE.key ? table.record : ui.store.failed === COACH.key ? coach.record : play.record;
    if (!r) return;
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([JSON.stringify(r, null, 1)], { type: "application/json" }));
    a.download = `gonuts-${r.mode || "game"}-${Date.now()}.json`;
    document.body.append(a); a.click(); a.remove();
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
  guarded("coach-error", () => restoreEntered(COACH).then(() => { if (coach.record) return ui.coach.own(false); }));
  guarded("table-error", () => restoreEntered(TABLE, checkTable).then(() => {
    ui.table.restoreNuts();
    if (table.record) return ui.table.own(false);
  }));
  guarded("prac-error", () => ui.practice.restore());
  showKept("play", PLAY_KEY);
  guarded("play-error", () => restorePlay(frag));
  showTab(frag.tab || "advise");
  /* The site: its worker caches it for offline use. A first install that fails (a file that did not
   * arrive whole) is said, and the next visit tries again; a new version waits until the player asks. */
  if (data.site && "serviceWorker" in navigator && /^https?:$/.test(location.protocol)) {
    const sw = navigator.serviceWorker;
    let asked = false;
    const offer = (reg) => {
      $("update").hidden = false;
      $("update-reload").onclick = () => { asked = true; if (reg.waiting) reg.waiting.postMessage({ type: "take-new-version" }); };
    };
    const watch = (reg, worker) => {
      if (!worker) return;
      worker.addEventListener("statechange", () => {
        if (worker.state === "installed" && sw.controller) offer(reg);
        if (worker.state === "redundant" && !sw.controller && !reg.active) {
          ui.notice("This site could not be saved for offline use (a file did not arrive whole); it works online, and the next visit tries again.");
        }
      });
    };
    sw.addEventListener("controllerchange", () => { if (asked) location.reload(); });
    sw.register("sw.js").then((reg) => {
      if (reg.waiting && sw.controller) offer(reg);
      watch(reg, reg.installing);
      reg.addEventListener("updatefound", () => watch(reg, reg.installing));
    }).catch(() => { /* no worker (a private window): online only */ });
  }

})(GonutsUI);
