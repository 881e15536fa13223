"""A deliberately plain Bellman operator, independent of the engine.

Written from docs/RULES.md: its own turn logic, numpy-vectorised over a batch of
start states, no layering, no orbits, no compiled code; what a roll does comes from
the rules' one statement (``game.moves.roll_table``), which the literal simulation
checks independently. It serves three jobs that must not share the engine's code:

* ``plain_value_iteration``: global value iteration over every state at once
  (Jacobi sweeps to a max change of ``tol``, capped), the baseline and oracle;
* ``bellman``: one application of the operator, used by ``verify`` to check a
  table's every state (and by the tests to check ``backup``, the plain-Python
  one-state backup that ``advise`` uses for 3-4 players);
* ``plain_policy_evaluation``: Jacobi sweeps under fixed per-seat decisions (or
  greedy seats), the oracle of ``evaluate``, ``respond`` and the rule searches.

The Go Nuts! payout vectors come from the table or ``solver.game.payout``; they are
checked against a simulation of the dog race.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from solver.game.moves import BUST, NUTS, roll_table
from solver.game.payout import nuts_payout_table
from solver.game.rules import Rules


@dataclass
class Backup:
    """One Bellman backup of a batch of start states (arrays indexed like ``states``)."""
    value: np.ndarray            # (B, N): T(W) at the start of the turn
    roll: np.ndarray             # (B, G, D+1) bool: greedy decision (False where s0 + t >= G)
    roll_own: np.ndarray         # (B, G, D+1): active player's win probability if rolling
    stop_own: np.ndarray         # (B, G, D+1): ... if stopping
    roll_vec: np.ndarray | None = None   # (B, G, D+1, N) with keep_vectors
    stop_vec: np.ndarray | None = None


def bellman(rules: Rules, payouts: np.ndarray | None, W: np.ndarray, states: Sequence[int] | np.ndarray,
            keep_vectors: bool = False, fixed: np.ndarray | None = None) -> Backup:
    """Apply the Bellman operator to start states ``states`` (flat indices) given W ((G,)*N + (N,)).

    W holds the start-of-turn values of the player who moves next (for optimal
    play, the same table). Conventions match the tables: where s0 + t >= G the
    state is a win (both values 1, roll False); the opening (0, start) is a
    forced roll and its stop value is that of passing; sub-state 0 is unused
    (0). With ``fixed`` ((B, G, D+1) bool) the decisions are taken from it
    instead of being greedy: the operator of that policy.
    """
    N, G = rules.players, rules.target
    D, rolls = roll_table(rules)
    shape = (G,) * N
    Wf = W.reshape(-1, N)
    states = np.asarray(states, dtype=np.int64)
    B = len(states)
    digits = np.array(np.unravel_index(states, shape))
    s0 = digits[0]
    rest = np.ravel_multi_index(tuple(digits[1:]) + (np.zeros(B, np.int64),), shape)
    new_score = s0[:, None] + np.arange(2 * G + 1)[None, :]
    nxt = np.where(new_score < G, rest[:, None] + np.minimum(new_score, G - 1), len(Wf))
    e0 = np.zeros(N)
    e0[0] = 1.0
    Wx = np.vstack([Wf[:, [(k - 1) % N for k in range(N)]], e0[None, :]])
    C = Wx[nxt]                                   # (B, 2G+1, N): value of ending with gain g
    nuts_abs: dict[int, np.ndarray] = {}
    pay = payouts if payouts is not None else np.zeros((6, G + 1))      # Pig has no payouts
    if rules.game != "pig" and rules.nuts_costs_turn:
        for n in range(1, 6):
            nuts_abs[n] = np.einsum("g,bgk->bk", pay[n][:G + 1], C[:, :G + 1])
    roll = np.zeros((B, G, D + 1), dtype=bool)
    roll_own = np.zeros((B, G, D + 1))
    stop_own = np.zeros((B, G, D + 1))
    rvec = np.zeros((B, G, D + 1, N)) if keep_vectors else None
    svec = np.zeros((B, G, D + 1, N)) if keep_vectors else None
    V: dict[tuple[int, int], np.ndarray] = {}
    for t in range(G - 1, -1, -1):
        win = s0 + t >= G
        for n in range(1, D + 1):
            r = np.zeros((B, N))
            for kind, p, x, dst in rolls[n]:
                if kind == BUST:
                    r += p * C[:, 0]
                elif kind == NUTS:
                    if rules.nuts_costs_turn:
                        r += p * nuts_abs[x]
                    else:
                        r += p * np.einsum("g,bgk->bk", pay[x][:G + 1], C[:, t:t + G + 1])
                else:
                    r += p * (V[(t + x, dst)] if t + x < G else e0)
            st = C[:, t]
            forced = t == 0 and n == D
            if forced:
                choose = np.ones(B, bool)
            elif fixed is not None:
                choose = fixed[:, t, n].copy()
            else:
                choose = r[:, 0] > st[:, 0]
            v = np.where(choose[:, None], r, st)
            v[win] = e0
            roll[:, t, n] = choose & ~win
            roll_own[:, t, n] = np.where(win, 1.0, r[:, 0])
            stop_own[:, t, n] = np.where(win, 1.0, st[:, 0])
            if rvec is not None and svec is not None:
                rvec[:, t, n] = np.where(win[:, None], e0, r)
                svec[:, t, n] = np.where(win[:, None], e0, st)
            V[(t, n)] = v
        for key in [k for k in V if k[0] >= t + 6]:
            del V[key]
    return Backup(V[(0, D)], roll, roll_own, stop_own, rvec, svec)


def plain_value_iteration(rules: Rules, payouts: np.ndarray | None = None, tol: float = 1e-12,
                          max_sweeps: int = 100_000,
                          chunk: int = 50_000) -> tuple[np.ndarray, np.ndarray | None, int, float]:
    """Global value iteration from W = 1/N everywhere.

    Returns (W, roll, sweeps, residual); W has shape (G,)*N + (N,).
    """
    N, G = rules.players, rules.target
    if rules.game != "pig" and payouts is None:
        payouts = nuts_payout_table(rules)
    S = G ** N
    W = np.full((G,) * N + (N,), 1.0 / N)
    sweeps, residual, roll = 0, np.inf, None
    while sweeps < max_sweeps and residual > tol:
        sweeps += 1
        newW = np.empty((S, N))
        rolls = []
        for lo in range(0, S, chunk):
            b = bellman(rules, payouts, W, np.arange(lo, min(S, lo + chunk)))
            newW[lo:lo + len(b.value)] = b.value
            rolls.append(b.roll)
        newW = newW.reshape(W.shape)
        residual = float(np.abs(newW - W).max())
        W = newW
        roll = np.concatenate(rolls).reshape((G,) * N + rolls[0].shape[1:])
    return W, roll, sweeps, residual


def plain_policy_evaluation(rules: Rules, rolls: Sequence[np.ndarray | None], payouts: np.ndarray | None = None,
                            tol: float = 1e-13, max_sweeps: int = 100_000) -> tuple[np.ndarray, int]:
    """Win probabilities when seat a always follows ``rolls[a]`` ((G,)*N + (G, D+1) bool).

    Jacobi sweeps of V_a <- T_{rolls[a]}(V_{a+1}) from 1/N, to a max change of
    ``tol``. Returns (V, sweeps) with V[a] the values when seat a is to move.
    A seat whose ``rolls[a]`` is None plays greedily (its own larger win
    probability; a tie stops): with such seats this is value iteration for their
    best response to the others, the independent oracle of ``respond``.
    """
    N, G = rules.players, rules.target
    if rules.game != "pig" and payouts is None:
        payouts = nuts_payout_table(rules)
    S = G ** N
    V = np.full((N, S, N), 1.0 / N)
    flat = [None if r is None else np.asarray(r).reshape(S, G, -1) for r in rolls]
    for sweep in range(1, max_sweeps + 1):  # noqa: B007 (how many sweeps it took is returned)
        newV = np.stack([bellman(rules, payouts, V[(a + 1) % N], np.arange(S), fixed=flat[a]).value
                         for a in range(N)])
        change = float(np.abs(newV - V).max())
        V = newV
        if change <= tol:
            break
    return V, sweep
