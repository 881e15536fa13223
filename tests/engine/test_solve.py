"""The engine against independent oracles: published values, closed forms, a plain solver."""
import os
import sys
from fractions import Fraction
from math import comb

import numpy as np
import pytest

import solver.engine.solve as engine
from solver.engine.solve import ConvergenceWarning, solve
from solver.game.payout import nuts_payout_table
from solver.game.rules import Rules
from solver.game.turn import turn_model
from solver.reference.bellman import bellman, plain_value_iteration


def test_pig_reproduces_neller_presser_2004():
    """Neller & Presser, "Optimal Play of the Dice Game Pig", UMAP Journal 25(1), 2004:
    the first player wins with probability 0.5306 under optimal play (target 100)."""
    res = solve(turn_model(Rules(game="pig", target=100)), 2, 100)
    assert round(res.first_player_win, 4) == 0.5306
    assert res.converged and res.residual <= 1e-12


def _turn_win_prob_target1(rules):
    """Target 1 by hand: P(the turn scores at least one point) when always rolling.

    From n live dice with 0 turn points: any acorn wins; all squirrels start a
    Go Nuts! round that wins unless it yields no acorn; a mix of cars and
    squirrels goes on with the squirrels. Exact fractions throughout.
    """
    F = sum(rules.faces)
    pa, ps, pc = (Fraction(x, F) for x in rules.faces)
    pd = Fraction(rules.dog[0], sum(rules.dog))
    k = rules.players - 1

    def nuts_zero(n):
        q, z = 1 - pd, (1 - pa) ** n
        return sum(comb(k, j) * (-1) ** j * (q ** j - 1) * z / (1 - q ** j * z) for j in range(1, k + 1))

    q = {}
    for n in range(1, 6):
        nuts_n = 5 if rules.nuts_all_dice else n
        win = 1 - (1 - pa) ** n + ps ** n * (1 - nuts_zero(nuts_n))
        for c in range(1, n):
            win += comb(n, c) * pc ** c * ps ** (n - c) * q[n - c]
        q[n] = win
    return q[5]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", ["rulebook", "summary"])
def test_target_one_closed_form(players, name):
    """With target 1 the player to move wins with prob q, else play passes: w_k = q(1-q)^k / (1-(1-q)^N)."""
    r = Rules.from_options(reading=name, players=players, target=1)
    q = _turn_win_prob_target1(r)
    res = solve(turn_model(r), players, 1)
    want = [float(q * (1 - q) ** k / (1 - (1 - q) ** players)) for k in range(players)]
    assert res.start_win[(0,) * players] == pytest.approx(want, abs=1e-14)


CASES = [
    Rules.from_options(reading="rulebook"), Rules.from_options(reading="summary"),
    Rules.from_options(reading="rulebook", players=3, target=12), Rules.from_options(reading="summary", players=3, target=12),
    Rules.from_options(reading="rulebook", players=4, target=6), Rules.from_options(reading="summary", players=4, target=6),
    Rules.from_options(reading="rulebook", players=3, target=10, faces=(1, 3, 2), speed=0.5),
    Rules.from_options(reading="summary", players=2, target=25, faces=(3, 1, 2), dog=(2, 3), speed=2.0),
    Rules(game="pig", target=30), Rules(game="pig", players=3, target=15),
]


@pytest.mark.slow
@pytest.mark.parametrize("rules", CASES, ids=lambda r: r.describe())
def test_engine_agrees_with_plain_global_value_iteration(rules):
    """Every start state to 1e-9 and every decision identical, except where the two actions tie within 1e-9."""
    res = solve(turn_model(rules), rules.players, rules.target)
    W, roll, sweeps, resid = plain_value_iteration(rules, tol=1e-13)
    assert resid <= 1e-13
    assert np.abs(W - res.start_win).max() < 1e-9
    differ = roll != res.roll
    if differ.any():
        pay = nuts_payout_table(rules) if rules.game == "gonuts" else None
        b = bellman(rules, pay, res.start_win, np.arange(rules.target ** rules.players))
        gap = np.abs(b.roll_own - b.stop_own).reshape(differ.shape)
        assert gap[differ].max() < 1e-9


@pytest.mark.parametrize("name", ["rulebook", "summary"])
def test_bellman_equations_hold_at_every_state_of_a_built_table(name, rulebook2, summary2):
    """Recompute every state of the target-50 tables with the independent operator."""
    t = rulebook2 if name == "rulebook" else summary2
    G, N = t.target, t.players
    b = bellman(t.rules, t.arrays["nuts_payout"], t.arrays["start_win"], np.arange(G ** N))
    assert np.abs(b.value - t.arrays["start_win"].reshape(-1, N)).max() < 1e-12
    rw = t.arrays["roll_win"].reshape(b.roll_own.shape)
    sw = t.arrays["stop_win"].reshape(b.stop_own.shape)
    assert np.abs(b.roll_own[..., 1:] - rw[..., 1:]).max() < 1e-12
    assert np.abs(b.stop_own[..., 1:] - sw[..., 1:]).max() < 1e-12
    differ = b.roll != t.arrays["roll"].reshape(b.roll.shape)
    assert not differ.any() or np.abs(b.roll_own - b.stop_own)[differ].max() < 1e-12
    assert t.meta["solver"]["converged"] and t.meta["solver"]["residual"] <= 1e-12


def test_table_conventions(rulebook2):
    t = rulebook2
    G = t.target
    roll, rw, sw = t.arrays["roll"], t.arrays["roll_win"], t.arrays["stop_win"]
    s0 = np.arange(G)[:, None, None, None]
    tt = np.arange(G)[None, None, :, None]
    over = np.broadcast_to(s0 + tt >= G, roll.shape).copy()
    over[..., 0] = False
    assert not roll[over].any() and np.all(rw[over] == 1) and np.all(sw[over] == 1)
    assert not roll[..., 0].any() and np.all(rw[..., 0] == 0) and np.all(sw[..., 0] == 0)
    assert np.all(roll[:, :, 0, 5])                          # the opening roll is forced
    assert np.allclose(rw[:, :, 0, 5], t.arrays["start_win"][..., 0], atol=1e-15, rtol=0)
    np.testing.assert_allclose(t.arrays["start_win"].sum(-1), 1.0, atol=1e-12)


def test_symmetric_orbit_and_first_player_advantage(rulebook2):
    sw = rulebook2.arrays["start_win"]
    # More banked points never hurt the player to move, and moving first is an advantage.
    assert np.all(np.diff(sw[..., 0], axis=0) >= -1e-12)
    assert np.all(np.diff(sw[..., 0], axis=1) <= 1e-12)
    assert sw[0, 0, 0] > 0.5


def test_value_iteration_fallback_agrees(monkeypatch):
    r = Rules.from_options(reading="rulebook", players=3, target=10)
    ref = solve(turn_model(r), 3, 10)
    monkeypatch.setattr(engine, "MAX_PI", 0)
    vi = solve(turn_model(r), 3, 10)
    assert vi.converged and vi.residual <= 1e-12
    assert np.abs(vi.start_win - ref.start_win).max() < 1e-10


def test_non_convergence_is_reported_and_warned(monkeypatch):
    monkeypatch.setattr(engine, "MAX_PI", 0)
    monkeypatch.setattr(engine, "MAX_VI", 1)
    with pytest.warns(ConvergenceWarning):
        res = solve(turn_model(Rules.from_options(target=8)), 2, 8)
    assert not res.converged and res.residual > 1e-12


_REBUILD = """
import hashlib, sys, tempfile
from pathlib import Path
from solver.store import build
from solver.store import tables
from solver.game.rules import Rules
with tempfile.TemporaryDirectory() as d:
    for players in (2, 3):
        for reading in ("rulebook", "summary"):
            out = Path(d) / f"{players}-{reading}.npz"
            build.build(Rules.from_options(reading=reading, players=players), out)
            for name, a in sorted(tables.load(out).arrays.items()):
                print(f"{players}-{reading}", name, hashlib.sha256(a.tobytes()).hexdigest())
"""


# Every kernel output for a few small games, hashed: solve (values, decisions, roll and stop values),
# evaluate and best response, for each reading, Pig, other dice, and 5 players (the engine's
# general path). tests/fixtures/kernel_bits.json holds what the kernel gave before its turn pass was rewritten (commit d5fbd54).
_KERNEL_BITS = """
import hashlib, json
import numpy as np
from solver.engine.evaluate import evaluate
from solver.engine.respond import respond
from solver.engine.solve import solve
from solver.game.rules import Rules
from solver.game.turn import turn_model

def digest(*arrays):
    h = hashlib.sha256()
    for a in arrays:
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()[:32]

games = [("rulebook", 4, 12, {}), ("summary", 4, 12, {}), ("rulebook", 4, 9, {"faces": (1, 1, 1), "speed": 2.0}),
         ("summary", 3, 15, {"faces": (3, 2, 2), "dog": (2, 3)}), ("rulebook", 2, 13, {}), ("pig", 3, 20, {}),
         ("pig", 4, 10, {}), ("rulebook", 5, 7, {})]
out = {}
for reading, N, G, knobs in games:
    # the engine takes any number of players; the rules stop at 4, and a turn does not depend on them
    seats = min(N, 4)
    rules = Rules(game="pig", players=seats, target=G) if reading == "pig" else Rules.from_options(reading=reading, players=seats,
                                                                                       target=G, **knobs)
    model = turn_model(rules)
    res = solve(model, N, G, store_values=True)
    key = f"{reading} {N}p t{G} {json.dumps(knobs, sort_keys=True)}"
    out[key + " solve"] = digest(res.start_win, res.roll_bits, res.roll_win, res.stop_win)
    bits = res.roll_bits.reshape(G ** N, -1)
    rng = np.random.default_rng(N * 100 + G)
    other = np.where(rng.random(bits.shape) < 0.3, bits ^ rng.integers(0, 256, bits.shape, dtype=np.uint8), bits)
    other = other.astype(np.uint8)
    out[key + " evaluate"] = digest(evaluate(model, N, G, [bits] + [other] * (N - 1)).values)
    resp = respond(model, N, G, [bits] + [other] * (N - 1), [0])
    out[key + " respond"] = digest(resp.values, resp.bits)
print(json.dumps(out, indent=1, sort_keys=True))
"""


@pytest.mark.slow
def test_the_kernel_gives_the_bits_of_the_kernel_before_its_rewrite(tmp_path):
    """The lanes, the vector width (AVX or SSE2), the thread count, the compiler and the portable C path
    change no bit of any output."""
    import json
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent.parent
    want = json.loads((root / "tests" / "fixtures" / "kernel_bits.json").read_text())["digests"]
    base = {k: v for k, v in os.environ.items() if k not in ("GONUTS_SOLVE_SIMD", "GONUTS_SOLVE_THREADS", "CC")}
    base["GONUTS_SOLVE_CACHE"] = str(tmp_path / "cache")
    for label, extra in [("default", {}), ("SSE2 vectors", {"GONUTS_SOLVE_SIMD": "off"}),
                         ("1 kernel thread", {"GONUTS_SOLVE_THREADS": "1"}), ("clang", {"CC": "clang"}),
                         ("portable C (MSVC's path)", {"CC": "gcc -DGONUTS_PORTABLE"})]:
        p = subprocess.run([sys.executable, "-c", _KERNEL_BITS], cwd=root, env={**base, **extra},
                           capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, f"{label}: {p.stderr[-2000:]}"
        got = json.loads(p.stdout)
        assert got == want, f"{label}: {sorted(k for k in want if got.get(k) != want[k])} differ"


def _dispatch_groups():
    """numpy's dispatch targets, split into those this CPU has and those it lacks."""
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
    have = [g for g in __cpu_dispatch__ if __cpu_features__.get(g)]
    return have, [g for g in __cpu_dispatch__ if not __cpu_features__.get(g)]


def _environments():
    """Every setting whose kernels could change a bit: OpenBLAS cores, numpy's SIMD dispatch, kernel threads."""
    have, _ = _dispatch_groups()
    envs = [("default", {}), ("OpenBLAS Prescott", {"OPENBLAS_CORETYPE": "Prescott"}),
            ("OpenBLAS Sandybridge", {"OPENBLAS_CORETYPE": "Sandybridge"}),
            ("1 kernel thread", {"GONUTS_SOLVE_THREADS": "1"}), ("2 kernel threads", {"GONUTS_SOLVE_THREADS": "2"}),
            ("SSE2 kernel vectors", {"GONUTS_SOLVE_SIMD": "off"})]
    for i, group in enumerate(have):   # without this group and every one above it
        envs.append((f"numpy without {group}", {"NPY_DISABLE_CPU_FEATURES": " ".join(have[i:])}))
    return envs


@pytest.mark.slow
def test_builds_reproduce_the_shipped_tables_bit_for_bit_in_every_environment(tmp_path):
    """The shipped 2- and 3-player tables (both readings), rebuilt under every CPU setting we can reach here, byte for byte.

    The payouts are exact rationals rounded once and the kernel does IEEE operations in source
    order, one orbit per thread, so no BLAS kernel, SIMD loop or thread count can change a bit.
    numpy dispatch groups this CPU lacks cannot be tried on it; they are named in the output.
    """
    import hashlib
    import os
    import subprocess
    import sys
    from pathlib import Path

    from solver.store import tables
    root = Path(__file__).resolve().parent.parent.parent
    want = {}
    for players in (2, 3):
        for reading in ("rulebook", "summary"):
            for name, a in tables.load(root / "tables" / f"gonuts-{players}p-t50-{reading}.npz").arrays.items():
                want[f"{players}-{reading} {name}"] = hashlib.sha256(a.tobytes()).hexdigest()
    _, lacking = _dispatch_groups()
    if lacking:
        print(f"numpy dispatch groups this CPU lacks, so not tried here: {', '.join(lacking)}")
    base = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_CORETYPE", "NPY_DISABLE_CPU_FEATURES",
                                                              "GONUTS_SOLVE_THREADS", "GONUTS_SOLVE_SIMD")}
    base["GONUTS_SOLVE_CACHE"] = str(tmp_path / "cache")
    for label, extra in _environments():
        p = subprocess.run([sys.executable, "-c", _REBUILD], cwd=root, env={**base, **extra},
                           capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, f"{label}: {p.stderr[-2000:]}"
        got = dict(line.rsplit(" ", 1) for line in p.stdout.splitlines())
        assert got == want, f"{label}: {sorted(k for k in want if got.get(k) != want[k])} differ"


def test_kernel_thread_count_is_checked(monkeypatch):
    from solver.engine import kernels
    from solver.errors import GonutsError
    monkeypatch.setenv("GONUTS_SOLVE_THREADS", "3")
    assert kernels.threads() == 3
    monkeypatch.setenv("GONUTS_SOLVE_THREADS", "0")
    with pytest.raises(GonutsError, match="GONUTS_SOLVE_THREADS"):
        kernels.threads()
    monkeypatch.delenv("GONUTS_SOLVE_THREADS")
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert 1 <= kernels.threads() <= cores


def test_kernel_vector_setting_is_checked(monkeypatch):
    from solver.engine import kernels
    from solver.errors import GonutsError
    monkeypatch.setenv("GONUTS_SOLVE_SIMD", "off")
    assert "-mavx" not in kernels.flags()
    monkeypatch.setenv("GONUTS_SOLVE_SIMD", "avx512")
    with pytest.raises(GonutsError, match="GONUTS_SOLVE_SIMD must be auto or off"):
        kernels.flags()
    monkeypatch.setenv("GONUTS_SOLVE_SIMD", "auto")
    assert ("-mavx" in kernels.flags()) == kernels.has_avx()
    if not sys.platform.startswith("linux"):
        return                                # has_avx asks macOS's sysctl, Windows' IsProcessorFeaturePresent
    with open("/proc/cpuinfo") as fh:        # this project's machines are x86-64 Linux
        assert kernels.has_avx() == any(ln.startswith("flags") and " avx " in ln + " " for ln in fh)


@pytest.mark.slow
def test_the_compile_message_appears_only_when_compiling(tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent.parent
    env = {**os.environ, "GONUTS_SOLVE_CACHE": str(tmp_path / "cache")}
    runs = [subprocess.run([sys.executable, "-m", "cli", "build", "--target", "12", "--speed", "2", "--out",
                            str(tmp_path / "t.npz")],
                           cwd=root, env=env, capture_output=True, text=True, timeout=300) for _ in range(2)]
    assert all(p.returncode == 0 for p in runs), runs[0].stderr
    assert "compiling the solver" in runs[0].stderr
    assert "compiling" not in runs[1].stderr


def test_progress_counts_the_work_of_each_layer():
    """A layer's orbits cost about N G - S turn totals each (S its score sum): the progress bar counts
    that, so its percentage keeps time although later layers cost more per orbit. Checked against the
    exact count of turn totals over every orbit's members."""
    N, G = 4, 20
    reps, ptr = engine.orbit_layers(N, G)
    work = engine.layer_work(N, G, ptr)
    Gpow = G ** (N - 1)
    exact = []
    for lo, hi in zip(ptr[:-1], ptr[1:]):
        total = 0
        for rep in reps[lo:hi]:
            idx = int(rep)
            for _ in range(N):
                total += G - idx // Gpow
                idx = (idx % Gpow) * G + idx // Gpow
                if idx == rep:
                    break
        exact.append(total)
    exact = np.cumsum([0] + exact)
    assert work[0] == 0 and np.all(np.diff(work) >= 0)
    assert np.abs(work / work[-1] - exact / exact[-1]).max() < 0.01      # short orbits are few
    seen = []
    solve(turn_model(Rules.from_options(players=2, target=12)), 2, 12, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1][0] == seen[-1][1] and all(a[0] <= b[0] for a, b in zip(seen, seen[1:]))


def _corner(r, target):
    """The arrays of a solve ``r`` in its corner where every score is at least r.target - target: the game to
    ``target`` (the values depend on the distances to the target only), with the turn axis cut there."""
    N, o = r.players, r.target - target
    sl = (slice(o, None),) * N
    out = {"start_win": r.start_win[sl], "roll": r.roll[sl][..., :target, :]}
    if r.roll_win is not None:
        out.update(roll_win=r.roll_win[sl][..., :target, :], stop_win=r.stop_win[sl][..., :target, :])
    return out


@pytest.mark.parametrize("speed", [0.5, 1, 2])
@pytest.mark.parametrize("reading", ["rulebook", "summary"])
@pytest.mark.parametrize("players, small, large", [(2, 20, 31), (3, 12, 19), (4, 10, 14)])
def test_a_game_is_the_corner_of_the_same_game_to_any_larger_target_bit_for_bit(players, small, large, reading,
                                                                                 speed):
    """Every array of the game to ``small`` is the corner of the game to ``large``, to the bit (before the tails
    were exact, most of these pairs differed in the last bit of start_win)."""
    rules = Rules.from_options(players=players, target=small, reading=reading, speed=speed)
    a = solve(turn_model(rules), players, small, store_values=True)
    b = solve(turn_model(Rules.from_options(players=players, target=large, reading=reading, speed=speed)),
              players, large, store_values=True)
    for name, want in _corner(b, small).items():
        got = getattr(a, name)
        assert got.dtype == want.dtype and got.tobytes() == np.ascontiguousarray(want).tobytes(), name


def test_pig_is_the_corner_of_a_larger_pig_bit_for_bit():
    a = solve(turn_model(Rules(game="pig", target=30)), 2, 30)
    b = solve(turn_model(Rules(game="pig", target=47)), 2, 47)
    for name, want in _corner(b, 30).items():
        assert getattr(a, name).tobytes() == np.ascontiguousarray(want).tobytes(), name


@pytest.mark.parametrize("players, reading, speed", [(3, "rulebook", 1), (4, "summary", 0.5), (2, "rulebook", 2)])
def test_one_solve_reports_every_smaller_target_as_its_own_solve_would(players, reading, speed):
    """``corner_report`` of the game to 14 (or 22) says of each smaller target what a solve of that target says."""
    from solver.engine.solve import corner_report
    large = 14 if players == 4 else 22
    big = solve(turn_model(Rules.from_options(players=players, target=large, reading=reading, speed=speed)),
                players, large, keep_orbits=True)
    report = corner_report(big, range(1, large + 1))
    for T in (1, 5, 9, large):
        r = solve(turn_model(Rules.from_options(players=players, target=T, reading=reading, speed=speed)), players, T)
        assert report[T] == {"converged": r.converged, "residual": r.residual, "iterations": r.iterations,
                             "searched": r.searched, "several": r.several, "mixed": len(r.mixed), "spread": r.spread,
                             "first_player_win": r.first_player_win}, T
    with pytest.raises(ValueError, match="keep_orbits"):
        corner_report(solve(turn_model(Rules(players=2, target=5)), 2, 5), [3])
