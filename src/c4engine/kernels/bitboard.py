"""Compiled bitboard primitives: the Board's layout in one uint64, any connect-N.

The layout is the one of :mod:`c4engine.board` -- column-major, ``height + 1``
bits per column, the top bit of each column an always-empty sentinel::

    bit index for a 7x6 board          direction   shift
    .  .  .  .  .  .  .   (sentinels)  vertical    1
    5 12 19 26 33 40 47                horizontal  H + 1
    4 11 18 25 32 39 46                diagonal /  H + 2
    3 10 17 24 31 38 45                diagonal \\  H
    2  9 16 23 30 37 44
    1  8 15 22 29 36 43
    0  7 14 21 28 35 42

A position is ``current`` (stones of the side to move) and ``mask`` (all
stones).  Every board with ``width * (height + 1) <= 64`` fits a uint64; the
boards up to 128 bits take the 128-bit word of :mod:`c4engine.kernels.wide`,
and every function here takes either (the masks are of the type of their
``zero``).

The search's hot spot is :func:`winning_cells`: the empty cells that would
complete a line of ``connect`` for a player.  Connect-4 on boards with
``3 * (height + 2) < 64`` takes an unrolled fast path (the formula of the
published solvers); any other connect-N builds, per direction, the runs of
1..N-1 stones ending next to each cell on either side and combines them.
Directions that cannot hold a line on the board are skipped, which also keeps
every shift below the word's bits.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import njit, types
from numba.extending import intrinsic

from c4engine.kernels.wide import uint128, word_bit_count, word_bits

U0 = np.uint64(0)
U1 = np.uint64(1)

# Bits of ``directions``: which line directions exist on the board.
DIR_VERTICAL = 1
DIR_HORIZONTAL = 2
DIR_DIAGONALS = 4


def _bit_count_intrinsic(name: str, zero_poison: bool | None, from_top: bool = False) -> Any:
    """A compiled word -> int64 function made of the LLVM bit-count intrinsic ``name``, for a
    uint64 or a 128-bit word (:mod:`c4engine.kernels.wide`).

    ``zero_poison`` is the intrinsic's flag (None for ``ctpop``, which has
    none); ``from_top`` returns ``bits - result`` (a bit length from ``ctlz``).
    """

    def typer(typingctx, x):  # type: ignore[no-untyped-def]
        if x != types.uint64 and x != uint128:
            return None
        sig = types.int64(x)
        bits = 64 if x == types.uint64 else 128

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            (value,) = args
            if bits == 128:  # counted half by half (kernels.wide)
                result = word_bit_count(builder, name, value, zero_poison)
                return builder.sub(ir.Constant(ir.IntType(64), bits), result) if from_top else result
            kind = ir.IntType(bits)
            if zero_poison is None:
                fn = builder.module.declare_intrinsic(name, [kind])
                result = builder.call(fn, [value])
            else:
                fn = builder.module.declare_intrinsic(name, [kind, ir.IntType(1)])
                result = builder.call(fn, [value, ir.Constant(ir.IntType(1), int(zero_poison))])
            if from_top:
                result = builder.sub(ir.Constant(kind, bits), result)
            return result

        return sig, codegen

    typer.__name__ = name.replace(".", "_")
    return intrinsic(typer)


# Number of set bits (LLVM ctpop: one instruction on x86-64, one a half of a 128-bit word).
_popcount = _bit_count_intrinsic("llvm.ctpop", None)
# Index of the lowest set bit of a non-zero word (LLVM cttz).
_lowest_bit_index = _bit_count_intrinsic("llvm.cttz", True)
# Bits needed for a word: its bits minus its leading zeros (LLVM ctlz); 0 for 0.
_bit_length = _bit_count_intrinsic("llvm.ctlz", False, from_top=True)

popcount: Any = _popcount
lowest_bit_index: Any = _lowest_bit_index
bit_length: Any = _bit_length


@njit(cache=True)
def bottom_mask(width: int, height: int, zero: Any = U0) -> Any:
    """One bit at the bottom of every column, a word of ``zero``'s type (a uint64, or a 128-bit
    word of :mod:`c4engine.kernels.wide` on a board past 64 bits)."""
    bottom = zero
    for column in range(width):
        bottom |= (zero | U1) << np.uint64(column * (height + 1))
    return bottom


@njit(cache=True)
def board_mask(width: int, height: int, zero: Any = U0) -> Any:
    """Every playable cell (sentinels excluded), a word of ``zero``'s type."""
    column = ((zero | U1) << np.uint64(height)) - U1
    full = zero
    for c in range(width):
        full |= column << np.uint64(c * (height + 1))
    return full


@njit(cache=True)
def column_mask(column: int, height: int, zero: Any = U0) -> Any:
    """The cells of ``column``, a word of ``zero``'s type."""
    return (((zero | U1) << np.uint64(height)) - U1) << np.uint64(column * (height + 1))


@njit(cache=True)
def line_directions(width: int, height: int, connect: int) -> int:
    """Which directions can hold a line of ``connect`` (``DIR_*`` bits)."""
    directions = 0
    if height >= connect:
        directions |= DIR_VERTICAL
    if width >= connect:
        directions |= DIR_HORIZONTAL
        if height >= connect:
            directions |= DIR_DIAGONALS
    return directions


@njit(cache=True)
def fast_path(height: int, connect: int, bits: int = 64) -> bool:
    """Whether :func:`winning_cells` may use the unrolled connect-4 formula on words of ``bits``
    (its longest shift, ``3 * (height + 2)``, must stay below them)."""
    return connect == 4 and 3 * (height + 2) < bits


@njit(cache=True)
def _cells4(p: np.uint64, s: np.uint64) -> np.uint64:
    # Both-sided runs along one non-vertical direction, connect 4.
    t = (p << s) & (p << (s + s))
    r = t & (p << (s + s + s))
    r |= t & (p >> s)
    t = (p >> s) & (p >> (s + s))
    r |= t & (p << s)
    r |= t & (p >> (s + s + s))
    return r


@njit(cache=True)
def winning_cells4(stones: np.uint64, mask: np.uint64, height: int, board: np.uint64) -> np.uint64:
    """Connect-4 fast path: empty cells completing a line of 4 for ``stones``."""
    h = np.uint64(height)
    r = (stones << U1) & (stones << np.uint64(2)) & (stones << np.uint64(3))
    r |= _cells4(stones, h + U1)
    r |= _cells4(stones, h)
    r |= _cells4(stones, h + np.uint64(2))
    return r & (board ^ mask)


@njit(cache=True)
def _cells_n(p: np.uint64, s: np.uint64, connect: int) -> np.uint64:
    # Cells with k stones just below them (shift s) and connect-1-k just above.
    result = p ^ p  # 0 of p's word type
    left = ~result
    for k in range(connect):
        if k > 0:
            left &= p << (s * np.uint64(k))
        right = left
        for j in range(1, connect - k):
            right &= p >> (s * np.uint64(j))
        result |= right
    return result


@njit(cache=True)
def winning_cells_n(
    stones: np.uint64, mask: np.uint64, height: int, connect: int, directions: int, board: np.uint64
) -> np.uint64:
    """Any connect-N: empty cells completing a line of ``connect`` for ``stones``."""
    h = np.uint64(height)
    r = stones ^ stones  # 0 of the word type
    if directions & DIR_VERTICAL:
        v = stones << U1
        for k in range(2, connect):
            v &= stones << np.uint64(k)
        r |= v
    if directions & DIR_HORIZONTAL:
        r |= _cells_n(stones, h + U1, connect)
    if directions & DIR_DIAGONALS:
        r |= _cells_n(stones, h, connect)
        r |= _cells_n(stones, h + np.uint64(2), connect)
    return r & (board ^ mask)


@njit(cache=True)
def winning_cells(
    stones: np.uint64,
    mask: np.uint64,
    height: int,
    connect: int,
    directions: int,
    board: np.uint64,
    fast: bool,
) -> np.uint64:
    """Empty cells where ``stones`` would complete a line (``fast``: see :func:`fast_path`)."""
    if fast:
        return winning_cells4(stones, mask, height, board)
    return winning_cells_n(stones, mask, height, connect, directions, board)


@njit(cache=True)
def has_line(stones: np.uint64, height: int, connect: int, directions: int) -> bool:
    """Whether ``stones`` hold ``connect`` in a row."""
    shifts = (np.uint64(1), np.uint64(height + 1), np.uint64(height), np.uint64(height + 2))
    for i in range(4):
        if i == 0 and not directions & DIR_VERTICAL:
            continue
        if i == 1 and not directions & DIR_HORIZONTAL:
            continue
        if i >= 2 and not directions & DIR_DIAGONALS:
            continue
        s = shifts[i]
        run = stones
        for k in range(1, connect):
            run &= stones >> (s * np.uint64(k))
        if run:
            return True
    return False


@njit(cache=True)
def even_row_cells(width: int, height: int, zero: Any = U0) -> Any:
    """The cells of the 2nd, 4th, ... row from the bottom (the rows a claimeven follower takes), a
    word of ``zero``'s type."""
    rows = U0
    for row in range(1, height, 2):
        rows |= U1 << np.uint64(row)
    return rows * bottom_mask(width, height, zero)


@njit(cache=True)
def mirror(bits: Any, width: int, height: int) -> Any:
    """``bits`` reflected left to right."""
    stride = np.uint64(height + 1)
    column = (U1 << stride) - U1
    out = bits ^ bits  # 0 of the word type
    for c in range(width):
        out |= ((bits >> (stride * np.uint64(c))) & column) << (stride * np.uint64(width - 1 - c))
    return out


class Shape(NamedTuple):
    """A board's sizes and masks as the kernels take them: one argument instead of eight
    (:func:`board_shape` makes it; masks are words of the board's type)."""

    width: int
    height: int
    connect: int
    directions: int
    """Which directions can hold a line (:func:`line_directions`)."""
    board: Any
    """Every playable cell (:func:`board_mask`)."""
    bottom: Any
    """The bottom cell of each column (:func:`bottom_mask`)."""
    fast: bool
    """Whether :func:`winning_cells` takes the connect-4 formula (:func:`fast_path`)."""
    even_rows: Any
    """The cells of the 2nd, 4th, ... rows (:func:`even_row_cells`)."""


@njit(cache=True)
def board_shape(width: int, height: int, connect: int, zero: Any = U0) -> Shape:
    """The :class:`Shape` of a board, its masks words of ``zero``'s type.

    >>> shape = board_shape(7, 6, 4)
    >>> shape.width, shape.directions, int(shape.bottom).bit_count(), shape.fast
    (7, 7, 7, True)
    """
    return Shape(
        width,
        height,
        connect,
        line_directions(width, height, connect),
        board_mask(width, height, zero),
        bottom_mask(width, height, zero),
        fast_path(height, connect, word_bits(zero)),
        even_row_cells(width, height, zero),
    )
