"""Proving a reviewed position's columns: the scores that come without a search, the position's value
searched from a proven bound, the columns reaching it, and what an analysis proves of each column.

Every score is on the solver's scale, from the mover's view.
"""

from __future__ import annotations

from typing import Final

from c4engine.board import Board
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.limit import Budget
from c4engine.search.progress import Hook
from c4engine.search.results import PlayResult, PositionAnalysis
from c4engine.search.scale import score_range

__all__ = [
    "SOLVE_POLL_INTERVAL",
    "Bounds",
    "best_bounds",
    "column_bounds",
    "columns_reaching",
    "intersect",
    "known_columns",
    "score_range_of",
    "solve_value",
    "value_bounds",
]

SOLVE_POLL_INTERVAL: Final = 0.02
"""CPU seconds between the solver's looks at the clock when the review searches a position's value:
on a loaded machine a CPU second takes several of the wall clock, and a ply's time is short."""

Bounds = dict[int, tuple[int, int]]
"""Proven bounds of columns' scores (solver scale, the mover's view), by 0-based column."""


def known_columns(analyst: Analyst, board: Board) -> Bounds:
    """The columns whose scores come without a search: a win on the spot, the board's last cell, the book."""
    highest = score_range_of(board)[1]
    known: Bounds = {}
    child = board.copy()
    for column in board.legal_moves():
        if board.is_winning_move(column):
            known[column] = (highest, highest)
            continue
        child.play(column)
        if child.is_full:
            known[column] = (0, 0)
        elif (score := analyst.book_score(child)) is not None:
            known[column] = (-score, -score)
        child.undo()
    return known


def best_bounds(board: Board, columns: Bounds) -> tuple[int, int]:
    """The bounds of the best score: every legal column's bounds, the unknown ones the whole range."""
    lowest, highest = score_range_of(board)
    every = [columns.get(column, (lowest, highest)) for column in board.legal_moves()]
    return max(low for low, _ in every), max(high for _, high in every)


def _probe(analyst: Analyst, board: Board, score: int, budget: Budget) -> bool | None:
    """Whether ``board`` scores at least ``score`` for its mover: one null-window search within what is
    left of ``budget``; None when nothing is left or it ran out."""
    if budget.expired:
        return None
    return analyst.is_at_least(board, score, budget.remaining())


def solve_value(
    analyst: Analyst, board: Board, at_least: int, budget: Budget, poll: Hook | None
) -> tuple[int, int]:
    """The proven bounds of ``board``'s value: the solver's search from ``at_least`` (a score already
    proven, say the played column's), within what is left of ``budget``.

    The solver itself, not :meth:`Analyst.solve`: the review wants no estimate of the engine where
    the solver runs out (an analysis follows, which gives one), and the search starts from the bound.
    """
    lowest, highest = score_range_of(board)
    if budget.expired:
        return lowest, highest
    result = analyst.solver.solve(
        board,
        budget.remaining(),
        poll=poll,
        poll_interval=SOLVE_POLL_INTERVAL,
        best_move=False,
        at_least=at_least if at_least > lowest else None,
    )
    return result.lower, result.upper


def columns_reaching(
    analyst: Analyst,
    board: Board,
    value: int,
    columns: Bounds,
    budget: Budget,
) -> tuple[tuple[int, ...], bool]:
    """The columns proven to score the position's exact ``value`` (its best columns), and whether
    they are all of them (no column left unanswered when the limit ran out).

    ``columns`` are the bounds proven so far; each column they leave open
    is one null-window search of its child ("can the opponent then get
    more than ``-value``?").
    """
    reaching: list[int] = []
    complete = True
    child = board.copy()
    for column in board.geometry.center_order:
        if not board.can_play(column):
            continue
        known = columns.get(column)
        if known is not None and (known[0] >= value or known[1] < value):
            reaches: bool | None = known[0] >= value
        else:
            child.play(column)
            beaten = _probe(analyst, child, 1 - value, budget)
            child.undo()
            reaches = None if beaten is None else not beaten
        if reaches is None:
            complete = False
        elif reaches:
            reaching.append(column)
    return tuple(sorted(reaching)), complete


def value_bounds(result: PlayResult) -> tuple[int, int]:
    """What an analyst's answer proves of the position's value: its bounds (never the engine's guess)."""
    assert result.lower is not None and result.upper is not None  # the analyst always bounds the score
    return result.lower, result.upper


def intersect(first: tuple[int, int], second: tuple[int, int]) -> tuple[int, int]:
    return max(first[0], second[0]), min(first[1], second[1])


def column_bounds(analysis: PositionAnalysis, column: int, board: Board) -> tuple[int, int]:
    """The proven bounds of ``column``'s score (solver scale, the mover's view).

    The analysis' bounds, but a win or loss the heuristic engine saw to the
    end counts only as what such a search proves: at least that win, or at
    most that loss.
    """
    lower, upper = analysis.lowers[column], analysis.uppers[column]
    assert lower is not None and upper is not None  # a playable column
    if analysis.sources[column] != "engine" or lower != upper:
        return lower, upper
    lowest, highest = score_range_of(board)
    return (lower, highest) if lower > 0 else (lowest, upper) if upper < 0 else (lowest, highest)


def score_range_of(board: Board) -> tuple[int, int]:
    """The lowest and highest score a move of ``board`` can have: lost to the opponent's next stone,
    won by this one."""
    cells, stones = board.width * board.height, board.move_count
    return score_range(cells, stones)
