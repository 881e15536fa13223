/* The tabs and the address after #. A tab opens another only through openTab (never by writing its DOM); a
 * tab module says what to do when it opens with onOpen. */
import { $ } from "./dom.js";
import { t, onLanguage } from "./i18n.js";
import { whole } from "../core/numbers.js";
import { GonutsInputError } from "../core/errors.js";

export const TABS = ["advise", "play", "coach", "table", "review", "practice"];
/** @type {Map<string, (opts: any) => void>} */
const opening = new Map();
/** @type {((name: string) => void)[]} */
const shown = [];
/** What a tab does when it is shown (opts: what openTab passed). @param {string} name @param {(opts: any) => void} fn */
export const onOpen = (name, fn) => { opening.set(name, fn); };
/** Called with the tab's name whenever a tab is shown. @param {(name: string) => void} fn */
export const onShown = (fn) => { shown.push(fn); };

/** @param {string} name @param {boolean} [focus] @param {any} [opts] */
export function showTab(name, focus, opts) {
  for (const x of TABS) {
    const on = x === name;
    $(`tab-${x}`).setAttribute("aria-selected", String(on));
    $(`tab-${x}`).tabIndex = on ? 0 : -1;
    $(`panel-${x}`).hidden = !on;
  }
  if (focus) $(`tab-${name}`).focus();
  const fn = opening.get(name);
  if (fn) fn(opts || {});
  for (const f of shown) f(name);
}
/** Show a tab and put it in the address. @param {string} name @param {any} [opts] */
export function openTab(name, opts) { showTab(name, false, opts); setFragment(name); }

TABS.forEach((x, i) => {
  $(`tab-${x}`).addEventListener("click", () => openTab(x));
  $(`tab-${x}`).addEventListener("keydown", (e) => {
    const step = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
    if (step) { const next = TABS[(i + step + TABS.length) % TABS.length]; showTab(next, true); setFragment(next); }
  });
});

/** A one-line notice at the top of the page. @param {string} msg */
export function notice(msg) { const box = $("notice"); box.textContent = msg; box.hidden = !msg; }

/** The address after #: a tab and key=value pairs. One that cannot be read is reported in one line, and the
 * page opens as if it had no address. @returns {{tab: string | null, params: Record<string, string>}} */
export function parseFragment() {
  const parts = location.hash.replace(/^#/, "").split("&").filter(Boolean);
  /** @type {{tab: string | null, params: Record<string, string>}} */
  const out = { tab: TABS.includes(parts[0]) ? parts[0] : null, params: {} };
  try {
    for (const p of parts.slice(out.tab ? 1 : 0)) {
      const i = p.indexOf("=");
      if (i > 0) out.params[decodeURIComponent(p.slice(0, i))] = decodeURIComponent(p.slice(i + 1));
      else throw new Error(t("\"{part}\" is not key=value", { part: p.slice(0, 40) }));
    }
  } catch (e) {
    const why = e instanceof URIError ? t("a malformed % sequence") : /** @type {Error} */ (e).message;
    notice(t("The address after # cannot be read ({why}); opening without it.", { why }));
    return { tab: null, params: {} };
  }
  return out;
}
/** @param {string} tab @param {Record<string, string | number>} [params] */
export function setFragment(tab, params) {
  const rest = Object.entries(params || {}).map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
  history.replaceState(null, "", "#" + [tab].concat(rest).join("&"));
}
/** A number in the address: plain digits only (not 0x2, 2.0 or " 2"), then the one number reader's rule.
 * @param {string} text @param {string} what */
export function addressNumber(text, what) {
  if (!/^[0-9]{1,10}$/.test(String(text))) {
    throw new GonutsInputError(`${what} in the address must be plain digits, not ${JSON.stringify(String(text).slice(0, 60))}`,
      "{what} in the address must be plain digits, not {text}", { what, text: JSON.stringify(String(text).slice(0, 60)) });
  }
  return whole(text, what);
}

/* A tab label cut (very large text, or a long language on a narrow phone): the tab bar takes a second row. */
{
  const nav = /** @type {HTMLElement} */ (document.querySelector("nav.tabs"));
  const check = () => {
    nav.classList.remove("wrap");
    const cut = TABS.some((x) => { const b = $(`tab-${x}`); return b.scrollWidth > b.clientWidth + 1; });
    if (cut) nav.classList.add("wrap");
  };
  new ResizeObserver(check).observe(nav);
  onLanguage(check);                   // other words in a bar of the same size: no resize says so
}
