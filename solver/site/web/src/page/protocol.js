/* What the phones at one table say to each other over their data channels (in frames: page/frames.js), and
 * how the table phone judges a guest's entry. The table phone keeps the one game; each guest is a player, known by name (Play again changes
 * seats, never names). A message is JSON text from another phone: hostile until checked here.
 *
 *   table -> guest  {kind: "game", name, record}    the whole game, after every change and on connecting
 *                   {kind: "stale"}                 the guest's entry came against an older state: not taken
 *   guest -> table  {kind: "entry", started, base, ev}   an entry of the guest's own turn, made against the
 *                                                  game started at `started` holding `base` entries
 *                   {kind: "hints", on}             the guest's own advice switch */
import { refuse } from "../core/errors.js";

export const MESSAGE_MAX = 4 << 20;     // characters: a record of the most entries is well under this

/** @typedef {import("../core/types.js").GameRecord} GameRecord */
/** @typedef {import("../core/types.js").GameEvent} GameEvent */
/** @typedef {import("../core/types.js").State} State */
/** @typedef {{kind: "game", name: string, record: GameRecord} | {kind: "stale"} |
 *   {kind: "entry", started: string, base: number, ev: GameEvent} | {kind: "hints", on: boolean}} Message */

/** @returns {never} */
const garbled = () => refuse("The other phone sent something this page does not understand.");
/** @param {unknown} x @returns {x is Record<string, unknown>} */
const isObject = (x) => x !== null && typeof x === "object" && !Array.isArray(x);

/** A message from another phone, after its shape's checks (a record's own checks are the record's: replay it).
 * @param {unknown} text @param {"table" | "guest"} from who is said to have sent it @returns {Message} */
export function read(text, from) {
  if (typeof text !== "string" || text.length > MESSAGE_MAX) garbled();
  /** @type {unknown} */
  let m;
  try { m = JSON.parse(text); } catch (e) { garbled(); }
  if (!isObject(m)) garbled();
  if (from === "table" && m.kind === "game" && typeof m.name === "string" && isObject(m.record)) return /** @type {Message} */ (m);
  if (from === "table" && m.kind === "stale") return { kind: "stale" };
  if (from === "guest" && m.kind === "entry" && typeof m.started === "string" && Number.isSafeInteger(m.base) && isObject(m.ev)) {
    return /** @type {Message} */ (m);
  }
  if (from === "guest" && m.kind === "hints" && typeof m.on === "boolean") return { kind: "hints", on: m.on };
  return garbled();
}

/** The seat a name plays in a game, or -1. @param {{names?: unknown}} record @param {string} name */
export const seatOf = (record, name) => (Array.isArray(record.names) ? record.names.indexOf(name) : -1);

/** Whether the table phone takes a guest's entry: the same game, no entry since the guest's state, the guest's
 * own turn, the entry for their own seat. Whether the rules allow it is the game's to say (an entry the rules
 * refuse is refused as on the table phone itself).
 * @param {GameRecord & {started?: string}} record @param {State} st @param {string} name
 * @param {{started: string, base: number, ev: GameEvent}} entry */
export function current(record, st, name, entry) {
  const seat = seatOf(record, name);
  return seat >= 0 && entry.started === record.started && entry.base === record.events.length && st.phase !== "over"
    && st.seat === seat && entry.ev.seat === seat;
}
