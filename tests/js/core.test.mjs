/* The page's pure core under Node (node --test tests/js), held to the shared fixtures: it runs on its own,
 * from a clean clone, with nothing built. Its data are the committed page data of tests/fixtures/
 * (page-t50.json: 2 players; page-t12.json: 3 and 4 players at target 12), and advice.json holds what
 * Python's advise and explain say for fixed states of each game (tests/page_fixtures.py writes all three;
 * tests/site/test_shared_rules.py checks that they still say what Python says).
 */
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { makeCore as GonutsCore } from "../../solver/site/web/src/core/index.js";
import { cornerMixed } from "../../solver/site/web/src/core/pagevalues.js";

const __dirname = path.dirname(fileURLToPath(import.meta.url));
const fixture = (name) => JSON.parse(fs.readFileSync(path.join(__dirname, "..", "fixtures", name), "utf8"));
const core = GonutsCore(fixture("page-t50.json"));

function refusal(fn) {
  try { fn(); } catch (e) { if (e instanceof core.GonutsInputError) return e.message; throw e; }
  return null;
}

test("the policy grammar gives every name and every refusal of the fixture", () => {
  for (const c of fixture("policies.json").cases) {
    const target = c.target === undefined ? 50 : c.target, dice = c.dice === undefined ? 5 : c.dice;
    const got = refusal(() => core.readPolicy(c.spec, target, dice));
    if (c.error !== undefined) assert.equal(got, c.error, `spec ${JSON.stringify(c.spec)}`);
    else {
      assert.equal(got, null, `spec ${JSON.stringify(c.spec)}`);
      assert.equal(core.readPolicy(c.spec, target, dice).name, c.name);
    }
  }
});

test("window.gonuts.policy: the normalized name, or the CLI's message, or why only the CLI plays it", () => {
  for (const c of fixture("policies.json").cases) {
    if ((c.target || 50) !== 50 || (c.dice || 5) !== 5) continue;
    const want = c.error !== undefined ? c.error : (c.page_error !== undefined ? c.page_error : null);
    const got = refusal(() => core.policyName(c.spec, { players: 2, reading: "rulebook" }));
    assert.equal(got, want, `spec ${JSON.stringify(c.spec)}`);
    if (want === null) assert.equal(core.policyName(c.spec, { players: 2, reading: "rulebook" }), c.name);
  }
});

function recordOf(fx, c) {
  if (c.record === null || typeof c.record !== "object" || Array.isArray(c.record)) return c.record;
  const r = Object.assign({}, fx.defaults, c.record);
  for (const k of Object.keys(r)) if (r[k] === null) delete r[k];
  return r;
}

test("the record rules give every state and every refusal of the fixture", () => {
  const fx = fixture("records.json");
  for (const c of fx.cases) {
    const record = recordOf(fx, c);
    if (c.error !== undefined) assert.equal(refusal(() => core.replayState(record)), c.error, c.name);
    else assert.deepEqual(core.replayState(record), c.state, c.name);
  }
});

test("every roll the data lists sums its dice and its probabilities to 1", () => {
  for (const name of ["rulebook", "summary"]) {
    const r = core.reading(name);
    for (let n = 1; n <= core.N_DICE; n++) {
      let total = 0;
      for (const m of r.moves[n]) { assert.equal(m.a + m.s + m.c, n); total += m.p; }
      assert.ok(Math.abs(total - 1) < 1e-15, `${name}, ${n} dice: ${total}`);
    }
  }
});

test("record files are read or refused as the fixture says", () => {
  for (const c of fixture("record_files.json").cases) {
    const bytes = new Uint8Array(Buffer.from(c.bytes, "base64"));
    const got = refusal(() => core.recordFromBytes(bytes, "game.json"));
    assert.equal(got, c.error === undefined ? null : c.error, c.name);
    if (c.replay_error !== undefined || c.replayed) {
      const record = core.recordFromBytes(bytes, "game.json");
      assert.equal(refusal(() => core.replayState(record)), c.replay_error === undefined ? null : c.replay_error, c.name);
    }
  }
});

test("odd values (BigInt, cyclic objects, symbols) are refused with GonutsInputError, never a raw TypeError", () => {
  const record = () => ({ format: "gonuts-game", version: 1, reading: "rulebook", players: 2, you: 0, events: [] });
  const cyclic = record(); const ev = { seat: 0 }; ev.roll = ev; cyclic.events.push(ev);
  const cyclicHeader = record(); cyclicHeader.version = cyclicHeader;
  const cases = [
    () => core.advise({ scores: [1n, 2] }), () => core.advise({ scores: [1, 2], turn: 2n }),
    () => core.replay(cyclic), () => core.replay(cyclicHeader), () => core.policyName(Symbol("x")),
    () => core.replay({ ...record(), events: [{ seat: 0, roll: [1n, 2, 2] }] }), () => core.advise(Symbol("q")),
  ];
  for (const f of cases) {
    assert.throws(f, (e) => e instanceof core.GonutsInputError && e.message.length < 200);
  }
});

test("advise and explain give Python's numbers for every fixed state, within the page's stated precision", async () => {
  const cores = {};
  for (const c of fixture("advice.json").cases) {
    if (!cores[c.page]) cores[c.page] = GonutsCore(fixture(c.page));
    const here = cores[c.page];
    const g = await here.load(c.players, c.reading);
    const tol = g.precision + 1e-12, what = `${c.players}-${c.reading} ${JSON.stringify([c.scores, c.turn, c.dice])}`;
    const near = (got, want, label) => {
      if (want === null || typeof want !== "object") {
        if (typeof want === "number") assert.ok(Math.abs(got - want) <= tol, `${what} ${label}: ${got} vs ${want}`);
        else assert.equal(got, want, `${what} ${label}`);
        return;
      }
      assert.equal(Array.isArray(got) ? got.length : Object.keys(got).length,
                   Array.isArray(want) ? want.length : Object.keys(want).length, `${what} ${label}: size`);
      for (const k of Object.keys(want)) near(got[k], want[k], `${label}.${k}`);
    };
    const q = { scores: c.scores, turn: c.turn, dice: c.dice, reading: c.reading };
    const a = here.advise(q);
    near(a, c.advise, "advise");
    if (Math.abs(c.advise.win_if_roll - c.advise.win_if_stop) > 2 * tol) assert.equal(a.action, c.advise.action, what);
    near(here.explain(q), c.explain, "explain");
  }
});

test("window.gonuts reads a query once and refuses holes in sparse lists", () => {

  let reads = 0;
  const scores = [23, 31];
  Object.defineProperty(scores, 0, { get: () => (reads++ === 0 ? 23 : 99), enumerable: true });
  const a = core.advise({ scores, turn: 7, dice: 3 });
  assert.strictEqual(reads, 1);
  assert.deepStrictEqual(a.scores, [23, 31]);
  assert.throws(() => core.advise({ scores: [23, , 31], turn: 7, dice: 3 }), /a hole at place 2/);   // eslint-disable-line no-sparse-arrays
  const record = { format: "gonuts-game", version: 1, reading: "rulebook", players: 2, you: 0,
                   events: [{ seat: 0, roll: [2, 2, 1] }, , { seat: 0, choice: "stop" }] };   // eslint-disable-line no-sparse-arrays
  assert.throws(() => core.replay(record), /event 1: must be an object, not a hole in the list/);
});

test("a number that is not finite is named in a refusal, never JSON's null (solver/errors.py show says the same)", () => {
  assert.equal(core.show(NaN), "NaN");
  assert.equal(core.show(Infinity), "Infinity");
  assert.equal(core.show(-Infinity), "-Infinity");
  assert.equal(core.show([NaN, 1]), "[null,1]");
  assert.equal(refusal(() => core.advise({ scores: [0, NaN] })), "scores must be whole numbers, not NaN");
  assert.equal(refusal(() => core.advise({ scores: [0, 0], turn: Infinity })), "turn points must be a whole number, not Infinity");
});

test("a target left out is the page's own, at any speed: the game's key names it", () => {
  assert.equal(core.key(2, "rulebook", undefined, 2), "2-rulebook-50-2");
  assert.equal(core.key(2, "rulebook", undefined, 1), "2-rulebook");
  assert.equal(core.key(2, "rulebook", 50, 1), "2-rulebook");
  assert.equal(core.key(3, "summary", 30, 0.5), "3-summary-30-0.5");
});

test("a game whose equilibrium mixes: advise says either action, review costs nothing there, as Python says", async () => {
  const c = fixture("mixed.json");
  const here = GonutsCore(fixture(c.page));
  const g = await here.load(c.players, c.reading);
  const N = c.players, S = c.target ** N, values = new Float64Array(S * N);
  for (let i = 0; i < S; i++) for (let j = 0; j < N; j++) values[i * N + j] = g.w(i, j);
  here.add(N, c.reading, c.target, 1, values, c.mixed);          // as the page adds a game its worker solved
  const near = (got, want, label) => {
    if (typeof want === "number") assert.ok(Math.abs(got - want) <= 1e-12, `${label}: ${got} vs ${want}`);
    else if (want === null || typeof want !== "object") assert.equal(got, want, label);
    else {
      assert.deepEqual(Object.keys(got).sort(), Object.keys(want).sort(), `${label}: keys`);
      for (const k of Object.keys(want)) near(got[k], want[k], `${label}.${k}`);
    }
  };
  for (const want of c.advise) {
    near(here.advise({ scores: want.scores, turn: want.turn, dice: want.dice, reading: c.reading }), want, `advise ${want.scores} ${want.turn} ${want.dice}`);
  }
  assert.equal(c.advise[0].reason, "mixed");
  assert.notEqual(c.advise[1].reason, "mixed");
  const rv = here.review(c.record, 0);
  near(rv, c.review, "review");
  assert.equal(rv.decisions[0].optimal, "either");
  assert.ok(!rv.costliest.includes(rv.decisions[0].event));
});

test("a corner keeps the mixed decisions whose every score is in it, renumbered, and no other", () => {
  const L = 50, T = 40, o = L - T;
  const flat = (s, G) => s.reduce((i, x) => i * G + x, 0);
  const inside = [[12, 30, 45], [10, 10, 10], [49, 49, 49]], outside = [[9, 30, 45], [30, 5, 40], [20, 20, 0]];
  const all = [...inside, ...outside].map((s) => [flat(s, L), s]).sort((a, b) => a[0] - b[0]);
  const m = { state: all.map((x) => x[0]), decision: all.map((_, e) => 6 * e + 1), roll: all.map((_, e) => 0.1 + 0.1 * e) };
  const got = cornerMixed(m, 3, L, T);
  const want = all.map(([i, s], e) => [i, s, e]).filter(([, s]) => s.every((x) => x >= o));
  assert.deepEqual(got.state, want.map(([, s]) => flat(s.map((x) => x - o), T)));
  assert.deepEqual(got.decision, want.map(([, , e]) => m.decision[e]));
  assert.deepEqual(got.roll, want.map(([, , e]) => m.roll[e]));
  assert.equal(got.state.length, inside.length);
});
