/* QR codes: drawn by qrcode-generator (as an SVG path: no inline style, no markup from text) and read from the
 * camera by the browser's BarcodeDetector where it has one, else by jsQR on the video's frames, in a worker of its
 * own (src/scanner.js: the page's script does not carry jsQR, and the page stays responsive while it reads). */
import qrcode from "qrcode-generator";
import { data } from "./context.js";
import { scriptUrl } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
/* Frames looked at per second while scanning: enough to feel instant, little work for a phone. */
const SCAN_MS = 150;

/** An SVG of the QR code for a text (level L: a handshake is short, and a screen is clean), with a quiet zone
 * of 4 modules. @param {string} text @param {string} label what it is, for a screen reader */
export function drawQr(text, label) {
  const q = qrcode(0, "L");
  q.addData(text, "Byte");
  q.make();
  const n = q.getModuleCount(), size = n + 8;
  let d = "";
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (q.isDark(r, c)) d += `M${c + 4} ${r + 4}h1v1h-1z`;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.setAttribute("shape-rendering", "crispEdges");
  svg.setAttribute("class", "qr");
  const bg = document.createElementNS(SVG, "rect");
  bg.setAttribute("width", String(size)); bg.setAttribute("height", String(size)); bg.setAttribute("fill", "#fff");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", d); path.setAttribute("fill", "#000");
  svg.append(bg, path);
  return svg;
}

/** @type {Promise<string> | null} the reader's blob address, made once for the page's life */
let readerUrl = null;
/** The reader's script (inside the single file, a file of the site) as a blob's address: a blob worker runs under
 * the page's own Content-Security-Policy (page/solving.js starts the solver's the same way). */
function readerScript() {
  if (!readerUrl) {
    readerUrl = scriptUrl(data.scanner);
    readerUrl.catch(() => { readerUrl = null; });
  }
  return readerUrl;
}
/** A reader of frames: `read(image)` resolves to the text of a code in it, or null. */
async function frameReader() {
  const worker = new Worker(await readerScript());
  let next = 0;
  /** @type {Map<number, (text: string | null) => void>} */
  const waiting = new Map();
  worker.onmessage = (e) => { const done = waiting.get(e.data.id); waiting.delete(e.data.id); if (done) done(e.data.text); };
  return {
    /** @param {ImageData} img @returns {Promise<string | null>} */
    read(img) {
      const id = ++next;
      return new Promise((done) => {
        waiting.set(id, done);
        worker.postMessage({ id, width: img.width, height: img.height, pixels: img.data.buffer }, [img.data.buffer]);
      });
    },
    stop() { worker.terminate(); for (const done of waiting.values()) done(null); waiting.clear(); },
  };
}

/** @typedef {{stop: () => void}} Scanning */
/** Scan QR codes with the camera into `video`; `found(text)` for each code read until stopped (it returns true
 * to stop). Rejects when there is no camera or it is not allowed.
 * @param {HTMLVideoElement} video @param {(text: string) => boolean} found @returns {Promise<Scanning>} */
export async function scan(video, found) {
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) throw new Error("no camera");
  const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
  video.srcObject = stream;
  video.muted = true;
  video.setAttribute("playsinline", "");
  await video.play().catch(() => { /* shown as it comes */ });
  /** @type {any} */
  const Detector = /** @type {any} */ (window).BarcodeDetector;
  /** @type {any} */
  let detector = null;
  try { if (Detector && (await Detector.getSupportedFormats()).includes("qr_code")) detector = new Detector({ formats: ["qr_code"] }); }
  catch (e) { detector = null; }
  const reader = detector ? null : await frameReader().catch(() => null);
  if (!detector && !reader) { for (const t of stream.getTracks()) t.stop(); video.srcObject = null; throw new Error("no reader"); }
  const canvas = document.createElement("canvas"), ctx = canvas.getContext("2d", { willReadFrequently: true });
  let on = true, timer = 0;
  const stop = () => {
    on = false; clearTimeout(timer); if (reader) reader.stop();
    for (const t of stream.getTracks()) t.stop();
    video.srcObject = null;
  };
  /** The text of a code in the current frame, if any. @returns {Promise<string | null>} */
  async function look() {
    if (video.readyState < 2 || !video.videoWidth) return null;
    if (detector) {
      const codes = await detector.detect(video);
      return codes.length ? String(codes[0].rawValue) : null;
    }
    if (!ctx || !reader) return null;
    canvas.width = video.videoWidth; canvas.height = video.videoHeight;
    ctx.drawImage(video, 0, 0);
    return reader.read(ctx.getImageData(0, 0, canvas.width, canvas.height));
  }
  const tick = async () => {
    if (!on) return;
    const text = await look().catch(() => null);
    if (on && text && found(text)) { stop(); return; }
    if (on) timer = window.setTimeout(tick, SCAN_MS);
  };
  tick();
  return { stop };
}
