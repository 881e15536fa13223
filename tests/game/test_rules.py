import pytest

from solver.errors import RulesError
from solver.game.rules import Rules


def test_the_readings_follow_the_readings_table():
    rb, su = Rules.from_options(reading="rulebook"), Rules.from_options(reading="summary")
    assert (rb.nuts_costs_turn, rb.nuts_all_dice, rb.one_die) == (True, False, "rolled")
    assert (su.nuts_costs_turn, su.nuts_all_dice, su.one_die) == (False, True, "left")
    assert rb == Rules() and rb.reading_name() == "rulebook" and su.reading_name() == "summary"
    assert (rb.players, rb.target, rb.faces, rb.dog, rb.speed) == (2, 50, (2, 3, 1), (1, 5), 1.0)
    assert rb.p_acorn == pytest.approx(1 / 3) and rb.p_dog == pytest.approx(1 / 6)


def test_rules_round_trip_through_dict():
    r = Rules.from_options(reading="summary", players=3, target=20, faces=(3, 2, 1), dog=(2, 4), speed=1.5)
    assert Rules.from_dict(r.to_dict()) == r
    assert r.reading_name() == "summary"


@pytest.mark.parametrize("kwargs, word", [
    (dict(players=1), "players"), (dict(players=5), "players"), (dict(target=0), "target"),
    (dict(faces=(0, 3, 1)), "acorn"), (dict(faces=(2, -1, 1)), "faces"), (dict(faces=(2, 3)), "faces"),
    (dict(faces=(1, 0, 0)), "two faces"), (dict(dog=(0, 5)), "dog"), (dict(speed=0), "speed"),
    (dict(speed=float("nan")), "speed"), (dict(one_die="maybe"), "one_die"), (dict(game="chess"), "game"),
    (dict(target=2.5), "target"), (dict(nuts_costs_turn="yes"), "nuts_costs_turn"),
    (dict(game="pig", faces=(1, 1, 1)), "pig"),
])
def test_invalid_rules_are_refused_naming_the_knob(kwargs, word):
    with pytest.raises(RulesError, match=word):
        Rules(**kwargs)


def test_unknown_reading_and_knob():
    with pytest.raises(RulesError, match="reading must be one of rulebook, summary, not 'house'"):
        Rules.from_options(reading="house")
    with pytest.raises(RulesError, match="unknown"):
        Rules.from_dict({"colour": "red"})
