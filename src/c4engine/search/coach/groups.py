"""The groups of a board: every line of ``connect`` cells, as cells and as a bit mask.

Allis calls a line of four cells a *group*; a player can still complete a
group while it holds none of the opponent's stones.  Cells are
``(column, row)``, 0-based, row 0 the bottom; people read them as ``a1``
(:func:`square_name`, column letter and 1-based row, as Allis writes them).

>>> from c4engine.board import Board
>>> len(all_groups(Board().geometry))        # the 69 groups of the 7x6 board
69
>>> board = Board.from_moves("4444")
>>> len(open_groups(board, Player.FIRST)), square_name((0, 2), 7)
(48, 'a3')
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from c4engine.board import Board
from c4engine.geometry import Geometry
from c4engine.player import Player

__all__ = ["Cell", "Group", "all_groups", "cell_json", "groups_through", "open_groups", "square_name"]

Cell = tuple[int, int]
"""``(column, row)``, 0-based, row 0 the bottom."""

_DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


@dataclass(frozen=True)
class Group:
    """``connect`` cells in a line (a row, a column or a diagonal), and their bits."""

    cells: tuple[Cell, ...]
    bits: int

    def to_json(self) -> list[dict[str, int]]:
        """The cells, 1-based: ``[{"column": 1, "row": 1}, ...]``."""
        return [cell_json(cell) for cell in self.cells]

    def name(self, width: int) -> str:
        """Its two ends as Allis names a group: ``a1-d1``."""
        return f"{square_name(self.cells[0], width)}-{square_name(self.cells[-1], width)}"


def cell_json(cell: Cell) -> dict[str, int]:
    """A cell as JSON: 1-based column and row (row 1 the bottom)."""
    return {"column": cell[0] + 1, "row": cell[1] + 1}


def square_name(cell: Cell, width: int) -> str:
    """``a1`` for the bottom-left cell: the column's letter, then the 1-based row.

    Boards wider than 26 columns have no letters for every column: ``27:1`` there.
    """
    column, row = cell
    if width <= 26:
        return f"{chr(ord('a') + column)}{row + 1}"
    return f"{column + 1}:{row + 1}"


@cache
def all_groups(geometry: Geometry) -> tuple[Group, ...]:
    """Every line of ``connect`` cells on the board, each once."""
    width, height, length = geometry.width, geometry.height, geometry.connect
    found = []
    for column in range(width):
        for row in range(height):
            for step_column, step_row in _DIRECTIONS:
                end_column = column + step_column * (length - 1)
                end_row = row + step_row * (length - 1)
                if not (0 <= end_column < width and 0 <= end_row < height):
                    continue
                cells = tuple((column + step_column * i, row + step_row * i) for i in range(length))
                bits = sum(geometry.bit(c, r) for c, r in cells)
                found.append(Group(cells, bits))
    return tuple(found)


@cache
def groups_through(geometry: Geometry) -> dict[Cell, tuple[Group, ...]]:
    """The groups through each cell of the board."""
    through: dict[Cell, list[Group]] = {}
    for group in all_groups(geometry):
        for cell in group.cells:
            through.setdefault(cell, []).append(group)
    return {cell: tuple(groups) for cell, groups in through.items()}


def open_groups(board: Board, player: Player) -> tuple[Group, ...]:
    """The groups ``player`` can still complete: none of the opponent's stones, some cell empty."""
    theirs = board.bits_of(player.other)
    mine = board.bits_of(player)
    return tuple(
        group for group in all_groups(board.geometry) if not group.bits & theirs and group.bits & ~mine
    )
