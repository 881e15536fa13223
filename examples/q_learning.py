"""Tabular Q-learning on GoNuts-v0, its greedy policy evaluated exactly, and its distance from optimal.

    pip install ".[rl]"
    python examples/q_learning.py                      # 2 players, target 20, against optimal play
    python examples/q_learning.py --episodes 200000 --target 30 --opponents hold:10

The agent learns from games against the chosen opponents. Its greedy policy is then
handed to gonuts-solve's exact evaluation as a plain Python callable, both seat orders,
and compared with the optimal policy against the same opponents: no sampling error in
the verdict, however briefly the agent trained.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import gymnasium  # noqa: E402

import solver.adapters.gymnasium_env  # noqa: E402,F401  (registers GoNuts-v0)
from solver.adapters.live import optimal_table  # noqa: E402
from solver.game.rules import Rules  # noqa: E402
from solver.lab.policies import CallablePolicy  # noqa: E402
from solver.lab.strategy import evaluate_policies, resolve  # noqa: E402


def train(env, episodes, alpha, epsilon, rng):
    G = env.unwrapped.game_rules.target
    Q = np.zeros((G + 1, G + 1, G, 6, 2))                 # own score, opponent score, turn points, dice, action
    for _ in range(episodes):
        obs, _ = env.reset(seed=int(rng.integers(2**31)))
        done = False
        while not done:
            s = tuple(obs)
            a = int(rng.integers(2)) if rng.random() < epsilon else int(np.argmax(Q[s]))
            obs, reward, done, _, _ = env.step(a)
            target = reward if done else float(np.max(Q[tuple(obs)]))
            Q[s + (a,)] += alpha * (target - Q[s + (a,)])
    return Q


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--target", type=int, default=20)
    ap.add_argument("--opponents", default="optimal")
    ap.add_argument("--episodes", type=int, default=60_000)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--epsilon", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    env = gymnasium.make("GoNuts-v0", target=args.target, opponents=args.opponents)
    rng = np.random.default_rng(args.seed)
    t0 = time.perf_counter()
    Q = train(env, args.episodes, args.alpha, args.epsilon, rng)
    print(f"trained {args.episodes:,} episodes against {args.opponents} in {time.perf_counter() - t0:.1f} s")

    def learned(scores, turn, dice):
        return bool(Q[scores[0], scores[1], turn, dice, 1] > Q[scores[0], scores[1], turn, dice, 0])

    rules = Rules.from_options(reading="rulebook", target=args.target)
    table = optimal_table(rules)
    mine = "best" if args.opponents != "optimal" else "optimal"    # what the agent could have done
    best, opponent = resolve([mine, args.opponents], rules, lambda: table, table=table)
    agent = CallablePolicy(learned, "q-learning")
    w_agent = evaluate_policies(rules, [agent, opponent], table=table).win_both_orders[0]
    w_best = evaluate_policies(rules, [best, opponent], table=table).win_both_orders[0]
    label = "the best response" if args.opponents != "optimal" else "optimal play"
    print(f"exact win probability against {args.opponents}, averaged over who moves first:")
    print(f"  Q-learning (greedy)  {100 * w_agent:6.2f}%")
    print(f"  {label:<20} {100 * w_best:6.2f}%")
    print(f"  the learned policy is {100 * (w_best - w_agent):.2f} points of win probability from {label}")


if __name__ == "__main__":
    main()
