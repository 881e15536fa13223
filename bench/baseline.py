"""An earlier revision of this repository, checked out beside it, so that a benchmark can time it
against the working tree in the same run (``git archive``; nothing is installed).

    with checkout(BEFORE_ISSUE_20) as old:      # a Path, or None without git or that revision
        run([sys.executable, "-m", "cli", "build", ...], cwd=old)
"""
from __future__ import annotations

import shutil
import subprocess
import tempfile
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BEFORE_ISSUE_20 = "d5fbd54"     # the last commit before issue 20 rewrote the kernel's turn pass


@contextmanager
def checkout(rev: str):
    """A temporary folder holding revision ``rev`` of this repository, or None when it cannot be had (no git,
    a shallow clone without it). Run its code with that folder as the working directory: ``python -m cli``
    and ``import solver`` then take its files, before any installed copy."""
    folder = Path(tempfile.mkdtemp(prefix=f"gonuts-{rev}-"))
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev], capture_output=True)
        if archive.returncode != 0:
            yield None
            return
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
        yield folder
    except OSError:
        yield None
    finally:
        shutil.rmtree(folder, ignore_errors=True)
