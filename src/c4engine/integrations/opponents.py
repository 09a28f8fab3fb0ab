"""The c4engine players the integrations put in front of an agent, by name.

:func:`make_opponent` takes the same strings as
:func:`c4engine.play.players.parse_agent` -- ``"random"``, a level ``"1"`` ..
``"7"``, and ``"perfect"`` (:class:`~c4engine.play.perfect.PerfectPlayer`:
the opening book, then the exact solver, through the analysis service) --
but refuses ``"human"`` (nobody would be there to move), and ``"perfect"``
on a board the exact solver cannot hold (it could only guess there).

>>> from c4engine.board import Board
>>> make_opponent("random", seed=3).choose_move(Board()) in range(7)
True
>>> make_opponent("perfect").choose_move(Board.from_moves("112233", 5, 4))  # take the win
3
>>> make_opponent("human")
Traceback (most recent call last):
...
c4engine.errors.PlayerSpecError: an opponent must choose its own moves: 'human' cannot be one
>>> make_opponent("perfect", size=(12, 10))
Traceback (most recent call last):
...
c4engine.errors.UnsupportedBoardError: opponent 'perfect' needs a board the exact solver holds, \
width * (height + 1) <= 128: up to 4x31, 5x24, 6x20, 7x17, 8x15, 9x13, 10x11, 11x10, 12x9, 14x8, \
16x7, 18x6, 21x5, 25x4, 32x3; 12x10 needs 132: choose a level 1..7
"""

from __future__ import annotations

from c4engine.errors import PlayerSpecError
from c4engine.play.perfect import PerfectPlayer, check_perfect_board
from c4engine.play.players import Agent, parse_agent

__all__ = ["make_opponent"]


def make_opponent(spec: str, *, seed: int | None = None, size: tuple[int, int] | None = None) -> Agent:
    """A computer player from its name (see the module notes); ``seed`` fixes its random choices.

    ``size`` (width, height) is the board it will play on: ``perfect`` is refused where it cannot be.
    """
    player = parse_agent(spec, seed=seed)
    if player.is_human:
        raise PlayerSpecError(f"an opponent must choose its own moves: {spec!r} cannot be one")
    if size is not None and isinstance(player, PerfectPlayer):
        check_perfect_board(*size, f"opponent {spec!r}")
    return player
