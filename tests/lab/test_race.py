"""Score-aware "keep pace, end race" rules: the policy, its fast packing, and the exact search."""
import numpy as np
import pytest

from solver.engine.solve import solve
from solver.game.rules import Rules
from solver.game.turn import turn_model
from solver.lab.policies import Policy, PolicyError, parse
from solver.lab.strategy import evaluate_policies, race_rules
from solver.reference.bellman import plain_policy_evaluation
from solver.store.tables import Table


@pytest.mark.parametrize("players, spec", [(2, "race:5-7-15-27-37/8/10"), (3, "race:3-9-12-20-40/5/0"),
                                           (4, "race:2-4-6-8-9/0/3")])
@pytest.mark.slow
def test_packed_decisions_equal_the_rule_state_by_state(players, spec):
    G = 50 if players < 4 else 10
    rules = Rules.from_options(reading="rulebook", players=players, target=G)
    p = parse(spec, rules, 5)
    assert np.array_equal(p.bits(G, players, 5), Policy.bits(p, G, players, 5))


def test_the_rule_reads_as_written():
    rules = Rules.from_options(reading="rulebook")
    p = parse("race:5-7-15-27-37/8/10", rules, 5)

    def roll(s0, s1, t, n):
        return bool(p.decide(np.array([[s0, s1]]), np.array([t]), np.array([n]))[0])
    assert roll(10, 10, 14, 3) and not roll(10, 10, 15, 3)          # level: stop at K_3 = 15
    assert roll(10, 26, 16, 3) and not roll(10, 26, 17, 3)          # 16 behind: 15 + round(16 / 8) = 17
    assert not roll(26, 10, 13, 3)                                  # 16 ahead: 15 - 2 = 13
    assert roll(10, 40, 30, 1) and roll(40, 10, 9, 1)               # someone within 10 of 50: roll on
    assert not roll(45, 10, 5, 2)                                   # stopping wins: stop
    assert np.array_equal(parse("race:5-7-15-27-37/0/0", rules, 5).bits(50, 2, 5),
                          parse("dice:5-7-15-27-37", rules, 5).bits(50, 2, 5))


@pytest.mark.parametrize("spec, message", [("race:1-2-3/8/2", "give 5 thresholds"), ("race:1-2-3-4-5/8", "write race:"),
                                           ("race:1-2-3-4-5/x/2", "P must be"), ("race:0-0-0-0-0/4/0", "never")])
def test_bad_race_rules_are_refused(spec, message):
    with pytest.raises(PolicyError, match=message):
        parse(spec, Rules.from_options(reading="rulebook"), 5)


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
