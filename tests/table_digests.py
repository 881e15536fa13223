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
