/* The core's types, for tsc (checkJs, strict): the shapes that cross modules. No code. */

/** @typedef {"bust" | "nuts" | "move"} MoveKind */
/**
 * One roll of n live dice as the rules' data lists it (solver/game/moves.py roll_table): its faces, its
 * probability, and what it does: bust, a Go Nuts! round with x dice, or x acorns and `live` dice after it.
 * @typedef {{a: number, s: number, c: number, p: number, kind: MoveKind, x: number, live: number}} Move
 */
/**
 * A reading of the rules (rulebook or summary): its rolls by live dice, by faces, and how a Go Nuts! round counts.
 * @typedef {{name: string, rules: any, dice: number, moves: Move[][], byFaces: Map<string, Move>, nutsReplaces: boolean}} Reading
 */
/**
 * A game the page can value: w(i, j) is seat j's start-of-turn win probability at flat score state i.
 * @typedef {{key: string, players: number, target: number, reading: string, rules: any, dice: number,
 *   w: (i: number, j: number) => number, payout: Float64Array[], precision: number, moves: Move[][],
 *   maxpoints: string[][], nutsMean: Record<string, number>, nutsReplaces: boolean, source: any, values?: Float64Array,
 *   mixed?: Mixed}} Game
 *   (values: a game the page solved keeps its start-of-turn values, G^N by N, as the kernel gave them; mixed: the
 *   decisions its equilibrium plays mixed, none where absent)
 */
/**
 * Decisions played mixed (solver/engine/solve.py Mixed): at flat score state state[e] (the mover first), the
 * decision decision[e] = t (D + 1) + n, the mover rolls with probability roll[e]; ascending by state.
 * @typedef {{state: number[], decision: number[], roll: number[]}} Mixed
 */
/**
 * One Bellman backup of a start state (backup.js values): per (t, n) the roll and stop value vectors, the
 * better one, the decision, and C[gain]: the value of ending the turn with that gain.
 * @typedef {{N: number, G: number, D: number, roll: Uint8Array, rollV: Float64Array, stopV: Float64Array,
 *   best: Float64Array, C: Float64Array[]}} Values
 */
/** @typedef {"roll" | "stop"} Action */
/**
 * What `gonuts-solve advise --json` prints.
 * @typedef {{scores: number[], turn: number, dice: number, action: Action | null,
 *   reason: "optimal" | "forced" | "reaches_target" | "mixed" | null, win_if_roll: number | null, win_if_stop: number | null,
 *   players_if_roll: number[] | null, players_if_stop: number[] | null, rules: any, roll_probability?: number}} Advice
 *   (reason "mixed": the equilibrium rolls there with probability roll_probability, and the action is the likelier)
 */
/**
 * What `gonuts-solve explain --json` adds: where optimal play stops, the next roll's risks, the turn's gain.
 * @typedef {{stop_at: number, p_all_cars: number, p_all_squirrels: number, p_one_die_refill: number,
 *   nuts_mean: number, turn_gain_if_roll: number[], turn_gain_mean_if_roll: number}} Why
 */
/**
 * One event of a game record: the seat and exactly one of roll [acorns, squirrels, cars], choice, nuts, banked.
 * @typedef {{seat: number, roll?: number[], choice?: Action, nuts?: number, banked?: number}} GameEvent
 */
/**
 * A game record (format gonuts-game; the file `gonuts-solve review` reads); `rules` is the older name of `reading`.
 * @typedef {{format: string, version: number, reading?: string, rules?: string, players: number, target?: number, speed?: number, you: number,
 *   mode?: string, events: GameEvent[], names?: string[], hints?: boolean[], started?: string, seed?: number,
 *   opponents?: Record<string, string>}} GameRecord
 */
/** @typedef {"start" | "roll" | "decide" | "nuts" | "over"} Phase */
/**
 * A decision taken in a game: its event, the scores in turn order from the mover, the turn, the dice, the choice.
 * @typedef {{event: number, scores: number[], turn: number, dice: number, taken: Action}} Decision
 */
/**
 * The game loop's state (loop.js), stepped in place by one event at a time.
 * @typedef {{scores: number[], seat: number, t: number, n: number, phase: Phase, winner: number | null,
 *   last: {seat: number, gain: number} | null, nutsDice: number | null, bySeat: Decision[][],
 *   events: number, decisions?: Decision[]}} State
 */
/**
 * What a replay needs of its record: players, target, the reading, the recording seat, whether a table game.
 * @typedef {{N: number, G: number, D: number, reading: Reading, you: number, table: boolean,
 *   refusals: Record<string, string>}} Context (refusals: the record's messages, events.py REFUSALS as data)
 */
/**
 * A seat's luck split (luck.js): win probability at the start and the end, and what moved it.
 * @typedef {{start: number, end: number, luck: number, own_decisions: number, others_decisions: number,
 *   banked_turns: number}} Split
 */
/** @typedef {(scores: number[]) => Values} ValuesAt */
/**
 * What a roll did that the rules decide (loop.js noteOf): all cars, one die's acorn bringing every die back, a
 * Go Nuts! round begun; t is the turn's points before it (after it, for a refill), kept whether they stay.
 * @typedef {{kind: "cars" | "refill" | "nuts", seat: number, t: number, kept: boolean}} Note
 */

export {};
