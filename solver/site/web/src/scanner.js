/* The QR reader's worker: jsQR on one camera frame at a time, off the page's main thread. The page (page/qr.js)
 * sends {id, width, height, pixels} (RGBA, transferred) and gets {id, text} (null when no code is seen).
 * Bundled on its own (npm run build: solver/site/web/scanner.js): jsQR is most of its size and only a phone
 * that scans without the browser's BarcodeDetector needs it, so the page's own script does not carry it; the
 * single file carries its text and starts it from a blob, the site serves it as a file, fetched on first use. */
import jsQR from "jsqr";

self.onmessage = (/** @type {MessageEvent} */ e) => {
  const { id, width, height, pixels } = e.data;
  /** @type {string | null} */
  let text;
  try {
    const code = jsQR(new Uint8ClampedArray(pixels), width, height, { inversionAttempts: "dontInvert" });
    text = code ? code.data : null;
  } catch (err) { text = null; }              // a frame that is not an image of its size: nothing seen
  self.postMessage({ id, text });
};
