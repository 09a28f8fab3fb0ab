"""The work of a reviewed ply that nothing else waits for -- the better line of a costly move, the best
columns of a position the book scores -- done at once or in a thread beside the review (:class:`Aside`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Final
from weakref import WeakKeyDictionary

from c4engine.board import Board
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.limit import Limit
from c4engine.search.review.answers import PlyReview
from c4engine.search.review.columns import Bounds, columns_reaching

__all__ = ["BESIDE_TABLE_MB", "Aside"]


@dataclass(frozen=True)
class _Found:
    """What was searched apart for a ply: its best columns (None: found in the ply's own review) and
    whether they are complete, and its better line and whether it reaches the end."""

    best: tuple[int, ...] | None
    best_complete: bool
    line: tuple[int, ...]
    line_complete: bool


class Aside:
    """The work of a ply that nothing else waits for, done at once or in a thread beside the review.

    The better line of a costly move (:meth:`line`), and the best columns
    of a ply whose value and played score are known without a search
    (:meth:`best`: the book's positions, whose other columns each cost a
    null-window search of a child the book lacks).  :meth:`finish` gives the
    ply with what was found (waiting for it when it is searched beside).  The
    second analyst for the thread is kept with the first (see
    ``_beside``), so a server reviewing game after game keeps its table
    warm too.
    """

    def __init__(self, analyst: Analyst, limit: Limit, *, beside: bool) -> None:
        self._analyst = analyst
        self._limit = limit
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="review-aside") if beside else None
        self._found: dict[int, Future[_Found] | _Found] = {}

    def __enter__(self) -> Aside:
        return self

    def __exit__(self, *_exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)

    def line(self, board: Board, first: int, value: int | None) -> None:
        """Find best play from ``board`` (a ply's position) from ``first``, a proven best column, which
        scores ``value`` (None: not known exactly yet)."""
        self._submit(board, _line_found, first, value)

    def best(self, board: Board, value: int, columns: Bounds, share: Limit, with_line: bool) -> None:
        """Find the best columns of ``board``, whose value is ``value``, from the bounds ``columns``
        within ``share``; then, ``with_line``, the line from the most central of them."""
        self._submit(board, _best_found, value, dict(columns), share, with_line)

    def _submit(self, board: Board, job: Callable[..., _Found], *args: object) -> None:
        if self._pool is None:
            self._found[board.move_count] = job(self._analyst, board, *args, self._limit)
        else:
            helper = _beside(self._analyst, board)
            # a copy: the thread's searches freeze the board they are given while they run
            self._found[board.move_count] = self._pool.submit(job, helper, board.copy(), *args, self._limit)

    def stop(self) -> None:
        """Start nothing more (the review was stopped): plies whose work had not begun keep none of it."""
        for found in self._found.values():
            if isinstance(found, Future):
                found.cancel()

    def finish(self, ply: PlyReview) -> PlyReview:
        """``ply`` with what was found for it apart, if anything was asked (and not stopped first)."""
        found = self._found.get(ply.index)
        if found is None or (isinstance(found, Future) and found.cancelled()):
            return ply
        if isinstance(found, Future):
            found = found.result()
        if found.best is not None:
            proven = bool(found.best)
            complete = found.best_complete and proven
            ply = replace(ply, best=found.best, best_proven=proven, best_complete=complete)
        return replace(ply, pv=found.line, pv_complete=found.line_complete)


def _line_found(analyst: Analyst, board: Board, first: int, value: int | None, limit: Limit) -> _Found:
    return _Found(None, False, *_best_line(analyst, board, first, value, limit))


def _best_found(
    analyst: Analyst,
    board: Board,
    value: int,
    columns: Bounds,
    share: Limit,
    with_line: bool,
    limit: Limit,
) -> _Found:
    best, complete = columns_reaching(analyst, board, value, columns, share.start())
    if not (with_line and best):
        return _Found(best, complete, (), False)
    first = board.geometry.most_central(best)
    assert first is not None  # best is not empty
    return _Found(best, complete, *_best_line(analyst, board, first, value, limit))


def _best_line(
    analyst: Analyst, board: Board, first: int, value: int | None, limit: Limit
) -> tuple[tuple[int, ...], bool]:
    """Best play from ``board`` starting with ``first``, a best column scoring ``value`` (found first
    when None), and whether it reaches the game's end: the whole line within ``limit``."""
    budget = limit.start()
    if value is None:
        child = board.copy()
        child.play(first)
        if child.is_over:
            return (first,), True
        found = analyst.solve(child, limit, best_move=False)
        if not found.proven or found.score is None:
            return (first,), False
        value = -int(found.score.value)
    if budget.expired:
        return (first,), False
    line = analyst.line(board, first, value, budget.remaining())
    return line.moves, line.complete


_BESIDE: Final[WeakKeyDictionary[Analyst, dict[tuple[int, int, int], Analyst]]] = WeakKeyDictionary()
_BESIDE_LOCK: Final = threading.Lock()

BESIDE_TABLE_MB: Final = 16
"""The table of the analyst searching lines beside a review: lines are short searches, mostly past
the opening, and a small table is quick to make."""


def _beside(analyst: Analyst, board: Board) -> Analyst:
    """The second analyst kept with ``analyst`` for the lines searched beside its reviews of boards
    like ``board``: the same book, its own solver (made now, so it never takes the pure-Python
    search's way, whose lines may differ from the solver's)."""
    geometry = (board.width, board.height, board.connect)
    with _BESIDE_LOCK:
        helpers = _BESIDE.setdefault(analyst, {})
        if geometry not in helpers:
            from c4engine.search.solver.exact import Solver

            helpers[geometry] = Analyst(analyst.book_for(board), solver=Solver(table_size_mb=BESIDE_TABLE_MB))
        return helpers[geometry]
