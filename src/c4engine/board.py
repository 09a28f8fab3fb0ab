"""The rules of Connect-N on any board, kept in bitboards: :class:`Board`.

The position is two integers in the bit layout of :mod:`c4engine.geometry`:
``mask`` (every stone) and ``current`` (the stones of the side to move);
the lines of N are found by shifts (:mod:`c4engine.lines`), on any size.

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

from c4engine import notation
from c4engine.errors import (
    BoardBusyError,
    ColumnFullError,
    ColumnOutOfRangeError,
    GameOverError,
    IllegalMoveError,
    NotationError,
    PositionError,
)
from c4engine.geometry import Geometry
from c4engine.lines import has_line, line_cells
from c4engine.player import Player

__all__ = ["Board"]


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
                said = str(error)
                if isinstance(error, ColumnOutOfRangeError) and label != str(column):  # 1-based, as the label
                    said = f"column {label} is out of range 1..{width}"
                raise NotationError(
                    f"move {index + 1} ({label!r}): {said}", index=index, token=label
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
            grown = mask | geometry.drop(mask, column)
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
        stones = self._current | (self._geometry.drop(self._mask, column))
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
            drop = geometry.drop(self._mask, column)
            if has_line(stones | drop, self.height, self.connect):
                columns.append(column)
        return columns

    def winning_column(self, player: Player | None = None) -> int | None:
        """The most central of :meth:`winning_columns`, None if there is none: the win to play.

        >>> Board.from_moves("4455").winning_column(), Board().winning_column()
        (None, None)
        >>> Board.from_moves("445566").winning_column()   # X wins at 3 or 7: 3 is nearer the centre
        2
        """
        return self._geometry.most_central(self.winning_columns(player))

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
            raise ColumnOutOfRangeError(
                f"column {column} is out of range 0..{self.width - 1}: a Board's columns count from 0 "
                f"(move strings count from 1)"
            )

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
        mover = self._current | geometry.drop(self._mask, column)
        self._mask |= mover ^ self._current
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
        """The board as an SVG picture: Jupyter shows a board with it."""
        # Loaded when asked for: its XML escaping imports urllib (20 ms), which nothing else here needs
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
