"""The tables of a fixed set of games, as digests: what every build of the kernel must give.

``python tests/table_digests.py`` writes tests/fixtures/table_digests.json from tables built here by
``gonuts-solve build`` (the first-use compile, gcc). The tests hold to it a source build (test_portable),
the wheel installed where no compiler exists (test_wheel), and CI's workflow on every platform. A digest
is the SHA-256 of one array's bytes (C order), with its dtype and shape; ``meta`` is left out (it holds
the build's timing), its ``checksum`` of the arrays is kept.
"""
from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "table_digests.json"
# (build options, file name): 2-4 players, both readings, a few targets, and Pig
GAMES = [
    (["--players", "2", "--target", "30", "--rules", "rulebook"], "gonuts-2p-t30-rulebook.npz"),
    (["--players", "2", "--target", "25", "--rules", "summary"], "gonuts-2p-t25-summary.npz"),
    (["--players", "3", "--target", "20", "--rules", "rulebook"], "gonuts-3p-t20-rulebook.npz"),
    (["--players", "3", "--target", "16", "--rules", "summary"], "gonuts-3p-t16-summary.npz"),
    (["--players", "4", "--target", "12", "--rules", "rulebook"], "gonuts-4p-t12-rulebook.npz"),
    (["--players", "4", "--target", "10", "--rules", "summary"], "gonuts-4p-t10-summary.npz"),
    (["--game", "pig", "--players", "2", "--target", "40"], "pig-2p-t40.npz"),
]


def digests(path) -> dict:
    """Each array's dtype, shape and SHA-256, and the meta's checksum, read with numpy alone."""
    with np.load(path, allow_pickle=False) as z:
        out = {name: f"{z[name].dtype.str} {list(z[name].shape)} {hashlib.sha256(z[name].tobytes()).hexdigest()}"
               for name in sorted(z.files) if name != "meta"}
        out["checksum"] = json.loads(str(z["meta"][()]))["checksum"]
    return out


def build_all(command: list[str], folder: Path, env=None) -> dict:
    """Build every game with ``command`` (the CLI's argv prefix) into ``folder``: {file name: digests}."""
    out = {}
    for options, name in GAMES:
        p = subprocess.run([*command, "build", *options, "--out", str(folder / name)], env=env,
                           capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            raise AssertionError(f"build {' '.join(options)}: {p.stderr.strip()[-1000:]}")
        out[name] = digests(folder / name)
    return out


def main():
    with tempfile.TemporaryDirectory() as tmp:
        got = build_all([sys.executable, str(ROOT / "cli.py")], Path(tmp))
    FIXTURE.write_text(json.dumps({"about": __doc__.strip().splitlines()[0], "tables": got}, indent=1) + "\n")
    print(f"wrote {FIXTURE}")


if __name__ == "__main__":
    main()
