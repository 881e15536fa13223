/* A WebRTC handshake in a QR code: a data channel's offer or answer packed to what the other phone needs (ICE
 * user fragment and password, the DTLS fingerprint, the setup role, the host candidates) and rebuilt as a
 * session description a browser accepts. No server carries it: one phone shows it, the other scans it.
 *
 * A code: "GN1" + kind ("O" an offer, "A" an answer that is DTLS client, "P" one that is DTLS server), then
 * "~"-separated: ufrag, pwd, the SHA-256 fingerprint in base64url (43 characters), and each UDP host candidate as
 * "address_port". ICE characters are [A-Za-z0-9+/]; base64url adds "-" and "_"; "~" is in none. An address is
 * an IPv4 or IPv6 literal, or a browser's mDNS name (a UUID + ".local"). Anything else is refused: a code comes
 * from another phone, and is hostile until checked: whatever is wrong with it, the player is told the one thing
 * they can act on (it is not a code from this page). Candidates are optional: a phone that carries none is reached
 * at the address its checks come from (a peer-reflexive candidate). */
import { refuse } from "../core/errors.js";

/** @returns {never} */
const notOurs = () => refuse("That is not a code from this page.");

export const CODE_MAX = 400;           // far above a real code (about 95 characters), far below what a QR can hold
const KINDS = /** @type {Record<string, {type: "offer" | "answer", setup: string}>} */ ({
  O: { type: "offer", setup: "actpass" }, A: { type: "answer", setup: "active" }, P: { type: "answer", setup: "passive" },
});
const ICE = /^[A-Za-z0-9+/]+$/;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const IPV6 = /^[0-9a-fA-F:.]{2,45}$/;
const MDNS = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\.local$/;
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** @typedef {{type: "offer" | "answer", ufrag: string, pwd: string, fingerprint: string, setup: string,
 *   candidates: {address: string, port: number}[]}} Handshake what a code carries; fingerprint as "AB:CD:..." */

/** 32 bytes as "AB:CD:..." from base64url, or from it. @param {string} text */
function fromBase64(text) {
  if (!/^[A-Za-z0-9_-]{43}$/.test(text)) notOurs();
  let bits = 0, n = 0;
  const bytes = [];
  for (const ch of text) {
    bits = (bits << 6) | B64.indexOf(ch); n += 6;
    if (n >= 8) { n -= 8; bytes.push((bits >> n) & 255); }
  }
  return bytes.slice(0, 32).map((b) => b.toString(16).toUpperCase().padStart(2, "0")).join(":");
}
/** @param {string} hex "AB:CD:..." (32 bytes) */
function toBase64(hex) {
  const bytes = hex.split(":").map((h) => parseInt(h, 16));
  let out = "", bits = 0, n = 0;
  for (const b of bytes) {
    bits = ((bits & 0xffff) << 8) | b; n += 8;
    while (n >= 6) { n -= 6; out += B64[(bits >> n) & 63]; }
  }
  if (n > 0) out += B64[(bits << (6 - n)) & 63];
  return out;
}
/** Whether an address is one a code may carry. @param {string} a */
const addressOk = (a) => IPV4.test(a) || MDNS.test(a) || (a.includes(":") && IPV6.test(a));

/** What a local description says, from its SDP (a browser's own: only the data channel's section is read).
 * @param {string} type @param {string} sdp @returns {Handshake} */
export function parse(type, sdp) {
  /** @param {string} name */
  const line = (name) => { const m = sdp.match(new RegExp(`^a=${name}:(.*?)\\r?$`, "m")); return m ? m[1].trim() : ""; };
  const fp = line("fingerprint").split(" ");
  if (fp[0].toLowerCase() !== "sha-256" || !/^([0-9A-Fa-f]{2}:){31}[0-9A-Fa-f]{2}$/.test(fp[1] || "")) refuse("This browser cannot make a code for its connection.");
  const candidates = [];
  for (const m of sdp.matchAll(/^a=candidate:\S+ 1 udp \d+ (\S+) (\d+) typ host\b.*$/gim)) {
    if (addressOk(m[1])) candidates.push({ address: m[1], port: Number(m[2]) });
  }
  return { type: type === "offer" ? "offer" : "answer", ufrag: line("ice-ufrag"), pwd: line("ice-pwd"), fingerprint: fp[1].toUpperCase(),
           setup: line("setup") || (type === "offer" ? "actpass" : "active"), candidates };
}

/** The code for a handshake; `most` candidates at most (IPv4 first: the likeliest to be reached on one Wi-Fi).
 * @param {Handshake} h @param {number} [most] */
export function pack(h, most = 1) {
  const kind = Object.keys(KINDS).find((k) => KINDS[k].type === h.type && KINDS[k].setup === h.setup);
  if (!kind) refuse("This browser cannot make a code for its connection.");
  const order = [...h.candidates].sort((a, b) => Number(!IPV4.test(a.address)) - Number(!IPV4.test(b.address)));
  const cands = order.slice(0, most).map((c) => `${c.address}_${c.port}`);
  return ["GN1" + kind, h.ufrag, h.pwd, toBase64(h.fingerprint), ...cands].join("~");
}

/** The handshake with only the addresses another phone can reach without resolving a name: IP literals, not a
 * browser's mDNS names (multicast is filtered on many guest and mesh networks). A guest's answer carries its own so:
 * its browser shows it once the camera has scanned, and the pairing then needs nothing of the table phone's
 * address. @param {Handshake} h @returns {Handshake} */
export const literal = (h) => ({ ...h, candidates: h.candidates.filter((c) => !MDNS.test(c.address)) });

/** A code's handshake, after every check. @param {unknown} code @returns {Handshake} */
export function unpack(code) {
  if (typeof code !== "string") notOurs();
  const text = code.trim();
  if (text.length > CODE_MAX) notOurs();
  const parts = text.split("~");
  const kind = KINDS[parts[0].slice(3)];
  if (!parts[0].startsWith("GN1") || parts[0].length !== 4 || !kind) notOurs();
  if (parts.length < 4) notOurs();
  const [, ufrag, pwd, fp, ...cands] = parts;
  if (!ICE.test(ufrag) || ufrag.length < 4 || ufrag.length > 256) notOurs();
  if (!ICE.test(pwd) || pwd.length < 22 || pwd.length > 256) notOurs();
  const candidates = cands.map((c) => {
    const cut = c.lastIndexOf("_"), address = c.slice(0, cut), port = Number(c.slice(cut + 1));
    if (cut < 0 || !addressOk(address) || !/^\d{1,5}$/.test(c.slice(cut + 1)) || port < 1 || port > 65535) notOurs();
    return { address, port };
  });
  if (candidates.length > 8) notOurs();
  return { type: kind.type, ufrag, pwd, fingerprint: fromBase64(fp), setup: kind.setup, candidates };
}

/** The session description a browser accepts for a handshake: one data channel (SCTP over DTLS over ICE).
 * @param {Handshake} h */
export function build(h) {
  const lines = ["v=0", "o=- 0 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0", "a=msid-semantic: WMS",
    "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0",
    ...h.candidates.map((c, i) => `a=candidate:${i + 1} 1 udp ${2122260223 - i * 256} ${c.address} ${c.port} typ host`),
    `a=ice-ufrag:${h.ufrag}`, `a=ice-pwd:${h.pwd}`, `a=fingerprint:sha-256 ${h.fingerprint}`, `a=setup:${h.setup}`, "a=mid:0",
    "a=sctp-port:5000", "a=max-message-size:262144"];
  return lines.join("\r\n") + "\r\n";
}
