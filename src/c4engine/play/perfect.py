"""Perfect play: the opening book first, the exact solver after it.

:class:`Analyst` scores every move of a position -- from the opening book
when the book holds the position's children (instantly), otherwise with the
solver (:meth:`c4engine.search.solver.Solver.analyze`).  The solver itself knows
nothing of books; this layer sits above both.

:class:`PerfectPlayer` plays a game-theoretically best move: the quickest
win, else a draw, else the slowest loss; equal moves are broken centre-first
(or at random with ``random_ties``).  With a ``time_limit`` it still moves
when the limit stops the solver, with the best move known, and records the
move as unproven (:attr:`PerfectPlayer.last`, :attr:`PerfectPlayer.unproven`).

>>> from c4engine.board import Board, Geometry
>>> player = PerfectPlayer(book=None, table_size_mb=8)
>>> player.choose_move(Board.from_moves("112233", 7, 6))   # take the win: column 4 (0-based 3)
3
>>> player.last.proven, player.last.source
(True, 'immediate')
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final, Literal

from c4engine.board import Board, Geometry
from c4engine.errors import BookError, GameOverError
from c4engine.search.book import OpeningBook, default_book_path
from c4engine.search.results import DEFAULT_TABLE_MB, Analysis

if TYPE_CHECKING:  # the solver (numba) is imported on first search: book answers need none
    from c4engine.search.solver import Solver

__all__ = ["DEFAULT_BOOK", "DEFAULT_TIME_LIMIT", "Analyst", "MoveChoice", "PerfectPlayer"]

DEFAULT_TIME_LIMIT: Final = 60.0
"""Seconds the perfect player may think about one move before it plays its best known move."""


class _DefaultBook:
    """Marker: the book shipped with c4engine for the board, if there is one."""

    def __repr__(self) -> str:
        return "DEFAULT_BOOK"


DEFAULT_BOOK: Final = _DefaultBook()

BookChoice = OpeningBook | str | Path | _DefaultBook | None


class Analyst:
    """Every move's score: from the opening book when it has them, else from the solver.

    ``book`` is an :class:`OpeningBook`, a path, ``None`` (no book) or
    :data:`DEFAULT_BOOK` (the shipped book for the board's size, opened on
    first use).  The solver (and its table) is made on first need and kept.

    >>> analyst = Analyst()
    >>> analysis = analyst.analyze(Board())
    >>> analysis.scores, analyst.last_source
    ((-2, -1, 0, 1, 0, -1, -2), 'book')
    """

    def __init__(
        self,
        book: BookChoice = DEFAULT_BOOK,
        *,
        solver: Solver | None = None,
        table_size_mb: float = DEFAULT_TABLE_MB,
    ) -> None:
        self._book_choice = book
        self._books: dict[tuple[int, int, int], OpeningBook | None] = {}
        if isinstance(book, OpeningBook):
            self._books[(book.width, book.height, book.connect)] = book
        elif isinstance(book, str | Path):
            opened = OpeningBook.open(book)
            self._books[(opened.width, opened.height, opened.connect)] = opened
        self._solver = solver
        self._table_size_mb = table_size_mb
        self.last_source: Literal["book", "solver"] | None = None

    @property
    def solver(self) -> Solver:
        """The solver, made on first use."""
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

    def analyze(self, board: Board, *, time_limit: float | None = None, pv: bool = True) -> Analysis:
        """Like :meth:`Solver.analyze` (strong scores), answered from the book when it can be.

        From the book the principal variation follows the book as far as it goes.
        """
        if board.is_over:
            raise GameOverError("the game is over: nothing to analyze")
        start = time.perf_counter()
        scores = self.book_scores(board)
        if scores is None:
            self.last_source = "solver"
            return self.solver.analyze(board, weak=False, pv=pv, time_limit=time_limit)
        self.last_source = "book"
        best = max(score for score in scores if score is not None)
        best_columns = tuple(column for column, score in enumerate(scores) if score == best)
        line = self._book_line(board) if pv else []
        cells = board.width * board.height
        return Analysis(
            tuple(scores),
            best_columns,
            tuple(line),
            0,
            time.perf_counter() - start,
            False,
            True,
            cells,
            board.move_count,
            tuple(scores),
            tuple(scores),
        )

    def _book_line(self, board: Board) -> list[int]:
        """Best play (centre-first among equals) while the book knows every move's score."""
        line: list[int] = []
        walk = board.copy()
        while not walk.is_over:
            scores = self.book_scores(walk)
            if scores is None:
                break
            column = _pick(walk, scores, None)
            line.append(column)
            walk.play(column)
        return line


@dataclass(frozen=True)
class MoveChoice:
    """How :class:`PerfectPlayer` chose its last move.

    ``score`` is the move's exact score when ``proven``; otherwise the best
    lower bound the search reached (None when nothing was proved).
    ``source`` is ``"immediate"`` (a win on the spot), ``"book"`` or ``"solver"``.
    """

    column: int
    score: int | None
    proven: bool
    source: str
    elapsed: float


class PerfectPlayer:
    """Plays perfectly: book, then the solver within ``time_limit`` seconds per move (None: no limit).

    ``random_ties`` picks among equally good moves at random (repeatable
    with ``seed``) instead of the one nearest the centre.
    """

    is_human = False

    def __init__(
        self,
        *,
        book: BookChoice = DEFAULT_BOOK,
        time_limit: float | None = DEFAULT_TIME_LIMIT,
        random_ties: bool = False,
        seed: int | None = None,
        table_size_mb: float = DEFAULT_TABLE_MB,
        name: str = "perfect",
        analyst: Analyst | None = None,
    ) -> None:
        if time_limit is not None and time_limit <= 0:
            raise ValueError(f"time_limit must be positive, not {time_limit}")
        self.name = name
        self.time_limit = time_limit
        self.random_ties = random_ties
        self._random = random.Random(seed) if random_ties else None
        self.analyst = analyst or Analyst(book, table_size_mb=table_size_mb)
        self.last: MoveChoice | None = None
        self.moves = 0
        self.unproven = 0
        # the board (geometry, moves) our last proven move reached, and the score it kept for us
        self._kept: tuple[Geometry, tuple[int, ...], int] | None = None

    def choose_move(self, board: Board) -> int:
        if board.is_over:
            raise GameOverError("the game is over: there is no move to choose")
        start = time.perf_counter()
        wins = board.winning_columns()
        if wins:
            column = next(c for c in board.geometry.center_order if c in wins)
            score = (board.width * board.height + 1 - board.move_count) // 2
            return self._record(
                board, MoveChoice(column, score, True, "immediate", time.perf_counter() - start)
            )
        if self._random is None and self.analyst.book_scores(board) is None:
            return self._record(board, self._solve_centre_first(board, start))
        analysis = self.analyst.analyze(board, time_limit=self.time_limit, pv=False)
        source = self.analyst.last_source or "solver"
        if analysis.exact:
            column = _pick(board, list(analysis.scores), self._random)
            choice = MoveChoice(column, analysis.scores[column], True, source, time.perf_counter() - start)
            return self._record(board, choice)
        column, lower, proven = _best_known(board, analysis)
        return self._record(board, MoveChoice(column, lower, proven, source, time.perf_counter() - start))

    def _solve_centre_first(self, board: Board, start: float) -> MoveChoice:
        """Find the position's score, then test its moves centre-first until one reaches it.

        The score comes from the book when the book holds the position (its
        children may lie beyond the book's depth), else from a solve -- one
        null-window search when our previous move kept a score the opponent's
        reply can only have raised (a best reply leaves it as it was).  Each
        move is then checked with one null-window search ("does it reach the
        score?") with the table warm: far cheaper than scoring every move,
        and the first move that passes is the centre-first tie-break wanted.
        """
        solver = self.analyst.solver
        target = self.analyst.book_score(board)
        fallback = next(column for column in board.geometry.center_order if board.can_play(column))
        floor = None if target is not None else self._floor(board)
        if floor is not None:
            # our last move kept ``floor``: unless the reply was a mistake, that is the score
            better = solver.is_at_least(board, floor + 1, time_limit=self._left(start))
            if better is None:
                return MoveChoice(fallback, None, False, "solver", time.perf_counter() - start)
            if better:
                floor += 1
            else:
                target = floor
        if target is None:
            result = solver.solve(
                board, weak=False, best_move=False, time_limit=self._left(start), at_least=floor
            )
            if result.best_move is not None:
                fallback = result.best_move
            if not result.exact or result.score is None:
                lower = result.lower if result.best_proved else None
                return MoveChoice(fallback, lower, False, "solver", time.perf_counter() - start)
            target = result.score
        child = board.copy()
        for column in board.geometry.center_order:
            if not board.can_play(column):
                continue
            child.play(column)
            if child.is_full:
                reaches: bool | None = target == 0
            else:
                # the move reaches ``target`` unless the opponent then scores more than -target
                beaten = solver.is_at_least(child, 1 - target, time_limit=self._left(start))
                reaches = None if beaten is None else not beaten
            child.undo()
            if reaches is None:
                return MoveChoice(fallback, None, False, "solver", time.perf_counter() - start)
            if reaches:
                return MoveChoice(column, target, True, "solver", time.perf_counter() - start)
        raise AssertionError(f"no move of {board.move_string!r} reaches its score {target}")

    def _left(self, start: float) -> float | None:
        """Seconds left of this move's budget (None: no limit); a spent budget leaves a sliver."""
        if self.time_limit is None:
            return None
        return max(1e-3, self.time_limit - (time.perf_counter() - start))

    def _floor(self, board: Board) -> int | None:
        """A score proved for ``board``: the one our last move kept, if ``board`` is one reply later."""
        if self._kept is None:
            return None
        geometry, reached, kept = self._kept
        # ``reached`` is never empty, so equal to all but the last move means exactly one move more
        return kept if board.geometry == geometry and board.moves[:-1] == reached else None

    def _record(self, board: Board, choice: MoveChoice) -> int:
        self._kept = None
        if choice.proven and choice.score is not None and choice.source != "immediate":
            self._kept = (board.geometry, (*board.moves, choice.column), choice.score)
        self.last = choice
        self.moves += 1
        if not choice.proven:
            self.unproven += 1
        return choice.column

    def __repr__(self) -> str:
        return f"PerfectPlayer(time_limit={self.time_limit!r}, random_ties={self.random_ties})"


def _pick(board: Board, scores: list[int | None], rng: random.Random | None) -> int:
    """The best-scoring column: centre-first among equals, or at random with ``rng``."""
    best = max(score for score in scores if score is not None)
    ties = [column for column in board.geometry.center_order if scores[column] == best]
    if rng is not None and len(ties) > 1:
        return rng.choice(sorted(ties))
    return ties[0]


def _best_known(board: Board, analysis: Analysis) -> tuple[int, int | None, bool]:
    """The move with the best proved lower bound (then upper bound, then centre) of a stopped analysis.

    It is proven best when its score is exact and no other move can do better.
    """
    lowers = analysis.lowers or tuple(None for _ in range(board.width))
    uppers = analysis.uppers or tuple(None for _ in range(board.width))
    cells = board.width * board.height
    candidates: list[tuple[int, int, int, int]] = []
    for rank, column in enumerate(board.geometry.center_order):
        if not board.can_play(column):
            continue
        known_low, known_high = lowers[column], uppers[column]
        low = known_low if known_low is not None else -cells
        high = known_high if known_high is not None else cells
        candidates.append((low, high, -rank, column))
    low, high, _rank, column = max(candidates)
    others = [c for c in candidates if c[3] != column]
    proven = low == high and all(other[1] <= low for other in others)
    return column, (low if lowers[column] is not None else None), proven
