"""A chosen move's answer, a :class:`~c4engine.search.results.PlayResult`, from what was proven of it.

The analysis service (:mod:`c4engine.search.analysis.analyst`), the search for the most central move keeping
a score (:mod:`c4engine.search.analysis.keeping`) and the perfect player build their answers here, so a
proven move reads the same whoever proved it: its exact score, ``lower == upper``, the move as its line.

>>> from c4engine.board import Board
>>> from c4engine.search.limit import UNLIMITED
>>> proven_result(Board.from_moves("112233"), 18, 3, "rules", UNLIMITED.start())
PlayResult(column 4: win in 1 move, rules, proven, line 4, 0 nodes, 0.000 s)
>>> unproven_result(3, None, "solver", UNLIMITED.start(), stopped="time limit")
PlayResult(column 4: unknown (time limit), solver, not proven, line 4, 0 nodes, 0.000 s, stopped: time limit)
"""

from __future__ import annotations

from c4engine.board import Board
from c4engine.search.limit import Budget
from c4engine.search.results import PlayResult, Score, Source
from c4engine.search.scale import sign

__all__ = ["proven_result", "unproven_result"]


def proven_result(
    board: Board,
    score: int,
    column: int | None,
    source: Source,
    budget: Budget,
    *,
    nodes: int = 0,
    weak: bool = False,
) -> PlayResult:
    """The answer of ``board``'s exact ``score`` (strong; made win/draw/loss when ``weak``) and a
    ``column`` keeping it (None: not asked for, and then not ``proven``), ``nodes`` searched so far in
    ``budget``'s time."""
    cells, stones = board.width * board.height, board.move_count
    if weak:
        score = sign(score)
    return PlayResult(
        column=column,
        score=Score.proven_value(score, cells=cells, stones=stones, weak=weak),
        source=source,
        proven=column is not None,
        line=() if column is None else (column,),
        nodes=nodes,
        time=budget.time_spent,
        lower=score,
        upper=score,
    )


def unproven_result(
    column: int,
    lower: int | None,
    source: Source,
    budget: Budget,
    *,
    nodes: int = 0,
    stopped: str | None = None,
) -> PlayResult:
    """The answer of a ``column`` not proven best: ``lower`` a score it is proven to reach (None when
    nothing was proved), no score; ``stopped`` why the search ended first."""
    return PlayResult(
        column=column,
        score=None,
        source=source,
        proven=False,
        line=(column,),
        nodes=nodes,
        time=budget.time_spent,
        lower=lower,
        stopped=stopped,
    )
