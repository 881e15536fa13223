"""What one roll does: the rules of a turn's chance outcomes, written once (docs/RULES.md).

Everything that follows a turn reads these two functions: the engine's turn
model (``turn.gonuts_turn``), the one-state backup behind ``advise``
(``play.backup``), the plain Bellman operator (``reference.bellman``), the
game-record replay (``play.record``) and, as data, the web page
(``play.webpage`` embeds ``roll_table`` and ``outcome`` for every roll, so the
page's core derives no rule itself). Only the literal simulation
(``reference.simulate``) reads the rules on its own: it is the independent check.

Plain Python, no numpy: ``advise`` imports this on every question.
Twin in the page: ``solver/site/web/src/core/moves.js``.
"""
from __future__ import annotations

from solver.game.rolls import roll_outcomes
from solver.game.rules import N_DICE, Rules

BUST, NUTS, MOVE = "bust", "nuts", "move"


def outcome(rules: Rules, n: int, a: int, s: int, c: int) -> tuple[str, int, int]:
    """What a Go Nuts! roll of ``n`` live dice showing a acorns, s squirrels and c cars does.

    * ``("bust", 0, 0)``: all cars; the turn ends with nothing.
    * ``("nuts", dice, 0)``: all squirrels; a Go Nuts! round with ``dice`` dice ends the turn
      (its acorns replace the turn points under ``nuts_costs_turn``, else add to them).
    * ``("move", a, live)``: a acorns join the turn points and ``live`` dice stay live: the dice
      that did not show a car, or all five again under the one-die rule.
    """
    if c == n:
        return BUST, 0, 0
    if s == n:
        return NUTS, N_DICE if rules.nuts_all_dice else n, 0
    left = n - c
    # the one-die rule: a lone acorn brings every die back; which "lone" is the reading's knob
    back = a == 1 and (n == 1 if rules.one_die == "rolled" else left == 1)
    return MOVE, a, N_DICE if back else left


def roll_table(rules: Rules) -> tuple[int, dict[int, list[tuple[str, float, int, int]]]]:
    """(D, {n: [(kind, p, x, live), ...]}): every roll from sub-state n with its probability.

    For Go Nuts! n is the live dice (D = 5), (kind, x, live) is ``outcome``, and p the exact
    multinomial rounded once. Pig has one sub-state: a 1 busts, 2..6 are moves of that many points.
    """
    if rules.game == "pig":
        return 1, {1: [(MOVE, 1 / 6, k, 1) for k in range(2, 7)] + [(BUST, 1 / 6, 0, 0)]}
    rolls: dict[int, list[tuple[str, float, int, int]]] = {}
    for n in range(1, N_DICE + 1):
        rolls[n] = []
        for a, s, c, p in roll_outcomes(n, rules.acorn_chance, rules.squirrel_chance, rules.car_chance):
            kind, x, live = outcome(rules, n, a, s, c)
            rolls[n].append((kind, p, x, live))
    return N_DICE, rolls


def faces_table(rules: Rules) -> dict[int, list[tuple[int, int, int, float, str, int, int]]]:
    """{n: [(a, s, c, p, kind, x, live), ...]}: ``roll_table`` with the faces of each roll kept."""
    out = {}
    for n in range(1, N_DICE + 1):
        out[n] = [(a, s, c, p) + outcome(rules, n, a, s, c)
                  for a, s, c, p in roll_outcomes(n, rules.acorn_chance, rules.squirrel_chance, rules.car_chance)]
    return out
