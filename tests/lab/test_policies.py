"""Policies as values (solver/lab/policies.py): each name reads as its rule, packs into the decisions it decides
state by state, and a name or a function that cannot be a policy is refused in words."""
from __future__ import annotations

import numpy as np
import pytest

from solver.game.rules import Rules
from solver.lab.policies import CallablePolicy, Policy, PolicyError, hold, parse


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


@pytest.mark.parametrize("spec", ["hold:0", "hold:51", "hold:x", "hold:10/5", "dice:1-2-3", "dice:0-0-0-0-0",
                                  "frobnicate", "nosuchmodule_xyz:f", "os:nosuchfunction"])
def test_bad_policy_specs_are_refused(spec):
    with pytest.raises(PolicyError):
        parse(spec, Rules.from_options(), 5, lambda: None)


def test_broken_callables_are_reported():
    bad = CallablePolicy(lambda s, t, n: 1 / 0, "boom")
    with pytest.raises(PolicyError, match="ZeroDivisionError"):
        bad.bits(5, 2, 5)
    weird = CallablePolicy(lambda s, t, n: "yes", "weird")
    with pytest.raises(PolicyError, match="not True/False"):
        weird.bits(5, 2, 5)
    ok = CallablePolicy(lambda s, t, n: t < 4, "mine")
    assert np.array_equal(ok.bits(12, 2, 5), hold(4, 12, 5).bits(12, 2, 5))
