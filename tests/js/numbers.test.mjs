/* The page's one number reader (web/src/core/numbers.js) gives what solver/numbers.py gives, value for value and
 * message for message (tests/fixtures/numbers.json, written from Python by tests/number_fixtures.py). */
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { whole } from "../../solver/site/web/src/core/numbers.js";

const fx = JSON.parse(fs.readFileSync(new URL("../fixtures/numbers.json", import.meta.url), "utf8"));

test("every typed number is read or refused as Python reads it", () => {
  assert.ok(fx.cases.length > 50);
  for (const c of fx.cases) {
    let got;
    try { got = { value: whole(c.text, fx.what, c.lo, c.hi) }; } catch (e) { got = { error: e.message }; }
    assert.deepEqual(got, c.error === undefined ? { value: c.value } : { error: c.error }, JSON.stringify(c));
  }
});
