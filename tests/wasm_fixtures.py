"""The turn models of the games of ``tests/fixtures/table_digests.json`` and of the four shipped 2- and 3-player
tables (target 50), as the page's WebAssembly driver takes them (``solver.engine.wasm.kernel_data``), so that
``node --test tests/js`` solves each game with the committed ``kernels.wasm`` and compares its arrays with the
digests of ``gonuts-solve build`` (the shipped tables' digests are read from ``tables/`` here, into the fixture).

``python tests/wasm_fixtures.py`` writes ``tests/fixtures/kernel_models.json``; ``tests/engine/test_wasm.py``
recomputes it and checks that the committed file still says the same.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "kernel_models.json"
for path in (ROOT, ROOT / "tests"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

# The games of tests/wheel_check.py's GAMES (the digest fixture's), by their table's file name.
GAMES = {"gonuts-2p-t30-rulebook.npz": ("rulebook", 2, 30), "gonuts-2p-t25-summary.npz": ("summary", 2, 25),
         "gonuts-3p-t20-rulebook.npz": ("rulebook", 3, 20), "gonuts-3p-t16-summary.npz": ("summary", 3, 16),
         "gonuts-4p-t12-rulebook.npz": ("rulebook", 4, 12), "gonuts-4p-t10-summary.npz": ("summary", 4, 10),
         "pig-2p-t40.npz": ("pig", 2, 40)}
SHIPPED = {f"gonuts-{n}p-t50-{r}.npz": (r, n, 50) for n in (2, 3) for r in ("rulebook", "summary")}
# The games of the digest fixture's "cycling" (tests/table_digests.py CYCLING): the equilibrium search, in the page's
# kernel. Their squirrel dice are not the printed ones, so the page has no reading of its own for them.
CYCLING = {"gonuts-4p-t30-summary-faces2-2-2-dog1-2.npz": ("summary", 4, 30, {"faces": (2, 2, 2), "dog": (1, 2)}),
           "gonuts-4p-t17-rulebook-faces2-2-2.npz": ("rulebook", 4, 17, {"faces": (2, 2, 2)})}
# Every Go Nuts! payout table the page can ask for at the default speed (2 to 4 players, targets 10 to 100), and
# a few at other speeds: the SHA-256 of its (6, target + 1) doubles, which core/payout.js must give.
PAYOUTS = [(n, t, "1") for n in (2, 3, 4) for t in range(10, 101)] + \
    [(n, t, r) for n in (2, 3, 4) for t in (10, 30, 50) for r in ("0.5", "1.5", "2")]


def models() -> dict:
    from wheel_check import digests

    from solver.engine.wasm import kernel_data
    from solver.game.payout import nuts_payout_table
    from solver.game.rules import Rules
    from solver.game.turn import gonuts_turn, turn_model
    out = {}
    for name, (reading, players, target) in {**GAMES, **SHIPPED}.items():
        if reading == "pig":
            model = turn_model(Rules(game="pig", players=players, target=target))
        else:
            rules = Rules.from_options(reading=reading, players=players, target=target)
            model = gonuts_turn(rules, nuts_payout_table(rules))
        out[name] = kernel_data(model, players, target)
        if name in SHIPPED:
            out[name]["digests"] = digests(ROOT / "tables" / name)
    return out


def cycling() -> dict:
    """The CYCLING games' turn models (the fixture's "cycling"), by their table's file name."""
    from solver.engine.wasm import kernel_data
    from solver.game.payout import nuts_payout_table
    from solver.game.rules import Rules
    from solver.game.turn import gonuts_turn
    out = {}
    for name, (reading, players, target, knobs) in CYCLING.items():
        rules = Rules.from_options(reading=reading, players=players, target=target, **knobs)
        out[name] = kernel_data(gonuts_turn(rules, nuts_payout_table(rules)), players, target)
    return out


def payout_digest(players: int, target: int, speed: str) -> str:
    import hashlib

    from solver.game.payout import nuts_payout_table
    from solver.game.rules import Rules
    return hashlib.sha256(nuts_payout_table(Rules.from_options(reading="rulebook", players=players, target=target, speed=float(speed)))
                          .tobytes()).hexdigest()


def payouts() -> dict:
    return {f"{n}-{t}-{r}": payout_digest(n, t, r) for n, t, r in PAYOUTS}


def main():
    FIXTURE.write_text(json.dumps({"about": __doc__.strip().splitlines()[0], "games": models(), "cycling": cycling(),
                                   "payouts": payouts()},
                                  indent=1) + "\n")
    print(f"wrote {FIXTURE}")


if __name__ == "__main__":
    main()
