"""The book first: under a limit, the probes for a column keeping the book's score of a position, the
cheap refutations first (:func:`reach`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from c4engine.board import Board
from c4engine.search.column_answers import after
from c4engine.search.limit import Limit

__all__ = ["PROBE_NODES", "PROBE_SHARE", "reach"]

PROBE_NODES: Final = 60_000
"""The first round's node budget of each null-window search for a move keeping the book's score
(:meth:`c4engine.search.analysis.Analyst.analyze` under a limit); each round after it gets four times more."""


PROBE_SHARE: Final = 0.9
"""The part of a bounded question the probes may take when the book knows the position's score:
the move keeping it is the recommendation, worth more than the engine's estimates of the rest,
which get what the probes leave (all of it when they end early, as they mostly do)."""


def reach(
    is_at_least: Callable[[Board, int, Limit], bool | None],
    board: Board,
    score: int,
    columns: Sequence[int],
    limit: Limit,
) -> tuple[int | None, list[int]]:
    """Which of ``columns`` -- every column that may keep ``board``'s exact (strong) ``score``;
    the others are known to score less -- keeps it, within ``limit``: the column proven to
    (None if none was before the limit ran out), and the columns shown to score less.

    One null-window search a column, centre-first, in rounds of growing node budgets
    (:data:`PROBE_NODES`, four times more each round): a column scoring less is usually
    refuted in a few thousand nodes, while proving the one that keeps the score costs the
    whole proof -- so the cheap refutations come first, and when every column but one is
    refuted, that one keeps the score without a search of its own.  Under a node limit the
    budgets handed out count against it, whatever the searches took.
    """
    budget = limit.start()
    below: list[int] = []
    waiting = [c for c in board.geometry.center_order if c in columns]
    round_nodes = PROBE_NODES
    while waiting:
        for column in list(waiting):
            if len(waiting) == 1 and len(below) + 1 == len(columns):
                return column, below  # every other column scores less
            left = budget.nodes_left()
            nodes = round_nodes if left is None else min(round_nodes, left)
            if nodes <= 0 or budget.expired:
                return None, below
            budget.spend(nodes)
            probe = Limit(time=budget.remaining().time, nodes=nodes)
            # the column keeps ``score`` unless the opponent's reply scores more than ``-score``
            beaten = is_at_least(after(board, column), 1 - score, probe)
            if beaten is None:
                continue  # not within this round's budget
            if not beaten:
                return column, below
            below.append(column)
            waiting.remove(column)
        round_nodes *= 4
    return None, below
