/* Small DOM helpers: find, make, say an error, fill a select, download a file, a worker script as a blob. */

/** What a page element is used as here: a form control, a details box or a plain element.
 * @typedef {HTMLElement & {value: string, checked: boolean, disabled: boolean, open: boolean, max: string,
 *   files: FileList | null, focus: (o?: FocusOptions) => void}} Control */

/** The element with this id (the page has every id it asks for: tests/site/test_webpage.py). @param {string} id @returns {Control} */
export const $ = (id) => /** @type {Control} */ (/** @type {unknown} */ (document.getElementById(id)));

/** An element with attributes ("class", "text", "style" through the CSSOM: the CSP allows no style attribute)
 * and children. @param {string} tag @param {Record<string, string> | null} [attrs] @param {...(Node | string)} kids */
export function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else if (k === "text") e.textContent = v;
    else if (k === "style") e.style.cssText = v;
    else e.setAttribute(k, v);
  }
  for (const kid of kids) e.append(kid);
  return e;
}

/** Show or hide an element, touching it only when that changes (setting `hidden` to what it is makes the browser
 * style the element again). @param {HTMLElement} e @param {boolean} on */
export const show = (e, on) => { if (e.hidden === on) e.hidden = !on; };

/** @param {HTMLElement} box @param {string} msg */
export const showError = (box, msg) => { if (box.textContent !== msg) box.textContent = msg; show(box, !!msg); };

/** Run fn once the current frame is painted (a task queued from the frame's animation callback runs after it): what
 * a tap draws below what the player reads waits for it. @param {() => void} fn */
export const afterPaint = (fn) => { requestAnimationFrame(() => setTimeout(fn, 0)); };

/** @param {number} ms */
export const sleep = (ms) => new Promise((res) => setTimeout(res, ms));

/** @param {Control} sel @param {[string | number, string][]} options @param {string | number} [value] */
export function fillSelect(sel, options, value) {
  sel.replaceChildren(...options.map(([v, text]) => el("option", { value: String(v), text })));
  if (value !== undefined && options.some(([v]) => String(v) === String(value))) sel.value = String(value);
}

/** Save a text as a file. @param {string} name @param {string} type @param {string} text */
export function download(name, type, text) {
  const a = el("a", { href: URL.createObjectURL(new Blob([text], { type })), download: name });
  document.body.append(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(/** @type {HTMLAnchorElement} */ (a).href), 1000);
}

/** A worker's script, carried as text inside the single file or a file of the site ({text} or {url}), as a blob's
 * address: a blob worker runs under the page's own Content-Security-Policy (a worker fetched from a file would
 * run under the headers of whatever serves it). @param {{text?: string, url?: string}} where @returns {Promise<string>} */
export const scriptUrl = (where) => (where.text !== undefined ? Promise.resolve(where.text)
  : fetch(/** @type {string} */ (where.url)).then((res) => { if (!res.ok) throw new Error(`HTTP ${res.status}`); return res.text(); }))
  .then((text) => URL.createObjectURL(new Blob([text], { type: "text/javascript" })));

/** The site's data files are fetched (the service worker answers offline); the single file embeds its data.
 * @param {string} url */
export async function fetchBytes(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}
