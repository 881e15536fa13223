"""The review command (solver/commands/reviews.py): a record file reviewed as the library reviews it, in JSON and in
words; a history file's games one by one or one of them; bad records and histories refused in one line naming the
entry, never an internal error."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_record import _cli, _literal_game, ev, record

from solver.commands.reviews import records_of
from solver.errors import one_line
from solver.play.record import RecordError, review


@pytest.mark.slow
def test_review_command_json_and_text(tmp_path, rulebook2):
    events, _, _ = _literal_game(3, "rulebook", 2)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record(events)))
    p = _cli("review", path, "--json", cache=tmp_path)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    want = review(record(events), rulebook2).to_dict()
    assert [d["event"] for d in out["decisions"]] == [d["event"] for d in want["decisions"]]
    for a, b in zip(out["decisions"], want["decisions"]):
        assert a["loss_points"] == pytest.approx(b["loss_points"], abs=1e-9)
    assert out["total_loss_points"] == pytest.approx(want["total_loss_points"], abs=1e-9)
    text = _cli("review", path, cache=tmp_path)
    assert text.returncode == 0 and "total given up" in text.stdout


@pytest.mark.parametrize("content, message", [
    ("{not json", "is not JSON"),
    (json.dumps([1, 2]), "a game record must be a JSON object"),
    (json.dumps(record([ev(0, roll=[1, 1, 1])])), "event 0: 1\\+1\\+1 = 3 dice, but 5 dice are live"),
])
def test_review_command_refuses_bad_records_in_one_line(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    p = _cli("review", path, cache=tmp_path)
    assert p.returncode == 1
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gonuts-solve: error:"), p.stderr
    import re
    assert re.search(message, lines[0])


def test_review_command_missing_file(tmp_path):
    p = _cli("review", tmp_path / "nope.json", cache=tmp_path)
    assert p.returncode == 1 and "no game record at" in p.stderr


def test_review_of_a_table_game_by_seat(tmp_path):
    """A table game keeps every seat's decisions: --seat K reviews one, --all-seats all; a seat without
    decisions says so in one line (and its luck in another); a seat that does not exist is refused in one line."""
    import subprocess
    import sys
    root = Path(__file__).resolve().parent.parent.parent
    record = {"format": "gonuts-game", "version": 1, "reading": "rulebook", "players": 2, "you": 0, "mode": "table",
              "names": ["Ana", "Ben"], "hints": [True, True],
              "events": [{"seat": 0, "roll": [2, 2, 1]}, {"seat": 0, "choice": "roll"}, {"seat": 0, "roll": [1, 1, 2]},
                         {"seat": 0, "choice": "stop"}, {"seat": 1, "banked": 5}, {"seat": 0, "banked": 4}]}
    path = tmp_path / "table.json"
    path.write_text(json.dumps(record))

    def review(*args):
        return subprocess.run([sys.executable, "-m", "cli", "review", str(path), *args], cwd=root,
                              capture_output=True, text=True, timeout=300)
    one = json.loads(review("--seat", "1", "--json").stdout)          # seats count from 1 on the command line
    assert one["seat"] == 0 and [d["event"] for d in one["decisions"]] == [1, 3]
    both = json.loads(review("--all-seats", "--json").stdout)["seats"]
    assert both[0] == one and both[1]["seat"] == 1 and both[1]["decisions"] == []
    p = review("--seat", "2")
    assert p.returncode == 0 and p.stdout.strip().count("\n") == 1
    assert "seat 2: no decisions to review in this record" in p.stdout
    assert p.stdout.strip().splitlines()[1].startswith("Ben: ")          # its luck line
    p = review("--seat", "3")
    assert p.returncode == 2 and p.stderr.strip() == "gonuts-solve: error: --seat 3: this game has 2 players (seats 1 to 2)"


def test_hostile_record_files_are_one_line_and_never_an_internal_error(tmp_path):
    """JSON nested 100,000 deep (even under an ignored key), a megabyte string, a file over the size limit."""
    import subprocess
    import sys
    root = Path(__file__).resolve().parent.parent.parent
    base = {"format": "gonuts-game", "version": 1, "reading": "rulebook", "players": 2, "you": 0, "events": []}
    deep = tmp_path / "deep.json"
    deep.write_text(json.dumps(base)[:-1] + ', "seed": ' + "[" * 100_000 + "]" * 100_000 + "}")
    long = tmp_path / "long.json"
    long.write_text(json.dumps({**base, "events": [{"seat": 0, "roll": "x" * 1_000_000}]}))
    big = tmp_path / "big.json"
    big.write_text(json.dumps({**base, "seed": "y" * 17_000_000}))
    want = {deep: f"{deep} nests deeper than 32 levels; a game record needs 4",
            long: 'event 0: a roll is [acorns, squirrels, cars], three whole numbers of 0 or more, not "'
                  + "x" * 59 + "... (1000002 characters)",
            big: f"{big} is {big.stat().st_size:,} bytes; a game record is at most 16,000,000"}
    for path, message in want.items():
        p = subprocess.run([sys.executable, "-m", "cli", "review", str(path)], cwd=root, capture_output=True,
                           text=True, timeout=120)
        # a long path is shortened as every message is (errors.one_line): a deep temporary folder must not fail it
        assert p.returncode == 1 and p.stderr.strip() == f"gonuts-solve: error: {one_line(message)}", p.stderr[:300]


def test_review_counts_entries_from_1_as_the_pages_log_does(tmp_path):
    """The page's log numbers a game's entries 1, 2, ...; review's table and its costliest line use the same
    numbers (its --json keeps "event", the index into the record's events)."""
    import json
    import subprocess
    import sys
    from pathlib import Path
    record = {"format": "gonuts-game", "version": 1, "reading": "rulebook", "players": 2, "target": 50, "you": 0,
              "mode": "table", "names": ["Ann", "Bo"], "hints": [True, True],
              "events": [{"seat": 0, "roll": [0, 0, 5]}, {"seat": 1, "roll": [4, 0, 1]}, {"seat": 1, "choice": "stop"}]}
    path = tmp_path / "g.json"
    path.write_text(json.dumps(record))
    root = Path(__file__).resolve().parent.parent.parent
    run = lambda *a: subprocess.run([sys.executable, "-m", "cli", "review", str(path), "--seat", "2", *a],  # noqa: E731
                                    cwd=root, capture_output=True, text=True, timeout=300)
    text, js = run(), run("--json")
    assert text.returncode == 0 and js.returncode == 0, text.stderr + js.stderr
    (decision,) = json.loads(js.stdout)["decisions"]
    assert decision["event"] == 2                                      # the third event, the page's "entry 3"
    row = next(line for line in text.stdout.splitlines() if line.split()[:1] == ["3"])
    assert "stop" in row and "entry" in text.stdout.splitlines()[1]
    assert "costliest: entry 3 (" in text.stdout or "costliest" not in text.stdout


def test_a_history_is_checked_before_its_games_are_read():
    one = record([])
    assert records_of(one) == ([one], False)
    assert records_of({"format": "gonuts-history", "version": 1, "games": [one, one]}) == ([one, one], True)
    for bad, words in (({"version": 2, "games": [one]}, "unknown history version 2"),
                       ({"version": True, "games": [one]}, "unknown history version true"),
                       ({"version": 1, "games": []}, "with at least one"),
                       ({"version": 1, "games": [one] * 1001}, "at most 1,000 games, not 1,001")):
        with pytest.raises(RecordError, match=words):
            records_of({"format": "gonuts-history", **bad})


def test_a_mixed_decision_is_no_cost_and_says_what_each_action_does_to_the_others(tmp_path):
    """Where the equilibrium mixes, both actions give the mover the same chance: review says so (optimal
    "either", nothing given up, never among the costliest) and what each does to the other seat, in words and in
    JSON. The table here is the shipped one with a mix written at the record's first decision."""
    from test_hostile_tables import forge

    from solver.store import tables
    from solver.store.locate import shipped_dir
    shipped = tables.load(shipped_dir() / "gonuts-2p-t50-rulebook.npz")
    p = 0.75 if shipped.roll_at((0, 0), 2, 4) else 0.25
    table = forge(shipped, tmp_path / "mixed.npz", [(0, 0, 2, 4)], [p])
    events = [ev(0, roll=[2, 2, 1]), ev(0, choice="stop" if p > 0.5 else "roll"), ev(1, banked=7),
              ev(0, roll=[1, 2, 2]), ev(0, choice="stop")]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record(events)))
    out = json.loads(_cli("review", path, "--table", table, "--json", cache=tmp_path).stdout)
    first = out["decisions"][0]
    assert first["optimal"] == "either" and first["loss_points"] == 0.0 and first["roll_probability"] == p
    assert len(first["players_if_roll"]) == 2 and len(first["players_if_stop"]) == 2
    assert first["event"] not in out["costliest"]
    text = _cli("review", path, "--table", table, cache=tmp_path)
    assert text.returncode == 0, text.stderr
    said = text.stdout
    assert "entry 2 is a mixed decision: rolling and stopping give you the same chance" in said
    assert f"the equilibrium rolls with probability {p:.4f}" in said and "if you roll" in said
    assert "costliest: entry 2" not in said and "; entry 2 (" not in said and " dice" in said
