"""The page's data and the numbers Python gives for it, as fixtures that ``node --test tests/js`` reads on
its own (no environment, no build): the JavaScript core's advise and explain are held to Python's.

* ``tests/fixtures/page-t50.json``: ``pagegames.page_data`` of the two shipped-size 2-player tables;
* ``tests/fixtures/page-t12.json``: the same for 3 and 4 players at target 12 (small enough to commit;
  4 players carry the quantised encoding, so its numbers agree within the stated precision);
* ``tests/fixtures/advice.json``: for fixed states of each game, ``advise --json``'s object and
  ``explain``'s, computed here from the tables by the Python code (``play.advise``, ``play.explain``);
* ``tests/fixtures/practice.json``: ``practice.draw`` for fixed seeds of each game, from the page's values;
* ``tests/fixtures/luck.json``: records of seeded games (Go Nuts! rounds, banked turns, mistakes) and every
  seat's ``luck.split`` of each, from the page's values (what the page's core must give to 1e-9);
* ``tests/fixtures/mixed.json``: the shipped 2-player rulebook table with a mixed decision written into it (as
  a solve that mixes writes one), ``advise --json`` there and beside it, and ``review --json`` of a game that
  meets it: what the page says of a game it solved whose equilibrium mixes.

``python tests/page_fixtures.py`` writes them; ``tests/site/test_shared_rules.py`` recomputes them and checks
that the committed files still say the same (the deflated bytes of a 4-player encoding may differ with
another zlib; their inflated planes may not).
"""
from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PAGES = {"page-t50.json": (50, [2]), "page-t12.json": (12, [3, 4])}
READINGS = ("rulebook", "summary")
PRACTICE = {50: ((1, 10), (42, 10), (20261201, 10), (7, 25)), 12: ((1, 4), (42, 3))}     # (seed, count)
LUCK = ((1, "table"), (2, "coach"))                          # (seed, mode)


def states(players: int, target: int) -> list:
    """Fixed questions: openings (a forced roll), mid-turn decisions, one die, a roll at the target."""
    G = target
    if players == 2:
        return [((0, 0), 0, 5), ((23, 31), 7, 3), ((45, 10), 6, 2), ((30, 30), 12, 1), ((10, 40), 4, 5),
                ((49, 0), 0, 5), ((20, 20), 30, 4), ((0, 49), 9, 2)]
    base = [(0,) * players, tuple(range(1, players + 1)), (G - 1,) + (0,) * (players - 1),
            (3,) + (G - 2,) * (players - 1)]
    return [(base[0], 0, 5), (base[1], 2, 3), (base[2], 0, 5), (base[3], 4, 1), (base[1], 5, 5),
            (base[3], 9, 2), (base[1], G, 4)]


def build(tmp: Path) -> dict:
    """{file name: its JSON}: the page data files and the advice cases, from tables shipped or built in tmp."""
    sys.path.insert(0, str(Path(__file__).resolve().parent / "play"))      # test_luck's literal games
    from test_luck import literal_game

    from solver.game.rules import Rules
    from solver.play.advise import advise
    from solver.play.explain import explain
    from solver.play.luck import split
    from solver.play.practice import draw, page_values
    from solver.play.record import replay
    from solver.site import pagegames, pagevalues
    from solver.store import build as builder
    from solver.store import tables
    from solver.store.locate import find_table, table_name
    out, cases, drawn, lucky = {}, [], [], []
    for name, (target, counts) in PAGES.items():
        loaded = []
        for n in counts:
            for reading in READINGS:
                rules = Rules.from_options(reading=reading, players=n, target=target)
                path = find_table(rules) or tmp / table_name(rules)
                if not path.exists():
                    builder.build(rules, path)
                t = tables.load(path, expect=rules)
                loaded.append(t)
                values = page_values(*pagevalues.page_game(t))
                for seed, count in PRACTICE[target]:
                    drawn.append({"page": name, "players": n, "reading": reading, "seed": seed, "count": count,
                                  "decisions": [p.to_dict(rules) for p in draw(values, seed, count)]})
                for seed, mode in LUCK:
                    record = literal_game(t, 100 * n + seed, mode)[0]
                    lucky.append({"page": name, "players": n, "reading": reading, "record": record,
                                  "splits": [sp.to_dict() for sp in split(replay(record), values)]})
                for scores, turn, dice in states(n, target):
                    a = advise(t, scores, turn, dice)
                    W = t.arrays["start_win"]
                    why = explain(rules, t.arrays["nuts_payout"].tolist(),
                                  lambda g, s=scores, W=W: W[s[1:] + (s[0] + g,)].tolist(), scores[0], turn, dice)
                    cases.append({"page": name, "players": n, "reading": reading, "scores": list(scores), "turn": turn,
                                  "dice": dice, "advise": {**a.to_dict(), "rules": rules.to_dict()}, "explain": why})
        out[name] = pagegames.page_data(loaded)
        # the solver's kernel and worker, and the QR reader, travel in a page, not in its data's fixture (the core
        # never reads them)
        out[name]["solve"]["kernel"].pop("data")
        out[name]["solve"]["worker"].pop("text")
        out[name]["scanner"].pop("text")
    for reading in READINGS:                 # the shipped 4-player page data at target 50 (tables/page/)
        rules = Rules.from_options(reading=reading, players=4, target=50)
        values = page_values(*pagevalues.page_game(pagevalues.shipped_game(4, reading, 50)))
        for seed, count in PRACTICE[50][:2]:
            drawn.append({"page": "shipped", "players": 4, "reading": reading, "seed": seed, "count": count,
                          "decisions": [p.to_dict(rules) for p in draw(values, seed, count)]})
    out["advice.json"] = {"about": "advise and explain from Python for fixed states; tests/page_fixtures.py "
                                   "writes it", "cases": cases}
    out["practice.json"] = {"about": "practice.draw from the page's values; tests/page_fixtures.py writes it",
                            "cases": drawn}
    out["luck.json"] = {"about": "luck.split of seeded records from the page's values; tests/page_fixtures.py "
                                 "writes it", "cases": lucky}
    out["mixed.json"] = mixed_case(tmp)
    return out


# the game of the mixed case: the opening is a forced roll, then the mixed decision (entry 2), ... (entry 5)
MIXED_STATE = ((0, 0), 2, 4)


def mixed_case(tmp: Path) -> dict:
    """advise and review from a table whose equilibrium mixes at MIXED_STATE (the mover's likelier action its
    roll bit), for the page's core to match with the same values and mixed decision."""
    sys.path.insert(0, str(Path(__file__).resolve().parent / "across"))      # forge: a table with mixed arrays
    from test_hostile_tables import forge

    from solver.play.advise import advise
    from solver.play.record import review
    from solver.store import tables
    from solver.store.locate import shipped_dir
    shipped = tables.load(shipped_dir() / "gonuts-2p-t50-rulebook.npz")
    scores, t, n = MIXED_STATE
    p = 0.75 if shipped.roll_at(scores, t, n) else 0.25
    table = tables.load(forge(shipped, tmp / "mixed.npz", [scores + (t, n)], [p]))
    ev = lambda seat, **kw: {"seat": seat, **kw}     # noqa: E731
    events = [ev(0, roll=[2, 2, 1]), ev(0, choice="stop" if p > 0.5 else "roll"), ev(1, banked=7),
              ev(0, roll=[1, 2, 2]), ev(0, choice="stop")]
    record = {"format": "gonuts-game", "version": 1, "reading": "rulebook", "players": 2, "target": 50, "you": 0,
              "mode": "coach", "events": events}
    at = [MIXED_STATE, ((0, 0), 3, 4), ((23, 31), 7, 3)]
    return {"about": "a mixed decision at (0, 0), 2 points, 4 dice of the shipped 2-player rulebook table; "
                     "tests/page_fixtures.py writes it",
            "page": "page-t50.json", "players": 2, "reading": "rulebook", "target": 50,
            "mixed": {"state": [int(scores[0] * 50 + scores[1])], "decision": [t * 6 + n], "roll": [p]},
            "advise": [{**advise(table, s, tt, nn).to_dict(), "rules": table.rules.to_dict()} for s, tt, nn in at],
            "record": record, "review": review(record, table, 0).to_dict()}


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in build(Path(tmp)).items():
            (FIXTURES / name).write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
            print(f"wrote tests/fixtures/{name}")


if __name__ == "__main__":
    main()
