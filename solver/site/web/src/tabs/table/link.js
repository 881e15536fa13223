/* The table game on every player's own phone: the table phone keeps the one game and shows a QR code per seat;
 * a guest scans it, shows its own code back, and from then on sees the game live and enters its own turns.
 * Over WebRTC data channels (page/peer.js), nothing in between; the messages and the table phone's judgement
 * of an entry are page/protocol.js.
 *
 * Roles: "alone" (the single-phone table, as ever), "table" (the same, with guests connected), "guest" (this
 * phone's table game is a copy of another phone's, kept whole in storage: a guest whose table phone is lost goes
 * on as the new table phone, or comes back by scanning again). Guests are known by name: Play again moves
 * seats, never names. */
import { $, el, show, showError } from "../../page/dom.js";
import { t, onLanguage } from "../../page/i18n.js";
import { store, raw } from "../../page/storage.js";
import { say, sayEntry } from "../../page/gametab.js";
import { core } from "../../page/context.js";
import { offer, answer, opened } from "../../page/peer.js";
import { drawQr, scan } from "../../page/qr.js";
import { read, seatOf, current, MESSAGE_MAX } from "../../page/protocol.js";
import { frames, joiner } from "../../page/frames.js";
import { GonutsInputError } from "../../core/errors.js";
import { TABLE_KEY } from "./recent.js";

/** @typedef {import("../../core/types.js").GameRecord} GameRecord */
/** @typedef {import("../../core/types.js").GameEvent} GameEvent */
/** @typedef {import("../../core/types.js").State} State */
/** @typedef {GameRecord & {names: string[], hints: boolean[], started?: string}} TableRecord */
/** @typedef {import("../../page/peer.js").Peer} Peer */
/** @typedef {{record: () => TableRecord | null, state: () => State | null, push: (ev: GameEvent) => boolean,
 *   hints: (seat: number, on: boolean) => void, adopt: (record: unknown) => Promise<void>, draw: () => void}} Hooks */

/* The guest's mark on its copy: whose seat this phone plays, in which game (a copy of a game started elsewhere). */
const JOINED_KEY = `${TABLE_KEY}.joined`;
/* The refusal of a message that is not ours (page/protocol.js). */
const GARBLED = "The other phone sent something this page does not understand.";
/* An entry sent and not yet answered by the table phone: said after this long. */
const ANSWER_MS = 5000;
/* The players' codes this table phone has taken already: each answered a code shown before, so it can never
 * connect again (scanning one waited in silence until the connection gave up). @type {Set<string>} */
const usedAnswers = new Set();

/* A browser with no WebRTC (WebKitGTK; an old or locked-down browser) cannot pair: both boxes say so at once and
 * offer nothing that would only fail later; the Table on one phone plays as ever. */
const CAN_PAIR = typeof RTCPeerConnection === "function";

/** @type {Hooks} */
let hooks;
const me = {
  /** @type {"alone" | "table" | "guest"} */ role: "alone",
  /** the guest's player */ name: "",
  /** the guest's channel to the table phone */ /** @type {Peer | null} */ peer: null,
  /** the guest's entry waiting for an answer: the game's length it was made at, and the entry as text */
  /** @type {{base: number, ev: string} | null} */ pending: null,
  pendingTimer: 0,
  /** the table phone's guests, by name */ /** @type {Map<string, {peer: Peer, sent: string}>} */ guests: new Map(),
  /** the pairing on screen (table phone) */ /** @type {{name: string, peer: import("../../page/peer.js").Offered} | null} */ pairing: null,
  /** the camera, while it scans */ /** @type {{stop: () => void} | null} */ camera: null,
  /** the guest's channel whose code is on screen, until its first game arrives */ /** @type {Peer | null} */ showing: null,
};

/** This phone's part: "alone", "table" or "guest". */
export const role = () => me.role;
/** Whether a guest's link to the table phone is open. */
export const linkOpen = () => connected(me.peer);
/** The seat this phone's player has in the game on screen, when this phone is a guest; else -1. @param {TableRecord} r */
export const guestSeat = (r) => (me.role === "guest" ? seatOf(r, me.name) : -1);
/** Whether this phone may not enter now: a guest, unless connected, on its own turn, with no entry in flight.
 * @param {TableRecord} r @param {State} st */
export const readOnly = (r, st) => me.role === "guest" &&
  (!connected(me.peer) || me.pending !== null || st.phase === "over" || st.seat !== seatOf(r, me.name));
/* A phone out of range is "disconnected" within seconds (ICE consent checks go unanswered) while its channel is
 * still open: it counts as gone until it answers again. */
const GONE = ["disconnected", "failed", "closed"];
/** @param {Peer | null} p */
const connected = (p) => !!p && p.channel.readyState === "open" && !GONE.includes(p.pc.connectionState);
/** @param {Peer} p @param {unknown} m */
function send(p, m) {
  if (p.channel.readyState !== "open") return;
  try { for (const f of frames(JSON.stringify(m))) p.channel.send(f); }
  catch (e) { /* a channel closing as it is used: its close is drawn */ }
}
/** Each whole message arriving on a channel, in order. @param {Peer} p @param {(text: string) => void} fn */
function onMessage(p, fn) {
  const join = joiner(MESSAGE_MAX);
  p.channel.addEventListener("message", (e) => { const text = join.take(e.data); if (text !== null) fn(text); });
}

function stopCamera() { if (me.camera) { me.camera.stop(); me.camera = null; } }
/** Scan with the camera into a video until a code is read; an unreadable or refused camera is said in `box`.
 * @param {string} video @param {string} box @param {(code: string) => void} took */
async function scanInto(video, box, took) {
  stopCamera();
  const v = /** @type {HTMLVideoElement} */ (/** @type {unknown} */ ($(video)));
  show(v, true);
  try {
    me.camera = await scan(v, (text) => { if (!text.startsWith("GN1")) return false; show(v, false); me.camera = null; took(text); return true; });
  } catch (e) {
    show(v, false);
    showError($(box), t("No camera here (or it is not allowed): type or paste the code instead."));
  }
}
/** A refusal or a failure in words. @param {unknown} e */
const why = (e) => (e instanceof GonutsInputError ? say(e) : t("The phones could not connect: both must be on one Wi-Fi network (a guest network may keep phones apart) or on one phone's hotspot. The game goes on on the table phone."));

/* ---- the table phone ---- */

/** Send the game to every guest whose copy is not this one. */
function share() {
  const r = hooks.record();
  if (!r || !me.guests.size) return;
  const text = JSON.stringify(r);
  for (const [name, g] of me.guests) {
    if (g.sent === text || !connected(g.peer)) continue;
    g.sent = text;
    send(g.peer, { kind: "game", name, record: r });
  }
}
/** A guest's message, judged. @param {string} name @param {unknown} data */
function fromGuest(name, data) {
  const g = me.guests.get(name), r = hooks.record(), st = hooks.state();
  if (!g || !r || !st) return;
  let m;
  try { m = read(data, "guest"); } catch (e) { return; }          // a phone that says nonsense is not answered
  if (m.kind === "hints") { const seat = seatOf(r, name); if (seat >= 0) hooks.hints(seat, m.on); }
  else if (m.kind === "entry") {
    if (!current(r, st, name, m) || !hooks.push(m.ev)) { send(g.peer, { kind: "stale" }); g.sent = ""; }
  }
  share();
}
/** Show a code for one player's phone, and wait for theirs. @param {string} name */
async function pair(name) {
  unpair();
  showError($("table-link-error"), "");
  let peer;
  try { peer = await offer(); } catch (e) { showError($("table-link-error"), why(e)); return; }
  me.pairing = { name, peer };
  $("table-link-title").textContent = t("{name}: open this page on your phone, tap Join a table and scan this code.", { name });
  $("table-link-qr").replaceChildren(drawQr(peer.code, t("The code for {name}'s phone", { name })));
  $("table-link-code").textContent = peer.code;
  $("table-link-answer").value = "";
  show($("table-link-pair"), true);
  $("table-link-pair").scrollIntoView({ block: "start" });        // the line and the code in sight, under the tab bar
  peer.channel.addEventListener("open", () => {
    const old = me.guests.get(name);
    if (old && old.peer !== peer) old.peer.pc.close();
    me.guests.set(name, { peer, sent: "" });
    me.role = "table";
    if (me.pairing && me.pairing.peer === peer) { me.pairing = null; stopCamera(); show($("table-link-pair"), false); }
    share();
    drawLink();
  });
  onMessage(peer, (text) => fromGuest(name, text));
  peer.channel.addEventListener("close", () => drawLink());
  peer.pc.addEventListener("connectionstatechange", () => drawLink());
}
/** The player's code, typed, pasted or scanned. @param {string} code */
async function took(code) {
  const p = me.pairing;
  if (!p) return;
  showError($("table-link-error"), "");
  if (usedAnswers.has(code)) {
    showError($("table-link-error"), t("That code was used already: on the player's phone, scan this code again for a new one."));
    return;
  }
  usedAnswers.add(code);
  try { await p.peer.accept(code); await opened(p.peer); }
  catch (e) { if (me.pairing === p) { showError($("table-link-error"), why(e)); } }
}
function unpair() {
  stopCamera();
  if (me.pairing && !connected(me.pairing.peer)) me.pairing.peer.pc.close();
  me.pairing = null;
  show($("table-link-pair"), false);
}
/** Who is on their own phone, seat by seat. */
function drawLink() {
  const r = hooks.record();
  show($("table-link"), !!r && me.role !== "guest");
  show($("table-join"), me.role !== "table");            // a phone keeping a shared game joins no other
  if (!r || me.role === "guest") return;
  $("table-link-seats").replaceChildren(...r.names.map((name, i) => {
    const g = me.guests.get(name), on = !!g && connected(g.peer);
    const b = el("button", { type: "button", id: `table-link-seat-${i}` }, on ? t("New code") : t("Show a code"));
    b.addEventListener("click", () => pair(name));
    return el("li", { "data-on": String(on) }, el("bdi", { text: name }), `: ${on ? t("on their own phone") : t("on this phone")} `, b);
  }));
}

/* ---- a guest ---- */

/** The table phone's code, typed, pasted or scanned: the answer shown, then the game. @param {string} code */
async function join(code) {
  showError($("join-error"), "");
  let peer;
  try { peer = await answer(code); } catch (e) { showError($("join-error"), why(e)); return; }
  if (me.peer) me.peer.pc.close();
  me.peer = peer;
  me.showing = peer;
  $("join-qr").replaceChildren(drawQr(peer.code, t("This phone's code, for the table phone")));
  $("join-code").textContent = peer.code;
  show($("join-answer"), true);
  $("join-answer").scrollIntoView({ block: "start" });
  /** @type {Promise<void>} one message at a time, in order */
  let queue = Promise.resolve();
  onMessage(peer, (text) => { queue = queue.then(() => fromTable(peer, text)); });
  peer.channel.addEventListener("close", () => { if (me.peer === peer) { drawJoined(); hooks.draw(); } });
  peer.pc.addEventListener("connectionstatechange", () => { if (me.peer === peer) { drawJoined(); hooks.draw(); } });
}
/** The table phone's message. @param {Peer} peer @param {unknown} data */
async function fromTable(peer, data) {
  if (me.peer !== peer) return;
  let m;
  try { m = read(data, "table"); } catch (e) { return; }
  if (m.kind === "stale") {
    if (me.pending === null) return;          // no entry of ours is waiting: nothing to say
    settled();
    showError($("table-error"), t("Another entry came first: yours was not taken. The game is as shown."));
    hooks.draw();
    return;
  }
  if (m.kind !== "game") return;
  try {
    if (seatOf(m.record, m.name) < 0) read("", "table");          // a game this phone's player is not in
    await hooks.adopt(m.record);
  }
  catch (e) {
    if (!(e instanceof GonutsInputError)) throw e;
    showError($("join-error"), e.key === GARBLED ? say(e) : t("The table phone's game cannot be shown here: {why}", { why: say(e) }));
    return;
  }
  const r = /** @type {TableRecord} */ (hooks.record());
  me.role = "guest"; me.name = m.name;
  if (me.showing === peer) {                 // connected: its code is used, and never shown again
    me.showing = null;
    show($("join-answer"), false);
    $("join-qr").replaceChildren();
    $("join-code").textContent = "";
    $("table-join").open = false;
  }
  store.set(JOINED_KEY, { name: m.name, started: r.started });
  // the answer to an entry waiting: the game holding it; another entry first is answered by "stale", which follows
  const p = me.pending;
  if (p && r.events.length > p.base && JSON.stringify(r.events[p.base]) === p.ev) settled();
  drawJoined();
  hooks.draw();
}
function settled() { me.pending = null; clearTimeout(me.pendingTimer); }
/** A guest's entry on its own turn: checked by the rules here (a refusal said as on one phone), decided by the
 * table phone. Returns whether it was sent.
 * @param {GameEvent} ev @param {State} st @param {import("../../core/types.js").Context} ctx */
export function enter(ev, st, ctx) {
  const r = hooks.record();
  if (!r || !me.peer || me.pending !== null) return false;
  try { core.apply(core.copy(st), ev, r.events.length, ctx); }
  catch (e) { showError($("table-error"), sayEntry(e)); return false; }
  showError($("table-error"), "");
  me.pending = { base: r.events.length, ev: JSON.stringify(ev) };
  send(me.peer, { kind: "entry", started: r.started, base: r.events.length, ev });
  me.pendingTimer = window.setTimeout(() => {
    me.pending = null;
    showError($("table-error"), t("The table phone did not answer: enter it again, or on the table phone."));
    hooks.draw();
  }, ANSWER_MS);
  hooks.draw();
  return true;
}
/** A guest's own advice switch, kept in the table phone's game. @param {boolean} on */
export function askHints(on) { if (me.peer) send(me.peer, { kind: "hints", on }); }
/** This phone's game is its own again (a new game, a resumed one, or the table phone lost): the link ends. */
export function leave() {
  if (me.role === "guest") {
    if (me.peer) me.peer.pc.close();
    me.peer = null; settled();
    try { localStorage.removeItem(JOINED_KEY); } catch (e) { /* nothing kept */ }
  }
  me.role = me.guests.size ? "table" : "alone"; me.name = "";
  drawJoined();
  drawLink();
}
/** The guest's line: whose phone this is and whether the table phone is there. */
function drawJoined() {
  const box = $("table-joined"), guest = me.role === "guest";
  show(box, guest);
  if (!guest) return;
  const on = connected(me.peer);
  box.classList.toggle("kept", !on);          // a lost link is said as a kept game is; a live one quietly
  box.classList.toggle("linked", on);
  $("table-joined-text").textContent = on ? t("{name}'s phone: connected to the table phone.", { name: me.name })
    : t("{name}'s phone: not connected to the table phone. Scan its code again to come back, or go on here.", { name: me.name });
  show($("table-joined-rejoin"), !on);
  show($("table-joined-keep"), !on);
}

/** After every draw of the table: the guests get the new game, and the seats' lines are drawn. */
export function drawn() { if (me.role === "table") share(); drawLink(); drawJoined(); }

/** Start: the buttons, and a guest's copy restored as a guest's (not connected until it scans again).
 * @param {Hooks} h */
export function startLink(h) {
  hooks = h;
  // said once, at start: a phone with no game yet (a guest about to join) sees it too
  for (const id of ["table-link-none", "join-none"]) show($(id), !CAN_PAIR);
  for (const id of ["table-link-seats", "join-actions", "join-form"]) show($(id), CAN_PAIR);
  $("table-link-scan").addEventListener("click", () => scanInto("table-link-video", "table-link-error", took));
  $("table-link-form").addEventListener("submit", (e) => { e.preventDefault(); took($("table-link-answer").value.trim()); });
  $("table-link-cancel").addEventListener("click", unpair);
  $("join-scan").addEventListener("click", () => scanInto("join-video", "join-error", join));
  $("join-form").addEventListener("submit", (e) => { e.preventDefault(); join($("join-paste").value.trim()); });
  $("table-joined-rejoin").addEventListener("click", () => { $("table-join").open = true; $("table-join").scrollIntoView(); scanInto("join-video", "join-error", join); });
  $("table-joined-keep").addEventListener("click", () => { leave(); hooks.draw(); });
  for (const id of ["table-link-copy", "join-copy"]) {
    $(id).addEventListener("click", () => {
      const text = $(id === "join-copy" ? "join-code" : "table-link-code").textContent || "";
      navigator.clipboard.writeText(text).catch(() => { /* selectable as it is */ });
    });
  }
  onLanguage(() => { drawLink(); drawJoined(); });
  // a page that goes away (reload, closed tab) says so at once: the other phones need not wait for silence
  window.addEventListener("pagehide", () => {
    if (me.peer) me.peer.pc.close();
    for (const g of me.guests.values()) g.peer.pc.close();
  });
}
/** After the table game is restored at start: a guest's copy is a guest's again (not connected until it scans). */
export function restoreRole() {
  try {
    const j = JSON.parse(raw(JOINED_KEY) || "null"), r = hooks.record();
    if (j && r && typeof j.name === "string" && j.started === r.started && seatOf(r, j.name) >= 0) { me.role = "guest"; me.name = j.name; }
  } catch (e) { /* not a guest */ }
}
