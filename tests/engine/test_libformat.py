"""Whether a compiler's output is a shared library (solver/engine/libformat.py): the kernel this machine loads
is one, and what a broken ``$CC`` leaves behind (nothing, an empty file, text) is said in words."""
from __future__ import annotations

import sys
from pathlib import Path

from solver.engine import kernels
from solver.engine.libformat import library_kind, not_a_library


def test_the_kernel_this_machine_loads_is_a_shared_library_of_its_platform():
    path = Path(kernels.load()._name)
    expected = {"linux": "ELF", "darwin": "Mach-O", "win32": "PE"}.get(sys.platform, "ELF")
    assert library_kind(path) == expected
    assert not_a_library(path) is None


def test_what_a_broken_compiler_leaves_is_named(tmp_path):
    missing, empty, text = tmp_path / "none.so", tmp_path / "empty.so", tmp_path / "text.so"
    empty.write_bytes(b"")
    text.write_text("int main(void) { return 0; }\n")
    assert not_a_library(missing) == "wrote no library"
    assert not_a_library(empty) == "wrote an empty file"
    assert not_a_library(text) == "wrote a file that is not a shared library"
    assert library_kind(missing) is None and library_kind(text) is None


def test_each_format_is_known_by_its_magic_bytes(tmp_path):
    for magic, kind in ((b"\x7fELF\x02\x01", "ELF"), (b"\xcf\xfa\xed\xfe\x07", "Mach-O"),
                        (b"\xca\xfe\xba\xbe\x00", "Mach-O"), (b"MZ\x90\x00", "PE")):
        path = tmp_path / "lib"
        path.write_bytes(magic + bytes(60))
        assert library_kind(path) == kind, magic
