/* One data channel to another phone at the table, its handshake carried by codes (page/sdp.js) that one phone
 * shows as a QR and the other scans: no STUN, no TURN, no signalling server. Both phones must reach each other
 * directly (one Wi-Fi network, or one phone's hotspot); the channel is DTLS-encrypted end to end. */
import * as sdp from "./sdp.js";
import { refuse } from "../core/errors.js";

/* No ICE servers at all: a phone offers its own addresses (host candidates) only. */
const CONFIG = { iceServers: [] };
/* Host candidates come in milliseconds; a phone with a stuck interface must not hold the code back for long. */
const GATHER_MS = 3000;
/* From both codes exchanged to an open channel: a network that isolates its devices never gets there. */
export const CONNECT_MS = 20000;

/** @typedef {{pc: RTCPeerConnection, channel: RTCDataChannel, code: string}} Peer */
/** @typedef {Peer & {accept: (code: string) => Promise<void>}} Offered */

/** Resolves when the connection has gathered its own addresses (or after GATHER_MS). @param {RTCPeerConnection} pc */
function gathered(pc) {
  return new Promise((done) => {
    if (pc.iceGatheringState === "complete") { done(undefined); return; }
    const timer = setTimeout(done, GATHER_MS);
    pc.addEventListener("icegatheringstatechange", () => { if (pc.iceGatheringState === "complete") { clearTimeout(timer); done(undefined); } });
  });
}
/** A connection and its one channel (negotiated: both sides make it, nothing more to exchange). */
function connection() {
  if (typeof RTCPeerConnection !== "function") refuse("This browser cannot connect phones (it has no WebRTC).");
  const pc = new RTCPeerConnection(CONFIG);
  return { pc, channel: pc.createDataChannel("gonuts", { negotiated: true, id: 0, ordered: true }) };
}

/** The table phone's side: an offer and its code; `accept(code)` takes the guest's answer.
 * @returns {Promise<Offered>} */
export async function offer() {
  const { pc, channel } = connection();
  await pc.setLocalDescription(await pc.createOffer());
  await gathered(pc);
  const h = sdp.parse("offer", /** @type {RTCSessionDescription} */ (pc.localDescription).sdp);
  if (!h.candidates.length) { pc.close(); refuse("This phone has no network to share: join a Wi-Fi network or a phone's hotspot."); }
  return {
    pc, channel, code: sdp.pack(h),
    async accept(code) {
      const a = sdp.unpack(code);
      if (a.type !== "answer") refuse("That is a table phone's code: scan the code on the player's phone.");
      await pc.setRemoteDescription({ type: "answer", sdp: sdp.build(a) });
    },
  };
}

/** A guest's side: the answer to a table phone's code. The answer carries the guest's own address where it is an
 * IP (its browser shows it once the camera has been used), so that the table phone can reach the guest even where
 * the guest cannot resolve the table phone's mDNS name; otherwise none, and the table phone learns it from the
 * guest's first check. @param {string} code @returns {Promise<Peer>} */
export async function answer(code) {
  const o = sdp.unpack(code);
  if (o.type !== "offer") refuse("That is a player's code: scan the code on the table phone.");
  const { pc, channel } = connection();
  await pc.setRemoteDescription({ type: "offer", sdp: sdp.build(o) });
  await pc.setLocalDescription(await pc.createAnswer());
  await gathered(pc);
  const h = sdp.parse("answer", /** @type {RTCSessionDescription} */ (pc.localDescription).sdp);
  return { pc, channel, code: sdp.pack(sdp.literal(h), 1) };
}

/** Resolves when the channel opens; rejects when the connection fails or CONNECT_MS pass first.
 * @param {Peer} peer @param {number} [ms] */
export function opened(peer, ms = CONNECT_MS) {
  return new Promise((done, failed) => {
    if (peer.channel.readyState === "open") { done(undefined); return; }
    const timer = setTimeout(() => failed(new Error("timeout")), ms);
    peer.channel.addEventListener("open", () => { clearTimeout(timer); done(undefined); });
    peer.pc.addEventListener("connectionstatechange", () => {
      if (peer.pc.connectionState === "failed") { clearTimeout(timer); failed(new Error("failed")); }
    });
  });
}
