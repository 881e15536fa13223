"""What every wheel must do where it is installed, with no C compiler: ``python tests/wheel_check.py``.

Run by the wheel workflow on each platform (cibuildwheel's test command) and by tests/across/test_wheel.py on
this one, against the installed package (never the checkout). It hides every compiler (PATH holds only
the Python that runs it, CC is unset, the cache is empty), then:

* the installed package carries the kernel for this CPU, and loads it;
* ``gonuts-solve build`` of the fixed games (tests/table_digests.py: 2-4 players, both readings, Pig)
  gives the committed digests, bit for bit;
* the default page and site are written, and ``advise``, ``practice`` and ``review`` answer every game
  the default page offers; ``verify`` rechecks a shipped table by the independent Bellman operator.

Needs numpy only. Prints one line per check and exits 1 at the first that fails.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "table_digests.json"
GAMES = [
    (["--players", "2", "--target", "30", "--rules", "rulebook"], "gonuts-2p-t30-rulebook.npz"),
    (["--players", "2", "--target", "25", "--rules", "summary"], "gonuts-2p-t25-summary.npz"),
    (["--players", "3", "--target", "20", "--rules", "rulebook"], "gonuts-3p-t20-rulebook.npz"),
    (["--players", "3", "--target", "16", "--rules", "summary"], "gonuts-3p-t16-summary.npz"),
    (["--players", "4", "--target", "12", "--rules", "rulebook"], "gonuts-4p-t12-rulebook.npz"),
    (["--players", "4", "--target", "10", "--rules", "summary"], "gonuts-4p-t10-summary.npz"),
    (["--game", "pig", "--players", "2", "--target", "40"], "pig-2p-t40.npz"),
]
RECORD = {"format": "gonuts-game", "version": 1, "you": 0,
          "events": [{"seat": 0, "roll": [2, 2, 1]}, {"seat": 0, "choice": "stop"}]}


def digests(path) -> dict:
    """Each array's dtype, shape and SHA-256, and the meta's checksum (as tests/table_digests.py)."""
    with np.load(path, allow_pickle=False) as z:
        out = {name: f"{z[name].dtype.str} {list(z[name].shape)} {hashlib.sha256(z[name].tobytes()).hexdigest()}"
               for name in sorted(z.files) if name != "meta"}
        out["checksum"] = json.loads(str(z["meta"][()]))["checksum"]
    return out


def main() -> int:
    work = Path(tempfile.mkdtemp(prefix="gonuts-wheel-check-"))
    try:
        return check(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def check(work: Path) -> int:
    bin_dir = work / "bin"                       # only this Python: no cc, gcc, clang, cl on the PATH
    bin_dir.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("CC", "GONUTS_SOLVE_KERNEL", "GONUTS_SOLVE_SIMD")}
    env.update(PATH=str(bin_dir), GONUTS_SOLVE_CACHE=str(work / "cache"), PYTHONIOENCODING="utf-8")
    for tool in ("cc", "gcc", "clang", "cl"):
        if shutil.which(tool, path=str(bin_dir)):
            return fail(f"{tool} is on the PATH of the check")

    def run(*args):
        return subprocess.run([sys.executable, "-m", "solver.commands.cli", *map(str, args)], cwd=work, env=env,
                              capture_output=True, text=True, timeout=900)

    probe = subprocess.run([sys.executable, "-c", "import solver, json; from solver.engine import kernels; "
                            "p = kernels.packaged(); kernels.load(); "
                            "print(json.dumps([solver.__file__, str(p), kernels.variant()]))"],
                           cwd=work, env=env, capture_output=True, text=True, timeout=300)
    if probe.returncode != 0:
        return fail(f"the installed kernel does not load: {probe.stderr.strip()[-500:]}")
    where, lib, variant = json.loads(probe.stdout)
    if lib == "None":
        return fail(f"the installed package ({where}) carries no kernel for this CPU ({variant})")
    ok(f"the package at {Path(where).parent} loads its own kernel {Path(lib).name} ({variant})")

    want = json.loads(FIXTURE.read_text())["tables"]
    for options, name in GAMES:
        p = run("build", *options, "--out", work / name)
        if p.returncode != 0:
            return fail(f"build {' '.join(options)}: {p.stderr.strip()[-500:]}")
        if digests(work / name) != want[name]:
            return fail(f"build {' '.join(options)}: the table differs from the committed digests")
        ok(f"build {' '.join(options)}: the committed digests")
    if (work / "cache" / "kernels").exists():
        return fail("a kernel was compiled into the cache")

    for args in (["web", "--out", work / "page.html"], ["web", "--site", work / "site"]):
        p = run(*args)
        if p.returncode != 0:
            return fail(f"{' '.join(map(str, args))}: {p.stderr.strip()[-500:]}")
    ok("the default page and site are written")
    record = work / "game.json"
    for players in (2, 3, 4):
        for reading in ("rulebook", "summary"):
            scores = ",".join(str(10 * k) for k in range(1, players + 1))
            record.write_text(json.dumps({**RECORD, "reading": reading, "players": players}))
            for args in (["advise", "--scores", scores, "--rules", reading, "--turn", "7", "--dice", "3", "--json"],
                         ["practice", "--players", players, "--rules", reading, "--count", "3", "--seed", "1",
                          "--json"],
                         ["review", record, "--json"]):
                p = run(*args)
                if p.returncode != 0:
                    return fail(f"{' '.join(map(str, args))}: {p.stderr.strip()[-500:]}")
                json.loads(p.stdout)
            ok(f"advise, practice and review: {players} players, {reading}")
    import solver.store.locate as locate
    shipped = locate.shipped_dir() / "gonuts-2p-t50-rulebook.npz"
    p = run("verify", shipped)
    if p.returncode != 0:
        return fail(f"verify {shipped.name}: {p.stderr.strip()[-500:]}")
    ok(f"verify {shipped.name}: {p.stdout.strip().splitlines()[-1]}")
    return 0


def ok(line: str) -> None:
    print(f"ok: {line}", flush=True)


def fail(line: str) -> int:
    print(f"FAILED: {line}", flush=True)
    return 1


if __name__ == "__main__":
    sys.exit(main())
