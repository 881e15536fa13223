/* The page's data and its core, made once from the page's embedded data (solver/site/pagegames.py page_data):
 * what every tab reads and none writes. */
import { makeCore } from "../core/index.js";

/* The single file carries its data in a JSON script element; the site's script file sets self.gonutsData before
 * the bundle (webpage.py site_script). */
const box = document.getElementById("gonuts-data");
/** @type {any} */
export const data = box ? JSON.parse(box.textContent || "{}") : /** @type {any} */ (self).gonutsData;
if (box) box.textContent = "";     // parsed: free the page's copy of the text
else delete (/** @type {any} */ (self).gonutsData);
/* The site opened as /sub/dir (a host that does not add the slash): its own files are beside index.html,
 * so it goes on at /sub/dir/, where their relative addresses resolve. */
/** True while the page goes on to its own address: it then starts nothing (no storage key, no worker is
 * read or written at the wrong folder). */
export const moving = Boolean(data.site) && /^https?:$/.test(location.protocol) && !/\/$|\.html?$/i.test(location.pathname);
if (moving) location.replace(`${location.pathname}/${location.search}${location.hash}`);
export const core = makeCore(data);
/** The target this page plays to. @type {number} */
export const TARGET = data.record.target;
const KEYS = core.games().map((k) => { const [p, r] = k.split("-"); return { players: Number(p), reading: r }; });
/* A page that solves games itself offers every player count and reading; one without the solver's data (a page
 * built before it) only those it embeds. */
if (data.solve) for (const players of [2, 3, 4]) for (const reading of Object.keys(data.readings)) KEYS.push({ players, reading });
/** The player counts this page has tables for. */
export const PLAYERS = [...new Set(KEYS.map((k) => k.players))].sort();
/** The readings this page has for n players. @param {number} n */
export const readingsFor = (n) => [...new Set(KEYS.filter((k) => k.players === n).map((k) => k.reading))];
