"""The command line's words (solver/commands/text.py): an advice says the action and both chances as the numbers
are, a forced roll and a winning stop say why, three or more players get every seat's chance, and a table's info
says its own meta."""
from __future__ import annotations

from pathlib import Path

from solver.commands import text
from solver.game.rules import Rules
from solver.play.advise import advise
from solver.store import tables
from solver.store.locate import shipped_dir


def test_a_chance_is_a_percentage_with_two_decimals():
    assert text.pct(0.40188) == " 40.19%" and text.pct(1.0) == "100.00%" and text.pct(None) == "   -   "


def test_an_advice_says_its_action_and_both_chances_and_why_when_it_is_no_choice():
    t = tables.load(shipped_dir() / "gonuts-2p-t50-rulebook.npz")
    a = advise(t, (23, 31), 7, 3)
    said = text.advice(t.rules, a)
    assert said.splitlines()[0] == "Go Nuts!, 2 players, target 50, rulebook reading"
    assert f"{a.action.upper()}: win {100 * a.win_if_roll:.2f}% if you roll, {100 * a.win_if_stop:.2f}% if you stop" in said
    assert "the first roll of a turn is forced" in text.advice(t.rules, advise(t, (0, 0), 0, 5))
    assert "brings you to 50 (target 50): you win." in text.advice(t.rules, advise(t, (45, 3), 5, 2))


def test_three_players_get_every_seats_chance():
    t = tables.load(shipped_dir() / "gonuts-3p-t50-summary.npz")
    said = text.advice(t.rules, advise(t, (10, 20, 30), 4, 4))
    assert "every player's chance, you and then the players after you in turn order:" in said
    assert said.count("if roll") == 1 and said.count("if stop") == 1


def test_a_tables_info_says_its_own_meta():
    path = shipped_dir() / "gonuts-2p-t50-summary.npz"
    t = tables.load(path)
    info = text.info_json(str(path), t)
    assert info["rules"] == Rules.from_options(reading="summary").to_dict() and info["checksum"] == t.meta["checksum"]
    assert abs(sum(info["start_win_at_zero"]) - 1) < 1e-12 and info["size_bytes"] == path.stat().st_size
    assert info["describe"] in text.info(str(path), t)


def test_a_review_counts_one_die_as_a_die():
    import dataclasses

    from solver.play.luck import Split
    from solver.play.record import Review, ReviewedDecision
    d = ReviewedDecision(4, (10, 12), 7, 1, "roll", "stop", 0.40, 0.45, 5.0)
    fields = {f.name: 0.0 for f in dataclasses.fields(Split)}
    rv = Review(type("R", (), {"rules": Rules.from_options(), "you": 0, "mode": "coach", "winner": None,
                               "scores": (10, 12), "names": None, "trace": []})(), (d,), 0, Split(**fields))
    said = text.review(rv)
    assert "7 points, 1 die: 5.00" in said and "1 dice" not in said


def test_a_build_answered_at_once_says_how_long_it_took_and_never_zero(tmp_path):
    from solver.store.build import BuildReport
    rep = BuildReport(tmp_path / "t.npz", {}, 0.00095, 1e-16, 1, True, 0.77, {"orbits_searched": 0})
    said = text.build(rep)
    assert "solved in 0.00095 s, 1 iteration," in said and "0.00 s" not in said
    assert "solved in 12.35 s, 3 iterations," in text.build(BuildReport(tmp_path / "t.npz", {}, 12.345, 1e-16, 3,
                                                                        True, 0.5, {"orbits_searched": 0}))


def test_the_readmes_json_example_is_what_advise_prints():
    import json
    import re
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text()
    block = re.search(r"advise --scores 23,31 --turn 7 --dice 3 --json\n```\n\n```json\n(.*?)\n```", readme, re.S)
    assert block is not None
    shown = json.loads(block.group(1).replace('"rules": {...}', '"rules": null'))
    out = json.loads(subprocess.run([sys.executable, "-m", "cli", "advise", "--scores", "23,31", "--turn", "7",
                                     "--dice", "3", "--json"], cwd=root, capture_output=True, text=True,
                                    timeout=120).stdout)
    assert {k: v for k, v in out.items() if k != "rules"} == {k: v for k, v in shown.items() if k != "rules"}


def test_the_readings_help_points_at_what_explains_them():
    import click

    from solver.commands.options import RULE_OPTIONS
    cmd = click.Command("x", params=[], callback=lambda **kw: None)
    for opt in RULE_OPTIONS:
        cmd = opt(cmd)
    help_text = " ".join(p.help or "" for p in cmd.params if "--rules" in getattr(p, "opts", []))
    assert "The two readings" in help_text
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert "**The two readings** (`--rules`)" in readme
