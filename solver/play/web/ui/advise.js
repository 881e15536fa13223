/* gonuts UI, the Advise tab: one question (scores, turn points, live dice) and its answer with why. */
GonutsUI.advise = (function (ui) {
  "use strict";
  const { core, $, READING, PLAYERS, readingsFor, el, showError, TARGET, ready, fillSelect, wholeNumber,
    whyText, drawAdvice } = ui;
  const adv = { players: $("adv-players"), rules: $("adv-rules"), scores: $("adv-scores"), turn: $("adv-turn"),
                dice: $("adv-dice"), out: $("adv-out"), error: $("adv-error") };
  function advPlayersChanged() {
    const n = Number(adv.players.value);
    fillSelect(adv.rules, readingsFor(n).map((r) => [r, r]), adv.rules.value);
    const old = [...adv.scores.querySelectorAll("input")].map((i) => i.value);
    adv.scores.replaceChildren();
    for (let k = 0; k < n; k++) {
      const name = k === 0 ? "Your score" : k === 1 ? "Next player's score" : k === 2 ? "Then the next's score" : "Then the last's score";
      adv.scores.append(el("label", { text: name }, el("input", { id: `adv-score-${k}`, type: "number", inputmode: "numeric",
        min: "0", max: String(TARGET - 1), step: "1", value: old[k] !== undefined ? old[k] : "0" })));
    }
    $("adv-reading").textContent = READING[adv.rules.value];
  }
  fillSelect(adv.players, PLAYERS.map((p) => [p, `${p} players`]));
  fillSelect(adv.dice, [1, 2, 3, 4, 5].map((d) => [d, `${d} ${d === 1 ? "die" : "dice"}`]), 5);
  adv.players.addEventListener("change", advPlayersChanged);
  adv.rules.addEventListener("change", () => { $("adv-reading").textContent = READING[adv.rules.value]; });
  advPlayersChanged();
  $("advise-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const n = Number(adv.players.value);
      const scores = [];
      for (let k = 0; k < n; k++) scores.push(wholeNumber($(`adv-score-${k}`).value, k === 0 ? "Your score" : `Score ${k + 1}`));
      const turn = wholeNumber(adv.turn.value, "Turn points");
      await ready(n, adv.rules.value);
      const q = { scores, turn, dice: Number(adv.dice.value), rules: adv.rules.value };
      const a = core.advise(q);
      showError(adv.error, "");
      drawAdvice(adv.out, a, null, a.reason === "optimal" ? whyText(a, core.explain(q), q.rules) : null);
    } catch (err) {
      if (!(err instanceof core.GonutsInputError)) throw err;
      showError(adv.error, err.message);
      adv.out.hidden = true;
    }
  });


  return {};
})(GonutsUI);
