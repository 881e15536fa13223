/* Games the page solves itself: any target the page's data offers, either reading, any offered speed. A game is
 * solved in a Web Worker (worker.js: the WebAssembly kernel driven by core/solve.js), never on the main thread.
 * Before it starts, the page says how long and how much memory it expects on this device, from a short
 * calibration solve timed here (not a constant), and refuses a game that will not fit; while it runs a bar shows
 * its progress and Cancel ends it, leaving the page as it was. The values are kept (page/kept.js), so the next
 * game at that target starts at once, offline. */
import { data, core } from "./context.js";
import { $, show, el, afterPaint, sleep, scriptUrl, fetchBytes } from "./dom.js";
import { t, words, onLanguage } from "./i18n.js";
import * as kept from "./kept.js";
import { GonutsInputError, refuse } from "../core/errors.js";

/** @typedef {{players: number, reading: string, target: number, speed: number}} Spec */
/** @typedef {{done: number, total: number}} Progress */
/** @typedef {{startWin: Float64Array, mixed: import("../core/types.js").Mixed, memory: number, seconds: number, first: number, wall: number, residual: number, converged: boolean,
 *   iterations: number, equilibrium: {orbits_searched: number, orbits_with_several: number, mixed_decisions: number}}} Result seconds: in the worker; wall: with the worker's start and the kernel's compile */

/* The calibration game: big enough to time (tens of ms on a laptop), small enough to be a blink on a phone. */
const CALIBRATION = { players: 3, reading: "summary", target: 30, speed: 1 };
/* How long each game takes, whole (a new worker, the kernel's compile, the turn model, the solve, the values back,
 * kept in this browser: what follows "about N s"), against the calibration game's warm solve in its worker (the
 * device's speed), as [target, ratio] per player count: measured in
 * Chromium on one machine by bench/bench_page_estimate.py (each the median of 3 fresh pages, against the median
 * calibration of the run; docs/performance.md).
 * A small game costs more per state than a large one (the worker's start, the kernel's compile and its warm-up,
 * keeping the values do not scale), so no one power of the target fits: between two measured targets the ratio is
 * interpolated in log-log, beyond the last it grows as target^(players+1), the work per state times the states. */
const RATIOS = {
  2: [[10, 0.43], [30, 0.994], [60, 1.7], [100, 4.24]],
  3: [[10, 0.623], [20, 1.35], [30, 1.86], [45, 6.97], [60, 16.2], [80, 51.1], [100, 144]],
  4: [[10, 1.1], [15, 2.77], [20, 4.82], [30, 32.2], [40, 154], [50, 369]],
};
/* The longest a game waits for this browser to keep it (milliseconds). */
const KEEP_MS = 30000;
/* Longer than this the page does not start: a family would wait at the table. */
const MAX_SECONDS = 600;
/** How long (seconds) a worker may be silent beyond its estimate, or three times its estimate, before it is taken
 * for dead where the browser cannot say it (no Web Locks): solver/site/pagegames.py SOLVE_PATIENCE. */
const patience = () => /** @type {number} */ (data.solve.patience);

/** A game's whole time against the calibration's, from RATIOS. @param {number} N @param {number} G */
export function ratioOf(N, G) {
  const pts = RATIOS[/** @type {2 | 3 | 4} */ (N)];
  let i = 1;
  while (i < pts.length - 1 && pts[i][0] < G) i++;
  const [[g0, r0], [g1, r1]] = [pts[i - 1], pts[i]];
  const slope = G > g1 ? N + 1 : Math.log(r1 / r0) / Math.log(g1 / g0);
  return G > g1 ? r1 * (G / g1) ** slope : r0 * (G / g0) ** slope;
}
/** The memory a solve takes at its peak, in bytes: the kernel's (values, packed decisions, per-orbit statistics),
 * the worker and its module (24 MiB), the values' copy the worker sends, and the copy in parts the page keeps in
 * this browser while it writes them. Measured by bench/bench_page_memory.py (docs/performance.md): 4 players to
 * 30, 50 and 60 peak at 122, 811 and 1,721 MiB above the page at rest; this says 121, 858 and 1,841.
 * @param {number} N @param {number} G */
export function memoryOf(N, G) {
  const S = G ** N, nbytes = Math.ceil(G * 6 / 8);
  return 3 * 8 * S * N + S * nbytes + 24 * Math.ceil(S / N) + 24 * 2 ** 20;
}
/** The memory this page lets a solve take: a quarter of the device's, as the browser reports it (Chromium), at
 * most 2 GiB; where the browser does not say, 1 GiB. */
export function memoryLimit() {
  const gb = /** @type {any} */ (navigator).deviceMemory;
  return Math.min(2 ** 31, typeof gb === "number" && gb > 0 ? gb * 2 ** 30 / 4 : 2 ** 30);
}

/** @type {Promise<ArrayBuffer> | null} */
let wasm = null;
/** The kernel's bytes: inside the single file, a file of the site. */
function kernelBytes() {
  if (!wasm) {
    const k = data.solve.kernel;
    wasm = (async () => {
      if (k.data !== undefined) return Uint8Array.from(atob(k.data), (c) => c.charCodeAt(0)).buffer;
      const res = await fetch(k.url);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return res.arrayBuffer();
    })();
    wasm.catch(() => { wasm = null; });
  }
  return wasm;
}
/** @type {Promise<string> | null} the worker's blob address, made once for the page's life (a few kB) */
let workerUrl = null;
/** The worker's script (inside the single file, a file of the site) as a blob's address. */
function workerScript() {
  if (!workerUrl) {
    workerUrl = scriptUrl(data.solve.worker);
    workerUrl.catch(() => { workerUrl = null; });
  }
  return workerUrl;
}
/** A new worker, made from a blob of its script in both forms of the page: a blob worker runs under the page's own
 * Content-Security-Policy (a worker fetched from a file would run under the headers of whatever serves it). */
const newWorker = async () => new Worker(await workerScript());

/** A refusal: the worker went away without a word (out of memory, a crash). */
const died = () => new GonutsInputError("the solver stopped before the end: nothing was kept",
  "The solver stopped before the end, perhaps for lack of memory on this device: nothing was kept. Try again, or choose a lower target.", {});

let jobs = 0;
/** A name for this page's jobs' locks, unlike another tab's. */
const LOCKS = `gonuts-solve-${Math.random().toString(36).slice(2)}`;
/** Solve one game in a new worker. `signal` aborts it (the worker is ended at once). A worker that goes away
 * without a word (a browser ends a worker out of memory with no error event) is noticed: it holds a Web Lock while
 * it lives, which this page asks for once it is held and gets when the worker is gone; where there are no locks,
 * by its silence, longer than `quiet` seconds.
 * @param {Spec} spec @param {number} quiet @param {(p: Progress) => void} [onProgress] @param {AbortSignal} [signal]
 * @param {boolean} [again] solve it twice (the calibration: the second, warm, time) @returns {Promise<Result>} */
async function inWorker(spec, quiet, onProgress, signal, again) {
  const began = performance.now(), bytes = await kernelBytes(), worker = await newWorker(), job = ++jobs;
  const lock = navigator.locks ? `${LOCKS}-${job}` : null;
  return new Promise((resolve, reject) => {
    let settled = false;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    let silence;
    const end = () => {
      settled = true; clearTimeout(silence); worker.terminate();
      if (signal) signal.removeEventListener("abort", abort);
    };
    const fail = (/** @type {Error} */ err) => { if (!settled) { end(); reject(err); } };
    const abort = () => fail(new GonutsInputError("Solving cancelled: nothing changed.", "Solving cancelled: nothing changed.", {}));
    const heard = () => { clearTimeout(silence); silence = setTimeout(() => fail(died()), quiet * 1000); };
    if (signal) { if (signal.aborted) { abort(); return; } signal.addEventListener("abort", abort); }
    heard();
    worker.onmessage = (e) => {
      const m = e.data;
      if (m.job !== job || settled) return;
      heard();
      if (m.held) {                                 // granted once the worker is gone, by an end or not
        navigator.locks.request(/** @type {string} */ (lock), () => fail(died())).catch(() => undefined);
        return;
      }
      if (m.progress) { if (onProgress) onProgress({ done: m.progress[0], total: m.progress[1] }); return; }
      end();
      if (m.error) reject(new GonutsInputError(`the solver stopped: ${m.error}`, "The solver stopped: {why}", { why: m.error }));
      else resolve({ ...m, wall: (performance.now() - began) / 1000 });
    };
    worker.onerror = (e) => fail(new GonutsInputError(`the solver stopped: ${e.message}`, "The solver stopped: {why}", { why: e.message || "" }));
    worker.postMessage({ job, id: "kernel", wasm: bytes, lock, again: !!again, reading: data.readings[spec.reading], players: spec.players,
                         target: spec.target, speed: spec.speed, settings: data.solve.settings });
  });
}

/** @type {Promise<{seconds: number, first: number, wall: number}> | null} the calibration game on this device:
 * solved warm in its worker (the device's speed), its first solve there, and the whole (a new worker, the kernel's
 * compile, both solves) */
let rate = null;
/** Time the calibration game once (a fresh worker, as a solve has it; solved twice: a first solve's time is
 * mostly the kernel's warm-up, which varies from run to run twice over on a busy device). */
function calibrate() {
  if (!rate) {
    rate = inWorker(CALIBRATION, 3 * patience(), undefined, undefined, true)
      .then((r) => ({ seconds: r.seconds, first: r.first, wall: r.wall }));
    rate.catch(() => { rate = null; });
  }
  return rate;
}
/** How long (seconds, whole: the worker's start to the values kept) and how much memory (bytes) a game takes on
 * this device, and whether it fits. @param {Spec} spec */
export async function estimate(spec) {
  const calibration = await calibrate();
  const seconds = calibration.seconds * ratioOf(spec.players, spec.target), bytes = memoryOf(spec.players, spec.target);
  const limit = memoryLimit();
  return { seconds, bytes, limit, calibration, fits: bytes <= limit && seconds <= MAX_SECONDS };
}

/* Numbers for a sentence's params: t() writes them in the language of each drawing ("6.1", "6,1"). */
/** @param {number} bytes */
const mb = (bytes) => Math.max(1, Math.round(bytes / 2 ** 20));
/** @param {number} s */
const secs = (s) => s < 10 ? Math.max(1, Math.round(s * 10) / 10) : Math.round(s);
/** A game as the page names it in a sentence ("the 2-player rulebook game to 40", and its speed unless 1).
 * @param {Spec} s */
export const gameName = (s) => (s.speed === 1 ? t("the {players}-player {reading} game to {target}", { players: s.players, reading: t(s.reading), target: s.target })
  : t("the {players}-player {reading} game to {target} at Go Nuts! speed {speed}", { players: s.players, reading: t(s.reading), target: s.target, speed: words.fixed(s.speed, Number.isInteger(s.speed) ? 0 : 1) }));
/** The first letter a capital (a game's name opening a sentence). @param {string} text */
const opening = (text) => text.charAt(0).toLocaleUpperCase(words.lang) + text.slice(1);

/** The last game this page solved, as the solver measured it (window.gonuts.lastSolve: benches, tests).
 * @type {{key: string, seconds: number, wall: number, memory: number, iterations: number, residual: number,
 *   equilibrium: {orbits_searched: number, orbits_with_several: number, mixed_decisions: number},
 *   estimate: {seconds: number, bytes: number, calibration: {seconds: number, first: number, wall: number}}} | null} */
let last = null;
export const lastSolve = () => last;
/** @type {Map<string, Promise<void>>} */
const running = new Map();

/** One solve's own line in the solving panel: its words (kept as a key, so that a change of language redraws
 * them), its bar and its Cancel. Each solve has one; the panel shows while any does, and its height is left free
 * below the page, so that nothing (a Start button) stays under it. */
function row() {
  const panel = $("solving");
  const line = el("p", { class: "solving-line", role: "status" }), bar = /** @type {HTMLProgressElement} */ (el("progress", {}));
  const cancel = /** @type {HTMLButtonElement} */ (el("button", { type: "button", class: "solving-cancel" }));
  const box = el("div", { class: "solving-row" }, line, el("div", { class: "actions" }, bar, cancel));
  bar.setAttribute("aria-label", "");
  /** @type {[string, Record<string, any> | undefined]} */
  let said = ["", undefined];
  const draw = () => {
    // a game's name is made in the language of each drawing (a spec in the params, not its English name)
    const params = said[1] && said[1].spec ? { ...said[1], spec: undefined, game: gameName(said[1].spec) } : said[1];
    line.textContent = t(said[0], params);
    if (params && params.game) line.textContent = opening(line.textContent);
    cancel.textContent = t("Cancel");
    bar.setAttribute("aria-label", line.textContent);
  };
  draw();
  panel.append(box);
  show(panel, true);
  leaveRoom(true);
  languages.add(draw);
  return {
    /** @param {string} key @param {Record<string, any>} [params] */
    say(key, params) { said = [key, params]; draw(); leaveRoom(); },
    bar, cancel,
    end() { languages.delete(draw); box.remove(); if (!panel.querySelector(".solving-row")) show(panel, false); leaveRoom(); },
  };
}
/** @type {Set<() => void>} the open rows' redraws */
const languages = new Set();
onLanguage(() => { for (const draw of languages) draw(); });
/** Leave the panel's height free at the foot of the page (or give it back); `scroll`: bring what the player just
 * used (a Start button) into sight above it. @param {boolean} [scroll] */
function leaveRoom(scroll) {
  const panel = $("solving");
  const h = panel.hidden ? 0 : panel.getBoundingClientRect().height + 16;
  document.body.style.paddingBottom = h ? `${Math.ceil(h)}px` : "";
  document.documentElement.style.scrollPaddingBottom = h ? `${Math.ceil(h)}px` : "";
  const at = /** @type {HTMLElement | null} */ (document.activeElement);
  if (scroll && h && at && at !== document.body) at.scrollIntoView({ block: "nearest" });
}

/** Make a game the page does not embed usable: kept in this browser (read it), or solved now. A target or speed
 * left out is the page's own target, the printed speed. `ui`: say it on the page (its own line in the solving
 * panel: the estimate, a bar, Cancel), kept after the solve while the values are kept and the caller draws its
 * game (two frames after the solve ends: what the caller does at once when this resolves is drawn by then);
 * `cancel: false` offers no Cancel (a game being restored needs its values).
 * @param {{players: number, reading: string, target?: number, speed?: number}} asked
 * @param {{ui?: boolean, cancel?: boolean, onProgress?: (p: Progress) => void}} [opts] */
export function solved(asked, opts) {
  /** @type {Spec} */
  const spec = { players: asked.players, reading: asked.reading, target: asked.target === undefined ? data.record.target : asked.target,
                 speed: asked.speed === undefined ? 1 : asked.speed };
  const key = core.key(spec.players, spec.reading, spec.target, spec.speed);
  const had = running.get(key);
  if (had) return had;
  const job = solve(key, spec, opts || {});
  running.set(key, job);
  job.then(() => running.delete(key), () => running.delete(key));
  return job;
}
/** Make a kept game ready; whether it was (its mixed decisions not a solve's: it is solved again, and kept anew).
 * @param {Spec} s @param {{values: Float64Array, mixed: import("../core/types.js").Mixed | undefined}} had */
function added(s, had) {
  try { core.add(s.players, s.reading, s.target, s.speed, had.values, had.mixed); return true; }
  catch (e) { if (e instanceof GonutsInputError) return false; throw e; }
}
/** A game read off a larger one of the same players, reading and speed, with no solve and no panel (its corner:
 * core/pagevalues.js corner): one ready on this page, else the smallest larger one kept in this browser (read
 * first), else the page's own game at its target (loaded first: the 4-player values are decoded). Whether it is.
 * @param {Spec} spec @returns {Promise<boolean>} */
async function fromCorner(spec) {
  const { players, reading, target, speed } = spec;
  if (core.corner(players, reading, target, speed)) return true;
  const larger = (await kept.list()).map((k) => k.spec)
    .filter((s) => s.players === players && s.reading === reading && s.speed === speed && s.target > target)
    .sort((a, b) => a.target - b.target);
  for (const s of larger) {
    const had = await kept.read(core.key(s.players, s.reading, s.target, s.speed), s);
    if (had && added(s, had)) return Boolean(core.corner(players, reading, target, speed));
  }
  if (speed !== 1 || target >= data.record.target || !core.games().includes(core.key(players, reading))) return false;
  try { await core.load(players, reading, fetchBytes); } catch (e) { return false; }      // its refusal: solved instead
  return Boolean(core.corner(players, reading, target, speed));
}
/** @param {string} key @param {Spec} spec @param {{ui?: boolean, cancel?: boolean, onProgress?: (p: Progress) => void}} opts */
async function solve(key, spec, opts) {
  if (!core.solvable(spec.players, spec.reading, spec.target, spec.speed)) {
    refuse("This page solves games to {min} to {max} points, at Go Nuts! speeds {speeds}; not this one.",
           { min: data.solve.targets[0], max: data.solve.targets[1], speeds: data.solve.speeds.join(", ") });
  }
  const have = await kept.read(key, spec);
  if (have && added(spec, have)) return;
  if (await fromCorner(spec)) return;
  const ctl = new AbortController(), ui = opts.ui ? row() : null;
  if (ui) {
    ui.say("Timing this device\u2026");
    ui.bar.removeAttribute("value");
    show(ui.cancel, opts.cancel !== false);
    ui.cancel.addEventListener("click", () => ctl.abort());
  }
  let shown = false;
  try {
    const est = await estimate(spec);
    if (ctl.signal.aborted) refuse("Solving cancelled: nothing changed.");
    if (est.bytes > est.limit) {
      refuse("{game} needs about {mb}\u00a0MB, more than this device gives a page ({limit}\u00a0MB): choose a lower target or fewer players.",
             { game: opening(gameName(spec)), mb: mb(est.bytes), limit: mb(est.limit) });
    }
    if (!est.fits) {
      refuse("{game} would take about {minutes} minutes on this device: choose a lower target or fewer players.",
             { game: opening(gameName(spec)), minutes: Math.max(1, Math.round(est.seconds / 60)) });
    }
    if (ui) {
      ui.say("Solving {game}: about {seconds}\u00a0s and {mb}\u00a0MB on this device.", { spec, seconds: secs(est.seconds), mb: mb(est.bytes) });
      ui.bar.max = 1; ui.bar.value = 0;
    }
    const began = performance.now();
    const result = await inWorker(spec, Math.max(3 * est.seconds, est.seconds + patience()), (p) => {
      if (ui) ui.bar.value = p.done / p.total;
      if (opts.onProgress) opts.onProgress(p);
    }, ctl.signal);
    // A solve that did not converge (only by a bug: every game offered has an exact equilibrium) keeps nothing.
    if (!result.converged) refuse("This game could not be solved exactly on this device, so nothing was kept: choose another target or reading.");
    core.add(spec.players, spec.reading, spec.target, spec.speed, result.startWin, result.mixed);
    if (ui) { ui.say("Keeping {game} in this browser\u2026", { spec }); show(ui.cancel, false); }
    // keeping is for the next visit: a browser that never answers (none seen, but a game is never held up by it)
    // costs this game at most KEEP_MS
    const { dropped } = await Promise.race([kept.write(key, spec, result.startWin, result.mixed),
                                            sleep(KEEP_MS).then(() => ({ kept: false, dropped: /** @type {Spec[]} */ ([]) }))]);
    last = { key, seconds: result.seconds, wall: (performance.now() - began) / 1000, memory: result.memory, iterations: result.iterations,
             residual: result.residual, equilibrium: result.equilibrium,
             estimate: { seconds: est.seconds, bytes: est.bytes, calibration: est.calibration } };
    if (dropped.length) {
      $("solving-note").textContent = t("To make room, this browser no longer keeps {games}.",
        { games: dropped.map((s) => gameName(s)).join(", ") });
      show($("solving-note"), true);
    }
    if (ui) { ui.say("Setting up {game}\u2026", { spec }); shown = true; afterPaint(() => afterPaint(ui.end)); }
  } finally {
    if (ui && !shown) ui.end();
  }
}
/** The games kept in this browser (window.gonuts). */
export const keptGames = () => kept.list();
