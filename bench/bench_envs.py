"""Game-AI adapters: environment steps per second in one process, and the best-response solve against
the optimal solve of the same game (issue 10's goals: >= 20,000 steps/s; best response within 3x).

    pip install ".[rl]" && python bench/bench_envs.py
"""
from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
warnings.simplefilter("ignore")


def pz_steps(steps=40_000):
    from solver.adapters import pettingzoo_env
    env = pettingzoo_env.env()
    env.reset(seed=1)
    n, t0 = 0, time.perf_counter()
    while n < steps:
        for _agent in env.agent_iter():
            obs, r, term, trunc, info = env.last()
            env.step(None if term or trunc else 1 if obs["observation"][-2] < 10 else 0)
            n += 1
        env.reset()
    return n / (time.perf_counter() - t0)


def gym_steps(steps=40_000):
    import gymnasium

    import solver.adapters.gymnasium_env  # noqa: F401
    env = gymnasium.make("GoNuts-v0").unwrapped
    obs, _ = env.reset(seed=1)
    t0 = time.perf_counter()
    for _ in range(steps):
        obs, r, term, trunc, info = env.step(1 if obs[-2] < 12 else 0)
        if term:
            obs, _ = env.reset()
    return steps / (time.perf_counter() - t0)


def best_vs_optimal(repeats=7):
    from solver.engine.respond import respond
    from solver.engine.solve import solve
    from solver.game.rules import Rules
    from solver.game.turn import turn_model
    from solver.lab.policies import hold
    rules = Rules.from_options(reading="rulebook")
    model = turn_model(rules)
    bits = hold(20, 50, 5).bits(50, 2, 5)
    solve(model, 2, 50)
    t_opt = t_best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        solve(model, 2, 50)
        t_opt = min(t_opt, time.perf_counter() - t0)
        t0 = time.perf_counter()
        respond(model, 2, 50, [None, bits], [0])
        t_best = min(t_best, time.perf_counter() - t0)
    return t_opt, t_best


def main():
    pz = pz_steps()
    print(f"PettingZoo gonuts_v0 (2 players, target 50, wrapped): {pz:,.0f} steps/s (goal >= 20,000): "
          f"{'PASS' if pz >= 20_000 else 'MISS'}")
    gy = gym_steps()
    print(f"Gymnasium GoNuts-v0 (against optimal play, opponents' turns included): {gy:,.0f} steps/s (goal >= "
          f"20,000): {'PASS' if gy >= 20_000 else 'MISS'}")
    t_opt, t_best = best_vs_optimal()
    print(f"best response to hold:20 (2 players, target 50): {t_best:.4f} s; optimal solve {t_opt:.4f} s; ratio "
          f"{t_best / t_opt:.2f} (goal <= 3): {'PASS' if t_best / t_opt <= 3 else 'MISS'}")


if __name__ == "__main__":
    main()
