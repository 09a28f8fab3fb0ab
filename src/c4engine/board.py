"""The rules of Connect-N on any board, kept in bitboards.

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

The position is two integers: ``mask`` (every stone) and ``current`` (the
stones of the side to move).  A line of N is found by shifts: 1 along a
column, ``height + 1`` along a row, ``height`` and ``height + 2`` along the
diagonals.  Python integers have no width limit, so boards of more than 64
cells work the same way (the compiled kernels take those that fit in 64 bits).

Columns are 0-based here; people read and type them 1-based (see
:mod:`c4engine.notation`).

>>> board = Board.from_moves("4453")
>>> board.turn
<Player.FIRST: 1>
>>> board.play(5)      # column 6
>>> print(board)
 . . . . . . .
 . . . . . . .
 . . . . . . .
 . . . . . . .
 . . . O . . .
 . . O X X X .
 1 2 3 4 5 6 7
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from enum import IntEnum
from functools import cached_property
from typing import ClassVar

from c4engine import notation
from c4engine.errors import (
    BoardBusyError,
    BoardSizeError,
    ColumnFullError,
    ColumnOutOfRangeError,
    ConnectError,
    GameOverError,
    IllegalMoveError,
    NotationError,
    PositionError,
    UnsupportedBoardError,
)

__all__ = [
    "MAX_SIZE",
    "Board",
    "Geometry",
    "Player",
    "center_order",
    "fits_64_bits",
    "has_line",
    "line_cells",
    "require_64_bits",
]

MAX_SIZE = 32
"""Largest width or height a board may have."""


class Player(IntEnum):
    """The two sides.  ``FIRST`` moves first and plays ``X``."""

    FIRST = 1
    SECOND = 2

    @property
    def other(self) -> Player:
        return Player.SECOND if self is Player.FIRST else Player.FIRST

    @property
    def symbol(self) -> str:
        return "X" if self is Player.FIRST else "O"


def fits_64_bits(width: int, height: int) -> bool:
    """Whether a board of this size fits a 64-bit integer in the layout above.

    ``width * (height + 1) <= 64``: a column takes ``height`` bits and its
    sentinel.  The compiled kernels, the exact solver and opening books take
    the boards that fit; the pure-Python rules and engine take any size.

    >>> fits_64_bits(7, 6), fits_64_bits(8, 7), fits_64_bits(9, 7)
    (True, True, False)
    """
    return width * (height + 1) <= 64


def require_64_bits(width: int, height: int, needs: str = "an exact answer") -> None:
    """Raise :class:`UnsupportedBoardError` unless :func:`fits_64_bits`: the one refusal of a board
    the exact solver cannot hold, saying which boards it can.  ``needs`` is what asked for the
    solver, in the words of the one who asked (``"perfect play"``, ``"--level perfect"``).

    >>> require_64_bits(7, 6)
    >>> require_64_bits(9, 7)
    Traceback (most recent call last):
    ...
    c4engine.errors.UnsupportedBoardError: an exact answer needs a board the exact solver holds, \
width * (height + 1) <= 64: up to 4x15, 5x11, 6x9, 7x8, 8x7, 9x6, 10x5, 12x4, 16x3, 21x2, 32x1; \
9x7 needs 72
    """
    if fits_64_bits(width, height):
        return
    widest: dict[int, int] = {}  # the widest board of each height
    for columns in range(1, 33):
        rows = 64 // columns - 1
        if rows >= 1:
            widest[rows] = columns
    sizes = ", ".join(f"{w}x{h}" for w, h in sorted((w, h) for h, w in widest.items() if w >= 4))
    raise UnsupportedBoardError(
        f"{needs} needs a board the exact solver holds, width * (height + 1) <= 64: up to {sizes}; "
        f"{width}x{height} needs {width * (height + 1)}"
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

    @property
    def fits_64_bits(self) -> bool:
        """Whether this size fits a 64-bit integer (see :func:`fits_64_bits`)."""
        return fits_64_bits(self.width, self.height)

    @cached_property
    def center_order(self) -> tuple[int, ...]:
        """This width's :func:`center_order`."""
        return center_order(self.width)

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


def _move_order(columns: list[list[int]], order: tuple[int, ...]) -> list[int] | None:
    """Columns to play, alternately from the first player, that stack up ``columns`` (owners bottom up).

    A depth-first search over the columns' heights; heights that lead nowhere
    are remembered, so no state is tried twice.
    """
    total = sum(len(stones) for stones in columns)
    heights = [0] * len(columns)
    dead: set[tuple[int, ...]] = set()
    moves: list[int] = []
    next_index = [0]  # per depth: where in ``order`` to go on looking
    while len(moves) < total:
        owner = 1 + len(moves) % 2
        index = next_index[-1]
        while index < len(order) and not (
            heights[order[index]] < len(columns[order[index]])
            and columns[order[index]][heights[order[index]]] == owner
        ):
            index += 1
        if index < len(order):
            next_index[-1] = index + 1
            column = order[index]
            heights[column] += 1
            if tuple(heights) in dead:
                heights[column] -= 1
                continue
            moves.append(column)
            next_index.append(0)
            continue
        dead.add(tuple(heights))
        next_index.pop()
        if not moves:
            return None
        heights[moves.pop()] -= 1
    return moves


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


class Board:
    """A Connect-N position with its move history.

    ``Board()`` is the standard 7x6 connect-4 board.  Any ``width`` and
    ``height`` from 1 to :data:`MAX_SIZE` and any ``connect`` from 2 up to the
    longer side work.
    """

    __slots__ = ("_busy", "_current", "_geometry", "_mask", "_moves", "_winner")

    def __init__(self, width: int = 7, height: int = 6, connect: int = 4) -> None:
        self._geometry = Geometry.of(width, height, connect)
        self._current = 0
        self._mask = 0
        self._moves: list[int] = []
        self._winner: Player | None = None
        self._busy = 0

    @classmethod
    def from_moves(
        cls, moves: str | Iterable[int], width: int = 7, height: int = 6, connect: int = 4
    ) -> Board:
        """The position after ``moves``: a move string (``"4453"``) or 0-based columns.

        An illegal move raises :class:`NotationError` naming it.

        >>> Board.from_moves("4444444")
        Traceback (most recent call last):
        ...
        c4engine.errors.NotationError: move 7 ('4'): column 4 is full
        """
        board = cls(width, height, connect)
        tokens = notation.parse_moves(moves, width) if isinstance(moves, str) else list(moves)
        if board._replay_unchecked(tokens):
            return board
        for index, column in enumerate(tokens):
            try:
                board.play(column)
            except IllegalMoveError as error:
                # str, not repr: the message quotes the label itself ("move 1 ('x')").
                label = (
                    str(column + 1)
                    if isinstance(column, int) and not isinstance(column, bool)
                    else str(column)
                )
                raise NotationError(
                    f"move {index + 1} ({label!r}): {error}", index=index, token=label
                ) from error
        return board

    def _replay_unchecked(self, columns: list[int]) -> bool:
        """Play ``columns`` on this empty board the fast way; False (board untouched) if any is refused.

        Reading batch files is mostly this loop, so the per-move checks are
        cut to what cannot be deferred: a column on the board with room.
        Whether the game ended before its last move is asked once at the
        end -- a line, once made, stays on the board -- and a game with a
        line anywhere is replayed by :meth:`play` instead, which tells the
        winner or the move played after the end.
        """
        geometry = self._geometry
        width = geometry.width
        current = mask = 0
        for column in columns:
            if type(column) is not int or not 0 <= column < width or mask & geometry.top_of(column):
                return False
            grown = mask | (mask + geometry.bottom_of(column))
            current = (current | (grown ^ mask)) ^ grown
            mask = grown
        if has_line(current, geometry.height, geometry.connect) or has_line(
            current ^ mask, geometry.height, geometry.connect
        ):
            return False
        self._current = current
        self._mask = mask
        self._moves = list(columns)
        return True

    @classmethod
    def from_grid(cls, grid: Sequence[Sequence[int]], connect: int = 4) -> Board:
        """The position drawn in ``grid``: rows top first, 0 empty, 1 the first player, 2 the second.

        Only the stones are given, so a move order that reaches them is
        searched for (the history of the returned board; the position, not
        the order, is what the engines look at).  A grid that no game can
        reach -- stones floating over empty cells, wrong stone counts, a
        line already made, no possible order -- is a :class:`PositionError`.

        >>> board = Board.from_grid([[2, 0, 0], [2, 0, 0], [1, 1, 0]], connect=3)
        >>> board.turn, board.winning_columns()
        (<Player.FIRST: 1>, [2])
        >>> Board.from_grid([[1, 0], [1, 0]], connect=2)
        Traceback (most recent call last):
        ...
        c4engine.errors.PositionError: 2 stones of the first player and 0 of the second: ...
        """
        height = len(grid)
        width = len(grid[0]) if height else 0
        Geometry.of(width, height, connect)
        if any(len(row) != width for row in grid):
            raise PositionError(f"the grid's rows must all have {width} cells")
        columns: list[list[int]] = []
        for column in range(width):
            stones: list[int] = []
            for row in reversed(range(height)):
                value = grid[row][column]
                if value not in (0, 1, 2) or isinstance(value, bool):
                    raise PositionError(f"cell values are 0, 1 or 2, not {value!r}")
                if value:
                    if len(stones) != height - 1 - row:
                        raise PositionError(f"column {column + 1} has a stone above an empty cell")
                    stones.append(int(value))
            columns.append(stones)
        first = sum(stones.count(1) for stones in columns)
        second = sum(stones.count(2) for stones in columns)
        if first - second not in (0, 1):
            raise PositionError(
                f"{first} stones of the first player and {second} of the second: "
                "the first player has as many stones as the second, or one more"
            )
        order = _move_order(columns, Geometry.of(width, height, connect).center_order)
        if order is None:
            raise PositionError("no game reaches this position: no order of the moves fits the columns")
        board = cls(width, height, connect)
        for column in order:
            board.push(column)
            if board._winner is not None:
                raise PositionError(f"{board._winner.symbol} already has {connect} in a row")
        return board

    # ----------------------------------------------------------------- size

    @property
    def width(self) -> int:
        return self._geometry.width

    @property
    def height(self) -> int:
        return self._geometry.height

    @property
    def connect(self) -> int:
        return self._geometry.connect

    @property
    def geometry(self) -> Geometry:
        return self._geometry

    @property
    def size(self) -> str:
        """The size as people write it, ``"7x6"``."""
        return f"{self.width}x{self.height}"

    # ---------------------------------------------------------------- state

    @property
    def turn(self) -> Player:
        """The side to move."""
        return Player.FIRST if len(self._moves) % 2 == 0 else Player.SECOND

    @property
    def move_count(self) -> int:
        """Stones on the board (plies played)."""
        return len(self._moves)

    @property
    def moves(self) -> tuple[int, ...]:
        """The 0-based columns played so far."""
        return tuple(self._moves)

    @property
    def move_string(self) -> str:
        """The moves in the notation of :mod:`c4engine.notation`."""
        return notation.format_moves(self._moves, self.width)

    @property
    def current_bits(self) -> int:
        """The stones of the side to move."""
        return self._current

    @property
    def mask_bits(self) -> int:
        """Every stone on the board."""
        return self._mask

    def bits_of(self, player: Player) -> int:
        return self._current if player is self.turn else self._current ^ self._mask

    @property
    def winner(self) -> Player | None:
        return self._winner

    @property
    def is_full(self) -> bool:
        return self._mask == self._geometry.full

    @property
    def is_draw(self) -> bool:
        return self._winner is None and self.is_full

    @property
    def is_over(self) -> bool:
        return self._winner is not None or self.is_full

    @property
    def result(self) -> str:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"`` or ``"*"`` (still going)."""
        if self._winner is Player.FIRST:
            return "1-0"
        if self._winner is Player.SECOND:
            return "0-1"
        return "1/2-1/2" if self.is_full else "*"

    def cell(self, column: int, row: int) -> Player | None:
        """Who owns ``(column, row)``; row 0 is the bottom."""
        if not all(isinstance(value, int) and not isinstance(value, bool) for value in (column, row)):
            raise ColumnOutOfRangeError(f"cell ({column!r}, {row!r}) needs whole-number coordinates")
        if not (0 <= column < self.width and 0 <= row < self.height):
            raise ColumnOutOfRangeError(f"cell ({column}, {row}) is not on a {self.size} board")
        bit = self._geometry.bit(column, row)
        if not self._mask & bit:
            return None
        return self.turn if self._current & bit else self.turn.other

    def column_height(self, column: int) -> int:
        """How many stones ``column`` holds."""
        self._check_column(column)
        return (self._mask & self._geometry.column_mask(column)).bit_count()

    def rows(self) -> list[list[Player | None]]:
        """The grid, top row first, as people look at it."""
        return [
            [self.cell(column, row) for column in range(self.width)] for row in reversed(range(self.height))
        ]

    # ---------------------------------------------------------------- moves

    def can_play(self, column: int) -> bool:
        """Whether ``column`` exists, has room and the game is not over."""
        return (
            isinstance(column, int)
            and not isinstance(column, bool)  # play() refuses True/False, so must this
            and 0 <= column < self.width
            and self._winner is None
            and not self._mask & self._geometry.top_of(column)
        )

    def legal_moves(self) -> list[int]:
        """The playable columns, left to right (none once the game is over)."""
        if self._winner is not None:
            return []
        geometry = self._geometry
        return [column for column in range(self.width) if not self._mask & geometry.top_of(column)]

    def is_winning_move(self, column: int) -> bool:
        """Whether the side to move wins at once by playing ``column``."""
        self._check_playable(column)
        stones = self._current | (
            (self._mask + self._geometry.bottom_of(column)) & self._geometry.column_mask(column)
        )
        return has_line(stones, self.height, self.connect)

    def winning_columns(self, player: Player | None = None) -> list[int]:
        """Columns where ``player`` (default: the side to move) would win by dropping a stone now.

        For the side not to move these are the threats the side to move must block.

        >>> board = Board.from_moves("121314")   # X to move: three in column 1; O: three in row 1
        >>> board.winning_columns()
        [0]
        >>> board.winning_columns(Player.SECOND)
        [4]
        """
        if self._winner is not None:
            return []
        stones = self.bits_of(self.turn if player is None else player)
        geometry = self._geometry
        columns = []
        for column in range(self.width):
            if self._mask & geometry.top_of(column):
                continue
            drop = (self._mask + geometry.bottom_of(column)) & geometry.column_mask(column)
            if has_line(stones | drop, self.height, self.connect):
                columns.append(column)
        return columns

    def play(self, column: int) -> None:
        """Drop a stone of the side to move into ``column`` (0-based)."""
        self._check_not_busy()
        self._check_playable(column)
        self.push(column)

    def undo(self) -> int:
        """Take back the last move and return its column."""
        self._check_not_busy()
        if not self._moves:
            raise IllegalMoveError("no move to undo")
        return self.pop()

    def copy(self) -> Board:
        """An independent board in the same position with the same history."""
        clone = Board.__new__(Board)
        clone._geometry = self._geometry
        clone._current = self._current
        clone._mask = self._mask
        clone._moves = list(self._moves)
        clone._winner = self._winner
        clone._busy = 0
        return clone

    @contextmanager
    def frozen(self) -> Iterator[Board]:
        """Refuse :meth:`play` and :meth:`undo` (with :class:`BoardBusyError`) inside the block.

        The engines hold a board frozen while they think about it, so a poll
        hook or a user-interface callback cannot change the game under them.
        """
        self._busy += 1
        try:
            yield self
        finally:
            self._busy -= 1

    @property
    def is_frozen(self) -> bool:
        """Whether a search holds the board (see :meth:`frozen`)."""
        return self._busy > 0

    def _check_column(self, column: int) -> None:
        if isinstance(column, bool) or not isinstance(column, int):
            raise ColumnOutOfRangeError(f"column must be a whole number, not {column!r}")
        if not 0 <= column < self.width:
            raise ColumnOutOfRangeError(f"column {column + 1} is out of range 1..{self.width}")

    def _check_playable(self, column: int) -> None:
        self._check_column(column)
        if self._winner is not None:
            raise GameOverError(f"the game is over: {self._winner.symbol} has won")
        if self._mask & self._geometry.top_of(column):
            if self.is_full:
                raise GameOverError("the game is over: the board is full")
            raise ColumnFullError(f"column {column + 1} is full")

    def _check_not_busy(self) -> None:
        if self._busy:
            raise BoardBusyError("the board is being searched; play or undo after the search returns")

    # ------------------------------------------------------ the fast path

    def push(self, column: int) -> bool:
        """Drop a stone into ``column`` without any check and tell whether it won: the fast :meth:`play`.

        As python-chess's ``Board.push`` does for chess moves, this trusts
        the caller: ``column`` must be a column of the board that has room,
        in a game that is not over (:meth:`can_play`) -- otherwise the
        position is corrupt, silently.  Nor does it honour :meth:`frozen`: a
        search pushes and pops on its own copy of the board.  Take the move
        back with :meth:`pop`.  A winning move sets :attr:`winner` too.

        >>> board = Board.from_moves("454545")
        >>> board.push(3), board.winner        # X's fourth stone in column 4
        (True, <Player.FIRST: 1>)
        >>> board.pop(), board.winner
        (3, None)
        """
        geometry = self._geometry
        mover = self._current | ((self._mask + geometry.bottom_of(column)) & geometry.column_mask(column))
        self._mask |= self._mask + geometry.bottom_of(column)
        self._current = mover ^ self._mask
        self._moves.append(column)
        if has_line(mover, geometry.height, geometry.connect):
            self._winner = Player.FIRST if len(self._moves) % 2 else Player.SECOND
            return True
        return False

    def pop(self) -> int:
        """Take back the last move without any check and return its column: the fast :meth:`undo`.

        The board must have a move to take back.  Like :meth:`push` it
        ignores :meth:`frozen`.
        """
        column = self._moves.pop()
        geometry = self._geometry
        column_stones = self._mask & geometry.column_mask(column)
        top_stone = 1 << (column_stones.bit_length() - 1)
        self._current ^= self._mask
        self._mask ^= top_stone
        self._current &= self._mask
        self._winner = None
        return column

    # ------------------------------------------------------------ the lines

    def winning_cells(self) -> list[tuple[int, int]]:
        """The ``(column, row)`` cells of the winner's line(s), empty if nobody has won.

        Lines longer than ``connect`` are given whole.

        >>> Board.from_moves("1212121").winning_cells()
        [(0, 0), (0, 1), (0, 2), (0, 3)]
        """
        if self._winner is None:
            return []
        stones = self.bits_of(self._winner)
        return self._geometry.cells_of(line_cells(stones, self.height, self.connect))

    # ------------------------------------------------------- keys and mirror

    def key(self) -> int:
        """A number that identifies the position (not the move order).

        ``current + mask`` -- unique because each column's stones are
        contiguous from the bottom, so the sum never carries between columns.
        """
        return self._current + self._mask

    def mirror_key(self) -> int:
        """The key of the left-right mirror image of this position."""
        return self._geometry.mirror(self.key())

    def canonical_key(self) -> int:
        """The smaller of :meth:`key` and :meth:`mirror_key`: the same for a position and its mirror."""
        return min(self.key(), self.mirror_key())

    def mirror(self) -> Board:
        """The left-right mirror image, with its history mirrored too."""
        return Board.from_moves([self.width - 1 - column for column in self._moves], *self._dimensions())

    def _dimensions(self) -> tuple[int, int, int]:
        return self.width, self.height, self.connect

    # ------------------------------------------------------------- display

    def __str__(self) -> str:
        cell_width = len(str(self.width)) + 1
        lines = []
        for row in reversed(range(self.height)):
            symbols = [self.cell(column, row) for column in range(self.width)]
            lines.append("".join((player.symbol if player else ".").rjust(cell_width) for player in symbols))
        lines.append("".join(str(column + 1).rjust(cell_width) for column in range(self.width)))
        return "\n".join(lines)

    def __repr__(self) -> str:
        size = (
            ""
            if self._dimensions() == (7, 6, 4)
            else f", width={self.width}, height={self.height}, connect={self.connect}"
        )
        return f"Board.from_moves({self.move_string!r}{size})"

    def _repr_svg_(self) -> str:
        from c4engine.svg import board_svg

        return board_svg(self)

    def __eq__(self, other: object) -> bool:
        """Same size, same connect-N and the same stones (history aside)."""
        if not isinstance(other, Board):
            return NotImplemented
        return (
            self._dimensions() == other._dimensions()
            and self._mask == other._mask
            and self._current == other._current
        )

    __hash__ = None  # type: ignore[assignment]  # mutable
