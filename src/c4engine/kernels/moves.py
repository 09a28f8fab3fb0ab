"""Move ordering for the search: the best-looking moves first.

A move is a one-bit word (the cell it fills: a uint64, or a 128-bit word of
:mod:`c4engine.kernels.wide`, whose arrays have one more dimension).  Moves are ranked by the
number of cells where the mover would then complete a line (its threats),
but for threats right above one of the opponent's, which never win, a
threat right above a cell the opponent could play next counting half as
much again (the opponent may not play there: it would give the win);
ties broken by closeness to the centre.  A move remembered in the
transposition table goes first of all, and the search ranks the others
only if that one does not cut the node off.  The sorted moves of a search ply
are written into row ``d`` of the search stack (``moves[d, i]``,
``columns[d, i]``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from c4engine.kernels.bitboard import U0, U1, Shape, column_mask, lowest_bit_index, popcount, winning_cells
from c4engine.kernels.wide import get, put


@njit(cache=True)
def center_order(width: int) -> np.ndarray:
    """Columns from the centre outwards, left first on a tie (7 -> 3 2 4 1 5 0 6)."""
    order = np.empty(width, dtype=np.int64)
    middle2 = width - 1  # twice the middle, to stay in integers
    n = 0
    for distance2 in range(0, width + 1):
        for column in range(width):
            if abs(2 * column - middle2) == distance2:
                order[n] = column
                n += 1
    return order


@njit(cache=True)
def center_column(i: int, width: int) -> int:
    """The ``i``-th column of :func:`center_order`, by arithmetic: no table to load in the hot loop."""
    middle = (width - 1) // 2
    if width % 2:
        return middle - (i + 1) // 2 if i % 2 else middle + i // 2
    return middle + (i + 1) // 2 if i % 2 else middle - i // 2


@njit(cache=True)
def order_moves(
    current: Any,
    mask: Any,
    possible: Any,
    opponent_threats: Any,
    start: int,
    d: int,
    shape: Shape,
    moves: np.ndarray,
    columns: np.ndarray,
    threats: np.ndarray,
    scores: np.ndarray,
) -> int:
    """Sort the moves of ``possible`` into ``moves[d, start:]``/``columns[d, start:]``, best first.

    ``shape`` is the board's (:class:`c4engine.kernels.bitboard.Shape`).

    A move's rank counts its useful threats: the cells where the mover would then complete a
    line, but for those right above a cell of ``opponent_threats`` (to reach such a threat the
    mover must first block the opponent's, and the opponent then blocks it at once).  Each counts
    2, and 3 when it is right above a cell the opponent could play next: the opponent may then
    not play in that column (measured, docs/benchmarks-log.md: the empty board's strong solve in a
    fifth fewer nodes than with every threat alike; counting those twice or three times as much
    as the others does less well).

    Returns ``start`` plus their number.  ``threats[d, i]`` gets the cells
    where the mover would then complete a line (the child's opponent
    threats, up to the cell just filled).  Slots before ``start`` hold moves
    already chosen to go first (the table's).
    """
    width, height, connect, directions = shape.width, shape.height, shape.connect, shape.directions
    board, bottom, fast = shape.board, shape.bottom, shape.fast
    zero = board ^ board  # of the board's word type (kernels.wide)
    # every column's threats first, in one loop without branches that the compiler can run
    # several columns at a time (a column without a move gets the node's own); row d + 1 is
    # free until the first child is entered
    for column in range(width):
        cell = possible & column_mask(column, height, zero)
        put(
            threats,
            d + 1,
            column,
            winning_cells(current | cell, mask, height, connect, directions, board, fast),
        )
    # a threat right above one of the opponent's can never be played out: it does not count
    useless = opponent_threats << np.uint64(1)
    playable = (mask + bottom) & board  # the cells playable now; a move's replaces it by the one above
    # the ranks (places in the centre-first order) of the columns with a move, found in a loop
    # the compiler unrolls, so that the ranking below visits only those
    ranks = U0
    for i in range(width):
        if possible & column_mask(center_column(i, width), height, zero):
            ranks |= U1 << np.uint64(i)
    n = start
    while ranks:
        i = lowest_bit_index(ranks)
        ranks &= ranks - U1
        column = center_column(i, width)
        move = possible & column_mask(column, height, zero)
        after = get(threats, d + 1, column)
        useful = after & ~useless
        barring = useful & ((((playable ^ move) | (move << np.uint64(1))) & board) << np.uint64(1))
        score = 2 * popcount(useful) + popcount(barring)
        # insertion sort, descending; equal scores keep centre-first order
        j = n
        while j > start and scores[j - 1] < score:
            _copy_move(moves, columns, threats, d, j, j - 1)
            scores[j] = scores[j - 1]
            j -= 1
        put(moves, d, j, move)
        columns[d, j] = column
        put(threats, d, j, after)
        scores[j] = score
        n += 1
    return n


@njit(cache=True)
def _copy_move(
    moves: np.ndarray, columns: np.ndarray, threats: np.ndarray, d: int, to: int, source: int
) -> None:
    """Slot ``to`` of row ``d`` takes the move of slot ``source``."""
    put(moves, d, to, get(moves, d, source))
    columns[d, to] = columns[d, source]
    put(threats, d, to, get(threats, d, source))


@njit(cache=True)
def drop_moves(
    dropped: Any, count: int, moves: np.ndarray, columns: np.ndarray, threats: np.ndarray, d: int
) -> int:
    """Remove the moves of ``dropped`` from the first ``count`` of row ``d``, keeping the others'
    order; returns how many are left."""
    kept = 0
    for i in range(count):
        if not get(moves, d, i) & dropped:
            _copy_move(moves, columns, threats, d, kept, i)
            kept += 1
    return kept


@njit(cache=True)
def to_front(
    move: Any, count: int, moves: np.ndarray, columns: np.ndarray, threats: np.ndarray, d: int
) -> None:
    """Move ``move``, one of the first ``count`` of row ``d``, to the front, the others keeping
    their order."""
    i = 0
    while i < count - 1 and get(moves, d, i) != move:
        i += 1
    column = columns[d, i]
    threat = get(threats, d, i)
    while i > 0:
        _copy_move(moves, columns, threats, d, i, i - 1)
        i -= 1
    put(moves, d, 0, move)
    columns[d, 0] = column
    put(threats, d, 0, threat)


@njit(cache=True)
def to_back(i: int, count: int, moves: np.ndarray, columns: np.ndarray, threats: np.ndarray, d: int) -> None:
    """Move the move of slot ``i`` of row ``d`` to the last of its first ``count``, the ones after
    it moving up one and keeping their order."""
    move, column, threat = get(moves, d, i), columns[d, i], get(threats, d, i)
    while i < count - 1:
        _copy_move(moves, columns, threats, d, i, i + 1)
        i += 1
    put(moves, d, i, move)
    columns[d, i] = column
    put(threats, d, i, threat)
