r"""Many rules, each against N - 1 optimal players, evaluated exactly in one pass.

The searches for simple rules ask one question thousands of times: how often does
a rule win against optimal opponents, averaged over the seats? ``evaluate`` answers
it for any policies by a backward pass over every turn's decision states, slow
with four players. This module answers it a second way,
sharing the work the rules have in common:

1. **Turns become gain distributions.** Under fixed decisions a turn from banked
   score s_0 ends with gain g (0 <= g < G - s_0) or reaches the target; the
   distribution is one forward pass over the turn's DAG (``gains_rows`` in
   ``kernels.c``). The optimal players' distributions are computed once, for every
   scores tuple (1.3 GB of float64 with four players at target 50); a rule whose
   decisions depend only on (own score, best opponent's score) has G * G of them.
2. **One scalar per state.** Label the rule's player 0 and track only its win
   probability W(x, j) at absolute scores x with player j to move:

       W(x, j) = sum_{1 <= g < G - x_j} P_j(g) W(x + g e_j, j + 1) + [j = 0] P_0(win),

   and the N zero-gain turns at the same scores close one cycle, solved exactly
   (W_j = a_j + b_j W_{j+1}, W_N = W_0). The optimal players' policy depends only
   on scores in turn order from the mover, so one chain serves every seat: the
   rule in seat c (0-based) is the game that starts at x = 0 with player -c mod N
   to move.
3. **Memory in the order it is read.** W[j] is indexed by the scores in turn
   order from player j, so the states after player j's turn (gains 1, 2, ...)
   sit next to each other in W[j + 1]: the pass streams through memory instead of
   jumping G^(N-1) states per point. States are visited in descending flat order
   (a gain always raises the index), so the ones just finished, read most, are
   still in cache.
4. **Many rules per pass.** K rules share a pass (W is (N, G^N, K)); each core
   runs its own pass over its share of the rules. A batch is as many rules as
   4 GiB of W holds (a quarter of the RAM if less): 20 with four players.

With four players, a rule costs a small fraction of an ``evaluate`` once the optimal players'
distributions are computed (docs/performance.md has the times).

The numbers agree with ``evaluate`` to about 1e-15 (a test compares them); they
are not bit-identical, the sums run in another order.
"""
from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from solver.engine.bits import packed_width
from solver.engine.kernels import Kernel
from solver.engine.solve import model_arrays
from solver.errors import GonutsError
from solver.game.rules import Rules
from solver.game.turn import game_model
from solver.lab.grammar import PolicyError
from solver.lab.policies import Policy, TablePolicy
from solver.store.tables import Table


def _default_memory() -> int:
    """Bytes of W per pass (the rules per pass are chosen to fit): 4 GiB, or a quarter of the RAM if less."""
    try:
        ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        ram = 8 << 30
    return int(min(4 << 30, ram // 4))


MEMORY = _default_memory()


@runtime_checkable
class RowsRule(Protocol):
    """A rule ``Versus`` evaluates: its decisions depend on the turn, your score and the best opponent's only,
    given as ``rows(G, D)``, packed by (own score, best opponent's score) (simple and race rules)."""
    name: str

    def rows(self, G: int, D: int) -> np.ndarray: ...


class Versus:
    """``Versus(rules, table).win(policies)``: each policy's win probability by seat, (K, N), against N-1
    players following ``table`` (optimal). Policies must offer ``rows(G, D)`` (simple and race rules do)."""

    def __init__(self, rules: Rules, table: Table, memory: int = MEMORY) -> None:
        G, N, D = rules.target, rules.players, rules.substates
        self.G, self.N, self.D, self.memory = G, N, D, memory
        model = game_model(rules, table)
        self.kernel = Kernel(N, 1, G, D, model.start, packed_width(G, D), model_arrays(model, G))
        Gpow = G ** (N - 1)
        s0 = np.arange(G)
        self.obase = np.concatenate([[0], np.cumsum(Gpow * (G - s0 + 1))]).astype(np.int64)
        idx = np.arange(G ** N, dtype=np.int64)
        own = idx // Gpow
        room = G - own
        off = self.obase[own] + (idx % Gpow) * (room + 1)
        del own
        self.dopt = np.empty(int(self.obase[-1]))
        bits = TablePolicy(table).bits(G, N, D)
        self.kernel.gains_rows(room, bits, off, self.dopt)
        del room, off, idx
        self._buffers: dict[int, np.ndarray] = {}

    def close(self) -> None:
        """Let the kernel's threads go."""
        self.kernel.close()

    def __enter__(self) -> Versus:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def batch_size(self) -> int:
        """Rules per pass: as many as the memory budget for W allows."""
        return max(1, int(self.memory // (self.G ** self.N * self.N * 8)))

    def _candidates(self, policies: Sequence[RowsRule]) -> tuple[np.ndarray, np.ndarray]:
        """The rules' gain distributions by (own score, best opponent's score), all in one array:
        rule k's for (s0, lead) at dcand[coff[k, s0 G + lead]:], G - s0 + 1 values."""
        G, D = self.G, self.D
        s0 = np.repeat(np.arange(G), G)
        room = G - s0
        per = int((room + 1).sum())
        dcand = np.empty(per * len(policies))
        coff = np.empty((len(policies), G * G), dtype=np.int64)
        base = np.concatenate([[0], np.cumsum(room + 1)[:-1]])
        for k, pol in enumerate(policies):
            coff[k] = k * per + base
            self.kernel.gains_rows(room, pol.rows(G, D), coff[k], dcand)
        return dcand, coff

    def win(self, policies: Iterable[Policy | RowsRule]) -> np.ndarray:
        """(K, N): policy k's win probability when it sits in seat c (c = 0 moves first). Each policy decides by
        the turn, its own score and the best opponent's only (``RowsRule``: the simple and race rules ``parse``
        names); any other is refused, naming it."""
        rules = [self._rule(p) for p in policies]
        out = np.empty((len(rules), self.N))
        B = self.batch_size()
        for lo in range(0, len(rules), B):
            out[lo:lo + B] = self._pass(rules[lo:lo + B])
        return out

    @staticmethod
    def _rule(policy: Policy | RowsRule) -> RowsRule:
        if not isinstance(policy, RowsRule):
            raise PolicyError(f"policy {policy.name}: only rules that depend on the turn, your score and the best "
                              "opponent's score can be evaluated in a batch (hold:, dice:, race:; evaluate takes any)")
        return policy

    def _pass(self, policies: Sequence[RowsRule]) -> np.ndarray:
        """One pass per thread, each over its share of the rules with its own W (reused across calls)."""
        G, N = self.G, self.N
        parts = min(len(policies), self.kernel.threads)
        shares = [policies[i * len(policies) // parts:(i + 1) * len(policies) // parts] for i in range(parts)]
        jobs = []
        for i, share in enumerate(shares):
            dcand, coff = self._candidates(share)
            K = len(share)
            buf = self._buffers.get(i)
            if buf is None or buf.size < N * G ** N * K:
                buf = self._buffers[i] = np.empty(N * G ** N * K)
            jobs.append((K, self.dopt, self.obase, dcand, coff, buf[:N * G ** N * K].reshape(N, G ** N, K),
                         np.ones(1)))
        self.kernel.versus(jobs)
        if min(float(job[6][0]) for job in jobs) <= 1e-14:
            raise GonutsError("a rule never ends the game: it stops without scoring at every turn")
        seat_first = [(N - c) % N for c in range(N)]
        return np.concatenate([job[5][seat_first, 0].T for job in jobs])


class _AfterScoringTurns:
    """The scoring-turns rule after k turns that scored: hold once the turn total is at least
    (G - score) / (turns - k), as rows by (own score, best opponent's score) for ``Versus``."""

    def __init__(self, k: int, turns: int) -> None:
        self.k, self.turns, self.name = k, turns, f"{turns} scoring turns, after {k}"

    def rows(self, G: int, D: int) -> np.ndarray:
        s0, t, n = np.arange(G)[:, None, None], np.arange(G)[None, :, None], np.arange(D + 1)[None, None, :]
        hold_at = -(-(G - s0) // (self.turns - self.k))
        grid = np.broadcast_to((t < hold_at) & (s0 + t < G) & (n >= 1), (G, G, D + 1))
        return np.repeat(np.packbits(grid.reshape(G, -1), axis=1), G, axis=0)


def scoring_turns(rules: Rules, table: Table, turns: int = 4) -> tuple[float, float]:
    """The "N scoring turns" rule against an optimal opponent (2 players), exactly: after k turns that
    scored, hold once the turn total is at least (G - score) / (turns - k); from the last, roll to the
    goal. The rule remembers k, so the state is (scores, player to move, k): the same scalar chain as
    ``Versus`` with k carried along (a turn that scores moves k on). Returns the rule's win
    probability in seat 0 and seat 1 (seat 0 moves first)."""
    if rules.players != 2:
        raise GonutsError("the scoring-turns rule is evaluated for 2 players")
    if turns < 1:
        raise GonutsError("turns must be at least 1")
    G = rules.target
    with Versus(rules, table) as vs:
        dcand, coff = vs._candidates([_AfterScoringTurns(k, turns) for k in range(turns)])
        W0 = np.zeros((G, G, turns))          # the rule's win probability, the rule to move
        W1 = np.zeros((G, G, turns))          # ... the optimal player to move
        for total in range(2 * G - 2, -1, -1):
            for x0 in range(max(0, total - G + 1), min(G - 1, total) + 1):
                x1 = total - x0
                h0, h1 = G - x0, G - x1
                d1 = vs.dopt[vs.obase[x1] + x0 * (h1 + 1):][:h1 + 1]       # the optimal player's turn
                for k in range(turns):
                    d0 = dcand[coff[k, x0 * G]:][:h0 + 1]                    # the rule's turn
                    kn = min(k + 1, turns - 1)
                    a0 = d0[h0] + float(d0[1:h0] @ W1[x0 + 1:, x1, kn])
                    a1 = float(d1[1:h1] @ W0[x0, x1 + 1:, k])
                    b0, b1 = d0[0], d1[0]
                    W0[x0, x1, k] = (a0 + b0 * a1) / (1.0 - b0 * b1)
                    W1[x0, x1, k] = a1 + b1 * W0[x0, x1, k]
    return float(W0[0, 0, 0]), float(W1[0, 0, 0])


__all__ = ["Versus", "scoring_turns"]
