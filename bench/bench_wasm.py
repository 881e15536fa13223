"""The page's solver against the native one: the same game solved by the committed WebAssembly kernel under Node
(``core/solve.js`` driving ``kernels.wasm``, the turn model built by the page's own code) and by the native
kernel on one thread (``solve`` with ``GONUTS_SOLVE_THREADS=1``), alternating in one run; each time is the solve
alone (the layer loop and what the driver does around it, not the start of a process). Prints the medians, their
ratio (goal: at most 1.5 for 3 players near target 50) and whether the two gave the same bytes.

    python bench/bench_wasm.py [--players 3] [--target 50] [--rules rulebook] [--runs 3] [--wasm PATH]

``--wasm`` times another build of the module (a newer clang, other flags) in place of the committed one.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

NODE = """
import fs from "node:fs";
import crypto from "node:crypto";
import { solveGame, kernelData } from "%(root)s/solver/site/web/src/core/solve.js";
const [wasm, players, target, reading, page] = process.argv.slice(2);
const data = JSON.parse(fs.readFileSync(page, "utf8"));
const settings = %(settings)s;
const { instance } = await WebAssembly.instantiate(fs.readFileSync(wasm), {});
instance.exports._initialize();
const t0 = performance.now();
const game = kernelData(data.readings[reading], Number(players), Number(target), [1, 1], settings);
const got = solveGame(instance.exports, game);
const seconds = (performance.now() - t0) / 1000;
const bytes = new Uint8Array(got.startWin.buffer);
console.log(JSON.stringify({seconds, sha: crypto.createHash("sha256").update(bytes).digest("hex")}));
"""


def native(players: int, target: int, reading: str) -> tuple[float, str]:
    code = ("import hashlib, json, time\n"
            "from solver.engine.solve import solve, prepare\n"
            "from solver.game.payout import nuts_payout_table\n"
            "from solver.game.rules import Rules\n"
            "from solver.game.turn import gonuts_turn\n"
            f"rules = Rules.from_options(reading={reading!r}, players={players}, target={target})\n"
            "prepare()\n"
            "t0 = time.perf_counter()\n"
            "r = solve(gonuts_turn(rules, nuts_payout_table(rules)), rules.players, rules.target)\n"
            "s = time.perf_counter() - t0\n"
            "print(json.dumps({'seconds': s, 'sha': hashlib.sha256(r.start_win.tobytes()).hexdigest()}))")
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                       env={**os.environ, "GONUTS_SOLVE_THREADS": "1"})
    out = json.loads(p.stdout.strip().splitlines()[-1])
    return out["seconds"], out["sha"]


def web(script: Path, wasm: Path, players: int, target: int, reading: str, page: Path) -> tuple[float, str]:
    p = subprocess.run(["node", str(script), str(wasm), str(players), str(target), reading, str(page)],
                       capture_output=True, text=True, check=True)
    out = json.loads(p.stdout.strip().splitlines()[-1])
    return out["seconds"], out["sha"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--target", type=int, default=50)
    ap.add_argument("--rules", default="rulebook", choices=["rulebook", "summary"])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--wasm", type=Path, default=ROOT / "solver" / "site" / "web" / "kernels.wasm")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "solve.mjs"
        from solver.engine.solve import EPS, MAX_PI, MAX_VI, TOLERANCE  # the solver's own settings, as Python's
        settings = json.dumps({"tol": TOLERANCE, "eps": EPS, "max_pi": MAX_PI, "max_vi": MAX_VI})
        script.write_text(NODE % {"root": ROOT.as_posix(), "settings": settings})
        page = ROOT / "tests" / "fixtures" / "page-t50.json"           # the readings' rolls, as the page has them
        w, n, same = [], [], set()
        for _ in range(a.runs):
            ws, wsha = web(script, a.wasm, a.players, a.target, a.rules, page)
            ns, nsha = native(a.players, a.target, a.rules)
            w.append(ws), n.append(ns), same.add(wsha == nsha)
    print(f"{a.players} players, target {a.target}, {a.rules}; module {a.wasm.name} "
          f"({hashlib.sha256(a.wasm.read_bytes()).hexdigest()[:12]}), {a.runs} runs each, alternating")
    print(f"  WebAssembly (Node {subprocess.run(['node', '--version'], capture_output=True, text=True).stdout.strip()}): "
          f"median {statistics.median(w):.2f} s (best {min(w):.2f})")
    print(f"  native, one thread: median {statistics.median(n):.2f} s (best {min(n):.2f})")
    ratio = statistics.median(w) / statistics.median(n)
    print(f"  ratio {ratio:.2f}x (goal 1.5x: {'PASS' if ratio <= 1.5 else 'not met'}); same bytes: {same == {True}}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
