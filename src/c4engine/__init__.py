"""c4engine: Connect-Four for any board and any connect-N.

>>> from c4engine import Board
>>> board = Board.from_moves("4453")
>>> board.turn.symbol
'X'
"""

from c4engine import errors
from c4engine.board import Board
from c4engine.errors import *  # noqa: F403 -- every exception, as c4engine.ColumnFullError and the like
from c4engine.geometry import MAX_SIZE
from c4engine.player import Player

__version__ = "0.1.0"

__all__ = ["MAX_SIZE", "Board", "Player", "__version__"]
__all__ += errors.__all__
