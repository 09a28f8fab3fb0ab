"""Boards of at most 64 cells past 64 bits (8x8, 9x7, 10x6) in one 64-bit word with edge masks,
against today's two halves of a 128-bit word, measured on the move ranking's work.

    .venv/bin/python benchmarks/word_layout.py [POSITIONS] [ROUNDS] [SIZE ...]

Today every board past 64 bits (``width * (height + 1) > 64``) keeps the layout of
:mod:`c4engine.kernels.bitboard` -- ``height + 1`` bits a column, the top one an empty sentinel --
in the 128-bit word of :mod:`c4engine.kernels.wide`.  8x8, 9x7 and 10x6 have at most 64 cells, so
their cells fit one uint64 with ``height`` bits a column and no sentinel; the shifts that find
lines then need edge masks where a sentinel stopped a line before (vertical and both diagonals
would wrap from one column's top to the next's bottom), and the playable cells come from
``mask << 1`` within each column instead of ``mask + bottom``.

Both layouts run one source (:func:`rank`): the work of
:func:`c4engine.kernels.moves.order_moves` at a node -- the opponent's threats, each column's move's
threats, then each move's useful and barring threats counted and the moves insertion-sorted --
with the board's sizes compiled in, as each size's own kernel has them.  Each position's ranking
(columns and scores) is first checked equal to ``order_moves``' own on today's layout, so both
compute what the solver computes.  The positions: random games of 10 to 24 stones with no line.

Per size it prints the median nanoseconds a position of each layout over ``ROUNDS`` interleaved
rounds (thread CPU time), their ratio, and the load average.  On 7x6, which fits one uint64
either way, the same comparison prices the edge masks alone.

What this does not measure: the solver on the one-word layout.  Its table key would need more
than 64 bits on these boards (the positions outnumber ``2**64``), and today's key,
``current + mask`` in the sentinel layout, has to be rebuilt from the one-word board at every
probe (docs/benchmarks-log.md, "The one-word layout measured").
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit

from c4engine.board import Board
from c4engine.kernels.bitboard import board_shape, lowest_bit_index, popcount, winning_cells
from c4engine.kernels.moves import center_column, order_moves
from c4engine.kernels.wide import get, put, zero_of

U0 = np.uint64(0)
U1 = np.uint64(1)
SIZES = ("7x6", "8x8", "9x7", "10x6")


@njit(inline="always")
def _runs4(stones: Any, step: np.uint64, keep_up: Any, keep_down: Any) -> Any:
    """Empty-or-not cells with three of ``stones`` in a row through them along one direction
    (``step`` bits a cell), a shift up keeping only ``keep_up`` and one down ``keep_down``."""
    up1 = (stones & keep_up) << step
    up2 = (up1 & keep_up) << step
    up3 = (up2 & keep_up) << step
    down1 = (stones & keep_down) >> step
    down2 = (down1 & keep_down) >> step
    down3 = (down2 & keep_down) >> step
    return (up1 & up2 & (up3 | down1)) | (down1 & down2 & (down3 | up1))


@njit(inline="always")
def _winning(stones: Any, mask: Any, stride: np.uint64, board: Any, not_top: Any, not_bottom: Any) -> Any:
    """The empty cells where ``stones`` would complete four (connect 4), columns ``stride`` bits
    apart; ``not_top`` and ``not_bottom`` all ones with sentinels."""
    every = ~(stones ^ stones)
    up1 = (stones & not_top) << U1
    up2 = (up1 & not_top) << U1
    up3 = (up2 & not_top) << U1
    cells = up1 & up2 & up3
    cells |= _runs4(stones, stride, every, every)  # across: no wrap within the board
    cells |= _runs4(stones, stride + U1, not_top, not_bottom)  # up and right
    cells |= _runs4(stones, stride - U1, not_bottom, not_top)  # down and right
    return cells & (board ^ mask)


@njit(inline="always")
def _playable(mask: Any, bottom: Any, board: Any, not_top: Any, sentinel: bool) -> Any:
    """The cells a move may fill: with sentinels ``mask + bottom`` (a full column's carry lands on
    its sentinel); without, the cell above each stone within its column, or its bottom, if empty."""
    if sentinel:
        return (mask + bottom) & board
    return (((mask & not_top) << U1) | bottom) & ~mask & board


@njit(inline="always")
def rank(
    boards: np.ndarray,
    width: int,
    height: int,
    sentinel: bool,
    moves: np.ndarray,
    columns: np.ndarray,
    threats: np.ndarray,
    scores: np.ndarray,
) -> int:
    """The move ranking of every position of ``boards``, in today's layout (``sentinel``) or in one
    word with edge masks; the last position's ranking is left in ``columns[0]`` and ``scores``."""
    zero = zero_of(boards)
    one = zero | U1
    column_cells = (one << np.uint64(height)) - U1
    stride = np.uint64(height + 1 if sentinel else height)
    bottom = zero
    board = zero
    for column in range(width):
        bottom |= one << (stride * np.uint64(column))
        board |= column_cells << (stride * np.uint64(column))
    not_top = ~zero if sentinel else ~(bottom << np.uint64(height - 1))
    not_bottom = ~zero if sentinel else ~bottom
    total = 0
    for p in range(boards.shape[0]):
        current, mask = get(boards, p, 0), get(boards, p, 1)
        possible = _playable(mask, bottom, board, not_top, sentinel)
        useless = (_winning(current ^ mask, mask, stride, board, not_top, not_bottom) & not_top) << U1
        for column in range(width):
            cell = possible & (column_cells << (stride * np.uint64(column)))
            put(threats, 1, column, _winning(current | cell, mask, stride, board, not_top, not_bottom))
        ranks = U0
        for i in range(width):
            if possible & (column_cells << (stride * np.uint64(center_column(i, width)))):
                ranks |= U1 << np.uint64(i)
        n = 0
        while ranks:
            i = lowest_bit_index(ranks)
            ranks &= ranks - U1
            column = center_column(i, width)
            move = possible & (column_cells << (stride * np.uint64(column)))
            after = get(threats, 1, column)
            useful = after & ~useless
            above = ((possible ^ move) | ((move & not_top) << U1)) & board
            score = 2 * popcount(useful) + popcount(useful & ((above & not_top) << U1))
            j = n
            while j > 0 and scores[j - 1] < score:
                put(moves, 0, j, get(moves, 0, j - 1))
                columns[0, j] = columns[0, j - 1]
                put(threats, 0, j, get(threats, 0, j - 1))
                scores[j] = scores[j - 1]
                j -= 1
            put(moves, 0, j, move)
            columns[0, j] = column
            put(threats, 0, j, after)
            scores[j] = score
            n += 1
        total += n + scores[0]
    return total


@njit(cache=True)
def kernel_ranking(
    boards: np.ndarray, width: int, height: int, columns: np.ndarray, scores: np.ndarray
) -> int:
    """The solver's own :func:`~c4engine.kernels.moves.order_moves` on ``boards[0]`` (today's
    layout): the yardstick both layouts' rankings are checked against."""
    zero = zero_of(boards)
    shape = board_shape(width, height, 4, zero)
    moves = np.zeros(columns.shape + boards.shape[2:], np.uint64)
    threats = np.zeros(columns.shape + boards.shape[2:], np.uint64)
    current, mask = get(boards, 0, 0), get(boards, 0, 1)
    possible = (mask + shape.bottom) & shape.board
    opponent = winning_cells(current ^ mask, mask, height, 4, shape.directions, shape.board, shape.fast)
    return order_moves(current, mask, possible, opponent, 0, 0, shape, moves, columns, threats, scores)


def compiled(width: int, height: int, sentinel: bool) -> Callable[..., int]:
    """:func:`rank` with this board's sizes and layout compiled in."""

    @njit
    def run(
        boards: np.ndarray, moves: np.ndarray, columns: np.ndarray, threats: np.ndarray, scores: np.ndarray
    ) -> int:
        return rank(boards, width, height, sentinel, moves, columns, threats, scores)

    return run  # type: ignore[no-any-return]


def positions(count: int, width: int, height: int) -> list[Board]:
    rng = random.Random(47)
    found: list[Board] = []
    while len(found) < count:
        board = Board(width, height)
        for _ in range(rng.randint(10, 24)):
            column = rng.choice(board.legal_moves())
            if board.is_winning_move(column):
                break
            board.play(column)
        else:
            found.append(board)
    return found


def _one_word(bits: int, width: int, height: int) -> int:
    """A sentinel-layout bitboard with the sentinel rows taken out."""
    column = (1 << height) - 1
    return sum(((bits >> (c * (height + 1))) & column) << (c * height) for c in range(width))


def measure(width: int, height: int, count: int, rounds: int) -> None:
    games = positions(count, width, height)
    wide = width * (height + 1) > 64
    words = (2,) if wide else ()
    today = np.array(
        [[[b & (2**64 - 1), b >> 64] if wide else b for b in (g.current_bits, g.mask_bits)] for g in games],
        dtype=np.uint64,
    )
    packed = np.array(
        [[_one_word(b, width, height) for b in (g.current_bits, g.mask_bits)] for g in games], dtype=np.uint64
    )
    layouts = {
        "today's layout": (compiled(width, height, True), today, words),
        "one word, edge masks": (compiled(width, height, False), packed, ()),
    }
    columns = np.zeros((2, width), np.int64)
    scores = np.zeros(width + 1, np.int64)
    for p in range(count):  # every position ranked as the solver ranks it
        n = kernel_ranking(today[p : p + 1], width, height, columns, scores)
        expected = columns[0, :n].copy(), scores[:n].copy()
        for name, (run, boards, shape) in layouts.items():
            run(
                boards[p : p + 1],
                np.zeros((2, width, *shape), np.uint64),
                columns,
                np.zeros((2, width, *shape), np.uint64),
                scores,
            )
            if not ((columns[0, :n] == expected[0]).all() and (scores[:n] == expected[1]).all()):
                raise SystemExit(f"{width}x{height}: {name} ranks position {p} unlike order_moves")
    times: dict[str, list[float]] = {name: [] for name in layouts}
    for _ in range(rounds):
        for name, (run, boards, shape) in layouts.items():
            moves, threats = np.zeros((2, width, *shape), np.uint64), np.zeros((2, width, *shape), np.uint64)
            began = time.thread_time()
            for _ in range(20):
                run(boards, moves, columns, threats, scores)
            times[name].append((time.thread_time() - began) / (20 * count) * 1e9)
    medians = {name: statistics.median(values) for name, values in times.items()}
    ratio = medians["one word, edge masks"] / medians["today's layout"]
    today_name = "two halves" if wide else "one uint64 with sentinels"
    print(
        f"{width}x{height} (today {today_name}): "
        + ", ".join(f"{name} {value:.1f} ns a position" for name, value in medians.items())
        + f"; ratio {ratio:.2f}"
    )


def main(arguments: list[str]) -> None:
    count = int(arguments[0]) if arguments else 5000
    rounds = int(arguments[1]) if len(arguments) > 1 else 7
    for size in arguments[2:] or SIZES:
        width, height = (int(part) for part in size.split("x"))
        measure(width, height, count, rounds)
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
