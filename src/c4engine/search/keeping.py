"""A move that keeps a known score: centre-first, one null-window search a move.

When the exact score of a position is already known (from an opening book,
or because the previous move kept it), finding a best move does not need
every move's score: test the moves centre-first, each with one null-window
search (:meth:`~c4engine.search.solver.Solver.is_at_least`: does the
opponent get more than ``-score`` after it?), and stop at the first that
keeps the score.  That is far cheaper than scoring every move, and the
first move that passes is the centre-first tie-break among best moves, so
the choice is the same whoever makes it: the perfect player, the book
builder's policy, ``c4 solve``.

>>> from c4engine.board import Board
>>> from c4engine.search.solver import Solver
>>> keeping_move(Solver(table_size_mb=8), Board.from_moves("4444", 7, 6), 1)   # 0-based: column 4
3
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from c4engine.board import Board

if TYPE_CHECKING:  # numba is loaded by whoever made the solver
    from c4engine.search.solver import Solver

__all__ = ["keeping_move"]


def keeping_move(solver: Solver, board: Board, score: int, *, time_limit: float | None = None) -> int | None:
    """The most central move of ``board`` that keeps its exact ``score`` (None when the time ran out).

    ``score`` must be the position's exact score (strong, for the side to
    move): then some move keeps it, and a wrong score is an AssertionError.
    """
    start = time.perf_counter()
    win = (board.width * board.height + 1 - board.move_count) // 2
    child = board.copy()
    for column in board.geometry.center_order:
        if not board.can_play(column):
            continue
        if board.is_winning_move(column):
            if score == win:
                return column
            continue
        child.play(column)
        if child.is_full:
            reaches: bool | None = score == 0
        else:
            left = None if time_limit is None else max(1e-3, time_limit - (time.perf_counter() - start))
            # the move keeps ``score`` unless the opponent then scores more than -score
            beaten = solver.is_at_least(child, 1 - score, time_limit=left)
            reaches = None if beaten is None else not beaten
        child.undo()
        if reaches is None:
            return None
        if reaches:
            return column
    raise AssertionError(f"no move of {board.move_string!r} keeps its score {score}")
