"""The c4engine players the integrations put in front of an agent, by name.

:func:`make_opponent` takes the same strings as
:func:`c4engine.play.players.parse_agent` -- ``"random"``, a level ``"1"`` ..
``"7"``, and ``"perfect"`` -- but refuses ``"human"`` (nobody would be
there to move).  Until :mod:`c4engine.play.players` knows ``"perfect"`` itself,
it is the :class:`SolverPlayer` here: the exact solver's best move, centre
first among equals.

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

from c4engine.board import Board
from c4engine.errors import GameOverError, PlayerSpecError
from c4engine.play.players import Agent, parse_agent
from c4engine.search.solver import Solver

__all__ = ["SolverPlayer", "make_opponent"]


class SolverPlayer:
    """Perfect play: the move with the best exact score (:meth:`Solver.analyze`), centre first on ties.

    Boards larger than the solver takes (``width * (height + 1) > 64``)
    raise :class:`~c4engine.errors.UnsupportedBoardError`.
    """

    is_human = False

    def __init__(self, table_size_mb: float = 16, name: str = "perfect") -> None:
        self.name = name
        self._solver = Solver(table_size_mb=table_size_mb)

    def choose_move(self, board: Board) -> int:
        if board.is_over:
            raise GameOverError("the game is over: there is no move to choose")
        analysis = self._solver.analyze(board, pv=False)
        best = set(analysis.best_columns)
        return next(column for column in board.geometry.center_order if column in best)

    def __repr__(self) -> str:
        return f"SolverPlayer(name={self.name!r})"


def make_opponent(spec: str, *, seed: int | None = None) -> Agent:
    """A computer player from its name (see the module notes); ``seed`` fixes its random choices."""
    try:
        player = parse_agent(spec, seed=seed)
    except PlayerSpecError:
        if spec.strip().lower() != "perfect":
            raise
        return SolverPlayer()
    if player.is_human:
        raise PlayerSpecError(f"an opponent must choose its own moves: {spec!r} cannot be one")
    return player
