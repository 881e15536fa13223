/* The rules as data: every roll of n live dice with its probability and what it does, as Python wrote it
 * into the page's data (no roll's outcome is derived here).
 * Twin: solver/game/moves.py (roll_table, outcome); fixture: tests/fixtures/page-t50.json (readings). */

/** @typedef {import("./types.js").Move} Move */
/** @typedef {import("./types.js").Reading} Reading */

/** A reading's rolls from the page's data: moves[n] lists every roll of n live dice; byFaces finds one by
 * "n:a:s:c". @param {any} raw data.readings[name] @param {string} name @returns {Reading} */
export function rollTable(raw, name) {
  const dice = raw.dice;
  /** @type {Move[][]} */
  const moves = [[]];
  /** @type {Map<string, Move>} */
  const byFaces = new Map();
  for (let n = 1; n <= dice; n++) {
    moves.push(raw.rolls[String(n)].map((/** @type {any[]} */ [a, s, c, p, kind, x, live]) => {
      /** @type {Move} */
      const m = { a, s, c, p, kind, x, live };
      byFaces.set(`${n}:${a}:${s}:${c}`, m);
      return m;
    }));
  }
  return { name, rules: raw.rules, dice, moves, byFaces, nutsReplaces: raw.nuts_gain === "replaces" };
}
