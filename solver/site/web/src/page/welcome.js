/* The first visit: what each tab is for, Table first (keeping score at a real table is what most families come
 * for), and a short how-to-play that lives in the page (offline) and leads to the rule cards. Shown until it is
 * dismissed or a game is started; a link to a tab, or a game kept in this browser, skips it. */
import { $ } from "./dom.js";
import { openTab, TABS } from "./tabs.js";
import { storageKey } from "./storage.js";

const SEEN_KEY = storageKey("gonuts.welcome.v1");
/** @param {string} key */
const get = (key) => { try { return localStorage.getItem(key); } catch (e) { return "1"; } };

function done() {
  $("welcome").hidden = true;
  try { localStorage.setItem(SEEN_KEY, "1"); } catch (e) { /* storage off: shown again next visit */ }
}
/** Open the how-to-play and bring it into view. */
export function showHowTo() {
  const box = $("howto");
  box.open = true;
  box.scrollIntoView({ block: "start" });
  /** @type {HTMLElement} */ (box.querySelector("summary")).focus({ preventScroll: true });
}
/** At start: the welcome shown on a first visit (no game kept, no tab asked for by the address).
 * @param {boolean} first whether this is a first visit as the start sees it */
export function welcome(first) {
  if (first && get(SEEN_KEY) === null) $("welcome").hidden = false;
  for (const b of $("welcome").querySelectorAll("button[data-open]")) {
    b.addEventListener("click", () => { done(); openTab(/** @type {string} */ (/** @type {HTMLElement} */ (b).dataset.open)); });
  }
  $("welcome-done").addEventListener("click", done);
  for (const x of TABS) $(`tab-${x}`).addEventListener("click", () => { if (!$("welcome").hidden) done(); });   // a tab chosen
  $("welcome-howto").addEventListener("click", showHowTo);
  $("table-howto").addEventListener("click", showHowTo);
  $("howto-cards").addEventListener("click", () => {
    openTab("practice");
    const cards = document.getElementById("rule-cards");
    if (cards) cards.scrollIntoView({ block: "start" });
  });
}
/** A game was started: the welcome has done its work. */
export function welcomed() { if (!$("welcome").hidden) done(); }
