"""c4engine: Connect-Four for any board and any connect-N.

>>> from c4engine import Board
>>> board = Board.from_moves("4453")
>>> board.turn.symbol
'X'

The analysis service, its limit, a game and the heuristic engine come from the front door too, loaded
on first use (PEP 562) so that ``import c4engine`` stays cheap:

>>> from c4engine import Analyst, Limit, Game, Engine
>>> Analyst().solve(Board.from_moves("4455"), Limit(time=5)).describe()
'win in 2 moves'
"""

from typing import TYPE_CHECKING

from c4engine import errors
from c4engine.board import Board
from c4engine.errors import *  # noqa: F403 -- every exception, as c4engine.ColumnFullError and the like
from c4engine.geometry import MAX_SIZE
from c4engine.player import Player

if TYPE_CHECKING:  # for type checkers; at run time :func:`__getattr__` imports them when asked
    from c4engine.play.game import Game
    from c4engine.search.analysis.analyst import Analyst
    from c4engine.search.engine.negamax import Engine
    from c4engine.search.limit import Limit

__version__ = "0.1.0"

_LAZY = {
    "Analyst": "c4engine.search.analysis.analyst",
    "Limit": "c4engine.search.limit",
    "Game": "c4engine.play.game",
    "Engine": "c4engine.search.engine.negamax",
}
"""Exported names loaded on first use, and their modules: the search (numba for the engine) costs
a command answering from the book nothing."""

__all__ = ["MAX_SIZE", "Analyst", "Board", "Engine", "Game", "Limit", "Player", "__version__"]
__all__ += errors.__all__


def __getattr__(name: str) -> object:
    """``c4engine.Analyst`` and the other lazy exports (:data:`_LAZY`), imported when first asked for."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'c4engine' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # asked once: later lookups find it without this function
    return value
