"""A board's size and bit layout: which sizes there are, the masks of one size, whether it fits 64
bits, whether the exact solver holds it.

Bit layout -- the one of the published Connect-4 solvers, so the compiled
kernels share it.  One bit per cell, column-major; each column has
``height + 1`` bits, the top one a sentinel that is always 0 so that a run of
stones can never continue from the top of one column into the next.  For the
standard 7x6 board::

    .  .  .  .  .  .  .      sentinel row: 6 13 20 27 34 41 48
    5 12 19 26 33 40 47
    4 11 18 25 32 39 46
    3 10 17 24 31 38 45
    2  9 16 23 30 37 44
    1  8 15 22 29 36 43
    0  7 14 21 28 35 42      bottom row

A position (:class:`c4engine.board.Board`) is two integers in this layout,
and a line of N is found by shifts of them (:mod:`c4engine.lines`).  Python
integers have no width limit, so boards of more than 64 cells work the same
way (the heuristic engine's compiled kernel takes those that fit in 64 bits,
the exact solver those up to 128: :func:`solver_holds`).
"""

from __future__ import annotations

from collections.abc import Container
from functools import cached_property
from typing import ClassVar

from c4engine.errors import BoardSizeError, ConnectError, UnsupportedBoardError

__all__ = [
    "MAX_SIZE",
    "SOLVER_BITS",
    "Geometry",
    "center_order",
    "fits_64_bits",
    "require_solver_holds",
    "solver_holds",
]

MAX_SIZE = 32
"""Largest width or height a board may have."""


def fits_64_bits(width: int, height: int) -> bool:
    """Whether a board of this size fits a 64-bit integer in the layout above.

    ``width * (height + 1) <= 64``: a column takes ``height`` bits and its
    sentinel.  The heuristic engine's compiled kernel takes the boards that
    fit, and opening books keep their keys in 8 bytes (version 1) there; the
    exact solver and books take more (:func:`solver_holds`); the pure-Python
    rules and engine take any size.

    >>> fits_64_bits(7, 6), fits_64_bits(8, 7), fits_64_bits(9, 7)
    (True, True, False)
    """
    return width * (height + 1) <= 64


SOLVER_BITS = 128
"""The exact solver holds the boards of at most this many bits in the layout above: a uint64 up to
64 (its own compiled kernels), a 128-bit word past that (:mod:`c4engine.kernels.wide`)."""


def solver_holds(width: int, height: int) -> bool:
    """Whether the exact solver holds a board of this size: ``width * (height + 1) <= 128``.

    >>> solver_holds(7, 6), solver_holds(10, 6), solver_holds(11, 10), solver_holds(11, 11)
    (True, True, True, False)
    """
    return width * (height + 1) <= SOLVER_BITS


def require_solver_holds(width: int, height: int, needs: str = "an exact answer") -> None:
    """Raise :class:`UnsupportedBoardError` unless :func:`solver_holds`: the one refusal of a board
    the exact solver cannot hold, saying which boards it can.  ``needs`` is what asked for the
    solver, in the words of the one who asked (``"perfect play"``, ``"--level perfect"``).

    >>> require_solver_holds(9, 7)
    >>> require_solver_holds(12, 10)
    Traceback (most recent call last):
    ...
    c4engine.errors.UnsupportedBoardError: an exact answer needs a board the exact solver holds, \
width * (height + 1) <= 128: up to 4x31, 5x24, 6x20, 7x17, 8x15, 9x13, 10x11, 11x10, 12x9, 14x8, 16x7, \
18x6, 21x5, 25x4, 32x3; 12x10 needs 132
    """
    if solver_holds(width, height):
        return
    widest: dict[int, int] = {}  # the widest board of each height
    for columns in range(1, MAX_SIZE + 1):
        rows = min(SOLVER_BITS // columns - 1, MAX_SIZE)
        if rows >= 1:
            widest[rows] = columns
    sizes = ", ".join(f"{w}x{h}" for w, h in sorted((w, h) for h, w in widest.items() if w >= 4))
    raise UnsupportedBoardError(
        f"{needs} needs a board the exact solver holds, width * (height + 1) <= {SOLVER_BITS}: "
        f"up to {sizes}; {width}x{height} needs {width * (height + 1)}"
    )


def center_order(width: int) -> tuple[int, ...]:
    """Columns from the centre outwards, left first on a tie: the order searches try moves in.

    Central columns take part in the most lines, so they are the likeliest
    good moves.  (The compiled kernels build the same order in
    :func:`c4engine.kernels.moves.center_order`.)

    >>> center_order(7), center_order(4)
    ((3, 2, 4, 1, 5, 0, 6), (1, 2, 0, 3))
    """
    middle = (width - 1) / 2
    return tuple(sorted(range(width), key=lambda column: (abs(column - middle), column)))


class Geometry:
    """The masks of one board size, computed once and shared by its boards."""

    _cache: ClassVar[dict[tuple[int, int, int], Geometry]] = {}

    def __init__(self, width: int, height: int, connect: int) -> None:
        self.width = width
        self.height = height
        self.connect = connect
        self.column_stride = height + 1
        self.bottom = sum(1 << (column * self.column_stride) for column in range(width))
        self.full = self.bottom * ((1 << height) - 1)

    @classmethod
    def of(cls, width: int, height: int, connect: int) -> Geometry:
        # Validate before the cache lookup: 7.0 and True hash like 7 and 1, so a
        # lookup first would let them through once the int size is cached.
        _validate_size(width, height, connect)
        key = (width, height, connect)
        geometry = cls._cache.get(key)
        if geometry is None:
            geometry = cls._cache[key] = cls(width, height, connect)
        return geometry

    def bottom_of(self, column: int) -> int:
        return 1 << (column * self.column_stride)

    def top_of(self, column: int) -> int:
        return 1 << (column * self.column_stride + self.height - 1)

    def column_mask(self, column: int) -> int:
        return ((1 << self.height) - 1) << (column * self.column_stride)

    def bit(self, column: int, row: int) -> int:
        return 1 << (column * self.column_stride + row)

    def drop(self, mask: int, column: int) -> int:
        """The cell (one bit) where a stone dropped into ``column`` lands, on a board whose occupied
        cells are ``mask``; 0 when the column is full.

        Adding the column's bottom bit carries through its stones to the first empty cell.

        >>> geometry = Geometry.of(7, 6, 4)
        >>> first = geometry.drop(0, 3)
        >>> first == geometry.bit(3, 0), geometry.drop(first, 3) == geometry.bit(3, 1)
        (True, True)
        """
        return (mask + self.bottom_of(column)) & self.column_mask(column)

    @property
    def fits_64_bits(self) -> bool:
        """Whether this size fits a 64-bit integer (see :func:`fits_64_bits`)."""
        return fits_64_bits(self.width, self.height)

    @property
    def solver_holds(self) -> bool:
        """Whether the exact solver holds this size (see :func:`solver_holds`)."""
        return solver_holds(self.width, self.height)

    @cached_property
    def center_order(self) -> tuple[int, ...]:
        """This width's :func:`center_order`."""
        return center_order(self.width)

    def most_central(self, columns: Container[int]) -> int | None:
        """The most central of ``columns`` (the first in :attr:`center_order`), None if there is none.

        >>> Geometry.of(7, 6, 4).most_central({0, 2, 5}), Geometry.of(7, 6, 4).most_central(())
        (2, None)
        """
        return next((column for column in self.center_order if column in columns), None)

    def mirror(self, bits: int) -> int:
        """``bits`` reflected left to right."""
        stride = self.column_stride
        column_bits = (1 << stride) - 1
        mirrored = 0
        for column in range(self.width):
            mirrored |= ((bits >> (column * stride)) & column_bits) << ((self.width - 1 - column) * stride)
        return mirrored

    def cells_of(self, bits: int) -> list[tuple[int, int]]:
        """The ``(column, row)`` cells set in ``bits``, column by column, bottom up."""
        cells = []
        while bits:
            low = bits & -bits
            index = low.bit_length() - 1
            cells.append(divmod(index, self.column_stride))
            bits ^= low
        return cells


def _validate_size(width: int, height: int, connect: int) -> None:
    for name, value in (("width", width), ("height", height)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise BoardSizeError(f"board {name} must be a whole number, not {value!r}")
        if not 1 <= value <= MAX_SIZE:
            raise BoardSizeError(f"board {name} must be between 1 and {MAX_SIZE}, not {value}")
    if isinstance(connect, bool) or not isinstance(connect, int):
        raise ConnectError(f"connect must be a whole number, not {connect!r}")
    if connect < 2:
        raise ConnectError(f"connect must be at least 2, not {connect}")
    if max(width, height) < 2:
        raise ConnectError(f"a {width}x{height} board has no line of 2 cells: make it 2 or more wide or high")
    if connect > max(width, height):
        raise ConnectError(
            f"connect {connect} cannot fit on a {width}x{height} board: "
            f"no row, column or diagonal has {connect} cells (use 2..{max(width, height)})"
        )
