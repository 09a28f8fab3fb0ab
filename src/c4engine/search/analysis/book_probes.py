"""The book first: under a limit, the probes for a column keeping the book's score of a position, the
cheap refutations first (:func:`reach`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from c4engine.board import Board
from c4engine.search.analysis.columns import after
from c4engine.search.limit import Limit

__all__ = ["LIKELY_KEEPER_DEPTH", "PROBE_NODES", "PROBE_SHARE", "Probe", "Reached", "reach"]

PROBE_NODES: Final = 60_000
"""The first round's node budget of each null-window search for a move keeping the book's score
(:meth:`~c4engine.search.analysis.analyst.Analyst.analyze` under a limit); each round after it gets
four times more."""


PROBE_SHARE: Final = 0.9
"""The part of a bounded question the probes may take when the book knows the position's score:
the move keeping it is the recommendation, worth more than the engine's estimates of the rest,
which get what the probes leave (all of it when they end early, as they mostly do)."""

LIKELY_KEEPER_DEPTH: Final = 4
"""The plies of the engine's search that names the column likely to keep a won position's book
score, probed last (:func:`reach`): a fraction of a millisecond."""

Probe = Callable[[Board, int, Limit], tuple[bool | None, int]]
"""A null-window search: whether a board scores at least a score (None: not within the limit), and
the nodes it searched (:meth:`c4engine.search.solver.exact.Solver.null_window`)."""


@dataclass(frozen=True)
class Reached:
    """What the probes of :func:`reach` found: the column proven to keep the score (None if none
    was before the limit ran out), the columns shown to score less, and the nodes searched."""

    column: int | None
    below: tuple[int, ...]
    nodes: int


def reach(
    probe: Probe,
    board: Board,
    score: int,
    columns: Sequence[int],
    limit: Limit,
    likely: int | None = None,
) -> Reached:
    """Which of ``columns`` -- every column that may keep ``board``'s exact (strong) ``score``;
    the others are known to score less -- keeps it, within ``limit``.

    One null-window search a column, centre-first, in rounds of growing node budgets
    (:data:`PROBE_NODES`, four times more each round), each search going on from what the
    column's last one left in the solver's table.  Either the column keeping the score is
    proven, or every other column is refuted and the last one left keeps the score without a
    search of its own.  In a won position (``score`` above 0) the refutations are usually the
    cheap way -- one defence each, where the keeper's proof must beat every defence -- so
    ``likely`` (the engine's choice) comes last, from the second round on: a round that refutes
    all the others never searches it.  The nodes searched count against ``limit``.
    """
    budget = limit.start()
    below: list[int] = []
    last = likely if score > 0 and likely in columns else None  # a win: refute the others first
    waiting = [c for c in board.geometry.center_order if c in columns and c != last]
    if last is not None:
        waiting.append(last)
    round_nodes = PROBE_NODES
    while waiting:
        for column in list(waiting):
            if len(waiting) == 1 and len(below) + 1 == len(columns):
                return Reached(column, tuple(below), budget.nodes_spent)  # every other column scores less
            if column == last and round_nodes == PROBE_NODES:
                continue  # the others' first round may refute them all
            left = budget.nodes_left()
            nodes = round_nodes if left is None else min(round_nodes, left)
            if nodes <= 0 or budget.expired:
                return Reached(None, tuple(below), budget.nodes_spent)
            searched = Limit(time=budget.remaining().time, nodes=nodes)
            # the column keeps ``score`` unless the opponent's reply scores more than ``-score``
            beaten, spent = probe(after(board, column), 1 - score, searched)
            budget.spend(spent)
            if beaten is None:
                continue  # not within this round's budget
            if not beaten:
                return Reached(column, tuple(below), budget.nodes_spent)
            below.append(column)
            waiting.remove(column)
        round_nodes *= 4
    return Reached(None, tuple(below), budget.nodes_spent)
