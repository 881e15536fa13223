/* gonuts UI, one writer per saved game: a game kept in this browser (play, coach, table) is owned by one tab,
 * which holds a Web Lock named by the game's key while it lives; any other tab shows the game read-only
 * and follows it live (storage events) until it asks to take it over: the owner is told on a
 * BroadcastChannel, lets go and follows in turn. Never two writers. */
/** view: follow(on) draws the game read-only (on) or writable; reload(text) takes the owner's newer copy.
 * Returns take(wait): claim the game (wait: ask the owner to let go, and wait for it), and following().
 * @param {string} key @param {{follow: (on: boolean) => void, reload: (text: string) => void}} view */
export function owner(key, view) {
  /** @type {{release: ((v?: unknown) => void) | null, following: boolean}} */
  const me = { release: null, following: false };
  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(`gonuts@${key}`) : null;
  /** @param {boolean} wait @returns {Promise<boolean>} */
  function claim(wait) {
    return new Promise((got) => {
      if (!navigator.locks) { got(true); return; }          // no locks (an old browser): every tab writes
      navigator.locks.request(key, wait ? {} : { ifAvailable: true }, (lock) => {
        got(!!lock);
        return lock ? new Promise((resolve) => { me.release = resolve; }) : null;
      }).catch(() => got(true));
    });
  }
  /** @param {boolean} on */
  function follow(on) { me.following = on; view.follow(on); }
  /** @param {boolean} wait */
  async function take(wait) {
    if (me.release) return;
    if (wait && channel) channel.postMessage("release");
    follow(!(await claim(wait)));
  }
  if (channel) {
    channel.onmessage = (e) => {
      if (e.data === "release" && me.release) { me.release(); me.release = null; follow(true); }
    };
  }
  window.addEventListener("storage", (e) => {
    if (e.key === key && e.newValue !== null && me.following) view.reload(e.newValue);
  });
  return { take, following: () => me.following };
}
