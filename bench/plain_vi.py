"""A deliberately plain solver: global value iteration over every state at once.

Written from RULES.md alone (its own dice enumeration, its own turn logic, no
layering, no orbits, no compiled code), so that it can check the engine and
serve as the benchmark's baseline. Only the Go Nuts! payout vectors are taken
from ``solver.payout``; those are checked against a simulation of the dog race.

Each sweep recomputes, for every start state at once (Jacobi), the turn by
backward induction over (t descending, n ascending) given the current W, and
stops when the largest change is at most ``tol`` or after ``max_sweeps``.
"""
from __future__ import annotations

from itertools import product
from math import comb

import numpy as np


def _outcomes(n, pa, ps, pc):
    for a in range(n + 1):
        for c in range(n + 1 - a):
            s = n - a - c
            p = comb(n, a) * comb(n - a, c) * pa ** a * ps ** s * pc ** c
            if p > 0:
                yield a, s, c, p


def plain_value_iteration(rules, payouts=None, tol=1e-12, max_sweeps=100_000):
    """Return (W, roll, sweeps, residual): W has shape (G,)*N + (N,), roll (G,)*N + (G, 6)."""
    N, G = rules.players, rules.target
    pig = rules.game == "pig"
    if not pig and payouts is None:
        from solver.payout import nuts_payout_table
        payouts = nuts_payout_table(rules)
    shape = (G,) * N
    S = G ** N
    grids = np.indices(shape).reshape(N, S)
    s0 = grids[0]
    e0 = np.zeros(N)
    e0[0] = 1.0
    # next-state index after a gain g (scores rotate, active's score grows), or -1 = win
    rest = np.ravel_multi_index(tuple(grids[1:]) + (np.zeros(S, int),), shape)
    gains = np.arange(2 * G + 1)
    new_score = s0[:, None] + gains[None, :]
    nxt = np.where(new_score < G, rest[:, None] + np.minimum(new_score, G - 1), -1)
    perm = [(k - 1) % N for k in range(N)]
    if pig:
        rolls = {1: [("move", 1 / 6, k, 1) for k in range(2, 7)] + [("bust", 1 / 6, 0, 0)]}
        D = 1
    else:
        pa, ps, pc = rules.p_acorn, rules.p_squirrel, rules.p_car
        rolls = {}
        for n in range(1, 6):
            rolls[n] = []
            for a, s, c, p in _outcomes(n, pa, ps, pc):
                if c == n:
                    rolls[n].append(("bust", p, 0, 0))
                elif s == n:
                    rolls[n].append(("nuts", p, 5 if rules.nuts_all_dice else n, 0))
                else:
                    left = n - c
                    back = (n == 1 and a == 1) if rules.one_die == "rolled" else (left == 1 and a == 1)
                    rolls[n].append(("move", p, a, 5 if back else left))
        D = 5
    W = np.full((S, N), 1.0 / N)
    sweeps, residual = 0, np.inf
    roll = np.zeros((S, G, D + 1), dtype=bool)
    while sweeps < max_sweeps:
        sweeps += 1
        Wx = np.vstack([W[:, perm], e0[None, :]])       # row S = a win for the active player
        C = Wx[nxt]                                      # (S, 2G+1, N): value after gaining g
        nuts_abs = {}
        if not pig:
            for n in range(1, 6):
                pay = payouts[n][:G + 1].copy()
                nuts_abs[n] = np.einsum("g,sgk->sk", pay, C[:, :G + 1])
        V = {}
        for t in range(G - 1, -1, -1):
            win = s0 + t >= G
            for n in range(1, D + 1):
                r = np.zeros((S, N))
                for kind, p, x, dst in rolls[n]:
                    if kind == "bust":
                        r += p * C[:, 0]
                    elif kind == "nuts":
                        if rules.nuts_costs_turn:
                            r += p * nuts_abs[x]
                        else:
                            pay = payouts[x][:G + 1]
                            r += p * np.einsum("g,sgk->sk", pay, C[:, t:t + G + 1])
                    else:
                        t2 = t + x
                        r += p * (V[(t2, dst)] if t2 < G else e0)
                st = C[:, t]
                if t == 0 and n == D:
                    choose = np.ones(S, bool)
                else:
                    choose = r[:, 0] > st[:, 0]
                v = np.where(choose[:, None], r, st)
                v[win] = e0
                choose &= ~win
                roll[:, t, n] = choose
                V[(t, n)] = v
            for key in [k for k in V if k[0] >= t + 6]:
                del V[key]
        newW = V[(0, D)]
        residual = float(np.abs(newW - W).max())
        W = newW
        if residual <= tol:
            break
    return W.reshape(shape + (N,)), roll.reshape(shape + (G, D + 1)), sweeps, residual
