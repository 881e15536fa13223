/* gonuts UI, the Practice tab: decisions drawn as `gonuts-solve practice` draws them (core.practice), each
 * answered Roll or Stop and then judged (right or not, its cost, both chances, why); the score is the mean
 * loss per decision, the best and the last sessions kept. The daily set is the same for everyone on a date,
 * with a line to share that gives nothing away. Below: the rule to remember for each game, from the
 * strategy lab (data.rule_cards), printable. A session in progress survives a reload: its seed redraws it. */
GonutsUI.practice = (function (ui) {
  "use strict";
  const { data, core, $, el, pct, showError, ready, fillSelect, storageKey, whyText, PLAYERS, readingsFor, raw,
    keepAside } = ui;
  const KEY = storageKey("gonuts.practice.v1");
  const DAILY = data.practice.daily;
  const SQUARES = ["\u{1F7E9}", "\u{1F7E8}", "\u{1F7E5}"];    // right, a slip under a point, a mistake
  const prac = { session: null, picks: [], g: null };

  /* The saved scores, or {} with the stored text kept aside and named (as a damaged game is) when any part has
   * another shape: a stored value never breaks the tab. */
  const isResult = (r) => r !== null && typeof r === "object" && Number.isFinite(r.mean) && Number.isInteger(r.n) &&
    Number.isInteger(r.right) && typeof r.what === "string";
  const isMap = (m) => m !== null && typeof m === "object" && !Array.isArray(m);
  function saved() {
    const text = raw(KEY);
    if (text === null) return {};
    let v = null;
    try { v = JSON.parse(text); } catch (e) { /* kept aside below */ }
    if (isMap(v) && (v.last === undefined || isResult(v.last)) && (v.best === undefined || isResult(v.best)) &&
        (v.daily === undefined || (isMap(v.daily) && Object.values(v.daily).every((d) => Array.isArray(d) &&
          d.every(Number.isFinite)))) && (v.session === undefined || isMap(v.session))) return v;
    keepAside("prac", KEY, text, "the saved practice scores have a shape this page does not know");
    try { localStorage.removeItem(KEY); } catch (e) { /* storage off: kept aside all the same */ }
    return {};
  }
  const keep = (v) => { try { localStorage.setItem(KEY, JSON.stringify(v)); } catch (e) { /* a score is not a game: lost quietly */ } };
  const today = () => { const d = new Date(); return [d.getFullYear(), d.getMonth() + 1, d.getDate()]; };
  const iso = ([y, m, d]) => `${y}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
  const mean = (losses) => (losses.length ? losses.reduce((a, b) => a + b, 0) / losses.length : 0);
  const lossOf = (p, answer) => 100 * (Math.max(p.win_if_roll, p.win_if_stop) - (answer === "roll" ? p.win_if_roll : p.win_if_stop));

  function fillSetup() {
    const n = Number($("prac-players").value) || PLAYERS[0];
    fillSelect($("prac-players"), PLAYERS.map((p) => [p, `${p} players`]), n);
    fillSelect($("prac-rules"), readingsFor(Number($("prac-players").value)).map((r) => [r, r]), $("prac-rules").value);
    drawScores();
    drawCards();
  }
  function drawScores() {
    const s = saved(), line = (what, r) => `${what}: ${r.mean.toFixed(2)} points per decision over ${r.n} (${r.right} right, ${r.what}).`;
    $("prac-scores").textContent = [s.last ? line("Last session", s.last) : "", s.best ? line("Best", s.best) : ""].filter(Boolean).join(" ");
  }

  /* A session: {seed, count, players, rules, daily: "YYYY-MM-DD" or null, answers: ["roll" | "stop", ...]}. */
  async function start(session) {
    showError($("prac-error"), "");
    try {
      await ready(session.players, session.rules);
      prac.g = core.game(session.players, session.rules);
      prac.picks = core.practiceIn(prac.g, session.seed, session.count);
    } catch (e) {
      if (!(e instanceof core.GonutsInputError)) throw e;
      const st = saved();                      // a session this page cannot draw (another page's game) is let go
      if (st.session) { delete st.session; keep(st); }
      showError($("prac-error"), e.message); return;
    }
    prac.session = session;
    keep(Object.assign(saved(), { session }));
    $("prac-setup").hidden = true; $("prac-result").hidden = true; $("prac-quiz").hidden = false;
    if (session.answers.length >= session.count) finish(); else ask(session.answers.length);
  }
  function ask(i) {
    const s = prac.session, p = prac.picks[i];
    $("prac-progress").textContent = `${s.daily ? `Daily set ${s.daily}` : `${s.players} players, ${s.rules}`}: decision ${i + 1} of ${s.count}`;
    $("prac-state").textContent = `Scores ${p.scores.map((x, k) => (k === 0 ? `${x} (you)` : String(x))).join(", ")}; ${p.turn} turn points; ${p.dice} ${p.dice === 1 ? "die" : "dice"} live.`;
    for (const b of ["prac-roll", "prac-stop"]) { $(b).removeAttribute("aria-disabled"); $(b).classList.remove("advised", "chosen"); }
    $("prac-verdict").replaceChildren();
    $("prac-why").textContent = "";
    $("prac-next").hidden = true;
    $("prac-quiz").scrollIntoView({ block: "start" });
    $("prac-roll").focus({ preventScroll: true });
  }
  function answer(choice) {
    const s = prac.session, i = s.answers.length, p = prac.picks[i];
    if (!p || $("prac-roll").getAttribute("aria-disabled") === "true") return;      // answered: a second tap is ignored
    s.answers.push(choice);
    keep(Object.assign(saved(), { session: s }));
    const loss = lossOf(p, choice), best = p.action;
    for (const b of ["prac-roll", "prac-stop"]) $(b).setAttribute("aria-disabled", "true");
    $(`prac-${best}`).classList.add("advised"); $(`prac-${choice}`).classList.add("chosen");
    const why = whyText(p, core.explainIn(prac.g, p.scores, p.turn, p.dice), s.rules);
    $("prac-verdict").replaceChildren(
      el("p", { class: `verdict ${loss === 0 ? "roll" : "stop"}`, id: "prac-judged", "data-loss": String(loss),
                text: loss === 0 ? `Right: ${best}.` : `Not quite: ${best} is better by ${loss.toFixed(2)} points.` }),
      el("p", { text: `Win if roll ${pct(p.win_if_roll)}, if stop ${pct(p.win_if_stop)}${p.close ? " (a close call)" : ""}.` }));
    $("prac-why").textContent = why;
    $("prac-next").hidden = false;
    $("prac-next").textContent = i + 1 < s.count ? "Next" : "See the score";
    $("prac-next").focus({ preventScroll: true });
  }
  function squares(losses) { return losses.map((x) => SQUARES[x === 0 ? 0 : x < 1 ? 1 : 2]).join(""); }
  function finish() {
    const s = prac.session, losses = s.answers.map((a, i) => lossOf(prac.picks[i], a));
    const right = losses.filter((x) => x === 0).length, m = mean(losses), n = losses.length;
    const st = saved();
    if (n) {
      const result = { mean: m, n, right, what: s.daily ? `daily set ${s.daily}` : `${s.players} players, ${s.rules}` };
      st.last = result;
      if (!st.best || m < st.best.mean || (m === st.best.mean && n > st.best.n)) st.best = result;
      if (s.daily && n === s.count) { st.daily = Object.assign({}, st.daily); if (!st.daily[s.daily]) st.daily[s.daily] = losses; }
    }
    delete st.session;
    keep(st);
    prac.session = null;
    $("prac-quiz").hidden = true; $("prac-result").hidden = false;
    $("prac-total").dataset.mean = String(m);
    $("prac-total").textContent = n ? `${right} of ${n} right; ${m.toFixed(2)} points of win probability given up per decision (0 is perfect).` : "No decisions answered.";
    const line = s.daily && n === s.count ? `Go Nuts! practice ${s.daily} \u00b7 ${right}/${n} \u00b7 ${m.toFixed(1)} points ${squares(losses)}` : "";
    $("prac-share-line").textContent = line;
    $("prac-share").hidden = !line;
    $("prac-shared").textContent = "";
    drawScores();
  }
  async function share() {
    const text = $("prac-share-line").textContent;
    try {
      if (navigator.share) { await navigator.share({ text }); $("prac-shared").textContent = "Shared."; return; }
      await navigator.clipboard.writeText(text); $("prac-shared").textContent = "Copied: paste it anywhere.";
    } catch (e) {
      $("prac-shared").textContent = e && e.name === "AbortError" ? "" : "Select the line above and copy it.";
    }
  }

  // -- the rule to remember -------------------------------------------------------------------------
  const dice = (n) => `${n} ${n === 1 ? "die" : "dice"}`;
  /* A policy of the strategy lab in words a child can follow (a threshold of the target or more: never stop). */
  function ruleWords(policy) {
    const G = data.record.target, [kind, body] = policy.split(":");
    if (kind === "hold") {
      const [k, d] = body.split("/").map(Number);
      if (k >= G && d === undefined) return "Never stop: keep rolling until this turn wins the game.";
      return d === undefined ? `Roll until this turn has ${k} points, then stop.`
        : `Roll until this turn has ${k} points, or until only ${d === 1 ? "one die is" : `${d} dice or fewer are`} left, then stop.`;
    }
    const ks = body.split("-").map(Number);
    const parts = ks.map((k, i) => `with ${dice(i + 1)} left, ${k === 0 ? "always stop" : k >= G ? "keep rolling" : `stop at ${k}`}`).reverse();
    return `Roll until this turn has enough points for the dice left: ${parts.join("; ")}.`;
  }
  function drawCards() {
    const cards = data.rule_cards || {}, keys = Object.keys(cards).sort();
    $("rule-cards").hidden = !keys.length;
    $("rule-list").replaceChildren(...keys.map((key) => {
      const c = cards[key], [players, reading] = key.split("-"), best = c.rules[c.best];
      const seen = new Set([best.policy]);
      const others = ["hold", "hold_dice", "per_dice"].filter((k) => !seen.has(c.rules[k].policy) && seen.add(c.rules[k].policy))
        .map((k) => `${ruleWords(c.rules[k].policy)} (gives up ${(100 * c.rules[k].gives_up).toFixed(2)})`);
      const words = ruleWords(best.policy);
      return el("article", { class: "rulecard", id: `rule-${key}`, "data-policy": best.policy, "data-gives-up": String(best.gives_up) },
        el("h3", { text: `${players} players, ${reading} reading` }),
        el("p", { class: "rule", text: words.startsWith("Never stop") ? words : `${words} Stop whenever stopping wins the game.` }),
        el("p", { text: `Against ${players - 1} perfect player${players > 2 ? "s" : ""} it wins ${pct(best.win)} of games instead of a fair ${pct(c.fair_share)}: it gives up ${(100 * best.gives_up).toFixed(2)} points of win probability (${best.policy}).` }),
        others.length ? el("p", { class: "reading", text: `Other rules: ${others.join(" ")}` }) : "");
    }));
  }

  $("prac-players").addEventListener("change", fillSetup);
  $("prac-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const count = Number($("prac-count").value);
    if (!Number.isInteger(count) || count < 1 || count > data.practice.max_count) {
      showError($("prac-error"), `Decisions must be a whole number from 1 to ${data.practice.max_count}`); return;
    }
    const seed = crypto.getRandomValues(new Uint32Array(1))[0];
    start({ seed, count, players: Number($("prac-players").value), rules: $("prac-rules").value, daily: null, answers: [] });
  });
  $("prac-daily").addEventListener("click", () => {
    const d = today();
    start({ seed: core.dailySeed(...d), count: DAILY.count, players: DAILY.players, rules: DAILY.rules, daily: iso(d), answers: [] });
  });
  $("prac-roll").addEventListener("click", () => answer("roll"));
  $("prac-stop").addEventListener("click", () => answer("stop"));
  $("prac-next").addEventListener("click", () => { const i = prac.session.answers.length; if (i < prac.session.count) ask(i); else finish(); });
  $("prac-quit").addEventListener("click", finish);
  $("prac-again").addEventListener("click", () => { $("prac-result").hidden = true; $("prac-setup").hidden = false; });
  $("prac-share").addEventListener("click", share);
  $("rule-print").addEventListener("click", () => window.print());

  /* At start: a session in progress (saved before a reload) is taken up where it was. */
  function restore() {
    fillSetup();
    const s = saved().session;
    const ok = s && Number.isInteger(s.seed) && Number.isInteger(s.count) && Array.isArray(s.answers) &&
      s.answers.every((a) => a === "roll" || a === "stop") && s.answers.length <= s.count;
    if (ok) return start(s);
    return null;
  }
  return { restore, state: prac, ruleWords };
})(GonutsUI);
