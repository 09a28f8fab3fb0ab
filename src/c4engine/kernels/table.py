"""Transposition table: one uint64 numpy array, 2**bits entries, one cache line per probe.

A position's key is ``current + mask`` (unique, at most 64 bits).  It is
scrambled by an odd multiplier -- a bijection on 64-bit words -- into
``h``.  The top ``bits`` bits of ``h`` choose the slot; the slot stores the
remaining ``64 - bits`` low bits of ``h`` shifted to the top, so slot + stored
bits give back ``h`` and hence the key exactly: no false hits, for any board
that fits 64 bits.  The freed low ``bits`` bits (at least 20) hold the data::

    63 ...................... bits | 19..14 | 13..7      | 6..0
    low (64 - bits) bits of h      | move+1 | upper + 64 | lower + 64

``lower``/``upper`` bound the exact score (strong-solver convention); a
lower field of 0 marks an empty slot.  ``move`` is the column that last
proved a lower bound (0 = none), tried first on the next visit.  A store
for the same position merges the bounds; any other entry is replaced.
"""

from __future__ import annotations

import numpy as np
from numba import njit

MIN_BITS = 20
MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)
_DATA = np.uint64((1 << 20) - 1)
_U7 = np.uint64(0x7F)
_U6 = np.uint64(0x3F)
NO_MOVE = -1
SCORE_OFFSET = 64


def allocate(bits: int) -> np.ndarray:
    """A cleared table of ``2**bits`` entries (8 bytes each)."""
    if bits < MIN_BITS:
        raise ValueError(f"table needs at least 2**{MIN_BITS} entries")
    return np.zeros(1 << bits, dtype=np.uint64)


@njit(cache=True, inline="always")
def scramble(key: np.uint64) -> np.uint64:
    return key * MULTIPLIER


@njit(cache=True, inline="always")
def probe(table: np.ndarray, h: np.uint64, bits: int) -> np.uint64:
    """The data bits of the entry for scrambled key ``h``, 0 when absent."""
    b = np.uint64(bits)
    entry = table[h >> (np.uint64(64) - b)]
    if (entry ^ (h << b)) >> np.uint64(20) == np.uint64(0):
        return entry & _DATA  # type: ignore[no-any-return]
    return np.uint64(0)


@njit(cache=True, inline="always")
def data_lower(data: np.uint64) -> int:
    return int(data & _U7) - SCORE_OFFSET


@njit(cache=True, inline="always")
def data_upper(data: np.uint64) -> int:
    return int((data >> np.uint64(7)) & _U7) - SCORE_OFFSET


@njit(cache=True, inline="always")
def data_move(data: np.uint64) -> int:
    return int((data >> np.uint64(14)) & _U6) - 1


@njit(cache=True, inline="always")
def store(table: np.ndarray, h: np.uint64, bits: int, lower: int, upper: int, move: int) -> None:
    """Record ``lower <= score <= upper`` (and the best ``move``, or -1) for ``h``.

    Bounds already known for the same position are merged in.
    """
    b = np.uint64(bits)
    index = h >> (np.uint64(64) - b)
    tag = h << b
    entry = table[index]
    if (entry ^ tag) >> np.uint64(20) == np.uint64(0) and entry & _U7:
        old = entry & _DATA
        old_lower = data_lower(old)
        old_upper = data_upper(old)
        if old_lower > lower:
            lower = old_lower
        if old_upper < upper:
            upper = old_upper
        if move < 0:
            move = data_move(old)
    data = (
        np.uint64(lower + SCORE_OFFSET)
        | (np.uint64(upper + SCORE_OFFSET) << np.uint64(7))
        | (np.uint64(move + 1) << np.uint64(14))
    )
    table[index] = tag | data
