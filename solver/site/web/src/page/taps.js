/* Taps at a table: a tap on a control drawn after the finger went down does nothing (it was meant for what was
 * there before), and neither does the second tap of a double tap: within TAP_GAP ms of the redraw that the
 * first tap caused, where the first one landed (so +1 can be tapped as fast as a finger goes). Keyboard
 * presses are never ignored.
 *
 * A touch's time is when the finger touched (the event's timeStamp), not when the page got round to it: a phone
 * busy drawing what the first tap of a double tap asked for handles the second only afterwards, on whatever is
 * under the finger by then (a roll grid where Resume was), and it must still count as before that draw. */
const TAP_GAP = 350, TAP_NEAR = 24;
const taps = { down: -Infinity, drawn: -Infinity, last: -Infinity, x: NaN, y: NaN, lastX: NaN, lastY: NaN };
/** When an event happened, on performance.now()'s clock (a browser that stamps events otherwise: now).
 * @param {Event} e */
const happened = (e) => { const now = performance.now(); return e.timeStamp > 0 && e.timeStamp <= now ? e.timeStamp : now; };
document.addEventListener("pointerdown", (e) => { taps.down = happened(e); taps.x = e.clientX; taps.y = e.clientY; }, true);

/** Note that the controls were just drawn again. */
export function redrawn() { taps.drawn = performance.now(); }

/** A click handler that ignores stale and doubled taps. @param {(e: MouseEvent) => void} fn */
export function tap(fn) {
  return (/** @type {MouseEvent} */ e) => {
    if (e.detail > 0) {                          // a pointer's click (a key's has detail 0)
      const target = /** @type {HTMLElement} */ (e.currentTarget);
      const now = happened(e), born = Number(target.dataset.born || -Infinity);
      const near = Math.hypot(taps.x - taps.lastX, taps.y - taps.lastY) < TAP_NEAR;
      const doubled = near && taps.drawn >= taps.last && now - taps.drawn < TAP_GAP;
      if (taps.down < born || doubled) return;
      taps.last = now; taps.lastX = taps.x; taps.lastY = taps.y;
    }
    fn(e);
  };
}

/** One game action at a time: a handler that takes time (a game's data decoding, a lock to wait for) ignores a
 * second call until the first has ended, and the buttons that could start another (`buttons()`, read at the start)
 * are disabled meanwhile. A double tap on Resume must not run Resume twice (a double tap on an action that ends at
 * once is `tap`'s to ignore: wrap its handler in both).
 * @param {() => Iterable<Element>} buttons @returns {<A extends unknown[]>(fn: (...args: A) => Promise<unknown>) => (...args: A) => Promise<void>} */
export function oneAtATime(buttons) {
  let running = false;
  return (fn) => async (...args) => {
    if (running) return;
    running = true;
    const locked = [...buttons()].map((b) => /** @type {HTMLButtonElement} */ (b)).filter((b) => !b.disabled);
    for (const b of locked) b.disabled = true;
    try { await fn(...args); } finally {
      running = false;
      for (const b of locked) b.disabled = false;
    }
  };
}
