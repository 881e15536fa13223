/* The solver's worker: a game solved off the page's main thread, with the WebAssembly kernel (kernels.wasm)
 * driven by core/solve.js. The page (page/solving.js) sends {job, wasm, reading, players, target, speed,
 * settings}; the worker answers {job, progress: [done, total]} after each layer (at most every 50 ms), then
 * {job, startWin, mixed, memory, residual, converged, iterations, equilibrium, seconds, first}, or {job, error}; with
 * `again`, the game is solved again (warm) and `seconds` is the median warm solve's time, `first` the first's. A Cancel
 * terminates it.
 * Bundled on its own (npm run build: solver/site/web/worker.js): the single file carries its text and starts it
 * from a blob; the site serves it as a file. */
import { kernelData, solveGame } from "./core/solve.js";
import { speedFraction } from "./core/payout.js";

/** @typedef {import("./core/solve.js").KernelExports} KernelExports */

/** @type {Map<string, Promise<WebAssembly.Instance>>} one instance per kernel: its memory is reused */
const instances = new Map();

/** @param {ArrayBuffer} wasm @param {string} id */
function instance(wasm, id) {
  let got = instances.get(id);
  if (!got) {
    got = WebAssembly.instantiate(wasm, {}).then(({ instance }) => {
      /** @type {any} */ (instance.exports)._initialize();
      return instance;
    });
    instances.set(id, got);
  }
  return got;
}

/** Hold the lock `name` while this worker lives; resolves once held (false: no locks here).
 * @param {string | null} name @returns {Promise<boolean>} */
const hold = (name) => new Promise((resolve) => {
  if (!name || !self.navigator.locks) { resolve(false); return; }
  self.navigator.locks.request(name, () => { resolve(true); return new Promise(() => undefined); }).catch(() => resolve(false));
});

self.onmessage = async (/** @type {MessageEvent} */ e) => {
  const m = e.data, post = /** @type {(msg: any, transfer?: Transferable[]) => void} */ (self.postMessage.bind(self));
  try {
    if (await hold(m.lock)) post({ job: m.job, held: true });
    const ex = /** @type {any} */ ((await instance(m.wasm, m.id)).exports);
    /** @type {KernelExports} */
    const kernel = { memory: ex.memory, malloc: ex.malloc, free: ex.free, solve_layer: ex.solve_layer };
    let began = performance.now(), first = 0;
    const data = kernelData(m.reading, m.players, m.target, speedFraction(String(m.speed)), m.settings);
    let said = 0;
    const solve = () => solveGame(kernel, data, (done, total) => {
      const now = performance.now();
      if (now - said >= 50 || done === total) { said = now; post({ job: m.job, progress: [done, total] }); }
    }, { values: false, bits: false });
    // `again`: solved again, warm (the kernel's code optimized by then), for at least 0.25 s and at most 8 times, and
    // the median time said: the device's speed for the page's calibration, without the warm-up a first solve's time
    // holds, and steadier than any one time (on a shared machine one varies by half from run to run)
    let solved = solve(), seconds = (performance.now() - began) / 1000;
    if (m.again) {
      first = seconds;
      /** @type {number[]} */
      const warm = [];
      const until = performance.now() + 250;
      while (warm.length < 8 && (warm.length < 3 || performance.now() < until)) {
        began = performance.now();
        solved = solve();
        warm.push((performance.now() - began) / 1000);
      }
      seconds = warm.sort((a, b) => a - b)[warm.length >> 1];
    }
    const startWin = solved.startWin;
    post({ job: m.job, startWin, mixed: solved.mixed, memory: kernel.memory.buffer.byteLength, residual: solved.residual,
           converged: solved.converged, iterations: solved.iterations,
           equilibrium: { orbits_searched: solved.searched, orbits_with_several: solved.several,
                          mixed_decisions: solved.mixed.state.length },
           seconds, first },
         [startWin.buffer]);
  } catch (err) {
    post({ job: m.job, error: err instanceof Error ? err.message : String(err) });
  }
};
