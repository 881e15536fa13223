"""A turn as the engine sees it (solver/game/turn.py): from each number of live dice, the moves and the endings
are every roll once with its chance, a Go Nuts! round ends the turn with its exact payout (replacing or adding to
the turn's points as the reading says), a malformed model is refused, and Pig is one die."""
from __future__ import annotations

import numpy as np
import pytest

from solver.errors import RulesError
from solver.game.moves import roll_table
from solver.game.payout import nuts_payout_table
from solver.game.rules import Rules
from solver.game.turn import ENDING, MOVE, TurnModel, gonuts_turn, turn_model


@pytest.mark.parametrize("reading", ["rulebook", "summary"])
def test_each_roll_is_a_move_or_an_ending_with_its_chance(reading):
    rules = Rules.from_options(reading=reading, players=3, target=30)
    model = turn_model(rules)
    _, rolls = roll_table(rules)
    for n in range(1, 6):
        moves = model.moves[model.moves["src"] == n]
        ends = model.endings[model.endings["src"] == n]
        assert len(moves) + len(ends) == len(rolls[n])
        assert abs(moves["p"].sum() + ends["p"].sum() - 1) < 1e-12
        bust = ends[ends["dist"] == 0]
        assert abs(bust["p"].sum() - (1 / 6) ** n) < 1e-15 and not bust["rel"].any()
        nuts = ends[ends["dist"] > 0]
        assert abs(nuts["p"].sum() - (1 / 2) ** n) < 1e-15
        assert (nuts["rel"] == (reading == "summary")).all()          # the summary adds the round to the turn
    assert np.array_equal(model.dists[1:], nuts_payout_table(rules)[1:6])
    assert model.dists[0, 0] == 1 and model.start == 5


def test_a_model_whose_chances_do_not_sum_to_one_is_refused():
    rules = Rules.from_options(target=10)
    good = gonuts_turn(rules, nuts_payout_table(rules))
    moves = good.moves.copy()
    moves["p"][0] *= 0.5
    with pytest.raises(RulesError, match="sum to"):
        TurnModel("broken", 5, 5, moves, good.endings, good.dists, good.tails)
    with pytest.raises(RulesError, match="not a pmf"):
        TurnModel("broken", 5, 5, good.moves, good.endings, good.dists * 2, good.tails)


@pytest.mark.parametrize("change", ["first", "last", "rises", "apart"])
def test_a_model_whose_tails_are_not_its_distributions_is_refused(change):
    """The kernel reads P(gain >= h) from the tails: they start at 1, end at the last bin, never rise, and step
    down by each bin."""
    rules = Rules.from_options(target=10)
    good = gonuts_turn(rules, nuts_payout_table(rules))
    tails = good.tails.copy()
    if change == "first":
        tails[3, 0] = 0.99
    elif change == "last":
        tails[3, -1] += 1e-3
    elif change == "rises":
        tails[2, 4] = tails[2, 3] + 0.01
    else:
        tails[4, 5] -= 1e-6
    with pytest.raises(RulesError, match="the tails are not those of the gain distributions"):
        TurnModel("broken", 5, 5, good.moves, good.endings, good.dists, tails)


def test_pig_is_one_die():
    model = turn_model(Rules.from_options(game="pig", target=20))
    assert model.substates == 1 and sorted(model.moves["da"]) == [2, 3, 4, 5, 6]
    assert np.array_equal(model.endings, np.array([(1, 1 / 6, 0, False)], ENDING))
    assert model.moves.dtype == MOVE
