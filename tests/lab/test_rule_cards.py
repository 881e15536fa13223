"""The rule cards: the shipped numbers (tables/page/rule-cards.json, written by bench/rule_cards.py)
are simple-rules --json's. The 2-player cards are recomputed here on every run (seconds); 3 and 4 players
take minutes and gigabytes (bench/rule_cards.py recomputes and compares them all)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from solver.site.pagegames import CARD_RULES, RULE_CARDS, rule_card_entry, rule_cards

ROOT = Path(__file__).resolve().parent.parent.parent
SHIPPED = json.loads(RULE_CARDS.read_text())


def test_every_game_the_page_plays_has_a_card_with_its_best_rule():
    assert SHIPPED["target"] == 50
    assert sorted(SHIPPED["cards"]) == [f"{n}-{r}" for n in (2, 3, 4) for r in ("rulebook", "summary")]
    for key, card in SHIPPED["cards"].items():
        assert card["players"] == int(key[0]) and card["fair_share"] == pytest.approx(1 / card["players"])
        gives = {k: card["rules"][k]["gives_up"] for k in CARD_RULES}
        assert gives[card["best"]] == min(gives.values())
        for k in CARD_RULES:
            r = card["rules"][k]
            assert r["win"] + r["gives_up"] == pytest.approx(card["fair_share"], abs=1e-12)
            assert r["policy"].startswith({"hold": "hold:", "hold_dice": "hold:", "per_dice": "dice:"}[k])
    assert rule_cards({"2-rulebook"}, 50) == {"2-rulebook": SHIPPED["cards"]["2-rulebook"]}
    assert rule_cards({"2-rulebook"}, 30) == {}                      # another target: no card (not computed)


@pytest.mark.parametrize("reading", ["rulebook", "summary"])
def test_the_two_player_cards_are_a_fresh_simple_rules(reading, private_cache):
    p = subprocess.run([sys.executable, "-m", "cli", "simple-rules", "--players", "2", "--rules", reading, "--json"],
                       cwd=ROOT, capture_output=True, text=True, timeout=600, env=os.environ)
    assert p.returncode == 0, p.stderr
    assert rule_card_entry(json.loads(p.stdout)) == SHIPPED["cards"][f"2-{reading}"]
