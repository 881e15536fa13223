"""Policy names (solver/lab/grammar.py): each name of the shared fixture (tests/fixtures/policies.json) reads as the
name it normalizes to, or is refused with the fixture's exact words; the page's grammar.js is held to the same
fixture under Node (tests/js/core.test.mjs) and in Chromium."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from solver.game.rules import Rules
from solver.lab import grammar
from solver.lab.policies import parse

POLICIES = json.loads((Path(__file__).parent.parent / "fixtures" / "policies.json").read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", POLICIES, ids=[c["spec"][:40] for c in POLICIES])
def test_the_policy_grammar_gives_the_fixtures_name_or_refusal(case):
    target, dice = case.get("target", 50), case.get("dice", 5)
    if "error" in case:
        with pytest.raises(grammar.PolicyError) as err:
            grammar.read(case["spec"], target, dice)
        assert str(err.value) == case["error"]
    else:
        assert grammar.read(case["spec"], target, dice).name == case["name"]


@pytest.mark.parametrize("case", [c for c in POLICIES if "error" not in c and "page_error" not in c
                                  and c["name"] != "optimal"], ids=lambda c: c["spec"][:40])
def test_the_policies_the_cli_builds_carry_the_normalized_name(case):
    rules = Rules.from_options(reading="rulebook", target=case.get("target", 50))
    assert parse(case["spec"], rules, 5).name == case["name"]
