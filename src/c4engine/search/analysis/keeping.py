"""The most central move keeping a position's score, proven: perfect play's question (:func:`keeping_move`).

The score comes from the rules (a win on the spot), from the book when it holds the position (its
children may lie beyond the book's depth), else from the exact solver -- one null-window search when a
score is already proved for the position (``floor``: the one the player's previous move kept, which the
opponent's reply can only have raised; a best reply leaves it as it was), a solve from it otherwise.
The move is the book's when the book holds a child that keeps the score (a policy book holds the
perfect player's own, :mod:`c4engine.experiments.book_builder`), else the first move, centre-first,
that one null-window search shows keeps it (:func:`reaching_move`).  A limit that runs out first
leaves the move unproven, with the score it is proved to reach when the solver proved one.

:meth:`Analyst.keeping_move <c4engine.search.analysis.analyst.Analyst.keeping_move>` asks this question with
the analyst's book and solver.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from c4engine.board import Board
from c4engine.search.analysis.answers import proven_result, unproven_result
from c4engine.search.limit import Budget, Limit
from c4engine.search.results import PlayResult
from c4engine.search.scale import win_score

if TYPE_CHECKING:  # the solver (numba): imported by whoever makes it; the others for the types only
    from c4engine.search.book.file import OpeningBook
    from c4engine.search.progress import Hook
    from c4engine.search.solver.exact import Solver

__all__ = ["keeping_move", "reaching_move"]


def keeping_move(
    board: Board,
    budget: Budget,
    solver: Callable[[], Solver],
    *,
    book: OpeningBook | None,
    floor: int | None = None,
    poll: Hook | None = None,
) -> PlayResult:
    """The most central move of ``board`` (a game not over) keeping its score, within ``budget``.

    ``solver()`` gives the exact solver, loaded for ``board`` (called only when the rules and the book
    do not answer); ``book`` is a strong book or None; ``floor`` a score already proved for ``board``
    (a wrong one gives a wrong answer); ``poll`` may stop the solve.  The answer is ``proven`` with the
    exact score, or not, with ``lower`` the score the move is proved to reach (None when nothing was)
    and ``stopped`` why.  Its ``nodes`` are every search's, spent from ``budget``.
    """
    winning = board.winning_column()
    if winning is not None:
        won = win_score(board.width * board.height, board.move_count)
        return proven_result(board, won, winning, "rules", budget)
    target = None
    if book is not None and (target := book.score(board)) is not None:
        kept = book.keeping_move(board, target)
        if kept is not None:
            return proven_result(board, target, kept, "book", budget)
    exact = solver()
    fallback = next(column for column in board.geometry.center_order if board.can_play(column))
    floor = None if target is not None else floor
    if floor is not None:
        # our last move kept ``floor``: unless the reply was a mistake, that is the score
        better, nodes = exact.null_window(board, floor + 1, budget.remaining())
        budget.spend(nodes)
        if better is None:
            return _unproven(fallback, None, budget)
        if better:
            floor += 1
        else:
            target = floor
    if target is None:
        result = exact.solve(
            board, budget.remaining(), weak=False, best_move=False, at_least=floor, poll=poll
        )
        budget.spend(result.nodes)
        if result.best_move is not None:
            fallback = result.best_move
        if not result.proven or result.score is None:
            lower = result.lower if result.best_proven else None
            return _unproven(fallback, lower, budget, result.stopped)
        target = result.score
    reached, nodes = reaching_move(exact, board, target, budget.remaining())
    budget.spend(nodes)
    if reached is None:
        return _unproven(fallback, None, budget)
    return proven_result(board, target, reached, "solver", budget, nodes=budget.nodes_spent)


def _unproven(column: int, lower: int | None, budget: Budget, stopped: str | None = None) -> PlayResult:
    """The solver's move when ``budget`` ran out before it proved one keeps the score."""
    ran_out = budget.expired or ("time limit" if budget.limit.time is not None else "node limit")
    return unproven_result(
        column, lower, "solver", budget, nodes=budget.nodes_spent, stopped=stopped or ran_out
    )


def reaching_move(solver: Solver, board: Board, target: int, limit: Limit) -> tuple[int | None, int]:
    """A move of ``board`` keeping its exact score ``target``, tested centre-first (None if ``limit``
    ran out first), and the nodes searched.

    One null-window search a move ("can the opponent then score more than ``-target``?") with the
    table warm: far cheaper than scoring every move, and the first move that passes is the
    centre-first tie-break.  Each search may take ``limit``'s nodes, all of them its time.
    """
    budget = limit.start()
    child = board.copy()
    for column in board.geometry.center_order:
        if not board.can_play(column):
            continue
        if board.is_winning_move(column):
            return column, budget.nodes_spent
        child.play(column)
        if child.is_full:
            reaches: bool | None = target == 0
        else:
            left = Limit(time=budget.remaining().time, nodes=limit.nodes)
            beaten, nodes = solver.null_window(child, 1 - target, left)
            budget.spend(nodes)
            reaches = None if beaten is None else not beaten
        child.undo()
        if reaches is None:
            return None, budget.nodes_spent
        if reaches:
            return column, budget.nodes_spent
    raise AssertionError(f"no move of {board.move_string!r} reaches its score {target}")
