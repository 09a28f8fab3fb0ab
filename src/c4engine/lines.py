"""Lines of N stones, found by shifts in the bit layout of :mod:`c4engine.geometry`: win detection.

A line of N runs by steps of one bit along a column, ``height + 1`` along a
row, ``height`` and ``height + 2`` along the diagonals.

>>> from c4engine.geometry import Geometry
>>> geometry = Geometry.of(7, 6, 4)
>>> row = sum(geometry.bit(column, 0) for column in range(4))   # four in the bottom row
>>> has_line(row, 6, 4), has_line(row, 6, 5)
(True, False)
>>> line_cells(row | geometry.bit(6, 0), 6, 4) == row
True
"""

from __future__ import annotations

__all__ = ["has_line", "line_cells"]


def _run_starts(bits: int, shift: int, length: int) -> int:
    """Bits where a run of ``length`` set bits, stepping by ``shift``, starts.

    Doubling: after each step ``runs`` marks the starts of runs of ``covered``
    bits, and two overlapping runs ``step <= covered`` apart make a longer one.
    """
    runs = bits
    covered = 1
    while covered < length:
        step = covered if 2 * covered <= length else length - covered
        runs &= runs >> (shift * step)
        covered += step
    return runs


def has_line(bits: int, height: int, length: int) -> bool:
    """Whether ``bits`` (a board's stones in the layout above) hold ``length`` in a row."""
    # Spelled out, not any() over a generator: every move played checks this (a third of
    # reading a 35-move position), and the generator and min() were most of its cost.
    return bool(
        _run_starts(bits, 1, length)
        or _run_starts(bits, height + 1, length)
        or _run_starts(bits, height, length)
        or _run_starts(bits, height + 2, length)
    )


def line_cells(bits: int, height: int, length: int) -> int:
    """The bits of every cell in a run of ``length`` or more of ``bits``."""
    cells = 0
    for shift in (1, height + 1, height, height + 2):
        starts = _run_starts(bits, shift, length)
        for offset in range(length):
            cells |= starts << (shift * offset)
    return cells
