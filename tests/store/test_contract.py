"""Tables from strangers are hostile until checked.

A small zip writer below lets a member declare anything, in its npy header and in the zip
directory, whatever it really holds: 64 GiB arrays (stored and deflated), forged directory
sizes, a zip inside the zip, an oversized meta. Each must be refused with one line before
any array data is read: the test measures the loading process's peak memory against loading
the legitimate table.
"""
import io
import json
import os
import struct
import subprocess
import sys
import zipfile
import zlib
from pathlib import Path

import numpy as np
import pytest

from solver.errors import TableError
from solver.store import tables

ROOT = Path(__file__).resolve().parent.parent.parent
SHIPPED = ROOT / "tables" / "gonuts-2p-t50-rulebook.npz"
GIB64 = 64 * 2**30


def npy_header(dtype, shape):
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, {"descr": np.lib.format.dtype_to_descr(np.dtype(dtype)),
                                               "fortran_order": False, "shape": tuple(shape)})
    return buf.getvalue()


def write_zip(path, members):
    """members: (name, data, deflate, declared_size or None). Always ZIP64, so any size can be declared."""
    out = bytearray()
    central = bytearray()
    for name, data, deflate, declared in members:
        raw = name.encode()
        body = zlib.compress(data, 6)[2:-4] if deflate else data
        size = len(data) if declared is None else declared
        crc = zlib.crc32(data)
        method = 8 if deflate else 0
        offset = len(out)
        extra = struct.pack("<HHQQ", 1, 16, size, len(body))
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 45, 0, method, 0, 0x21, crc, 0xFFFFFFFF, 0xFFFFFFFF,
                           len(raw), len(extra)) + raw + extra + body
        cextra = struct.pack("<HHQQQ", 1, 24, size, len(body), offset)
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 45, 45, 0, method, 0, 0x21, crc, 0xFFFFFFFF,
                               0xFFFFFFFF, len(raw), len(cextra), 0, 0, 0, 0, 0xFFFFFFFF) + raw + cextra
    cd_offset = len(out)
    out += central
    z64 = len(out)
    n = len(members)
    out += struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, n, n, len(central), cd_offset)
    out += struct.pack("<IIQI", 0x07064B50, 0, z64, 1)
    out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, n, n, len(central), cd_offset, 0)
    Path(path).write_bytes(bytes(out))


@pytest.fixture(scope="module")
def legit():
    """The shipped table's members: name -> the bytes of its .npy."""
    with zipfile.ZipFile(SHIPPED) as z:
        return {i.filename[:-4]: z.read(i) for i in z.infolist()}


def members(legit, replace=None, add=()):
    replace = replace or {}
    out = [(f"{k}.npy",) + replace.get(k, (v, True, None)) for k, v in legit.items()]
    return out + list(add)


def test_the_zip_writer_makes_a_table_that_loads(legit, tmp_path):
    p = tmp_path / "same.npz"
    write_zip(p, members(legit))
    t = tables.load(p)
    assert t.arrays["start_win"][0, 0, 0] == tables.load(SHIPPED).arrays["start_win"][0, 0, 0]


def _bomb(dtype="<f8"):
    """An npy that declares 64 GiB and holds a header and a little data."""
    n = GIB64 // np.dtype(dtype).itemsize
    return npy_header(dtype, (n,)) + b"\0" * 4096, npy_header(dtype, (n,))


def _inner_zip():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("x.npy", _bomb()[0])
    return buf.getvalue()


def _big_meta(legit):
    meta = json.loads(str(np.load(io.BytesIO(legit["meta"]), allow_pickle=False)[()]))
    meta["padding"] = "x" * 600_000                   # 2.4 MB as a numpy unicode string
    buf = io.BytesIO()
    np.save(buf, np.array(json.dumps(meta)))
    return buf.getvalue()


def _cases(legit):
    bomb, header = _bomb()
    legit_roll_win = legit["roll_win"]
    return {
        "extra member declaring 64 GiB, stored": (
            members(legit, add=[("extra.npy", bomb, False, len(header) + GIB64)]), "unexpected member 'extra.npy'"),
        "extra member declaring 64 GiB, deflated": (
            members(legit, add=[("extra.npy", bomb, True, len(header) + GIB64)]), "unexpected member 'extra.npy'"),
        "a known name outside the contract declaring 64 GiB": (
            members(legit, add=[("roll_bits.npy", bomb, True, len(header) + GIB64)]), "unexpected \\['roll_bits'\\]"),
        "roll_win declaring 64 GiB, deflated": (
            members(legit, replace={"roll_win": (bomb, True, len(header) + GIB64)}), "array roll_win is <f8\\(8589934592,\\), expected <f8\\(50, 50, 50, 6\\)"),
        "roll_win declaring 64 GiB, stored": (
            members(legit, replace={"roll_win": (bomb, False, len(header) + GIB64)}), "array roll_win is <f8\\(8589934592,\\), expected <f8\\(50, 50, 50, 6\\)"),
        "zip directory forging 64 GiB for a legit member": (
            members(legit, replace={"roll_win": (legit_roll_win, True, GIB64)}), "the zip directory says"),
        "zip directory forging a smaller size": (
            members(legit, replace={"roll_win": (legit_roll_win, True, len(legit_roll_win) // 2)}),
            "the zip directory says"),
        "a zip inside the zip, as an array": (
            members(legit, replace={"roll_win": (_inner_zip(), True, None)}), "not a readable npy array"),
        "a zip inside the zip, as a member": (
            members(legit, add=[("inner.zip", _inner_zip(), False, None)]), "unexpected member 'inner.zip'"),
        "meta larger than 1 MB": (
            members(legit, replace={"meta": (_big_meta(legit), True, None)}), "more than a table's 1,000,000"),
        "meta declaring 64 GiB in its header": (
            members(legit, replace={"meta": (npy_header("<U1", (GIB64 // 4,)), True, None)}),
            "member meta.npy declares 68,719,476,864 bytes but the zip directory says 128"),
        "meta declaring 64 GiB in the zip directory": (
            members(legit, replace={"meta": (npy_header("<U1", (GIB64 // 4,)), True, GIB64 + 128)}),
            "more than a table's 1,000,000"),
    }


CASES = ["extra member declaring 64 GiB, stored", "extra member declaring 64 GiB, deflated",
         "a known name outside the contract declaring 64 GiB", "roll_win declaring 64 GiB, deflated",
         "roll_win declaring 64 GiB, stored", "zip directory forging 64 GiB for a legit member",
         "zip directory forging a smaller size", "a zip inside the zip, as an array",
         "a zip inside the zip, as a member", "meta larger than 1 MB", "meta declaring 64 GiB in its header",
         "meta declaring 64 GiB in the zip directory"]

PEAK = """
import resource, sys
from solver.store import tables
from solver.errors import TableError
try:
    tables.load(sys.argv[1])
    print("loaded")
except TableError as exc:
    print("refused", exc)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def _peak(path):
    p = subprocess.run([sys.executable, "-c", PEAK, str(path)], cwd=ROOT, capture_output=True, text=True,
                       timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert p.returncode == 0, p.stderr
    verdict, kib = p.stdout.strip().rsplit("\n", 1)
    return verdict, int(kib)


@pytest.fixture(scope="module")
def legit_peak():
    verdict, kib = _peak(SHIPPED)
    assert verdict == "loaded"
    return kib


@pytest.mark.parametrize("case", CASES)
def test_hostile_members_are_refused_before_their_data(legit, legit_peak, tmp_path, case):
    content, message = _cases(legit)[case]
    path = tmp_path / "hostile.npz"
    write_zip(path, content)
    with pytest.raises(TableError, match=message) as err:
        tables.load(path)
    assert "\n" not in str(err.value)
    verdict, kib = _peak(path)
    assert verdict.startswith("refused")
    assert kib < 2 * legit_peak, f"{case}: peak {kib} KiB against {legit_peak} KiB for the legit table"


def test_read_meta_refuses_an_oversized_meta_too(legit, tmp_path):
    path = tmp_path / "meta.npz"
    write_zip(path, members(legit, replace={"meta": (_big_meta(legit), True, None)}))
    with pytest.raises(TableError, match="more than a table's"):
        tables.read_meta(path)


def test_a_corrupted_member_is_refused_by_its_crc(legit, tmp_path):
    """Right sizes and headers, wrong bytes: the CRC in the zip directory says so."""
    path = tmp_path / "crc.npz"
    write_zip(path, members(legit, replace={"roll_win": (legit["roll_win"], False, None)}))
    raw = bytearray(path.read_bytes())
    at = raw.find(legit["roll_win"]) + len(legit["roll_win"]) // 2
    raw[at] ^= 0x55
    path.write_bytes(bytes(raw))
    with pytest.raises(TableError, match="corrupted"):
        tables.load(path)
