"""The strategy lab's searches (solver/lab/strategy.py): the "keep pace, end race" search is exact, checked by the
plain policy evaluation of the independent checks, and never worse than where it started."""
import numpy as np
import pytest

from solver.engine.solve import solve
from solver.game.rules import Rules
from solver.game.turn import turn_model
from solver.lab.policies import parse
from solver.lab.strategy import evaluate_policies, race_rules
from solver.reference.bellman import plain_policy_evaluation
from solver.store.tables import Table


@pytest.mark.parametrize("rules, start", [(Rules.from_options(reading="rulebook", target=20), (2, 3, 6, 10, 14)),
                                          (Rules(game="pig", target=40), (15,))])
@pytest.mark.slow
def test_the_search_is_exact_and_never_worse_than_where_it_started(rules, start):
    model = turn_model(rules)
    res = solve(model, rules.players, rules.target)
    table = Table({"substates": rules.substates}, rules, {"start_win": res.start_win, "roll": res.roll,
                                                          **({"nuts_payout": model.dists[:6]} if rules.game == "gonuts" else {})})
    found = race_rules(rules, table, start, max_rounds=2)
    G, N, D = rules.target, rules.players, rules.substates

    def independent(name):
        """The rule's win probability against optimal play, averaged over seats, by the plain policy evaluation."""
        bits = parse(name, rules, D).bits(G, N, D)
        rolls = [np.unpackbits(b, axis=1, count=G * (D + 1)).reshape((G,) * N + (G, D + 1)).astype(bool)
                 for b in (bits, np.packbits(res.roll.reshape(G ** N, -1), axis=1))]
        V, _ = plain_policy_evaluation(rules, rolls, tol=1e-14)
        return np.mean([V[0, 0, 0], 1 - V[1, 0, 0]])                # rule first, rule second
    # both reported win probabilities are exact, and the deliberately poor start is improved on
    assert found.start.win == pytest.approx(independent(found.start.name), abs=1e-10)
    assert found.best.win == pytest.approx(independent(found.best.name), abs=1e-10)
    assert found.best.win > found.start.win + 1e-4
    rule = parse(found.best.name, rules, D)
    ev = evaluate_policies(rules, [rule, parse("dice:" + "-".join(["1"] * D), rules, D)])
    assert 0 < ev.win[0] < 1
