"""Move ordering for the search: the best-looking moves first.

A move is a one-bit uint64 (the cell it fills).  Moves are ranked by the
number of cells where the mover would then complete a line (its threats),
ties broken by closeness to the centre; a move remembered in the
transposition table goes first of all.  The sorted moves of a search ply
are written into row ``d`` of the search stack (``moves[d, i]``,
``columns[d, i]``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from c4engine.kernels.bitboard import column_mask, popcount, winning_cells

FIRST = 1 << 20


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
def column_masks(width: int, height: int) -> np.ndarray:
    masks = np.empty(width, dtype=np.uint64)
    for column in range(width):
        masks[column] = column_mask(column, height)
    return masks


@njit(cache=True, inline="always")
def order_moves(
    current: np.uint64,
    mask: np.uint64,
    possible: np.uint64,
    first: int,
    order: np.ndarray,
    col_masks: np.ndarray,
    height: int,
    connect: int,
    directions: int,
    board: np.uint64,
    fast: bool,
    moves: np.ndarray,
    columns: np.ndarray,
    threats: np.ndarray,
    scores: np.ndarray,
    d: int,
) -> int:
    """Sort the moves of ``possible`` into ``moves[d]``/``columns[d]``, best first; return how many.

    ``threats[d, i]`` gets the cells where the mover would then complete a
    line (the child's opponent threats, up to the cell just filled).
    ``first`` is a column to put first (-1 for none).
    """
    n = 0
    for i in range(order.shape[0]):
        column = order[i]
        move = possible & col_masks[column]
        if move:
            after = winning_cells(current | move, mask, height, connect, directions, board, fast)
            score = FIRST if column == first else popcount(after)
            # insertion sort, descending; equal scores keep centre-first order
            j = n
            while j > 0 and scores[j - 1] < score:
                moves[d, j] = moves[d, j - 1]
                columns[d, j] = columns[d, j - 1]
                threats[d, j] = threats[d, j - 1]
                scores[j] = scores[j - 1]
                j -= 1
            moves[d, j] = move
            columns[d, j] = column
            threats[d, j] = after
            scores[j] = score
            n += 1
    return n
