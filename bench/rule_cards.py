"""The rule cards' numbers (tables/page/rule-cards.json): ``gonuts-solve simple-rules`` for every player count
and reading the page plays, at its target.

The page shows, for each game, the best rule a person can keep in mind and its exact cost against optimal
players; the strategy lab finds them by exact evaluation (``lab.strategy.simple_rules``): seconds for 2 and 3
players, 8 to 12 minutes and 6 GB of memory each for 4 players. So they are computed here once and shipped;
``web`` reads them (``pagegames.rule_cards``), and tests/lab/test_rule_cards.py checks the 2- and 3-player cards
against a fresh ``simple-rules --json`` on every run.

    python bench/rule_cards.py                    # recompute all (about 20 minutes); exit 1 on a difference
    python bench/rule_cards.py --players 2,3      # the quick ones only
    python bench/rule_cards.py --write            # regenerate tables/page/rule-cards.json
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.commands import asked, text  # noqa: E402
from solver.lab.strategy import simple_rules  # noqa: E402
from solver.site.pagegames import RULE_CARDS, rule_card_entry  # noqa: E402

TARGET = 50


def card(players: int, reading: str) -> dict:
    table = asked.load_for({"players": players, "reading": reading, "target": TARGET}, players)
    return rule_card_entry(text.simple_rules_json(table.rules, simple_rules(table.rules, table)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    shipped = json.loads(RULE_CARDS.read_text()) if RULE_CARDS.exists() else {"cards": {}}
    cards, bad = dict(shipped["cards"]), 0
    for players in map(int, args.players.split(",")):
        for reading in ("rulebook", "summary"):
            t0 = time.perf_counter()
            fresh = card(players, reading)
            key = f"{players}-{reading}"
            same = shipped["cards"].get(key) == fresh
            bad += not same
            print(f"{key}: {fresh['best']} gives up {100 * fresh['rules'][fresh['best']]['gives_up']:.2f} points "
                  f"({time.perf_counter() - t0:.0f} s){'' if same else '  DIFFERS from the shipped card'}",
                  flush=True)
            cards[key] = fresh
    if args.write:
        RULE_CARDS.write_text(json.dumps({"about": "simple-rules --json at target 50 for each game the page plays; "
                                                   "bench/rule_cards.py writes it", "target": TARGET,
                                          "cards": dict(sorted(cards.items()))}, indent=1) + "\n")
        print(f"wrote {RULE_CARDS.relative_to(ROOT)}")
        return 0
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
