/* The page's start (the entry esbuild bundles into web/page.js): its words in the player's language, every tab,
 * window.gonuts, the games saved in this browser and the address restored, and the site's service worker. */
import { data, core, moving } from "./page/context.js";
import { $, showError } from "./page/dom.js";
import { t, words, startLanguage, onLanguage, unknownLanguage } from "./page/i18n.js";
import { store, raw, keepAside, showKept } from "./page/storage.js";
import { showTab, parseFragment, notice } from "./page/tabs.js";
import { readyFor, checkTarget, hold, recordOf, say } from "./page/gametab.js";
import { publish } from "./page/api.js";
import { welcome } from "./page/welcome.js";
import "./tabs/advise/question.js";
import { restorePlay, PLAY_KEY } from "./tabs/play/play.js";
import { coach, COACH, ownCoach } from "./tabs/coach/coach.js";
import { table, TABLE, checkTable, restoreNuts, ownTable, drawAll } from "./tabs/table/table.js";
import "./tabs/review/review.js";
import { restore as restorePractice } from "./tabs/practice/practice.js";

/** @typedef {import("./page/gametab.js").Entered} Entered */
/** Everything the page does at start; nothing when it is moving to its own address (page/context.js). */
function start() {
  /** "Numbers as stored: 2 players: exact; 4 players: within 7.6e-6." in the language. webpage.py writes it in
   * English, so an English page leaves it: its decimal point would make a number formatter, whose locale data
   * costs the start tens of ms on a phone. */
  function precisionLine() {
    const parts = Object.entries(/** @type {Record<string, number>} */ (data.precision)).map(([n, e]) => e > 0
      ? t("{n} players: within {e}", { n: Number(n), e: e.toExponential(1).replace("e-", "e-").replace(".", words.fixed(1.5, 1)[1]) })
      : t("{n} players: exact", { n: Number(n) }));
    $("precision").textContent = t("Numbers as stored: {list}.", { list: parts.join("; ") });
  }
  startLanguage();
  if (unknownLanguage !== null) {
    notice(t("This page speaks English, Spanish, French and German; lang={tag} is none of them.", { tag: unknownLanguage.slice(0, 20) }));
  }
  if (words.lang !== "en") precisionLine();
  onLanguage(precisionLine);
  publish();

  /* A game this browser could not save: exported from memory, whichever tab's it is. */
  $("unsaved-export").addEventListener("click", () => {
    // by the game a failed key belongs to (a Table game's Go Nuts! count and recent games are keys of its own)
    const failed = store.failed || "";
    const r = recordOf(failed.startsWith(TABLE.key) ? "table" : failed.startsWith(COACH.key) ? "coach" : "play");
    if (!r) return;
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([JSON.stringify(r, null, 1)], { type: "application/json" }));
    a.download = `gonuts-${r.mode || "game"}-${Date.now()}.json`;
    document.body.append(a); a.click(); a.remove();
  });

  const frag = parseFragment();
  /** Restore a game kept by hand (coach, table) from storage; one that cannot be restored is kept aside.
   * @param {Entered} game @param {(saved: any) => void} [check] */
  async function restoreEntered(game, check) {
    const text = raw(game.key);
    if (text === null) { showKept(game.mode, game.key); return; }
    try {
      const saved = JSON.parse(text);
      core.replay(saved);
      checkTarget(saved);
      if (check) check(saved);
      await readyFor(saved, { cancel: false });
      hold(game.state, saved); $(`${game.mode}-new`).open = false;
      showKept(game.mode, game.key);
    } catch (err) {
      keepAside(game.mode, game.key, text, err instanceof SyntaxError ? t("it is not JSON") : say(err));
    }
  }
  /** Nothing read at start-up (address, storage) may stop it: every step's failure becomes a message.
   * @param {string} box @param {() => any} job */
  const guarded = (box, job) => Promise.resolve().then(job)
    .catch((e) => showError($(box), t("Could not restore: {why}", { why: e && e.message ? e.message : String(e) })));
  window.addEventListener("hashchange", () => {
    const f = parseFragment();
    showError($("play-error"), "");
    if (f.tab === "play") guarded("play-error", () => restorePlay(f));
    showTab(f.tab || "advise");
  });
  guarded("coach-error", () => restoreEntered(COACH).then(() => { COACH.draw(); if (coach.record) return ownCoach(false); }));
  guarded("table-error", () => restoreEntered(TABLE, checkTable).then(() => {
    restoreNuts();
    drawAll();
    if (table.record) return ownTable(false);
  }));
  guarded("prac-error", () => restorePractice());
  showKept("play", PLAY_KEY);
  guarded("play-error", () => restorePlay(frag));
  const first = frag.tab || (raw(TABLE.key) !== null ? "table" : "advise");    // a table game kept: the page opens on it
  welcome(!frag.tab && [TABLE.key, COACH.key, PLAY_KEY].every((k) => raw(k) === null));
  if (first === "table" && "scrollRestoration" in history) {            // at its top: the strip under the tab bar, not behind it
    history.scrollRestoration = "manual";
    window.scrollTo(0, 0);
  }
  showTab(first);

  /* The site: its worker caches it for offline use. A first install that fails (a file that did not arrive whole)
   * is said, and the next visit tries again; a new version waits until the player asks. */
  if (data.site && "serviceWorker" in navigator && /^https?:$/.test(location.protocol)) {
    const sw = navigator.serviceWorker;
    let asked = false;
    /** @param {ServiceWorkerRegistration} reg */
    const offer = (reg) => {
      $("update").hidden = false;
      $("update-reload").onclick = () => { asked = true; if (reg.waiting) reg.waiting.postMessage({ type: "take-new-version" }); };
    };
    /** @param {ServiceWorkerRegistration} reg @param {ServiceWorker | null} worker */
    const watch = (reg, worker) => {
      if (!worker) return;
      worker.addEventListener("statechange", () => {
        if (worker.state === "installed" && sw.controller) offer(reg);
        if (worker.state === "redundant" && !sw.controller && !reg.active) {
          notice(t("This site could not be saved for offline use (a file did not arrive whole); it works online, and the next visit tries again."));
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
}
if (!moving) start();
