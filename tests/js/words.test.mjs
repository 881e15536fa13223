/* The page's message catalogues (solver/site/web/messages): every language has every key of the English one,
 * with the same placeholders, a plural form "other" wherever it has forms; numbers and plurals come out as the
 * language writes them. */
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { makeWords, pickLanguage, LANGUAGES } from "../../solver/site/web/src/core/words.js";

const cat = (lang) => JSON.parse(fs.readFileSync(new URL(`../../solver/site/web/messages/${lang}.json`, import.meta.url), "utf8"));
const catalogues = Object.fromEntries(LANGUAGES.map((l) => [l, cat(l)]));
const holes = (text) => new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
const forms = (v) => (typeof v === "string" ? [v] : Object.values(v));

test("every catalogue has every key, and no other", () => {
  const keys = Object.keys(catalogues.en).sort();
  assert.ok(keys.length > 250);
  for (const lang of LANGUAGES) assert.deepEqual(Object.keys(catalogues[lang]).sort(), keys, lang);
});

test("every message keeps its key's placeholders (a plural's one form may say its count in words)", () => {
  for (const lang of LANGUAGES) {
    for (const [key, value] of Object.entries(catalogues[lang])) {
      const want = holes(key);
      if (typeof value !== "string") assert.ok(typeof value.other === "string", `${lang}: ${key} has no "other" form`);
      for (const form of forms(value)) {
        const got = holes(form);
        for (const h of got) assert.ok(want.has(h), `${lang}: "${form}" has {${h}}, which "${key}" does not`);
        for (const h of want) {
          if (typeof value !== "string" && h === "n" && form === value.one) continue;
          assert.ok(got.has(h), `${lang}: "${form}" drops {${h}} of "${key}"`);
        }
      }
    }
  }
});

test("numbers and percentages as each language writes them, plurals by count", () => {
  const w = makeWords(catalogues, "fr");
  const plain = (s) => s.replace(/[\u202f\u00a0]/g, " ");
  assert.equal(plain(w.pct(0.424)), "42,40 %");
  w.setLanguage("de");
  assert.equal(plain(w.pct(0.424)), "42,40 %");
  assert.equal(w.t("{n} points", { n: 1 }), "1 Punkt");
  assert.equal(w.t("{n} points", { n: 2 }), "2 Punkte");
  w.setLanguage("en");
  assert.equal(w.pct(0.424), "42.40%");
  assert.equal(w.t("{n} dice", { n: 1 }), "1 die");
  assert.equal(w.t("{n} dice", { n: 5 }), "5 dice");
  assert.equal(w.t("{n} earlier entries are in the exported record", { n: 12345 }), "12,345 earlier entries are in the exported record");
  w.setLanguage("es");
  assert.equal(w.t("{n} acorns", { n: 1 }), "1 bellota");
  assert.equal(w.fixed(3.14159, 2), "3,14");
});

test("whole numbers written without locale data are the ones Intl writes, in every language", () => {
  const w = makeWords(catalogues, "en");
  for (const lang of LANGUAGES) {
    w.setLanguage(lang);
    const intl = new Intl.NumberFormat(lang, { maximumFractionDigits: 0, useGrouping: true });
    for (const x of [-999, -50, -1, 0, 1, 7, 42, 100, 999, 1000, 1234, 12345, 999999]) {
      assert.equal(w.num(x), intl.format(x), `${lang} ${x}`);
      assert.equal(w.t("{n} points", { n: x }).split(" ")[0], intl.format(x), `${lang} ${x} in a message`);
    }
  }
});

test("the first of the browser's languages that the page has", () => {
  assert.equal(pickLanguage(["de-AT", "en"]), "de");
  assert.equal(pickLanguage(["pt-BR", "fr-CA"]), "fr");
  assert.equal(pickLanguage(["pt-BR", "ja"]), "en");
  assert.equal(pickLanguage([]), "en");
});

test("the why text says 1 point, and 2 points, of the turn it risks", () => {
  const w = makeWords(catalogues, "en");
  const why = (turn) => w.why({ turn, dice: 3, action: "roll" }, { stop_at: 20, p_all_cars: 1 / 216, p_all_squirrels: 1 / 8,
    p_one_die_refill: 0, nuts_mean: 5.3, turn_gain_if_roll: [], turn_gain_mean_if_roll: 4 }, "rulebook");
  assert.match(why(1), /Rolling risks your 1 point: /);
  assert.match(why(2), /Rolling risks your 2 points: /);
});

test("a number in a sentence takes the language's decimal mark, whatever the sentence", () => {
  const key = "Solving {game}: about {seconds}\u00a0s and {mb}\u00a0MB on this device.";
  const said = (lang) => makeWords(catalogues, lang).t(key, { game: "x", seconds: 6.1, mb: 1234 });
  assert.match(said("de"), /etwa 6,1\u00a0s und 1\.234\u00a0MB/);
  assert.match(said("fr"), /6,1\u00a0s/);
  assert.match(said("es"), /6,1\u00a0s/);
  assert.match(said("en"), /about 6\.1\u00a0s and 1,234\u00a0MB/);
  const w = makeWords(catalogues, "en");
  w.setLanguage("de");                                   // a change of language: the next drawing is German
  assert.match(w.t(key, { game: "x", seconds: 0.5, mb: 3 }), /etwa 0,5\u00a0s und 3\u00a0MB/);
});
