"""One Bellman backup of one state, in plain Python: what ``advise`` asks of a 3- or 4-player table.

The table stores each state's start-of-turn values W; the values of rolling
and of stopping inside a turn are recomputed from the W of the states a turn
can lead to (docs/RULES.md): by backward induction over the turn's decision
states (t descending), as ``bellman.bellman`` does for a batch with numpy.
For one state that is a few thousand multiply-adds on N-vectors, faster in
plain Python than importing numpy, which a player would otherwise wait for at
every question. The roll outcomes are ``game.moves.roll_table``, the one statement of
the turn's rules. Tests compare the two.
Twin in the page: ``solver/site/web/src/core/backup.js``.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from solver.game.moves import BUST, NUTS, roll_table
from solver.game.rules import Rules

Vector = Sequence[float]
"""Every seat's win probability, in seat order from the player to move (or, for ``after``, the next)."""
After = Callable[[int], Vector]
"""``after(g)``: the start-of-turn values of the state a turn that gains g leads to."""
Payouts = Sequence[Sequence[float]] | None
"""``payouts[n][g]``: the Go Nuts! gain pmf of a round of n dice (None for Pig)."""


def after_turn(W: Any, scores: Sequence[int]) -> After:
    """``after(g)`` for the turn of the player to move at ``scores`` (turn order, the mover first), from the
    start-of-turn values ``W`` (a table's ``start_win``, or the page's): a turn that gains g leads to the
    next player's turn, where the mover's score s0 + g comes last, so ``W[s1, ..., s_{N-1}, s0 + g]``. The one
    home of that rotation for advise, luck, practice and explain."""
    s0, rest = scores[0], tuple(scores[1:])
    return lambda g: W[rest + (s0 + g,)].tolist()


def backup_state(rules: Rules, payouts: Payouts, after: After, s0: int, turn: int,
                 dice: int) -> tuple[Vector, Vector]:
    """(every seat if rolling, every seat if stopping) at (turn, dice) of a turn from banked score s0.

    ``after(g)`` is the start-of-turn value vector W (N floats, seat order from the next player) of
    the state a turn that gains g leads to, for 0 <= g < G - s0; ``payouts[n][g]`` the Go Nuts!
    gain pmf (g = 0..G, the last bin lumping G and more). Vectors are in seat order from the
    player to move; where s0 + turn >= G both are a win."""
    both: tuple[Vector, Vector] = _backward(rules, payouts, after, s0, turn, dice)
    return both


def turn_decisions(rules: Rules, payouts: Payouts, after: After, s0: int) -> dict[tuple[int, int], bool]:
    """{(t, n): roll} at every decision state of this turn (t < G - s0), as ``backup_state`` decides:
    the greedy action on the mover's own component, an exact tie stops, the opening roll is forced."""
    decided: dict[tuple[int, int], bool] = _backward(rules, payouts, after, s0, 0, None)
    return decided


def turn_values(rules: Rules, payouts: Payouts, after: After,
                s0: int) -> tuple[dict[tuple[int, int], tuple[Vector, Vector, bool]], Callable[[int, int], Vector]]:
    """Every state of this turn, valued as ``backup_state`` values it: {(t, n): (every seat if rolling, every
    seat if stopping, the greedy choice)} for t < G - s0, and ``nuts(x, t)``: every seat's value of a Go Nuts!
    round of x dice started at t turn points, before its acorns are known (what a review's luck needs)."""
    keep: dict[tuple[int, int], tuple[Vector, Vector, bool]] = {}
    nuts = _backward(rules, payouts, after, s0, 0, None, keep)
    return keep, nuts


def _backward(rules: Rules, payouts: Payouts, after: After, s0: int, turn: int, dice: int | None,
              keep: dict[tuple[int, int], Any] | None = None) -> Any:
    """Backward induction over the turn's decision states from t = G - s0 - 1 down to ``turn``: the two
    value vectors at (turn, dice), or with ``dice`` None every decision (with ``keep``, every state's two
    vectors and choice go into it, and the Go Nuts! round's value function is returned)."""
    N, G = rules.players, rules.target
    D, rolls = roll_table(rules)
    h = G - s0
    pay: Sequence[Sequence[float]] = payouts if payouts is not None else ()      # Pig has no Go Nuts! round
    e0 = (1.0,) + (0.0,) * (N - 1)
    if turn >= h:
        return (e0, e0) if dice is not None else (lambda x, t: e0) if keep is not None else {}
    C: list[tuple[float, ...]] = []
    for g in range(h):
        w = after(g)
        C.append(tuple(w[(k - 1) % N] for k in range(N)))
    C.extend([e0] * (G + 1))                        # reaching the target wins

    def expect(pmf: Sequence[float], lo: int) -> list[float]:
        """sum_g pmf[g] C[lo + g], g = 0..G."""
        acc = [0.0] * N
        for g in range(G + 1):
            p = pmf[g]
            if p:
                c = C[lo + g]
                for k in range(N):
                    acc[k] += p * c[k]
        return acc

    nuts_abs = {}
    if rules.game != "pig" and rules.nuts_costs_turn:
        nuts_abs = {n: expect(pay[n], 0) for n in range(1, 6)}
    V: dict[tuple[int, int], Sequence[float]] = {}
    decided: dict[tuple[int, int], bool] = {}
    for t in range(h - 1, turn - 1, -1):
        for n in range(1, D + 1):
            r = [0.0] * N
            add: Sequence[float]
            for kind, p, x, dst in rolls[n]:
                if kind == BUST:
                    add = C[0]
                elif kind == NUTS:
                    add = nuts_abs[x] if rules.nuts_costs_turn else expect(pay[x], t)
                else:
                    add = V[(t + x, dst)] if t + x < h else e0
                for k in range(N):
                    r[k] += p * add[k]
            st = C[t]
            if t == turn and n == dice:
                return tuple(r), st
            choose = (t == 0 and n == D) or r[0] > st[0]
            V[(t, n)] = r if choose else st
            decided[(t, n)] = choose
            if keep is not None:
                keep[(t, n)] = (tuple(r), st, choose)
    if keep is not None:
        return lambda x, t: tuple(nuts_abs[x]) if rules.nuts_costs_turn else tuple(expect(pay[x], t))
    if dice is None:
        return decided
    raise AssertionError("unreachable: (turn, dice) is visited")
