"""The c4engine players the integrations put in front of an agent, by name.

:func:`make_opponent` takes the same strings as
:func:`c4engine.play.players.parse_agent` -- ``"random"``, a level ``"1"`` ..
``"7"``, and ``"perfect"`` (:class:`~c4engine.play.perfect.PerfectPlayer`:
the opening book, then the exact solver, through the analysis service) --
but refuses ``"human"`` (nobody would be there to move).

>>> from c4engine.board import Board
>>> make_opponent("random", seed=3).choose_move(Board()) in range(7)
True
>>> make_opponent("perfect").choose_move(Board.from_moves("112233", 5, 4))  # take the win
3
>>> make_opponent("human")
Traceback (most recent call last):
...
c4engine.errors.PlayerSpecError: an opponent must choose its own moves: 'human' cannot be one
"""

from __future__ import annotations

from c4engine.errors import PlayerSpecError
from c4engine.play.players import Agent, parse_agent

__all__ = ["make_opponent"]


def make_opponent(spec: str, *, seed: int | None = None) -> Agent:
    """A computer player from its name (see the module notes); ``seed`` fixes its random choices."""
    player = parse_agent(spec, seed=seed)
    if player.is_human:
        raise PlayerSpecError(f"an opponent must choose its own moves: {spec!r} cannot be one")
    return player
