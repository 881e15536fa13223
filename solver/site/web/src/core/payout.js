/* The exact gain distribution of a Go Nuts! round under the tick model of RULES.md, as solver/game/payout.py
 * computes it: the sum carried in integers (BigInt), each bin rounded once, correctly (as Python's int / int), so
 * the page builds the payouts of any target, player count and speed with the bits of `gonuts-solve build`.
 * Every bin and every tail P(gain >= h) is the exact infinite sum correctly rounded (the sum goes on until no later
 * tick can change a rounding), so none depends on the cap: a game to target T is the corner of any larger one.
 * Twin: solver/game/payout.py (nuts_gain_numerators, nuts_gain_pmf, nuts_gain_tails, nuts_payout_table,
 * nuts_tail_table); fixture:
 * tests/fixtures/kernel_models.json (the payouts' digests for every game the page can solve). */

const REL_BITS = 64n;        // truncation: what is left out is under 2^-64 of the smallest non-zero bin
const CHECK_EVERY = 8;       // ticks between truncation checks
const MAX_TICKS = 200000;    // past this the dog face is too rare to tabulate exactly

/** The bit length of x >= 0. @param {bigint} x */
function bits(x) {
  if (x === 0n) return 0;
  const hex = x.toString(16);
  return hex.length * 4 - (Math.clz32(parseInt(hex[0], 16)) - 28);
}
/** x 2^e, exactly while the result is a normal number. @param {number} x @param {number} e */
function scaled(x, e) {
  let y = x, k = e;
  while (k > 1000) { y *= 2 ** 1000; k -= 1000; }
  while (k < -1000) { y *= 2 ** -1000; k += 1000; }
  return y * 2 ** k;
}
/** u / den rounded once to the nearest double, ties to even (Python's int / int). @param {bigint} u @param {bigint} den */
export function ratio(u, den) {
  if (u === 0n) return 0;
  const s = 66 - (bits(u) - bits(den));          // a quotient of at least 65 bits, and a sticky bit below it
  const num = s >= 0 ? u << BigInt(s) : u, d = s >= 0 ? den : den << BigInt(-s);
  let q = num / d;
  if (num % d !== 0n) q |= 1n;
  const out = scaled(Number(q), -s);             // Number(bigint) rounds to nearest, ties to even
  if (out < 2 ** -1022) throw new RangeError("a payout bin below the normal doubles: not rounded exactly here");
  return out;
}

/** Whether no later tick can change the rounding of any bin (exact value in [u, u + left] / den) or any tail
 * P(gain >= h) (in [den - S_h - left, den - S_h] / den, S_h the bins below h), as payout.py's _decided. A value
 * this file cannot round (below the normal doubles) is not decided yet.
 * @param {bigint[]} U @param {bigint} left @param {bigint} den */
function decided(U, left, den) {
  if (left === 0n) return true;
  let below = 0n;
  try {
    for (const u of U) {
      if (ratio(u, den) !== ratio(u + left, den)) return false;
      below += u;
      if (ratio(den - below, den) !== ratio(den - below - left, den)) return false;
    }
  } catch (e) {
    if (e instanceof RangeError) return false;
    throw e;
  }
  return true;
}

/** A probability as [numerator, denominator] in lowest terms. @param {[number, number]} p */
const lowest = ([a, b]) => { let x = a, y = b; while (y) [x, y] = [y, x % y]; return [BigInt(a / x), BigInt(b / x)]; };
/** @param {number} n @param {number} k */
function comb(n, k) {
  let c = 1n;
  for (let i = 1; i <= k; i++) c = (c * BigInt(n - k + i)) / BigInt(i);
  return c;
}

/** The exact gain distribution below the cap: numerators of gains 0..cap-1 over one common denominator.
 * p_dog and p_acorn are [numerator, denominator]; speed is [numerator, denominator] (throws floor(speed m)).
 * @param {number} nDice @param {number} opponents @param {[number, number]} pDog @param {[number, number]} pAcorn
 * @param {[number, number]} speed @param {number} cap @returns {{U: bigint[], den: bigint, ticks: number}} */
export function nutsGainNumerators(nDice, opponents, pDog, pAcorn, speed, cap) {
  const key = JSON.stringify([nDice, opponents, pDog, pAcorn, speed, cap]), kept = numerators.get(key);
  if (kept) return kept;
  const made = sum(nDice, opponents, pDog, pAcorn, speed, cap);
  if (numerators.size >= 32) numerators.clear();
  numerators.set(key, made);
  return made;
}

/** The numerators of the last few rounds asked for: a solve reads each round's bins and its tails.
 * @type {Map<string, {U: bigint[], den: bigint, ticks: number}>} */
const numerators = new Map();

/** nutsGainNumerators' sum, not kept. @param {number} nDice @param {number} opponents @param {[number, number]} pDog
 * @param {[number, number]} pAcorn @param {[number, number]} speed @param {number} cap
 * @returns {{U: bigint[], den: bigint, ticks: number}} */
function sum(nDice, opponents, pDog, pAcorn, speed, cap) {
  const [a, F] = lowest(pAcorn), b = F - a, [d, G] = lowest(pDog), H = G - d, k = BigInt(opponents);
  const [rn, rd] = [BigInt(speed[0]), BigInt(speed[1])];
  const Gk = G ** k;
  let V = new Array(cap).fill(0n);
  V[0] = 1n;
  let U = new Array(cap).fill(0n);
  /** @type {Map<number, bigint[]>} */
  const rows = new Map();
  let Gm = 1n, Hm = 1n, Fn = 1n, belowPrev = 0n, done = 0n, m = 1;
  for (; m <= MAX_TICKS; m++) {
    const now = (rn * BigInt(m)) / rd, t = Number(BigInt(nDice) * (now - done));
    done = now;
    if (t) {
      let row = rows.get(t);
      if (!row) {
        row = [];
        for (let i = 0; i <= Math.min(t, cap - 1); i++) row.push(comb(t, i) * a ** BigInt(i) * b ** BigInt(t - i));
        rows.set(t, row);
      }
      const W = V.map((v) => v * /** @type {bigint[]} */ (row)[0]);
      for (let i = 1; i < row.length; i++) for (let j = i; j < cap; j++) W[j] += V[j - i] * row[i];
      V = W;
    }
    Gm *= G; Hm *= H;
    const below = (Gm - Hm) ** k, Ft = F ** BigInt(t);
    Fn *= Ft;
    const grow = Gk * Ft, fresh = below - belowPrev * Gk;
    U = U.map((u, i) => u * grow + V[i] * fresh);
    belowPrev = below;
    if (m % CHECK_EVERY && H) continue;
    const left = (Gm ** k - below) * V.reduce((x, y) => x + y, 0n);
    if (left === 0n) break;
    let smallest = 0n;
    for (const u of U) if (u && (!smallest || u < smallest)) smallest = u;
    if (smallest && (left << REL_BITS) < smallest && decided(U, left, Gm ** k * Fn)) break;
  }
  if (m > MAX_TICKS) throw new RangeError("dog: a Go Nuts! round is too long to tabulate exactly (dog face too rare)");
  return { U, den: Gm ** k * Fn, ticks: m };
}

/** P(gain = g) for g = 0..cap, with P(gain >= cap) in the last bin, each the exact value rounded once.
 * @param {number} nDice @param {number} opponents @param {[number, number]} pDog @param {[number, number]} pAcorn
 * @param {[number, number]} speed @param {number} cap @returns {Float64Array} */
export function nutsGainPmf(nDice, opponents, pDog, pAcorn, speed, cap) {
  const { U, den } = nutsGainNumerators(nDice, opponents, pDog, pAcorn, speed, cap);
  const out = new Float64Array(cap + 1);
  U.forEach((u, g) => { out[g] = ratio(u, den); });
  out[cap] = ratio(den - U.reduce((x, y) => x + y, 0n), den);
  return out;
}

/** P(gain >= h) for h = 0..cap, each the exact value rounded once (the last is nutsGainPmf's last bin).
 * @param {number} nDice @param {number} opponents @param {[number, number]} pDog @param {[number, number]} pAcorn
 * @param {[number, number]} speed @param {number} cap @returns {Float64Array} */
export function nutsGainTails(nDice, opponents, pDog, pAcorn, speed, cap) {
  const { U, den } = nutsGainNumerators(nDice, opponents, pDog, pAcorn, speed, cap);
  const out = new Float64Array(cap + 1);
  let below = 0n;
  U.forEach((u, h) => { out[h] = ratio(den - below, den); below += u; });
  out[cap] = ratio(den - below, den);
  return out;
}

/** Row n (1..5) of a per-dice table of rounds (row 0 all zero), as (6, target + 1) doubles: row(n, ...) of a round
 * played with n dice. rules: the reading's knobs (faces, dog) with the game's players and target; speed as
 * [numerator, denominator].
 * @param {(nDice: number, opponents: number, pDog: [number, number], pAcorn: [number, number], speed: [number, number], cap: number) => Float64Array} row
 * @param {{faces: number[], dog: number[], players: number, target: number}} rules @param {[number, number]} speed */
function perDice(row, rules, speed) {
  const G = rules.target, out = new Float64Array(6 * (G + 1));
  const pAcorn = /** @type {[number, number]} */ ([rules.faces[0], rules.faces.reduce((x, y) => x + y, 0)]);
  const pDog = /** @type {[number, number]} */ ([rules.dog[0], rules.dog.reduce((x, y) => x + y, 0)]);
  for (let n = 1; n <= 5; n++) out.set(row(n, rules.players - 1, pDog, pAcorn, speed, G), n * (G + 1));
  return out;
}

/** Row n (1..5): the gain distribution of a round played with n dice, cut at the target (row 0 all zero), as
 * (6, target + 1) doubles. Arguments as perDice's. @param {{faces: number[], dog: number[], players: number,
 * target: number}} rules @param {[number, number]} speed @returns {Float64Array} */
export const nutsPayoutTable = (rules, speed) => perDice(nutsGainPmf, rules, speed);

/** Row n (1..5): P(gain >= h) of a round played with n dice, h = 0..target (row 0 all zero), as (6, target + 1)
 * doubles: the tails the kernel reads. Arguments as perDice's. @param {{faces: number[], dog: number[],
 * players: number, target: number}} rules @param {[number, number]} speed @returns {Float64Array} */
export const nutsTailTable = (rules, speed) => perDice(nutsGainTails, rules, speed);

/** A speed written as a decimal ("1", "1.5") as an exact [numerator, denominator], as Fraction(repr(speed)).
 * @param {string} text @returns {[number, number]} */
export function speedFraction(text) {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) throw new RangeError(`a speed is a decimal number such as 1 or 1.5, not ${text}`);
  const places = (m[2] || "").length, den = 10 ** places, num = Number(m[1]) * den + Number(m[2] || 0);
  let x = num, y = den;
  while (y) [x, y] = [y, x % y];
  return [num / x, den / x];
}
