"""The app's icons, drawn here as PNG (an acorn on the page's cream), so the site needs no image tool."""
from __future__ import annotations

import struct
import zlib

CREAM, CAP, NUT, STEM = (0xFB, 0xF6, 0xEC), (0x6B, 0x3E, 0x10), (0xB5, 0x65, 0x1D), (0x6B, 0x3E, 0x10)


def _pixel(x: float, y: float) -> tuple[int, ...]:
    """The colour at (x, y) in the unit square: an acorn of body, cap and stem, as the page's acorn face."""
    if (x - 0.5) ** 2 / 0.25 ** 2 + (y - 0.6) ** 2 / 0.29 ** 2 <= 1.0 and y > 0.43:
        return NUT
    if y <= 0.46 and y >= 0.25 and abs(x - 0.5) <= 0.34 * (1 - ((0.46 - y) / 0.21) ** 2) ** 0.5:
        return CAP
    if 0.47 <= x <= 0.53 and 0.1 <= y < 0.27:
        return STEM
    return CREAM


def png(size: int, maskable: bool = False) -> bytes:
    """A size x size RGB PNG of the icon (2x2 supersampled). ``maskable``: the acorn drawn at 70% of its size
    on a full cream square, inside the circle of 80% that a launcher's mask keeps."""
    k = 1 / 0.7 if maskable else 1.0
    rows = []
    for j in range(size):
        row = bytearray(b"\x00")
        for i in range(size):
            acc = [0, 0, 0]
            for dx, dy in ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)):
                c = _pixel(0.5 + ((i + dx) / size - 0.5) * k, 0.5 + ((j + dy) / size - 0.5) * k)
                acc = [a + b for a, b in zip(acc, c)]
            row += bytes(a // 4 for a in acc)
        rows.append(bytes(row))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + \
        chunk(b"IEND", b"")
