"""The analysis service: one place that answers questions about a position.

Every front-end -- ``c4 solve`` and ``c4 analyze``, ``c4 move``, the terminal
hint, the web page, the Kaggle agent, the Gymnasium and PettingZoo
opponents, ``c4 dataset`` -- asks an :class:`Analyst`, which goes, within
one :class:`~c4engine.search.limit.Limit`:

1. to the **rules**: a move that wins at once, a move that fills the board;
2. to the **opening book** (:mod:`c4engine.search.book`): exact, instant;
3. to the **exact solver** (:mod:`c4engine.search.solver`), on boards that
   fit 64-bit bitboards, for as long as the limit allows -- a small search
   first in pure Python (:mod:`c4engine.search.quick`), while the compiled
   solver is not loaded yet;
4. to the **heuristic engine** (:mod:`c4engine.search.engine`) for whatever
   is left unproven -- an estimate, marked as one.

Every answer (:class:`~c4engine.search.results.PositionAnalysis`,
:class:`~c4engine.search.results.Verdict`) says of each score whether it is
exact and where it came from.

>>> from c4engine import Board
>>> analyst = Analyst()
>>> analysis = analyst.analyze(Board())                     # the empty board: from the book
>>> [score.label() for score in analysis.scores]
['loss in 20', 'loss in 21', 'draw', 'win in 21', 'draw', 'loss in 21', 'loss in 20']
>>> analysis.exact_values(), analysis.best_columns, analysis.source
((-2, -1, 0, 1, 0, -1, -2), (3,), 'book')
>>> verdict = analyst.solve(Board.from_moves("4455"), Limit(time=5))  # four stones: in the book
>>> verdict.best_move, verdict.score.describe(), verdict.source
(2, 'win in 2 moves', 'book')
>>> verdict = analyst.solve(Board.from_moves("445566"), Limit(time=5))
>>> verdict.best_move, verdict.score.describe(), verdict.source
(2, 'win in 1 move', 'rules')
>>> Analyst(book=None).solve(Board.from_moves("4455")).source
'solver'

:func:`shared_analyst` is the process's one analyst (one solver, one
transposition table), for front-ends that answer many requests.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Final

from c4engine.board import Board
from c4engine.errors import BookError, GameOverError, UnsupportedBoardError
from c4engine.search.book import OpeningBook, default_book_path
from c4engine.search.limit import UNLIMITED, Limit
from c4engine.search.quick import analyze_quick, solve_quick
from c4engine.search.results import (
    DEFAULT_TABLE_MB,
    WIN_THRESHOLD,
    PositionAnalysis,
    Score,
    Source,
    Verdict,
)

if TYPE_CHECKING:  # the solver and the engine (numba) are imported on first search: book answers need none
    from c4engine.search.engine import Engine, SearchProgress
    from c4engine.search.evaluators import Evaluator
    from c4engine.search.solver import SolveProgress, Solver

__all__ = ["DEFAULT_BOOK", "Analyst", "BookChoice", "Poll", "best_column", "best_columns", "shared_analyst"]

SOLVER_SHARE: Final = 0.7
"""The part of a timed question the exact solver gets when the engine may have to estimate the rest."""

DEFAULT_POLL_INTERVAL: Final = 0.25
"""CPU seconds between the solver's looks at the clock and the poll hook, with no time limit."""

_ENGINE_POLL_INTERVAL: Final = 0.02
"""CPU seconds between the engine's calls of the poll hook: it stops within about this long."""

QUICK_SEARCH_NODES: Final = 5_000
"""The most nodes one question may take in the pure-Python search (:mod:`c4engine.search.quick`,
about 0.1 CPU s) before the analyst turns to the compiled solver, whose loading costs about 0.5."""

QUICK_SEARCH_NODES_BESIDE_LIBRARY: Final = 1_000
"""The same where the solver's kernel has a shared library (:mod:`c4engine.kernels.library`):
loading the solver then costs about 0.1 CPU s, mostly numpy's import, so a small search in
Python pays only while it stays smaller (about 0.02 CPU s)."""

QUICK_BUDGET_NODES: Final = 10_000
"""The nodes an analyst spends in pure-Python searches in all (about 0.07 CPU s): a long run of small
questions (a batch) then goes on compiled, faster once loaded, having lost little."""

Poll = Callable[["SolveProgress | SearchProgress"], bool | None]
"""Called now and then during a search with its progress; returning True stops the search."""


class _DefaultBook:
    """Marker: the book shipped with c4engine for the board, if there is one."""

    def __repr__(self) -> str:
        return "DEFAULT_BOOK"


DEFAULT_BOOK: Final = _DefaultBook()

BookChoice = OpeningBook | str | Path | _DefaultBook | None


def best_column(board: Board, scores: Sequence[int | None], rng: random.Random | None = None) -> int:
    """The best-scoring column: centre-first among equals, or at random with ``rng``.

    >>> best_column(Board(), [-2, -1, 0, 1, 0, -1, -2])
    3
    """
    best = max(score for score in scores if score is not None)
    ties = [column for column in board.geometry.center_order if scores[column] == best]
    if rng is not None and len(ties) > 1:
        return rng.choice(sorted(ties))
    return ties[0]


class Analyst:
    """Answers questions about positions: book first, then the exact solver, then the engine.

    ``book`` is an :class:`OpeningBook`, a path, ``None`` (no book) or
    :data:`DEFAULT_BOOK` (the shipped book for the board's size, opened on
    first use).  The solver (with a ``table_size_mb`` table) and the engine
    (scoring with ``evaluator``, default ``areas``) are made on first need
    and kept, so their tables stay warm between questions.  Under a time
    limit the solver gets ``solver_share`` of it when the engine may have to
    estimate what the solver leaves open (0: never solve).
    """

    def __init__(
        self,
        book: BookChoice = DEFAULT_BOOK,
        *,
        solver: Solver | None = None,
        table_size_mb: float = DEFAULT_TABLE_MB,
        evaluator: Evaluator | None = None,
        solver_share: float = SOLVER_SHARE,
    ) -> None:
        if not 0 <= solver_share <= 1:
            raise ValueError(f"solver_share must be in [0, 1], not {solver_share!r}")
        self.solver_share = solver_share
        self._book_choice = book
        self._books: dict[tuple[int, int, int], OpeningBook | None] = {}
        if isinstance(book, OpeningBook):
            self._books[(book.width, book.height, book.connect)] = book
        elif isinstance(book, str | Path):
            opened = OpeningBook.open(book)
            self._books[(opened.width, opened.height, opened.connect)] = opened
        self._solver = solver
        self._table_size_mb = table_size_mb
        self._evaluator = evaluator
        self._quick_nodes_left = QUICK_BUDGET_NODES

    def __repr__(self) -> str:
        return f"Analyst(book={self._book_choice!r}, table_size_mb={self._table_size_mb})"

    # ------------------------------------------------------------ parts

    @staticmethod
    def can_solve(board: Board) -> bool:
        """Whether the exact solver takes boards of this size: those that fit 64 bits.

        See :func:`c4engine.board.fits_64_bits`.
        """
        return board.geometry.fits_64_bits

    @staticmethod
    def require_solver(board: Board) -> None:
        """Raise :class:`UnsupportedBoardError` unless :meth:`can_solve`: for answers that must be exact."""
        if not Analyst.can_solve(board):
            bits = board.width * (board.height + 1)
            raise UnsupportedBoardError(
                f"the solver needs width * (height + 1) <= 64 bits; a {board.width}x{board.height} board "
                f"needs {bits}"
            )

    @property
    def solver(self) -> Solver:
        """The exact solver, made on first use."""
        if self._solver is None:
            from c4engine.search.solver import Solver

            self._solver = Solver(table_size_mb=self._table_size_mb)
        return self._solver

    def book_for(self, board: Board) -> OpeningBook | None:
        """The book used for boards of this size, or None."""
        geometry = (board.width, board.height, board.connect)
        if geometry not in self._books:
            book: OpeningBook | None = None
            if isinstance(self._book_choice, _DefaultBook):
                path = default_book_path(*geometry)
                book = OpeningBook.open(path) if path is not None else None
            self._books[geometry] = book
        found = self._books[geometry]
        if found is not None and (found.width, found.height, found.connect) != geometry:
            raise BookError(f"the book is for {found.width}x{found.height} connect {found.connect}")
        return found

    def _strong_book(self, board: Board) -> OpeningBook | None:
        """The book for ``board`` when it can give exact scores of it (strong, game not over)."""
        book = self.book_for(board)
        return None if book is None or book.weak or board.is_over else book

    def book_scores(self, board: Board) -> list[int | None] | None:
        """Every move's score from the book, or None when the book lacks one of them."""
        book = self._strong_book(board)
        if book is None:
            return None
        scores = book.move_scores(board)
        if any(score is None for column, score in enumerate(scores) if board.can_play(column)):
            return None
        return scores

    def book_score(self, board: Board) -> int | None:
        """The position's own score from the book, or None when the book lacks it."""
        book = self._strong_book(board)
        return None if book is None else book.score(board)

    def book_line(self, board: Board) -> list[int]:
        """Best play (centre-first among equals) while the book knows every move's score."""
        line: list[int] = []
        walk = board.copy()
        while not walk.is_over:
            scores = self.book_scores(walk)
            if scores is None:
                break
            column = best_column(walk, scores)
            line.append(column)
            walk.play(column)
        return line

    # ------------------------------------------------------------ questions

    def analyze(
        self,
        board: Board,
        limit: Limit = UNLIMITED,
        *,
        weak: bool = False,
        use_book: bool = True,
        pv: bool = True,
        poll: Poll | None = None,
    ) -> PositionAnalysis:
        """Every column's score, exact where the rules, the book or the solver prove it within ``limit``.

        Columns left unproven when the limit runs out (or on boards too big
        for the solver) get the engine's estimate, searched to ``limit.depth``
        in the time left.  With no time or node limit the solver always
        finishes: every score is exact.  ``weak`` asks only win/draw/loss.
        ``poll`` is called now and then by the solver and the engine alike;
        returning True stops both (a client that went away, say).
        """
        _check_playable(board)
        start = time.perf_counter()
        cells, stones = board.width * board.height, board.move_count
        scores: list[Score | None] = [None] * board.width
        sources: list[Source | None] = [None] * board.width
        nodes = 0
        line: tuple[int, ...] = ()
        pv_exact = False

        def settle(column: int, score: int, source: Source) -> None:
            if weak:
                score = (score > 0) - (score < 0)
            scores[column] = Score.exact(score, cells=cells, stones=stones, weak=weak)
            sources[column] = source

        for column in board.legal_moves():
            if board.is_winning_move(column):
                settle(column, (cells + 1 - stones) // 2, "rules")
            elif stones + 1 == cells:
                settle(column, 0, "rules")
        book_scores = self.book_scores(board) if use_book else None
        if book_scores is not None:
            for column, score in enumerate(book_scores):
                if score is not None and scores[column] is None:
                    settle(column, score, "book")
            if pv:
                line, pv_exact = tuple(self.book_line(board)), True
        open_columns = [c for c in board.legal_moves() if scores[c] is None]
        quick_nodes = self._quick_nodes(board, limit) if open_columns else 0
        quick = analyze_quick(board, weak=weak, pv=pv, node_limit=quick_nodes) if quick_nodes else None
        if quick is not None:
            self._quick_nodes_left -= quick.nodes
            nodes += quick.nodes
            for column in open_columns:
                quick_score = quick.scores[column]
                assert quick_score is not None  # a legal move
                settle(column, quick_score, "solver")
            if pv:
                line, pv_exact = quick.pv, True
        elif open_columns and self._solves(board):
            start += self._load_solver(board)
            solver_limit = self._solver_limit(limit)
            with self._cancel_after(solver_limit.time):
                solved = self.solver.analyze(
                    board,
                    weak=weak,
                    pv=pv,
                    time_limit=solver_limit.time,
                    node_limit=solver_limit.nodes,
                    poll=poll,
                    poll_interval=_poll_interval(solver_limit),
                )
            nodes += solved.nodes
            for column in open_columns:
                score = solved.scores[column]
                if score is not None:
                    settle(column, score, "solver")
            if solved.exact and pv:
                line, pv_exact = solved.pv, True
        open_columns = [c for c in open_columns if scores[c] is None]
        if open_columns:
            start += self._load_engine(board)
        for index, column in enumerate(open_columns):
            left = None if limit.time is None else limit.time - (time.perf_counter() - start)
            share = None if left is None else max(left, 0.0) / (len(open_columns) - index)
            child = board.copy()
            child.play(column)
            engine = self._engine(
                Limit(time=max(share, 0.002), depth=limit.depth) if share is not None else limit, poll
            )
            found = engine.search(child)
            nodes += found.nodes
            # the child's value is the opponent's: negate it, and count this column's stone as one more ply
            value = -found.score
            if abs(value) >= WIN_THRESHOLD:
                value += -1 if value > 0 else 1
            score_here = Score.from_engine(value, cells=cells, stones=stones)
            if weak and score_here.is_exact:
                score_here = Score.exact(
                    (score_here.value > 0) - (score_here.value < 0), cells=cells, stones=stones, weak=True
                )
            scores[column] = score_here
            sources[column] = "engine"
        best = best_columns(board, scores)
        if not line or line[0] not in best:
            line, pv_exact = (
                (best_column(board, [0 if c in best else None for c in range(board.width)]),),
                False,
            )
        return PositionAnalysis(
            tuple(scores),
            tuple(sources),
            best,
            line,
            pv_exact,
            nodes,
            time.perf_counter() - start,
        )

    def solve(
        self,
        board: Board,
        limit: Limit = UNLIMITED,
        *,
        weak: bool = False,
        use_book: bool = True,
        best_move: bool = True,
        poll: Poll | None = None,
    ) -> Verdict:
        """The position's score for the side to move and a move keeping it (``best_move``).

        From the book when it holds the position (the best move is the book's
        when it holds every child, or a child keeping the score as a policy
        book does; else it costs a few null-window searches);
        else from the solver within ``limit``; where the solver cannot
        answer, the engine's estimate.
        """
        _check_playable(board)
        start = time.perf_counter()
        cells, stones = board.width * board.height, board.move_count
        wins = board.winning_columns()
        if wins:
            column = next(c for c in board.geometry.center_order if c in wins)
            return self._verdict(board, (cells + 1 - stones) // 2, column, "rules", 0, start, weak)
        known = self.book_score(board) if use_book else None
        if known is not None:
            chosen: int | None = None
            if best_move:
                scores = self.book_scores(board)
                book = self.book_for(board)
                if scores is not None:
                    chosen = best_column(board, scores)
                elif book is not None and (kept := book.keeping_move(board, known)) is not None:
                    chosen = kept  # a policy book holds the perfect player's own move: no search
                elif self.can_solve(board):
                    start += self._load_solver(board)
                    chosen = self.move_reaching(board, known, self._solver_limit(limit))
                if chosen is None:  # the limit ran out before a move was proven to keep the score
                    start += self._load_engine(board)
                    guess = (
                        self._engine(Limit(time=_time_left(limit, start), depth=limit.depth))
                        .search(board)
                        .move
                    )
                    verdict = self._verdict(board, known, guess, "book", 0, start, weak)
                    return replace(verdict, move_proven=False)
            return self._verdict(board, known, chosen, "book", 0, start, weak)
        quick_nodes = self._quick_nodes(board, limit)
        quick = (
            solve_quick(board, weak=weak, best_move=best_move, node_limit=quick_nodes)
            if quick_nodes
            else None
        )
        if quick is not None:
            self._quick_nodes_left -= quick.nodes
            return self._verdict(board, quick.score, quick.best_move, "solver", quick.nodes, start, weak)
        if self._solves(board):
            start += self._load_solver(board)
            solver_limit = self._solver_limit(limit)
            with self._cancel_after(solver_limit.time) as timed_out:
                result = self.solver.solve(
                    board,
                    weak=weak,
                    time_limit=solver_limit.time,
                    node_limit=solver_limit.nodes,
                    poll=poll,
                    poll_interval=_poll_interval(solver_limit),
                    best_move=best_move,
                )
            if result.exact and result.score is not None:
                return self._verdict(
                    board, result.score, result.best_move, "solver", result.nodes, start, weak
                )
            # the timer cancelling the solver is its time limit too, whichever noticed first
            stopped = "time limit" if timed_out.is_set() else result.stopped
            lower, upper, nodes = result.lower, result.upper, result.nodes
        else:
            lower, upper, nodes, stopped = -((cells - stones) // 2), (cells + 1 - stones) // 2, 0, None
        start += self._load_engine(board)
        left = _time_left(limit, start)
        engine = self._engine(Limit(time=left, depth=limit.depth) if left is not None else limit, poll)
        found = engine.search(board)
        return Verdict(
            Score.from_engine(found.score, cells=cells, stones=stones),
            found.move,
            found.pv,
            "engine",
            lower,
            upper,
            nodes + found.nodes,
            time.perf_counter() - start,
            stopped or ("time" if found.stopped else None),
        )

    def move_reaching(self, board: Board, target: int, limit: Limit = UNLIMITED) -> int | None:
        """A move keeping the score ``target`` (known exact), tested centre-first; None if the limit ran out.

        One null-window search a move ("can the opponent then score more than
        ``-target``?") with the table warm: far cheaper than scoring every
        move, and the first move that passes is the centre-first tie-break.
        """
        with self._cancel_after(limit.time):
            return self._move_reaching(board, target, limit)

    def _move_reaching(self, board: Board, target: int, limit: Limit) -> int | None:
        start = time.perf_counter()
        child = board.copy()
        for column in board.geometry.center_order:
            if not board.can_play(column):
                continue
            if board.is_winning_move(column):
                return column
            child.play(column)
            if child.is_full:
                reaches: bool | None = target == 0
            else:
                left = None if limit.time is None else max(1e-3, limit.time - (time.perf_counter() - start))
                beaten = self.solver.is_at_least(child, 1 - target, time_limit=left, node_limit=limit.nodes)
                reaches = None if beaten is None else not beaten
            child.undo()
            if reaches is None:
                return None
            if reaches:
                return column
        raise AssertionError(f"no move of {board.move_string!r} reaches its score {target}")

    # ------------------------------------------------------------ internals

    @contextmanager
    def _cancel_after(self, seconds: float | None) -> Iterator[threading.Event]:
        """Cancel the solver after ``seconds`` of wall-clock time; the event tells whether it did.

        The solver checks its own time limit between slices of work sized by
        its CPU speed, which a loaded machine stretches several times over.
        """
        fired = threading.Event()
        if seconds is None:
            yield fired
            return

        def cancel() -> None:
            fired.set()
            self.solver.cancel()

        timer = threading.Timer(seconds, cancel)
        timer.daemon = True
        timer.start()
        try:
            yield fired
        finally:
            timer.cancel()  # a late firing is harmless: every search clears the flag when it starts

    def _load_solver(self, board: Board) -> float:
        """Make the solver and load its compiled search for ``board``'s size; the seconds it took.

        Loading -- compiling, the first time on a machine -- is no search time: a question's
        clock moves on by it, so neither its time limit nor the time it reports counts it.
        """
        began = time.perf_counter()
        self.solver.load(board)
        return time.perf_counter() - began

    def _load_engine(self, board: Board) -> float:
        """Load the engine's compiled search if it serves ``board``; the seconds it took (see
        :meth:`_load_solver`)."""
        began = time.perf_counter()
        self._engine(UNLIMITED).load(board)
        return time.perf_counter() - began

    def _solves(self, board: Board) -> bool:
        return self.solver_share > 0 and self.can_solve(board)

    def _quick_nodes(self, board: Board, limit: Limit) -> int:
        """The nodes a small search in pure Python may take on this question; 0: not worth trying.

        Tried only while the compiled solver is not made (once loaded, it is
        faster), within the analyst's budget (:data:`QUICK_BUDGET_NODES`), on
        connect-4 boards, and for questions without a time or node limit: the
        quick search looks at no clock, and node limits count the compiled
        solver's nodes.  Nor does it call the poll hook: it stops by itself
        within a few hundredths of a second.  A search too big for it makes
        the compiled solver.
        """
        if (
            self._solver is not None
            or self._quick_nodes_left <= 0
            or not self._solves(board)
            or board.connect != 4
            or limit.time is not None
            or limit.nodes is not None
        ):
            return 0
        from c4engine.kernels.library import has_library  # no numpy: a file's existence

        fast_load = has_library(board.width, board.height, board.connect)
        return min(
            QUICK_SEARCH_NODES_BESIDE_LIBRARY if fast_load else QUICK_SEARCH_NODES, self._quick_nodes_left
        )

    def _solver_limit(self, limit: Limit) -> Limit:
        return limit.share(self.solver_share) if limit.time is not None else limit

    def _engine(self, limit: Limit, poll: Poll | None = None) -> Engine:
        """The heuristic engine within ``limit``; ``poll`` can stop it as it stops the solver."""
        from c4engine.search.engine import Engine
        from c4engine.search.evaluators import areas

        return Engine(
            self._evaluator or areas,
            depth=limit.depth,
            time_limit=limit.time,
            center_first_move=False,
            poll=poll,
            poll_interval=_ENGINE_POLL_INTERVAL,
        )

    def _verdict(
        self,
        board: Board,
        score: int,
        column: int | None,
        source: Source,
        nodes: int,
        start: float,
        weak: bool,
    ) -> Verdict:
        cells, stones = board.width * board.height, board.move_count
        if weak:
            score = (score > 0) - (score < 0)
        return Verdict(
            Score.exact(score, cells=cells, stones=stones, weak=weak),
            column,
            () if column is None else (column,),
            source,
            score,
            score,
            nodes,
            time.perf_counter() - start,
        )


_ANALYSTS: dict[float, Analyst] = {}


def shared_analyst(table_size_mb: float = DEFAULT_TABLE_MB) -> Analyst:
    """This process's analyst for the shipped books, made on first use: one solver (and table) per table size.

    >>> shared_analyst() is shared_analyst()
    True
    """
    if table_size_mb not in _ANALYSTS:
        _ANALYSTS[table_size_mb] = Analyst(table_size_mb=table_size_mb)
    return _ANALYSTS[table_size_mb]


def _time_left(limit: Limit, start: float) -> float | None:
    """What is left of ``limit``'s time since ``start`` (a sliver when spent); None without a time limit."""
    return None if limit.time is None else max(limit.time - (time.perf_counter() - start), 0.002)


def _check_playable(board: Board) -> None:
    if board.is_over:
        raise GameOverError("the game is over: nothing to analyze")


def _poll_interval(limit: Limit) -> float:
    """CPU seconds between the solver's looks at the clock: short under a short time limit.

    On a busy machine a slice of CPU takes several times as long on the wall clock.
    """
    if limit.time is None:
        return DEFAULT_POLL_INTERVAL
    return max(0.005, min(DEFAULT_POLL_INTERVAL, limit.time / 20))


def best_columns(board: Board, scores: Sequence[Score | None]) -> tuple[int, ...]:
    """The columns with the best proven result; the best estimates only when nothing is proven,
    or when every proven column lets the opponent win at once (an unproven one does not: the
    engine would have seen it).  So an estimate is never ranked above a proof that could be right.

    >>> board = Board.from_moves("4435541")
    >>> loss_in_1, loss_in_2 = (Score.exact(s, cells=42, stones=7) for s in (-17, -16))
    >>> guess = Score.estimate(-500.0, cells=42, stones=7)
    >>> best_columns(board, [loss_in_2, loss_in_1, guess])   # a proven loss in 2 beats an estimate
    (0,)
    >>> best_columns(board, [loss_in_1, guess])              # a proven loss in 1 does not
    (1,)
    """
    known = [(column, score) for column, score in enumerate(scores) if score is not None]
    proven = [(column, score) for column, score in known if score.is_exact]
    guessed = [(column, score) for column, score in known if not score.is_exact]
    pool = proven or guessed
    at_once = -((board.width * board.height - board.move_count) // 2)
    if proven and guessed and all(score.value == at_once and not score.weak for _, score in proven):
        pool = guessed
    top = max(score.rank() for _, score in pool)
    return tuple(column for column, score in pool if score.rank() == top)
