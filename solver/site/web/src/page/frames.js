/* Messages between phones in frames a data channel always carries: Chromium takes at most 256 kB per message
 * (its `max-message-size`), and a long game's record is larger. A frame is "+" and a piece of a message, or "="
 * and its last piece; the other side joins them. Anything else is not ours, and a message longer than `most`
 * characters is dropped whole: another phone is hostile until checked (page/protocol.js reads what arrives). */

/* Characters per frame: at most 3 bytes each in UTF-8, so a frame is at most 48 kB, under every browser's limit
 * (64 kB where a description names none). */
export const FRAME = 16384;

/** The frames of one message. @param {string} text @returns {string[]} */
export function frames(text) {
  const pieces = [];
  for (let i = 0; i === 0 || i < text.length; i += FRAME) pieces.push(text.slice(i, i + FRAME));
  return pieces.map((p, k) => (k < pieces.length - 1 ? "+" : "=") + p);
}

/** A joiner: `take(frame)` returns a whole message when its last frame arrives, else null. A frame that is not
 * text or not ours drops what came before it; a message over `most` characters is dropped whole.
 * @param {number} most @returns {{take: (frame: unknown) => string | null}} */
export function joiner(most) {
  /** @type {string[]} */
  let parts = [];
  let size = 0, over = false;
  const reset = () => { parts = []; size = 0; over = false; };
  return {
    take(frame) {
      if (typeof frame !== "string" || (frame[0] !== "+" && frame[0] !== "=")) { reset(); return null; }
      size += frame.length - 1;
      if (size > most) { over = true; parts = []; }
      if (!over) parts.push(frame.slice(1));
      if (frame[0] === "+") return null;
      const whole = over ? null : parts.join("");
      reset();
      return whole;
    },
  };
}
