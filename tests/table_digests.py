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


# Games that need the equilibrium search (docs/model.md), small enough for every test run: one whose orbit has two
# pure equilibria (as 4 players to 51 under the printed rules), one whose orbit has none, played mixed (as 4
# players to 71). Squirrel dice of two faces each make them small (a tenth of the 4-player game to 51, and under
# a second to solve). Their own key, so that the portability tests that build every game of "tables" stay quick;
# tests/engine/test_equilibria.py builds them, tests/js/equilibria.test.mjs solves them with the page's kernel.
CYCLING = [(["--players", "4", "--target", "30", "--rules", "summary", "--faces", "2,2,2", "--dog", "1,2"],
            "gonuts-4p-t30-summary-faces2-2-2-dog1-2.npz"),
           (["--players", "4", "--target", "17", "--rules", "rulebook", "--faces", "2,2,2"],
            "gonuts-4p-t17-rulebook-faces2-2-2.npz")]


def main():
    with tempfile.TemporaryDirectory() as tmp:
        got = build_all([sys.executable, str(ROOT / "cli.py")], Path(tmp))
        cycling = build_all([sys.executable, str(ROOT / "cli.py")], Path(tmp), games=CYCLING)
    FIXTURE.write_text(json.dumps({"about": __doc__.strip().splitlines()[0], "tables": got, "cycling": cycling},
                                  indent=1) + "\n")
    print(f"wrote {FIXTURE}")


if __name__ == "__main__":
    main()
