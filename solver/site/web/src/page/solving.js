/* Games the page solves itself: any target the page's data offers, either reading, any offered speed. A game is
 * solved in a Web Worker (worker.js: the WebAssembly kernel driven by core/solve.js), never on the main thread.
 * Before it starts, the page says how long and how much memory it expects on this device, from a short
 * calibration solve timed here (not a constant), and refuses a game that will not fit; while it runs a bar shows
 * its progress and Cancel ends it, leaving the page as it was. The values are kept (page/kept.js), so the next
 * game at that target starts at once, offline. */
import { data, core } from "./context.js";
import { $, show } from "./dom.js";
import { t } from "./i18n.js";
import * as kept from "./kept.js";
import { GonutsInputError, refuse } from "../core/errors.js";

/** @typedef {{players: number, reading: string, target: number, speed: number}} Spec */
/** @typedef {{done: number, total: number}} Progress */
/** @typedef {{startWin: Float64Array, memory: number, seconds: number, wall: number, residual: number, converged: boolean,
 *   iterations: number, equilibrium: {orbits_searched: number, orbits_with_several: number, mixed_decisions: number}}} Result seconds: in the worker; wall: with the worker's start and the kernel's compile */

/* The calibration game: big enough to time (tens of ms on a laptop), small enough to be a blink on a phone. */
const CALIBRATION = { players: 3, reading: "summary", target: 30, speed: 1 };
/* Relative work per unit G^(N+1)/N of each player count (measured with the kernel in Node: bench/bench_wasm.py;
 * docs/performance.md), so that one timed game scales to the others. */
const WORK = { 2: 0.75, 3: 1, 4: 1.6 };
/* Longer than this the page does not start: a family would wait at the table. */
const MAX_SECONDS = 600;

/** The units of work of a game. @param {number} N @param {number} G */
const units = (N, G) => G ** (N + 1) / N * WORK[/** @type {2 | 3 | 4} */ (N)];
/** The memory a solve takes, in bytes: the kernel's (values, packed decisions, per-orbit statistics, the
 * module itself) and the values' copy the page keeps. @param {number} N @param {number} G */
export function memoryOf(N, G) {
  const S = G ** N, nbytes = Math.ceil(G * 6 / 8);
  return 8 * S * N + S * nbytes + 24 * Math.ceil(S / N) + 2 * 2 ** 20 + 8 * S * N;
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
    const w = data.solve.worker;
    workerUrl = (w.text !== undefined ? Promise.resolve(w.text)
      : fetch(w.url).then((res) => { if (!res.ok) throw new Error(`HTTP ${res.status}`); return res.text(); }))
      .then((text) => URL.createObjectURL(new Blob([text], { type: "text/javascript" })));
    workerUrl.catch(() => { workerUrl = null; });
  }
  return workerUrl;
}
/** A new worker, made from a blob of its script in both forms of the page: a blob worker runs under the page's own
 * Content-Security-Policy (a worker fetched from a file would run under the headers of whatever serves it). */
const newWorker = async () => new Worker(await workerScript());

let jobs = 0;
/** Solve one game in a new worker. `signal` aborts it (the worker is ended at once).
 * @param {Spec} spec @param {(p: Progress) => void} [onProgress] @param {AbortSignal} [signal] @returns {Promise<Result>} */
async function inWorker(spec, onProgress, signal) {
  const began = performance.now(), bytes = await kernelBytes(), worker = await newWorker(), job = ++jobs;
  return new Promise((resolve, reject) => {
    const end = () => { worker.terminate(); if (signal) signal.removeEventListener("abort", abort); };
    const abort = () => { end(); reject(new GonutsInputError("Solving cancelled: nothing changed.", "Solving cancelled: nothing changed.", {})); };
    if (signal) { if (signal.aborted) { abort(); return; } signal.addEventListener("abort", abort); }
    worker.onmessage = (e) => {
      const m = e.data;
      if (m.job !== job) return;
      if (m.progress) { if (onProgress) onProgress({ done: m.progress[0], total: m.progress[1] }); return; }
      end();
      if (m.error) reject(new GonutsInputError(`the solver stopped: ${m.error}`, "The solver stopped: {why}", { why: m.error }));
      else resolve({ ...m, wall: (performance.now() - began) / 1000 });
    };
    worker.onerror = (e) => { end(); reject(new GonutsInputError(`the solver stopped: ${e.message}`, "The solver stopped: {why}", { why: e.message || "" })); };
    worker.postMessage({ job, id: "kernel", wasm: bytes, reading: data.readings[spec.reading], players: spec.players,
                         target: spec.target, speed: spec.speed, settings: data.solve.settings });
  });
}

/** @type {Promise<{perUnit: number, overhead: number}> | null} seconds per unit of work on this device, and what a
 * worker's start and the kernel's compile add to each solve */
let rate = null;
/** Time the calibration game once (a fresh worker, as a solve has it). */
function calibrate() {
  if (!rate) {
    rate = inWorker(CALIBRATION).then((r) => ({ perUnit: r.seconds / units(CALIBRATION.players, CALIBRATION.target),
                                                overhead: Math.max(0, r.wall - r.seconds) }));
    rate.catch(() => { rate = null; });
  }
  return rate;
}
/** How long (seconds) and how much memory (bytes) a game takes on this device, and whether it fits.
 * @param {Spec} spec */
export async function estimate(spec) {
  const { perUnit, overhead } = await calibrate();
  const seconds = units(spec.players, spec.target) * perUnit + overhead, bytes = memoryOf(spec.players, spec.target);
  const limit = memoryLimit();
  return { seconds, bytes, limit, fits: bytes <= limit && seconds <= MAX_SECONDS };
}

/** @param {number} bytes */
const mb = (bytes) => String(Math.max(1, Math.round(bytes / 2 ** 20)));
/** @param {number} s */
const secs = (s) => String(s < 10 ? Math.max(1, Math.round(s * 10) / 10) : Math.round(s));
/** @param {Spec} s */
const named = (s) => ({ players: s.players, reading: t(s.reading), target: s.target });

/** The last game this page solved, as the solver measured it (window.gonuts.lastSolve: benches, tests).
 * @type {{key: string, seconds: number, memory: number, iterations: number, residual: number,
 *   equilibrium: {orbits_searched: number, orbits_with_several: number, mixed_decisions: number},
 *   estimate: {seconds: number, bytes: number}} | null} */
let last = null;
export const lastSolve = () => last;
/** @type {Map<string, Promise<void>>} */
const running = new Map();
/** Make a game the page does not embed usable: kept in this browser (read it), or solved now. A target or speed
 * left out is the page's own target, the printed speed. `ui`: say it on the page (the estimate, a bar, Cancel);
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
/** @param {string} key @param {Spec} spec @param {{ui?: boolean, cancel?: boolean, onProgress?: (p: Progress) => void}} opts */
async function solve(key, spec, opts) {
  if (!core.solvable(spec.players, spec.reading, spec.target, spec.speed)) {
    refuse("This page solves games to {min} to {max} points, at Go Nuts! speeds {speeds}; not this one.",
           { min: data.solve.targets[0], max: data.solve.targets[1], speeds: data.solve.speeds.join(", ") });
  }
  const have = await kept.read(key, spec);
  if (have) { core.add(spec.players, spec.reading, spec.target, spec.speed, have); return; }
  const panel = $("solving"), line = $("solving-line"), bar = /** @type {HTMLProgressElement} */ (/** @type {unknown} */ ($("solving-bar")));
  const cancel = $("solving-cancel"), ctl = new AbortController();
  const onCancel = () => ctl.abort();
  if (opts.ui) {
    line.textContent = t("Timing this device\u2026");
    bar.removeAttribute("value");
    show(cancel, opts.cancel !== false);
    cancel.addEventListener("click", onCancel);
    show(panel, true);
  }
  try {
    const est = await estimate(spec);
    if (ctl.signal.aborted) refuse("Solving cancelled: nothing changed.");
    if (est.bytes > est.limit) {
      refuse("The {players}-player {reading} game to {target} needs about {mb} MB, more than this device gives a page ({limit} MB): choose a lower target or fewer players.",
             { ...named(spec), mb: mb(est.bytes), limit: mb(est.limit) });
    }
    if (!est.fits) {
      refuse("The {players}-player {reading} game to {target} would take about {minutes} minutes on this device: choose a lower target or fewer players.",
             { ...named(spec), minutes: String(Math.round(est.seconds / 60)) });
    }
    if (opts.ui) {
      line.textContent = t("Solving the {players}-player {reading} game to {target}: about {seconds} s and {mb} MB on this device.",
                           { ...named(spec), seconds: secs(est.seconds), mb: mb(est.bytes) });
      bar.max = 1; bar.value = 0;
    }
    const result = await inWorker(spec, (p) => {
      if (opts.ui) bar.value = p.done / p.total;
      if (opts.onProgress) opts.onProgress(p);
    }, ctl.signal);
    // A solve that did not converge (only by a bug: every game offered has an exact equilibrium) keeps nothing.
    if (!result.converged) refuse("This game could not be solved exactly on this device, so nothing was kept: choose another target or reading.");
    core.add(spec.players, spec.reading, spec.target, spec.speed, result.startWin);
    last = { key, seconds: result.seconds, memory: result.memory, iterations: result.iterations, residual: result.residual,
             equilibrium: result.equilibrium, estimate: { seconds: est.seconds, bytes: est.bytes } };
    const { dropped } = await kept.write(key, spec, result.startWin);
    if (dropped.length) {
      $("solving-note").textContent = t("To make room, this browser no longer keeps {games}.",
        { games: dropped.map((s) => t("the {players}-player {reading} game to {target}", named(s))).join(", ") });
      show($("solving-note"), true);
    }
  } finally {
    if (opts.ui) { cancel.removeEventListener("click", onCancel); show(panel, false); }
  }
}
/** The games kept in this browser (window.gonuts). */
export const keptGames = () => kept.list();
