/* The rule to remember: for each game, the best rule a person can keep in mind, found by the strategy lab
 * (data.rule_cards, from `gonuts-solve simple-rules`), in words a child can follow, and what it costs. */
import { data } from "../../page/context.js";
import { $, el } from "../../page/dom.js";
import { t, words } from "../../page/i18n.js";
import { onShown } from "../../page/tabs.js";

/** A policy of the strategy lab in words (a threshold of the target or more: never stop). @param {string} policy */
export function ruleWords(policy) {
  const G = data.record.target, [kind, body] = policy.split(":");
  if (kind === "hold") {
    const [k, d] = body.split("/").map(Number);
    if (k >= G && d === undefined) return { never: true, text: t("Never stop: keep rolling until this turn wins the game.") };
    return { never: false, text: d === undefined ? t("Roll until this turn has {k} points, then stop.", { k })
      : t("Roll until this turn has {k} points, or until only {n} dice or fewer are left, then stop.", { k, n: d }) };
  }
  const ks = body.split("-").map(Number);
  const parts = ks.map((k, i) => k === 0 ? t("with {n} dice left, always stop", { n: i + 1 })
    : k >= G ? t("with {n} dice left, keep rolling", { n: i + 1 }) : t("with {n} dice left, stop at {k}", { n: i + 1, k })).reverse();
  return { never: false, text: t("Roll until this turn has enough points for the dice left: {parts}.", { parts: parts.join("; ") }) };
}
/** The language the cards were last drawn in ("": not yet). */
let drawnIn = "";
/** The cards, drawn when the Practice tab is shown (their percentages make number formatters, whose locale data
 * would cost the page's start tens of ms on a phone), and again there after a change of language. */
export function drawCards() {
  if ($("panel-practice").hidden || drawnIn === words.lang) return;
  drawnIn = words.lang;
  const cards = data.rule_cards || {}, keys = Object.keys(cards).sort();
  $("rule-cards").hidden = !keys.length;
  $("rule-list").replaceChildren(...keys.map((key) => {
    const c = cards[key], [players, reading] = key.split("-"), best = c.rules[c.best];
    const seen = new Set([best.policy]);
    const others = ["hold", "hold_dice", "per_dice"].filter((k) => !seen.has(c.rules[k].policy) && seen.add(c.rules[k].policy))
      .map((k) => t("{rule} (gives up {x})", { rule: ruleWords(c.rules[k].policy).text, x: words.fixed(100 * c.rules[k].gives_up, 2) }));
    const rule = ruleWords(best.policy);
    const n = Number(players);
    return el("article", { class: "rulecard", id: `rule-${key}`, "data-policy": best.policy, "data-gives-up": String(best.gives_up) },
      el("h3", { text: t("{n} players, {reading} reading", { n, reading: t(reading) }) }),
      el("p", { class: "rule", text: rule.never ? rule.text : `${rule.text} ${t("Stop whenever stopping wins the game.")}` }),
      el("p", { text: t("Against {n} perfect players it wins {win} of games instead of a fair {fair}: it gives up {x} points of win probability ({policy}).",
        { n: n - 1, win: words.pct(best.win), fair: words.pct(c.fair_share), x: words.fixed(100 * best.gives_up, 2), policy: best.policy }) }),
      others.length ? el("p", { class: "reading", text: t("Other rules: {list}", { list: others.join(" ") }) }) : "");
  }));
}
onShown((name) => { if (name === "practice") drawCards(); });
