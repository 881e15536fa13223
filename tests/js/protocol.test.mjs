/* What the phones at one table say to each other (page/protocol.js), under Node: a message from another phone is read
 * only in its expected shape and direction, and the table phone takes a guest's entry only when it was made
 * against the game as it is now, on the guest's own turn, for the guest's own seat. */
import test from "node:test";
import assert from "node:assert/strict";

import { read, current, seatOf, MESSAGE_MAX } from "../../solver/site/web/src/page/protocol.js";
import { GonutsInputError } from "../../solver/site/web/src/core/errors.js";

const garbled = (/** @type {() => unknown} */ fn) => assert.throws(fn, (e) => e instanceof GonutsInputError
  && e.key === "The other phone sent something this page does not understand.");
const record = { started: "2026-12-06T10:00:00.000Z", names: ["Ann", "Ben", "Cy"], events: [{ seat: 0, banked: 3 }] };
const st = /** @type {any} */ ({ phase: "start", seat: 1 });
const entry = (over = {}) => ({ started: record.started, base: 1, ev: { seat: 1, roll: [1, 2, 2] }, ...over });

test("each side reads only the messages the other side sends", () => {
  const game = JSON.stringify({ kind: "game", name: "Ben", record });
  assert.equal(read(game, "table").kind, "game");
  assert.deepEqual(read('{"kind":"stale"}', "table"), { kind: "stale" });
  assert.equal(read(JSON.stringify({ kind: "entry", ...entry() }), "guest").kind, "entry");
  assert.deepEqual(read('{"kind":"hints","on":false,"extra":1}', "guest"), { kind: "hints", on: false });
  garbled(() => read(game, "guest"));                                  // a guest does not send games
  garbled(() => read(JSON.stringify({ kind: "entry", ...entry() }), "table"));
});

test("anything else from another phone is refused, never thrown as JSON's error", () => {
  for (const bad of ["", "{", "null", "[]", "42", '"game"', '{"kind":"game"}', '{"kind":"game","name":1,"record":{}}',
    '{"kind":"game","name":"Ben","record":[]}', '{"kind":"hints","on":"yes"}', '{"kind":"__proto__"}']) {
    garbled(() => read(bad, "table"));
    garbled(() => read(bad, "guest"));
  }
  for (const e of [{ base: 1.5 }, { base: "1" }, { started: 7 }, { ev: null }, { ev: [1] }, { base: 2 ** 60 }]) {
    garbled(() => read(JSON.stringify({ kind: "entry", ...entry(e) }), "guest"));
  }
  garbled(() => read(" ".repeat(MESSAGE_MAX + 1), "table"));
  garbled(() => read(/** @type {any} */ (new ArrayBuffer(8)), "table"));        // a binary message
});

test("the table phone takes an entry made against the game as it is, on the guest's own turn", () => {
  assert.equal(current(/** @type {any} */ (record), st, "Ben", entry()), true);
  assert.equal(seatOf(record, "Ben"), 1);
  assert.equal(seatOf(record, "Dora"), -1);
});

test("a stale entry, another game's, another seat's or one out of turn is not taken", () => {
  const r = /** @type {any} */ (record);
  assert.equal(current(r, st, "Ben", entry({ base: 0 })), false);                 // made before the last entry
  assert.equal(current(r, st, "Ben", entry({ base: 2 })), false);
  assert.equal(current(r, st, "Ben", entry({ started: "2026-12-06T09:00:00.000Z" })), false);   // the game before Play again
  assert.equal(current(r, st, "Cy", entry({ ev: { seat: 2, roll: [1, 2, 2] } })), false);       // not Cy's turn
  assert.equal(current(r, st, "Ben", entry({ ev: { seat: 2, roll: [1, 2, 2] } })), false);      // for another seat
  assert.equal(current(r, st, "Dora", entry()), false);                                         // nobody's name
  assert.equal(current(r, /** @type {any} */ ({ phase: "over", seat: 1, winner: 0 }), "Ben", entry()), false);
});

test("a message of any length travels in frames under every browser's limit and arrives whole", async () => {
  const { frames, joiner, FRAME } = await import("../../solver/site/web/src/page/frames.js");
  for (const text of ["", "x", "é".repeat(FRAME), "a".repeat(FRAME + 1), "{".repeat(5 * FRAME + 7)]) {
    const fs = frames(text);
    assert.ok(fs.every((f) => new TextEncoder().encode(f).length <= 3 * FRAME + 1));
    assert.equal(fs.length, Math.max(1, Math.ceil(text.length / FRAME)));
    const join = joiner(10 * FRAME);
    const got = fs.map((f) => join.take(f));
    assert.deepEqual(got.slice(0, -1), Array(fs.length - 1).fill(null));
    assert.equal(got[fs.length - 1], text);
  }
});

test("frames not ours, binary ones, and a message over the limit are dropped; the next message arrives", async () => {
  const { frames, joiner } = await import("../../solver/site/web/src/page/frames.js");
  const join = joiner(100);
  assert.equal(join.take('{"kind":"stale"}'), null);                   // unframed
  assert.equal(join.take(new ArrayBuffer(4)), null);
  assert.equal(join.take("+abc"), null);
  assert.equal(join.take(null), null);                                // drops the "+abc" before it
  assert.equal(join.take("=def"), "def");
  for (const f of frames("y".repeat(250)).map((f) => f)) assert.equal(join.take(f), null);   // one frame, 250 > 100
  assert.equal(join.take("+" + "z".repeat(60)), null);
  assert.equal(join.take("=" + "z".repeat(60)), null);                // 120 in all: over
  assert.equal(join.take("=ok"), "ok");
});
