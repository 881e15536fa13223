/* The screen kept on while a game wants it (Screen Wake Lock). The browser releases the lock when the page is
 * hidden; it is taken again when the page shows. Where the lock is refused (battery saver, a frame), the screen
 * may dim, and nothing else happens. */

/** Keep the screen on while `wanted()` and the page is visible; returns the check to run when `wanted` may have
 * changed. @param {() => boolean} wanted */
export function wakeWhile(wanted) {
  /** @type {WakeLockSentinel | null} */
  let wake = null;
  const want = () => wanted() && document.visibilityState === "visible";
  async function check() {
    if (!("wakeLock" in navigator)) return;
    try {
      if (want() && !wake) {
        wake = await navigator.wakeLock.request("screen");
        wake.addEventListener("release", () => { wake = null; });
      } else if (!want() && wake) {
        const held = wake;
        wake = null;
        await held.release();
      }
    } catch (e) { wake = null; }
  }
  document.addEventListener("visibilitychange", check);
  return check;
}
