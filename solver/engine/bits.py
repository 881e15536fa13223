"""How a state's decisions are packed: one bit per decision state (t, n), t-major, 8 to a byte.

Tables (``roll_bits``), the kernels and every policy share this layout; ``engine.solve.unpack_roll``
undoes it. No numpy: the table contract, on advise's path, reads it.
"""
from __future__ import annotations


def packed_width(target: int, substates: int) -> int:
    """Bytes of one state's packed decisions: G * (D + 1) bits, the flattened (t, n) axis."""
    return -(-target * (substates + 1) // 8)
