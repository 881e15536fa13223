"""The tables of a fixed set of games, as digests: what every build of the kernel must give.

``python tests/table_digests.py`` writes tests/fixtures/table_digests.json from tables built here by
``gonuts-solve build`` (the first-use compile, gcc). The tests hold to it a source build (test_portable),
the wheel installed where no compiler exists (test_wheel), and CI's workflow on every platform. A digest
is the SHA-256 of one array's bytes (C order), with its dtype and shape; ``meta`` is left out (it holds
the build's timing), its ``checksum`` of the arrays is kept.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "table_digests.json"
sys.path.insert(0, str(ROOT))
from tests.wheel_check import GAMES, digests  # noqa: E402  (one list of games, one digest: the wheels' check)


def build_all(command: list[str], folder: Path, env=None, games=None) -> dict:
    """Build every game (``GAMES`` unless given) with ``command`` (the CLI's argv prefix) into ``folder``:
    {file name: digests}."""
    out = {}
    for options, name in GAMES if games is None else games:
        p = subprocess.run([*command, "build", *options, "--out", str(folder / name)], env=env,
                           capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            raise AssertionError(f"build {' '.join(options)}: {p.stderr.strip()[-1000:]}")
        out[name] = digests(folder / name)
    return out


# A game whose orbits have several equilibria (docs/model.md): its own key, so that the portability tests that
# build every game of "tables" stay quick; tests/engine/test_equilibria.py builds it, tests/js/equilibria.test.mjs
# solves it with the page's kernel.
CYCLING = [(["--players", "4", "--target", "51", "--rules", "rulebook"], "gonuts-4p-t51-rulebook.npz")]


def main():
    with tempfile.TemporaryDirectory() as tmp:
        got = build_all([sys.executable, str(ROOT / "cli.py")], Path(tmp))
        cycling = build_all([sys.executable, str(ROOT / "cli.py")], Path(tmp), games=CYCLING)
    FIXTURE.write_text(json.dumps({"about": __doc__.strip().splitlines()[0], "tables": got, "cycling": cycling},
                                  indent=1) + "\n")
    print(f"wrote {FIXTURE}")


if __name__ == "__main__":
    main()
