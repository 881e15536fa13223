"""Literal simulation of whole games: dice by dice, Go Nuts! rounds tick by tick with dog dice.

Independent of the solver: it reads the rules and asks each seat's policy
``policy(scores, turn, dice) -> bool array`` (scores in turn order from the
player to move, one row per game; True = roll) at every decision. All games
advance in lockstep, vectorised with numpy; randomness comes only from the
``numpy.random.Generator`` passed in.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from solver.errors import GonutsError
from solver.game.rules import N_DICE, Rules

_ROLL, _NUTS = 0, 1


SeatPolicy = Callable[[np.ndarray, np.ndarray, np.ndarray], Any]
"""A seat's decisions for a batch of games: ``policy(scores, t, n)``, scores in turn order from the seat
to move (M, N), turn points (M,) and dice (M,) -> True where it rolls (anything ``np.asarray`` makes bool)."""


@dataclass(frozen=True)
class SimResult:
    """Games played: ``wins`` by seat (seat 0 moved first) and the ``turns`` of each game."""
    games: int
    wins: np.ndarray          # (N,) games won by each seat (seat 0 moves first)
    turns: np.ndarray         # (games,) turns played in each game

    @property
    def win_rate(self) -> np.ndarray:
        """Each seat's share of the games won."""
        return np.asarray(self.wins / self.games, dtype=np.float64)

    @property
    def stderr(self) -> np.ndarray:
        """The standard error of each ``win_rate``."""
        p = self.win_rate
        return np.asarray(np.sqrt(p * (1 - p) / self.games))


def _faces(rng: np.random.Generator, shape: tuple[int, ...], counts: Sequence[int]) -> np.ndarray:
    """Throw dice with face counts ``counts``; returns the face index of each die."""
    u = rng.integers(0, sum(counts), size=shape)
    return np.asarray(np.searchsorted(np.cumsum(counts), u, side="right"))


def simulate(rules: Rules, policies: Sequence[SeatPolicy], games: int, rng: np.random.Generator,
             progress: Callable[[int, int], object] | None = None, max_steps: int = 10_000_000,
             batch: int = 50_000, start: Sequence[int] | None = None) -> SimResult:
    """Play ``games`` games; seat 0 moves first. ``policies`` has one callable per seat.
    ``start`` gives the seats' scores at the start (head starts; default all 0)."""
    N = rules.players
    if len(policies) != N:
        raise GonutsError(f"need {N} policies, one per seat, got {len(policies)}")
    wins = np.zeros(N, dtype=np.int64)
    turns = []
    done = 0
    while done < games:
        m = min(batch, games - done)
        w, t = _play(rules, policies, m, rng, max_steps, start)
        wins += np.bincount(w, minlength=N)
        turns.append(t)
        done += m
        if progress is not None:
            progress(done, games)
    return SimResult(games, wins, np.concatenate(turns))


def _play(rules: Rules, policies: Sequence[SeatPolicy], M: int, rng: np.random.Generator, max_steps: int,
          start: Sequence[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
    N, G = rules.players, rules.target
    pig = rules.game == "pig"
    scores = np.zeros((M, N), dtype=np.int64)
    if start is not None:
        scores[:] = np.asarray(start, dtype=np.int64)
    active = np.zeros(M, dtype=np.int64)
    t = np.zeros(M, dtype=np.int64)
    n = np.full(M, 1 if pig else N_DICE, dtype=np.int64)
    phase = np.full(M, _ROLL)
    winner = np.full(M, -1, dtype=np.int64)
    nturns = np.ones(M, dtype=np.int64)
    # Go Nuts! round state
    base = np.zeros(M, dtype=np.int64)
    acc = np.zeros(M, dtype=np.int64)
    ndice = np.zeros(M, dtype=np.int64)
    ticks = np.zeros(M, dtype=np.int64)
    waiting = np.zeros((M, N - 1), dtype=bool)   # opponents yet to roll a dog
    speed = rules.speed_fraction

    def end_turn(idx: np.ndarray, gain: np.ndarray | int) -> None:
        seat = active[idx]
        scores[idx, seat] += gain
        won = scores[idx, seat] >= G
        winner[idx[won]] = seat[won]
        go = idx[~won]
        active[go] = (active[go] + 1) % N
        t[go] = 0
        n[go] = 1 if pig else N_DICE
        phase[go] = _ROLL
        nturns[go] += 1

    for _ in range(max_steps):
        live = winner < 0
        if not live.any():
            break
        rolling = np.flatnonzero(live & (phase == _ROLL))
        if len(rolling):
            if pig:
                face = rng.integers(1, 7, size=len(rolling))
                bust = face == 1
                end_turn(rolling[bust], 0)
                go = rolling[~bust]
                t[go] += face[~bust]
                decide = go
            else:
                f = _faces(rng, (len(rolling), N_DICE), rules.faces)
                live_die = np.arange(N_DICE)[None, :] < n[rolling][:, None]
                a = ((f == 0) & live_die).sum(1)
                s = ((f == 1) & live_die).sum(1)
                c = ((f == 2) & live_die).sum(1)
                nn = n[rolling]
                bust = c == nn
                nuts = s == nn
                end_turn(rolling[bust], 0)
                gn = rolling[nuts]
                phase[gn] = _NUTS
                base[gn] = 0 if rules.nuts_costs_turn else t[gn]
                acc[gn] = 0
                ticks[gn] = 0
                ndice[gn] = N_DICE if rules.nuts_all_dice else nn[nuts]
                waiting[gn] = True
                go_mask = ~bust & ~nuts
                go = rolling[go_mask]
                a, c, nn = a[go_mask], c[go_mask], nn[go_mask]
                t[go] += a
                left = nn - c
                if rules.one_die == "rolled":
                    back = (nn == 1) & (a == 1)
                else:
                    back = (left == 1) & (a == 1)
                n[go] = np.where(back, N_DICE, left)
                decide = go
            if len(decide):
                seat = active[decide]
                own = scores[decide, seat]
                reached = own + t[decide] >= G
                winner[decide[reached]] = seat[reached]
                ask = decide[~reached]
                stop = np.zeros(len(ask), dtype=bool)
                for k in range(N):
                    sel = active[ask] == k
                    if sel.any():
                        g = ask[sel]
                        frame = scores[g][:, [(k + j) % N for j in range(N)]]
                        stop[sel] = ~np.asarray(policies[k](frame, t[g], n[g]), dtype=bool)
                st = ask[stop]
                end_turn(st, t[st])
        nutting = np.flatnonzero(live & (phase == _NUTS) & (winner < 0))
        nutting = nutting[~np.isin(nutting, rolling)] if len(rolling) else nutting
        if len(nutting):
            ticks[nutting] += 1
            mt = ticks[nutting]
            k_throws = np.array([int(speed * x) - int(speed * (x - 1)) for x in mt.tolist()], dtype=np.int64) \
                if speed != 1 else np.ones(len(nutting), dtype=np.int64)
            for j in range(int(k_throws.max(initial=0))):
                who = nutting[k_throws > j]
                f = _faces(rng, (len(who), N_DICE), rules.faces)
                live_die = np.arange(N_DICE)[None, :] < ndice[who][:, None]
                acc[who] += ((f == 0) & live_die).sum(1)
            dogs = _faces(rng, (len(nutting), N - 1), rules.dog) == 0
            waiting[nutting] &= ~dogs
            over = nutting[~waiting[nutting].any(1)]
            end_turn(over, base[over] + acc[over])
    else:
        raise GonutsError(f"the games did not finish within {max_steps:,} steps")
    return winner, nturns


def simulate_nuts_round(rules: Rules, n_dice: int, rounds: int, rng: np.random.Generator) -> np.ndarray:
    """Gains of ``rounds`` literal Go Nuts! rounds with ``n_dice`` dice and players - 1 opponents."""
    k = rules.players - 1
    speed = rules.speed_fraction
    gain = np.zeros(rounds, dtype=np.int64)
    waiting = np.ones((rounds, k), dtype=bool)
    going = np.arange(rounds)
    tick = 0
    while len(going):
        tick += 1
        throws = int(speed * tick) - int(speed * (tick - 1))
        for _ in range(throws):
            f = _faces(rng, (len(going), n_dice), rules.faces)
            gain[going] += (f == 0).sum(1)
        dogs = _faces(rng, (len(going), k), rules.dog) == 0
        waiting[going] &= ~dogs
        going = going[waiting[going].any(1)]
    return gain
