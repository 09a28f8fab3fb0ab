"""c4engine: Connect-Four for any board and any connect-N.

>>> from c4engine import Board
>>> board = Board.from_moves("4453")
>>> board.turn.symbol
'X'
"""

from c4engine.board import MAX_SIZE, Board, Player
from c4engine.errors import (
    BoardBusyError,
    BoardSizeError,
    C4Error,
    ColumnFullError,
    ColumnOutOfRangeError,
    ConnectError,
    GameOverError,
    IllegalMoveError,
    NotationError,
    RecordError,
)

__version__ = "0.1.0"

__all__ = [
    "MAX_SIZE",
    "Board",
    "BoardBusyError",
    "BoardSizeError",
    "C4Error",
    "ColumnFullError",
    "ColumnOutOfRangeError",
    "ConnectError",
    "GameOverError",
    "IllegalMoveError",
    "NotationError",
    "Player",
    "RecordError",
    "__version__",
]
