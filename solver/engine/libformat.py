"""Whether a file a compiler wrote is a shared library at all, by its first bytes: ELF (Linux, BSD), Mach-O
(macOS, thin or fat) or PE (Windows). A ``$CC`` that exits 0 and writes nothing, or writes a text file, must
not become the kernel: the first-use compile refuses it in one line, and ``setup.py`` (which loads this file
by its path: a build has no numpy to import the package with) leaves it out of the wheel."""
from __future__ import annotations

from pathlib import Path

MAGIC = {b"\x7fELF": "ELF", b"\xfe\xed\xfa\xce": "Mach-O", b"\xfe\xed\xfa\xcf": "Mach-O",
         b"\xce\xfa\xed\xfe": "Mach-O", b"\xcf\xfa\xed\xfe": "Mach-O", b"\xca\xfe\xba\xbe": "Mach-O", b"MZ": "PE"}


def library_kind(path: Path) -> str | None:
    """"ELF", "Mach-O" or "PE" for a file that starts as a shared library does; None otherwise (also for a
    missing or unreadable file)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(4)
    except OSError:
        return None
    return next((kind for magic, kind in MAGIC.items() if head.startswith(magic)), None)


def not_a_library(path: Path) -> str | None:
    """None for a file that is a shared library; otherwise what it is instead, for a one-line message."""
    if not path.exists():
        return "wrote no library"
    if path.stat().st_size == 0:
        return "wrote an empty file"
    if library_kind(path) is None:
        return "wrote a file that is not a shared library"
    return None
