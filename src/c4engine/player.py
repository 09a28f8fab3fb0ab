"""The two sides of a game: :class:`Player`.

>>> Player.FIRST.symbol, Player.FIRST.other
('X', <Player.SECOND: 2>)
"""

from __future__ import annotations

from enum import IntEnum

__all__ = ["Player"]


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
