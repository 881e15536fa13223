"""The one game loop (solver/game/loop.py), event by event, against the rules as printed: a roll moves the turn on,
a stop banks it, all cars loses it, a Go Nuts! round's acorns replace the turn's points (rulebook) or add to them
(summary), reaching the target wins at once, and an event that cannot come next is refused saying what could."""
from __future__ import annotations

import pytest

from solver.game.loop import DECIDE, NUTS_ROUND, OVER, ROLL, START, IllegalEvent, new_game, step
from solver.game.moves import BUST, MOVE, NUTS
from solver.game.rules import Rules


def play(rules, events):
    """The state after the events, and the points each banked (None where a turn did not end)."""
    st, banked = new_game(rules), []
    for kind, value in events:
        moved = step(rules, st, kind, value)
        st = moved.state
        banked.append(moved.banked)
    return st, banked


def test_a_turn_rolls_on_and_a_stop_banks_it_for_the_next_player():
    rules = Rules.from_options(players=3, target=50)
    st, banked = play(rules, [("roll", (MOVE, 2, 4)), ("choice", "roll"), ("roll", (MOVE, 3, 4)), ("choice", "stop")])
    assert banked == [None, None, None, 5]
    assert (st.scores, st.seat, st.turn, st.dice, st.phase) == ((5, 0, 0), 1, 0, 5, START)
    st, _ = play(rules, [("roll", (MOVE, 2, 4))])
    assert (st.turn, st.dice, st.phase) == (2, 4, DECIDE) and st.frame(1) == (0, 0, 0)
    assert step(rules, st, "choice", "roll").state.phase == ROLL


def test_all_cars_loses_the_turn_and_a_banked_turn_counts_whole():
    rules = Rules.from_options(players=2, target=50)
    st, banked = play(rules, [("roll", (MOVE, 4, 5)), ("choice", "roll"), ("roll", (BUST, 0, 0)), ("banked", 9)])
    assert banked == [None, None, 0, 9] and st.scores == (0, 9) and st.seat == 0


@pytest.mark.parametrize("reading, banks", [("rulebook", 7), ("summary", 3 + 7)])
def test_a_go_nuts_round_replaces_or_adds_to_the_turns_points(reading, banks):
    rules = Rules.from_options(reading=reading)
    st, banked = play(rules, [("roll", (MOVE, 3, 5)), ("choice", "roll"), ("roll", (NUTS, 5, 0))])
    assert (st.phase, st.nuts_dice) == (NUTS_ROUND, 5)
    assert step(rules, st, "nuts", 7).banked == banks


def test_reaching_the_target_wins_at_once_and_nothing_comes_after():
    rules = Rules.from_options(players=2, target=4)
    st, banked = play(rules, [("roll", (MOVE, 4, 5))])
    assert (st.phase, st.winner, st.scores, banked) == (OVER, 0, (4, 0), [4])
    with pytest.raises(IllegalEvent, match="the game is already over"):
        step(rules, st, "roll", (MOVE, 1, 5))


def test_an_event_out_of_turn_is_refused_saying_what_comes_next():
    rules = Rules.from_options()
    with pytest.raises(IllegalEvent, match="expected a roll or a banked turn, not a choice"):
        step(rules, new_game(rules), "choice", "stop")
    st, _ = play(rules, [("roll", (MOVE, 1, 5))])
    with pytest.raises(IllegalEvent, match="a banked turn must replace a whole turn"):
        step(rules, st, "banked", 3)
