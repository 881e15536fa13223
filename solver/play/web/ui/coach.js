/* gonuts UI, the Coach tab: a real game with real dice, entered roll by roll; advice at each of the
 * player's decisions, the other players' turns entered as banked totals, Undo. */
GonutsUI.coach = (function (ui) {
  "use strict";
  const { core, $, READING, PLAYERS, readingsFor, pct, store, showError, ready, fillSelect, wholeNumber,
    drawAdvice, newRecord, youWin, drawBoard, youFrameAdvice, youFrameWhy, drawLog, turnText, drawOver,
    seatLabels, seatOptions, pushEntered, undoEntered } = ui;
  const coach = { record: null };
  const COACH_KEY = ui.storageKey("gonuts.coach.v1");
  const coachNames = (r) => Array.from({ length: r.players }, (_, i) => i === r.you ? "You" : `Player ${i + 1}`);
  function coachSetupChanged() {
    const n = Number($("coach-players").value);
    fillSelect($("coach-rules"), readingsFor(n).map((r) => [r, r]), $("coach-rules").value);
    fillSelect($("coach-seat"), seatOptions(n), $("coach-seat").value);
  }
  fillSelect($("coach-players"), PLAYERS.map((p) => [p, `${p} players`]));
  $("coach-players").addEventListener("change", coachSetupChanged);
  coachSetupChanged();
  $("coach-setup").addEventListener("submit", async (e) => {
    e.preventDefault();
    const cfg = { players: Number($("coach-players").value), rules: $("coach-rules").value, seat: Number($("coach-seat").value) };
    try { await ready(cfg.players, cfg.rules); }
    catch (err) { if (!(err instanceof core.GonutsInputError)) throw err; showError($("coach-error"), err.message); return; }
    await own.take(true);
    if (coach.record && coach.record.events.length) store.set(ASIDE_KEY, coach.record);   // undoable: Resume
    coach.record = newRecord("coach", cfg);
    store.set(COACH_KEY, coach.record);
    showError($("coach-error"), "");
    $("coach-new").open = false;
    drawCoach();
  });
  /* A new coached game sets the running one aside (ASIDE_KEY): Resume brings it back, and the new one goes
   * aside in its place. */
  const ASIDE_KEY = `${COACH_KEY}.aside`;
  function drawAside() {
    let aside = null;
    try { aside = JSON.parse(localStorage.getItem(ASIDE_KEY) || "null"); } catch (e) { /* unreadable: none */ }
    const ok = !!aside && Array.isArray(aside.events);
    $("coach-resume").hidden = !ok;
    if (ok) $("coach-resume").textContent = `Resume the game set aside (${aside.players} players, ${aside.events.length} entries)`;
    return ok ? aside : null;
  }
  $("coach-resume").addEventListener("click", async () => {
    const aside = drawAside();
    try { core.replay(aside); await ready(aside.players, aside.rules); }
    catch (err) { showError($("coach-error"), `That game cannot be resumed: ${err.message}`); return; }
    await own.take(true);
    store.set(ASIDE_KEY, coach.record && coach.record.events.length ? coach.record : null);
    coach.record = aside;
    store.set(COACH_KEY, coach.record);
    $("coach-new").open = false;
    drawCoach();
  });
  const COACH = { mode: "coach", key: COACH_KEY, state: coach, draw: () => drawCoach() };
  const coachPush = (ev) => pushEntered(COACH, ev);
  function coachEntry(fn) {
    return (e) => {
      if (e) e.preventDefault();
      try { fn(); } catch (err) { if (!(err instanceof core.GonutsInputError)) throw err; showError($("coach-error"), err.message); }
    };
  }
  $("coach-roll").addEventListener("submit", coachEntry(() => {
    const st = core.replay(coach.record);
    const roll = [wholeNumber($("coach-a").value, "Acorns"), wholeNumber($("coach-s").value, "Squirrels"), wholeNumber($("coach-c").value, "Cars")];
    if (coachPush({ seat: st.seat, roll })) for (const id of ["coach-a", "coach-s", "coach-c"]) $(id).value = "0";
  }));
  $("coach-nuts").addEventListener("submit", coachEntry(() => {
    const st = core.replay(coach.record);
    if (coachPush({ seat: st.seat, nuts: wholeNumber($("coach-nuts-n").value, "Acorns of the Go Nuts! round") })) $("coach-nuts-n").value = "0";
  }));
  $("coach-bank").addEventListener("submit", coachEntry(() => {
    const st = core.replay(coach.record);
    if (coachPush({ seat: st.seat, banked: wholeNumber($("coach-bank-n").value, "Points banked") })) $("coach-bank-n").value = "0";
  }));
  $("coach-do-roll").addEventListener("click", coachEntry(() => coachPush({ seat: coach.record.you, choice: "roll" })));
  $("coach-do-stop").addEventListener("click", coachEntry(() => coachPush({ seat: coach.record.you, choice: "stop" })));
  $("coach-undo").addEventListener("click", () => undoEntered(COACH));
  function drawCoach() {
    drawAside();
    const r = coach.record;
    $("coach-game").hidden = !r;
    if (!r) return;
    const st = core.replay(r), names = coachNames(r);
    $("coach-reading").textContent = `${r.players} players, target ${r.target}. ${READING[r.rules]}`;
    drawBoard($("coach-board"), r, st, names);
    $("coach-turn").textContent = turnText(r, st, names);
    const mine = st.seat === r.you && st.phase !== "over";
    $("coach-roll").hidden = !(mine && (st.phase === "start" || st.phase === "roll"));
    $("coach-nuts").hidden = !(mine && st.phase === "nuts");
    $("coach-bank").hidden = !(!mine && st.phase === "start");
    $("coach-decide").hidden = !(mine && st.phase === "decide");
    $("coach-undo").disabled = r.events.length === 0;
    if (!$("coach-roll").hidden) {
      $("coach-roll-q").textContent = st.phase === "start"
        ? `Your turn. Roll all 5 dice and enter what they show (your chance of winning from here: ${pct(youWin(r, st))}).`
        : `Roll your ${st.n} live ${st.n === 1 ? "die" : "dice"} and enter what ${st.n === 1 ? "it shows" : "they show"}.`;
      for (const id of ["coach-a", "coach-s", "coach-c"]) $(id).max = String(st.n);
    }
    if (!$("coach-nuts").hidden) {
      const dice = st.nutsDice;
      $("coach-nuts-q").firstChild.textContent = `Go Nuts! Throw ${dice} ${dice === 1 ? "die" : "dice"} until every opponent rolls a dog. Acorns collected in the round `;
    }
    if (!$("coach-bank").hidden) $("coach-bank-q").firstChild.textContent = `${names[st.seat]}'s turn: points banked (0 if the turn was lost) `;
    if (!$("coach-decide").hidden) {
      const a = youFrameAdvice(r, st);
      drawAdvice($("coach-advice"), a, seatLabels(r), youFrameWhy(r, st, a));
    }
    drawOver("coach", r, st, names);
    drawLog($("coach-log"), r, names);
    if (own.following()) for (const c of $("coach-game").querySelectorAll("button, input")) c.disabled = true;
  }


  /* One tab writes the coached game (ui.owner); another follows it read-only until it takes it over. */
  const own = ui.owner(COACH_KEY, {
    follow(on) {
      $("coach-follow").hidden = !on;
      if (!on) for (const c of $("coach-game").querySelectorAll("button, input")) c.disabled = false;
      drawCoach();
    },
    reload(text) { try { coach.record = JSON.parse(text); } catch (e) { return; } drawCoach(); },
  });
  $("coach-take").addEventListener("click", () => own.take(true));

  return { state: coach, game: COACH, own: own.take };
})(GonutsUI);
