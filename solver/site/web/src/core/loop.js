/* The game loop: whose turn, the turn's points, the live dice, a Go Nuts! round waiting for its acorns, a win
 * at the target. One state, stepped in place by one event at a time.
 * Twin: solver/game/loop.py (new_game, check, step, State.frame); fixture: tests/fixtures/records.json. */
import { fail } from "./errors.js";

/** @typedef {import("./types.js").State} State */
/** @typedef {import("./types.js").Context} Context */
/** @typedef {import("./types.js").Move} Move */
/** @typedef {"roll" | "choice" | "nuts" | "banked"} Kind */
/** @typedef {import("./types.js").Note} Note */

/** What each phase waits for, as a refusal says it. @type {Record<string, string>} */
const EXPECT = { start: "a roll or a banked turn", roll: "a roll", decide: "a choice", nuts: "the acorns of the Go Nuts! round" };
/** The phases in which each kind of event may come. @type {Record<Kind, string[]>} */
const ALLOWED = { roll: ["start", "roll"], choice: ["decide"], nuts: ["nuts"], banked: ["start"] };

/** Every score 0, seat 0 to open its first turn with all D dice. @param {number} N @param {number} D @returns {State} */
export function newGame(N, D) {
  return { scores: new Array(N).fill(0), seat: 0, t: 0, n: D, phase: "start", winner: null, last: null,
           bySeat: Array.from({ length: N }, () => []), nutsDice: null, events: 0 };
}

/** The scores in turn order from the player to move (State.frame). @param {State} st */
export function frame(st) {
  const N = st.scores.length, f = [];
  for (let k = 0; k < N; k++) f.push(st.scores[(st.seat + k) % N]);
  return f;
}

/** Refuse an event once the game is over. @param {State} st @param {number} G @param {string} where */
export function checkOver(st, G, where) {
  if (st.phase === "over") fail(`${where}: the game is already over (seat ${st.winner} reached ${G})`);
}

/** Refuse an event of this kind in this state, saying what comes next instead (loop.py check).
 * @param {State} st @param {Kind} kind @param {string} where */
export function check(st, kind, where) {
  if (ALLOWED[kind].includes(st.phase)) return;
  if (kind === "banked") fail(`${where}: a banked turn must replace a whole turn; expected ${EXPECT[st.phase]}`);
  const what = { roll: "a roll", choice: "a choice", nuts: "a Go Nuts! round" }[kind];
  fail(`${where}: expected ${EXPECT[st.phase]}, not ${what}`);
}

/** @param {State} st @param {Context} ctx @param {number} gain */
function endTurn(st, ctx, gain) {
  st.scores[st.seat] += gain;
  st.last = { seat: st.seat, gain };
  st.nutsDice = null;
  if (st.scores[st.seat] >= ctx.G) { st.winner = st.seat; st.phase = "over"; return; }
  st.seat = (st.seat + 1) % ctx.N; st.t = 0; st.n = ctx.D; st.phase = "start";
}

/**
 * The state after one event, in place (an event already checked: records.js apply). A roll's value is its
 * move in the rules' data; a choice is "roll" or "stop"; nuts is the round's acorns; banked the turn's points.
 * @param {State} st @param {Context} ctx @param {Kind} kind @param {any} value @returns {State}
 */
export function step(st, ctx, kind, value) {
  st.events++;
  if (kind === "banked") { endTurn(st, ctx, value); return st; }
  if (kind === "choice") { if (value === "stop") endTurn(st, ctx, st.t); else st.phase = "roll"; return st; }
  if (kind === "nuts") { endTurn(st, ctx, value + (ctx.reading.nutsReplaces ? 0 : st.t)); return st; }
  const m = /** @type {Move} */ (value);
  if (m.kind === "bust") endTurn(st, ctx, 0);
  else if (m.kind === "nuts") { st.phase = "nuts"; st.nutsDice = m.x; }
  else {
    st.t += m.x;
    st.n = m.live;
    if (st.scores[st.seat] + st.t >= ctx.G) endTurn(st, ctx, st.t);
    else st.phase = "decide";
  }
  return st;
}

/**
 * What a roll did that the rules decide (the page's own, no Python twin): all cars (the turn's points lost), one
 * die showing an acorn (all the dice back), a Go Nuts! round begun (the turn's points gone, or kept, by the
 * reading); null for anything else. @param {{seat: number, t: number, n: number}} was the state before the roll
 * @param {State} now after it @param {Context} ctx @param {number[]} roll [acorns, squirrels, cars] @returns {Note | null}
 */
export function noteOf(was, now, ctx, roll) {
  const seat = was.seat, t = was.t;
  if (now.phase === "nuts") return { kind: "nuts", seat, t, kept: !ctx.reading.nutsReplaces };
  if (now.phase === "over") return null;                             // a roll that reaches the target wins
  if (now.seat !== seat) return { kind: "cars", seat, t, kept: false };  // a roll ends a turn only by all cars
  if (now.phase === "decide" && now.n === ctx.D && was.n - roll[2] < ctx.D) return { kind: "refill", seat, t: now.t, kept: true };
  return null;
}

/** A copy of a state that can be stepped on without touching it. @param {State} st @returns {State} */
export function copy(st) {
  return { ...st, scores: st.scores.slice(), last: st.last && { ...st.last }, bySeat: st.bySeat.map((d) => d.slice()) };
}
