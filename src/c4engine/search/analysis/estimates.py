"""The engine's estimates of the columns an analysis leaves unproven, depth by depth so that they
compare (:func:`estimate_columns`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from c4engine.board import Board
from c4engine.search.analysis.columns import after
from c4engine.search.limit import Budget, Limit
from c4engine.search.results import PlayResult
from c4engine.search.scale import WIN_THRESHOLD

if TYPE_CHECKING:  # the engine (numba) is imported on first search
    from c4engine.search.engine.negamax import Engine

__all__ = ["engine_value", "estimate_columns"]


def estimate_columns(
    board: Board,
    columns: list[int],
    budget: Budget,
    engine_for: Callable[[Limit], Engine],
) -> tuple[dict[int, tuple[float, tuple[int, ...]]], int]:
    """The engine's values of the unproven ``columns`` (for the side to move, with the line
    from the column on), and the nodes searched, within what is left of ``budget``: each search by
    the engine ``engine_for`` gives for its limit.

    Under a time or node limit the columns are searched depth by depth, all of
    them to one depth before any goes deeper, and each keeps its value at
    the last depth completed for all: values of different depths (an odd
    depth ends on the mover's stone, an even one on the reply's) do not
    compare, and would make the ranking swing from one round to the next.
    Nor do estimates of consecutive positions whose searches end on different
    sides' stones (an evaluator favours one side of the last stone): the
    values kept are those of the last depth ending on a board of an even
    number of stones, when one completed, so that every position of a game is
    estimated to a horizon of the same side to move.
    """
    nodes = 0
    limit = budget.limit
    settled: dict[int, tuple[float, tuple[int, ...]]] = {}
    if limit.time is None and limit.nodes is None:
        engine = engine_for(limit)
        for column in columns:
            found = engine.search(after(board, column))
            nodes += found.nodes
            settled[column] = (-engine_value(found), (column, *found.line))
        return settled, nodes
    deepest = board.width * board.height - board.move_count - 1
    if limit.depth is not None:
        deepest = min(deepest, limit.depth)
    even: dict[int, tuple[float, tuple[int, ...]]] = {}  # the last round ending on an even board
    for depth in range(1, max(deepest, 1) + 1):
        if settled and (board.move_count + depth) % 2 == 0:  # the last round's horizon: even
            even = settled
        this_round: dict[int, tuple[float, tuple[int, ...]]] = {}
        for column in columns:
            known = settled.get(column)
            if known is not None and abs(known[0]) >= WIN_THRESHOLD:
                this_round[column] = known  # seen to the end of the game already
                continue
            if settled and budget.expired:
                return even or settled, nodes  # a spent budget still lets each search start: stop here
            left = budget.remaining()
            engine = engine_for(Limit(time=left.time, nodes=left.nodes, depth=depth))
            found = engine.search(after(board, column))
            nodes += found.nodes
            budget.spend(found.nodes)
            if found.stopped and settled:
                return even or settled, nodes  # this depth did not finish: keep the last one that did
            this_round[column] = (-engine_value(found), (column, *found.line))
        settled = this_round
        if all(abs(value) >= WIN_THRESHOLD for value, _ in settled.values()):
            break
    return settled, nodes


def engine_value(found: PlayResult) -> float:
    """The engine's answer's score on its own scale (a win at ply ``p``: ``WIN_SCORE - p``)."""
    assert found.score is not None  # the engine always scores its move
    return found.score.engine_value()
