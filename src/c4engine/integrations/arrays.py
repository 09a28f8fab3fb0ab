"""Boards as numpy arrays, for learning agents: stone planes, action masks, pictures.

Rows are numbered as people see the board, the top row first (row 0), so
``planes[0, -1]`` is the bottom row of the player's own stones.

>>> from c4engine.board import Board
>>> from c4engine.player import Player
>>> board = Board.from_moves("4453", 7, 6)
>>> planes = board_planes(board, Player.FIRST)
>>> planes.shape, planes.dtype
((2, 6, 7), dtype('uint8'))
>>> planes[0, -1].tolist(), planes[1, -1].tolist()   # bottom row: X's stones, O's stones
([0, 0, 0, 1, 1, 0, 0], [0, 0, 1, 0, 0, 0, 0])
>>> action_mask(Board.from_moves("111111", 3, 6, 3)).tolist()
[0, 1, 1]
>>> board_rgb(board, cell=10).shape
(60, 70, 3)
"""

from __future__ import annotations

import numpy as np

from c4engine.board import Board
from c4engine.player import Player

__all__ = ["BACKGROUND", "COLOURS", "action_mask", "board_planes", "board_rgb", "render"]

BACKGROUND = (20, 60, 160)
"""The board's blue, RGB."""
COLOURS = {None: (235, 235, 235), Player.FIRST: (215, 40, 40), Player.SECOND: (240, 200, 30)}
"""Cell colours, RGB: empty, the first player (red), the second (yellow)."""


def board_planes(board: Board, player: Player, *, channels_last: bool = False) -> np.ndarray:
    """Two 0/1 planes, ``player``'s stones then the opponent's, shape ``(2, height, width)``.

    ``channels_last`` gives ``(height, width, 2)`` instead (PettingZoo's layout).
    """
    planes = np.zeros((2, board.height, board.width), dtype=np.uint8)
    ours = board.bits_of(player)
    theirs = board.bits_of(player.other)
    geometry = board.geometry
    for column in range(board.width):
        for row in range(board.column_height(column)):
            bit = geometry.bit(column, row)
            top_row = board.height - 1 - row
            if ours & bit:
                planes[0, top_row, column] = 1
            elif theirs & bit:
                planes[1, top_row, column] = 1
    return np.moveaxis(planes, 0, -1).copy() if channels_last else planes


def action_mask(board: Board) -> np.ndarray:
    """1 for each column that can be played now, 0 otherwise (all 0 once the game is over)."""
    mask = np.zeros(board.width, dtype=np.int8)
    mask[board.legal_moves()] = 1
    return mask


def board_rgb(board: Board, *, cell: int = 40) -> np.ndarray:
    """A picture of the board, ``(height * cell, width * cell, 3)`` uint8 RGB: discs on blue."""
    if cell < 4:
        raise ValueError(f"cell must be at least 4 pixels, not {cell}")
    image = np.empty((board.height * cell, board.width * cell, 3), dtype=np.uint8)
    image[:] = BACKGROUND
    centre = (cell - 1) / 2
    y, x = np.ogrid[:cell, :cell]
    disc = (y - centre) ** 2 + (x - centre) ** 2 <= (0.4 * cell) ** 2
    for row_index, row in enumerate(board.rows()):
        for column, owner in enumerate(row):
            tile = image[row_index * cell : (row_index + 1) * cell, column * cell : (column + 1) * cell]
            tile[disc] = COLOURS[owner]
    return image


def render(board: Board, mode: str | None, note: str = "") -> str | np.ndarray | None:
    """What an environment's ``render()`` returns in ``mode``: text (``"ansi"``) or a picture.

    The text is the board and a line saying who is to move, or the result,
    then ``note``; ``"human"`` prints that text and returns None, as does no
    mode (None) without printing.

    >>> print(render(Board.from_moves("1212121", 4, 4, 4), "ansi"))
     X . . .
     X O . .
     X O . .
     X O . .
     1 2 3 4
    game over: 1-0
    """
    if mode in ("ansi", "human"):
        status = f"game over: {board.result}" if board.is_over else f"{board.turn.symbol} to move"
        text = f"{board}\n{status}{note}"
        if mode == "human":
            print(text.rstrip("\n"))
            return None
        return text
    if mode == "rgb_array":
        return board_rgb(board)
    return None
