"""The live game the three adapters share (solver/adapters/live.py): its rules from the frameworks' parameters, the
older name of the reading included, the same game in each."""
import pytest

pytestmark = [pytest.mark.rl, pytest.mark.usefixtures("rl_cache")]
pyspiel = pytest.importorskip("pyspiel", reason="the adapters' tests need the rl extra (pip install \".[rl]\")")
pytest.importorskip("gymnasium", reason="the adapters' tests need the rl extra (pip install \".[rl]\")")
pytest.importorskip("pettingzoo", reason="the adapters' tests need the rl extra (pip install \".[rl]\")")

from solver.adapters import gymnasium_env, openspiel_game, pettingzoo_env  # noqa: E402,F401 (registers the games)
from solver.adapters.live import game_rules  # noqa: E402
from solver.game.rules import Rules  # noqa: E402


def test_the_frameworks_parameters_make_the_rules_and_a_bad_one_is_a_value_error():
    assert game_rules() == Rules.from_options()
    assert game_rules(3, 20, "summary") == Rules.from_options(players=3, target=20, reading="summary")
    assert game_rules(2, 30, game="pig") == Rules.from_options(game="pig", target=30)
    for bad, words in (({"reading": "house"}, "reading must be one of rulebook, summary"), ({"players": 9}, "players"),
                       ({"reading": "summary", "rules": "summary"}, "reading once")):
        with pytest.raises(ValueError, match=words):
            game_rules(**bad)




def test_the_older_name_of_the_reading_still_makes_the_same_game():
    """Code written when the reading was called ``rules`` keeps working in every framework."""
    summary = Rules.from_options(reading="summary", players=3, target=20)
    assert pettingzoo_env.raw_env(players=3, target=20, rules="summary").game_rules == summary
    assert gymnasium_env.GoNutsEnv(players=3, target=20, rules="summary").game_rules == summary
    old, new = (pyspiel.load_game(f"python_gonuts(players=3,target=20,{p}=summary)") for p in ("rules", "reading"))
    assert old.rules == new.rules == summary
