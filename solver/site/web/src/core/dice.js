/* The seeded dice of play mode and of practice: a 32-bit generator, one die's face, a throw, a Go Nuts! round.
 * Twin: solver/play/dice.py (Mulberry32, face, roll_dice, nuts_round); fixture: tests/fixtures/practice.json. */

/** @typedef {{state: number, next: () => number}} Rng */
/** @typedef {{faces: number[], counts: number[]}} Throw */
/** @typedef {{faces: number[], acorns: number, total: number, dogs: {seat: number, dog: boolean}[]}} Tick */

/** mulberry32: a small, well-known 32-bit generator; its state is one integer. @param {number} seed @returns {Rng} */
export function rng(seed) {
  let state = seed >>> 0;
  return {
    get state() { return state; },
    set state(v) { state = v >>> 0; },
    next() {
      state = (state + 0x6D2B79F5) >>> 0;
      let z = state;
      z = Math.imul(z ^ (z >>> 15), z | 1);
      z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
      return ((z ^ (z >>> 14)) >>> 0) / 4294967296;
    },
  };
}

/** One die with these face counts: the index of its face. @param {Rng} r @param {number[]} counts */
export function face(r, counts) {
  const tot = counts.reduce((x, y) => x + y, 0);
  let u = Math.floor(r.next() * tot);
  for (let i = 0; i < counts.length; i++) { if (u < counts[i]) return i; u -= counts[i]; }
  return counts.length - 1;
}

/** Throw n squirrel dice: the faces (0 acorn, 1 squirrel, 2 car) and the counts [a, s, c].
 * @param {Rng} r @param {{faces: number[]}} rules @param {number} n @returns {Throw} */
export function rollDice(r, rules, n) {
  const faces = [];
  const counts = [0, 0, 0];
  for (let i = 0; i < n; i++) { const f = face(r, rules.faces); faces.push(f); counts[f]++; }
  return { faces, counts };
}

/** A Go Nuts! round, tick by tick: the active player throws `dice` dice (speed 1), every opponent still
 * waiting throws a dog die; the round ends after the tick in which the last opponent rolls a dog.
 * @param {Rng} r @param {{faces: number[], dog: number[]}} rules @param {number} dice @param {number[]} opponents
 * @returns {{ticks: Tick[], acorns: number}} */
export function nutsRound(r, rules, dice, opponents) {
  const waiting = opponents.slice();
  /** @type {Tick[]} */
  const ticks = [];
  let acorns = 0;
  for (let tick = 1; waiting.length > 0; tick++) {
    if (tick > 100000) throw new Error("a Go Nuts! round did not end (dog die without a dog face?)");
    const throwN = rollDice(r, rules, dice);
    acorns += throwN.counts[0];
    const dogs = waiting.map((seat) => ({ seat, dog: face(r, rules.dog) === 0 }));
    ticks.push({ faces: throwN.faces, acorns: throwN.counts[0], total: acorns, dogs });
    for (const d of dogs) if (d.dog) waiting.splice(waiting.indexOf(d.seat), 1);
  }
  return { ticks, acorns };
}
