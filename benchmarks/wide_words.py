"""The two ways to hold a board past 64 bits in the compiled kernels, measured on the same positions.

    .venv/bin/python benchmarks/wide_words.py [POSITIONS] [ROUNDS]

* ``uint128``: the 128-bit word of :mod:`c4engine.kernels.wide` (two 64-bit halves, its operators
  lowered to operations on them), which the solver uses: the kernels' own ``winning_cells`` and
  ``popcount``.
* ``pair``: a board as two uint64 (low, high) in a tuple, with compiled helper functions for the
  shifts carried across the split (the other design the issue named).

Both run the move ranking's inner work -- the cells each column's move would leave winning
(connect 4, :func:`c4engine.kernels.bitboard.winning_cells`), counted -- over the same random
10x6 positions of 20 to 40 stones, checked equal, several rounds interleaved, with the sizes
passed at run time (as the solver's library for every size has them) and compiled in (as the
standard board's kernel has them).  It prints the median nanoseconds a position of each, and
the load average.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time

import numpy as np
from numba import njit

from c4engine.board import Board
from c4engine.kernels.bitboard import board_mask, popcount, winning_cells
from c4engine.kernels.wide import high, low, word

U0 = np.uint64(0)
U64 = np.uint64(64)


@njit(inline="always")
def _shl(lo: np.uint64, hi: np.uint64, s: np.uint64) -> tuple[np.uint64, np.uint64]:
    if s >= U64:
        return U0, lo << (s - U64)
    if s == U0:
        return lo, hi
    return lo << s, (hi << s) | (lo >> (U64 - s))


@njit(inline="always")
def _shr(lo: np.uint64, hi: np.uint64, s: np.uint64) -> tuple[np.uint64, np.uint64]:
    if s >= U64:
        return hi >> (s - U64), U0
    if s == U0:
        return lo, hi
    return (lo >> s) | (hi << (U64 - s)), hi >> s


@njit(inline="always")
def _cells4_pair(lo: np.uint64, hi: np.uint64, s: np.uint64) -> tuple[np.uint64, np.uint64]:
    a_lo, a_hi = _shl(lo, hi, s)
    b_lo, b_hi = _shl(lo, hi, s + s)
    c_lo, c_hi = _shl(lo, hi, s + s + s)
    d_lo, d_hi = _shr(lo, hi, s)
    e_lo, e_hi = _shr(lo, hi, s + s)
    f_lo, f_hi = _shr(lo, hi, s + s + s)
    t_lo, t_hi = a_lo & b_lo, a_hi & b_hi
    r_lo, r_hi = t_lo & (c_lo | d_lo), t_hi & (c_hi | d_hi)
    t_lo, t_hi = d_lo & e_lo, d_hi & e_hi
    return r_lo | (t_lo & (a_lo | f_lo)), r_hi | (t_hi & (a_hi | f_hi))


@njit(inline="always")
def _winning_pair(
    lo: np.uint64,
    hi: np.uint64,
    m_lo: np.uint64,
    m_hi: np.uint64,
    height: int,
    b_lo: np.uint64,
    b_hi: np.uint64,
) -> tuple[np.uint64, np.uint64]:
    h = np.uint64(height)
    one_lo, one_hi = _shl(lo, hi, np.uint64(1))
    two_lo, two_hi = _shl(lo, hi, np.uint64(2))
    three_lo, three_hi = _shl(lo, hi, np.uint64(3))
    r_lo, r_hi = one_lo & two_lo & three_lo, one_hi & two_hi & three_hi
    for s in (h + np.uint64(1), h, h + np.uint64(2)):
        c_lo, c_hi = _cells4_pair(lo, hi, s)
        r_lo, r_hi = r_lo | c_lo, r_hi | c_hi
    return r_lo & (b_lo ^ m_lo), r_hi & (b_hi ^ m_hi)


@njit(cache=True, inline="always")
def rank_pair(boards: np.ndarray, width: int, height: int) -> int:
    """The threats of every move of every position, two uint64 a board."""
    board = board_mask(width, height, word(U0, U0))
    b_lo, b_hi = low(board), high(board)
    stride = np.uint64(height + 1)
    total = 0
    for p in range(boards.shape[0]):
        c_lo, c_hi, m_lo, m_hi = boards[p, 0, 0], boards[p, 0, 1], boards[p, 1, 0], boards[p, 1, 1]
        for column in range(width):
            # the column's next cell: mask + its bottom bit, within the column
            start = stride * np.uint64(column)
            col_lo, col_hi = _shl(np.uint64((1 << height) - 1), U0, start)
            bot_lo, bot_hi = _shl(np.uint64(1), U0, start)
            sum_lo = m_lo + bot_lo
            sum_hi = m_hi + bot_hi + np.uint64(sum_lo < m_lo)
            cell_lo, cell_hi = sum_lo & col_lo & b_lo, sum_hi & col_hi & b_hi
            if cell_lo | cell_hi:
                w_lo, w_hi = _winning_pair(c_lo | cell_lo, c_hi | cell_hi, m_lo, m_hi, height, b_lo, b_hi)
                total += popcount(w_lo) + popcount(w_hi)
    return total


@njit(cache=True, inline="always")
def rank_word(boards: np.ndarray, width: int, height: int) -> int:
    """The same with the 128-bit word, through the kernels' own functions."""
    zero = word(U0, U0)
    board = board_mask(width, height, zero)
    bottom_one = zero | np.uint64(1)
    total = 0
    for p in range(boards.shape[0]):
        current = word(boards[p, 0, 1], boards[p, 0, 0])
        mask = word(boards[p, 1, 1], boards[p, 1, 0])
        for column in range(width):
            start = np.uint64(column * (height + 1))
            bottom = bottom_one << start
            cell = (mask + bottom) & (((bottom_one << np.uint64(height)) - np.uint64(1)) << start) & board
            if cell:
                total += popcount(winning_cells(current | cell, mask, height, 4, 7, board, True))
    return total


@njit(cache=True)
def rank_pair_10x6(boards: np.ndarray) -> int:
    """:func:`rank_pair` with the sizes compiled in (as the standard board's kernel has them)."""
    return rank_pair(boards, 10, 6)


@njit(cache=True)
def rank_word_10x6(boards: np.ndarray) -> int:
    """:func:`rank_word` with the sizes compiled in."""
    return rank_word(boards, 10, 6)


@njit(cache=True)
def rank_pair_any(boards: np.ndarray, width: int, height: int) -> int:
    """:func:`rank_pair` with the sizes at run time (as the library for every size has them)."""
    return rank_pair(boards, width, height)


@njit(cache=True)
def rank_word_any(boards: np.ndarray, width: int, height: int) -> int:
    """:func:`rank_word` with the sizes at run time."""
    return rank_word(boards, width, height)


def positions(count: int, width: int = 10, height: int = 6) -> np.ndarray:
    rng = random.Random(34)
    found = []
    while len(found) < count:
        board = Board(width, height)
        for _ in range(rng.randint(20, 40)):
            if board.is_over:
                break
            board.play(rng.choice(board.legal_moves()))
        if not board.is_over:
            found.append([[bits & (2**64 - 1), bits >> 64] for bits in (board.current_bits, board.mask_bits)])
    return np.array(found, dtype=np.uint64)


def main(arguments: list[str]) -> None:
    count = int(arguments[0]) if arguments else 20_000
    rounds = int(arguments[1]) if len(arguments) > 1 else 7
    boards = positions(count)
    runs = {
        "uint128, sizes at run time": lambda: rank_word_any(boards, 10, 6),
        "pair, sizes at run time": lambda: rank_pair_any(boards, 10, 6),
        "uint128, sizes compiled in": lambda: rank_word_10x6(boards),
        "pair, sizes compiled in": lambda: rank_pair_10x6(boards),
    }
    assert len({run() for run in runs.values()}) == 1
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(rounds):
        for name, run in runs.items():
            began = time.thread_time()
            for _ in range(10):
                run()
            times[name].append((time.thread_time() - began) / (10 * count) * 1e9)
    for name in runs:
        print(f"{name}: {statistics.median(times[name]):.1f} ns a position")
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
