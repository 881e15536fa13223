"""The site's icons (solver/site/icons.py): PNG files any reader takes (signature, chunks with their CRC-32, the
size asked, RGB), the maskable one keeping its acorn inside the circle a launcher's mask leaves."""
from __future__ import annotations

import struct
import zlib

import pytest

from solver.site.icons import png


def _chunks(data: bytes):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, out = 8, []
    while at < len(data):
        (n,), kind = struct.unpack(">I", data[at:at + 4]), data[at + 4:at + 8]
        body, crc = data[at + 8:at + 8 + n], struct.unpack(">I", data[at + 8 + n:at + 12 + n])[0]
        assert zlib.crc32(kind + body) == crc, kind
        out.append((kind, body))
        at += 12 + n
    return out


@pytest.mark.parametrize("size, maskable", [(48, False), (192, True)])
def test_an_icon_is_a_whole_png_of_the_size_asked(size, maskable):
    chunks = _chunks(png(size, maskable))
    assert [k for k, _ in chunks] == [b"IHDR", b"IDAT", b"IEND"]
    w, h, depth, colour = struct.unpack(">IIBB", chunks[0][1][:10])
    assert (w, h, depth, colour) == (size, size, 8, 2)
    raw = zlib.decompress(chunks[1][1])
    assert len(raw) == size * (1 + 3 * size)
    corner = raw[1:4]                                          # the top-left pixel: the cream ground
    centre = raw[(size // 2) * (1 + 3 * size) + 1 + 3 * (size // 2):][:3]
    assert corner != centre                                    # an acorn is drawn in the middle
    if maskable:                                               # the mask's circle of 80% keeps all of it
        row = raw[int(size * 0.08) * (1 + 3 * size) + 1:][:3 * size]
        assert set(row[i:i + 3] for i in range(0, 3 * size, 3)) == {corner}
