"""Perfect play: the opening book first, the exact solver after it.

:class:`PerfectPlayer` asks the analysis service
(:class:`c4engine.search.analysis.analyst.Analyst`) and plays a game-theoretically best move: the quickest
win, else a draw, else the slowest loss; equal moves are broken centre-first
(or at random with ``random_ties``).  Centre-first, unless the book scores every
move, it asks for the most central move keeping the position's score
(:meth:`Analyst.keeping_move <c4engine.search.analysis.analyst.Analyst.keeping_move>`), from the
score its own last move kept: after a best reply, one null-window search confirms it.
Otherwise it asks for an analysis of every column.  With a time or node ``limit`` it still
moves when the limit stops the solver, with the best move known, and records
the move as unproven (:attr:`PerfectPlayer.last`, a
:class:`~c4engine.search.results.PlayResult`; :attr:`PerfectPlayer.unproven`).

>>> from c4engine.board import Board
>>> from c4engine.geometry import Geometry
>>> player = PerfectPlayer(book=None, table_size_mb=8)
>>> player.choose_move(Board.from_moves("112233", 7, 6))   # take the win: column 4 (0-based 3)
3
>>> player.last.proven, player.last.source, player.last.describe()
(True, 'rules', 'win in 1 move')
"""

from __future__ import annotations

import random
from typing import Final

from c4engine.board import Board
from c4engine.errors import GameOverError, UnsupportedBoardError
from c4engine.geometry import Geometry, require_solver_holds
from c4engine.play.levels import LEVELS
from c4engine.search.analysis.analyst import DEFAULT_BOOK, Analyst, BookChoice
from c4engine.search.analysis.answers import proven_result, unproven_result
from c4engine.search.choice import best_column
from c4engine.search.limit import Budget, Limit
from c4engine.search.progress import Hook
from c4engine.search.results import DEFAULT_TABLE_MB, PlayResult, PositionAnalysis
from c4engine.search.scale import win_score

__all__ = ["DEFAULT_PERFECT_LIMIT", "PerfectPlayer", "check_perfect_board"]

DEFAULT_PERFECT_LIMIT: Final = Limit(time=60.0)
"""What the perfect player may spend on one move before it plays its best known move."""


def check_perfect_board(width: int, height: int, name: str = "perfect play") -> None:
    """Refuse ``perfect`` play on a board the exact solver cannot hold, before any search.

    There the "perfect" player could only fall back to the engine's
    estimates -- for a minute a move, and proving nothing.  ``name`` is
    what the front-end calls it (``--level perfect``).

    >>> check_perfect_board(7, 6), check_perfect_board(10, 6)
    (None, None)
    >>> check_perfect_board(12, 10)
    Traceback (most recent call last):
    ...
    c4engine.errors.UnsupportedBoardError: perfect play needs a board the exact solver holds, \
width * (height + 1) <= 128: up to 4x31, 5x24, 6x20, 7x17, 8x15, 9x13, 10x11, 11x10, 12x9, 14x8, \
16x7, 18x6, 21x5, 25x4, 32x3; 12x10 needs 132: choose a level 1..7
    """
    try:
        require_solver_holds(width, height, name)
    except UnsupportedBoardError as refused:
        raise UnsupportedBoardError(f"{refused}: choose a level 1..{len(LEVELS)}") from None


class PerfectPlayer:
    """Plays perfectly: book, then the solver within ``limit`` per move (its time and nodes;
    :data:`~c4engine.search.limit.UNLIMITED`: always to the end).

    ``random_ties`` picks among equally good moves at random (repeatable
    with ``seed``) instead of the one nearest the centre.

    :attr:`last` is how the last move was chosen: its exact score when
    ``proven``; otherwise ``lower`` is a score the move is proved to reach
    (None when nothing was proved) and ``score`` None, or an analysis's
    estimate.  Its ``source`` is ``"rules"`` (a win on the spot), ``"book"``,
    ``"solver"`` or, on boards the solver cannot hold, ``"engine"``.
    """

    is_human = False

    def __init__(
        self,
        *,
        book: BookChoice = DEFAULT_BOOK,
        limit: Limit = DEFAULT_PERFECT_LIMIT,
        random_ties: bool = False,
        seed: int | None = None,
        table_size_mb: float = DEFAULT_TABLE_MB,
        name: str = "perfect",
        analyst: Analyst | None = None,
    ) -> None:
        self.name = name
        self.limit = limit
        self.random_ties = random_ties
        self._random = random.Random(seed) if random_ties else None
        self.analyst = analyst or Analyst(book, table_size_mb=table_size_mb)
        self.last: PlayResult | None = None
        self.moves = 0
        self.unproven = 0
        self.poll: Hook | None = None
        """Told the search's progress while a move is chosen (a front-end's live line)."""
        # the board (geometry, moves) our last proven move reached, and the score it kept for us
        self._kept: tuple[Geometry, tuple[int, ...], int] | None = None

    def choose_move(self, board: Board) -> int:
        if board.is_over:
            raise GameOverError("the game is over: there is no move to choose")
        if self._random is None and self.analyst.book_scores(board) is None and board.geometry.solver_holds:
            # the most central move keeping the score: from our last move's score, one check at best
            floor = self._floor(board)
            return self._record(
                board, self.analyst.keeping_move(board, self.limit, floor=floor, poll=self.poll)
            )
        budget = self.limit.start()
        column = board.winning_column()
        if column is not None:
            score = win_score(board.width * board.height, board.move_count)
            return self._record(board, proven_result(board, score, column, "rules", budget))
        analysis = self.analyst.analyze(board, self.limit, pv=False, poll=self.poll)
        values = analysis.proven_values()
        if analysis.proven:
            column = best_column(board, values, self._random)
            return self._record(board, _choice(board, column, values[column], True, analysis, budget))
        # the analysis's best by dominance: never a column another one is proven better than
        best = analysis.best_columns
        column = best_column(board, [0 if c in best else None for c in range(board.width)], self._random)
        proven = analysis.best_proven and values[column] is not None
        return self._record(board, _choice(board, column, values[column], proven, analysis, budget))

    def _floor(self, board: Board) -> int | None:
        """A score proved for ``board``: the one our last move kept, if ``board`` is one reply later."""
        if self._kept is None:
            return None
        geometry, reached, kept = self._kept
        # ``reached`` is never empty, so equal to all but the last move means exactly one move more
        return kept if board.geometry == geometry and board.moves[:-1] == reached else None

    def _record(self, board: Board, choice: PlayResult) -> int:
        self._kept = None
        column = choice.column
        assert column is not None  # every choice has a column
        if choice.proven and choice.lower is not None and choice.source != "rules":
            self._kept = (board.geometry, (*board.moves, column), choice.lower)
        self.last = choice
        self.moves += 1
        if not choice.proven:
            self.unproven += 1
        return column

    def __repr__(self) -> str:
        return f"PerfectPlayer({self.limit!r}, random_ties={self.random_ties})"


def _choice(
    board: Board, column: int, score: int | None, proven: bool, analysis: PositionAnalysis, budget: Budget
) -> PlayResult:
    """The player's answer from ``analysis``: ``column`` with its exact ``score`` when ``proven``, else
    ``score`` is a score the move is proved to reach, or None when nothing was proved."""
    source, nodes = analysis.source, analysis.nodes
    if proven and score is not None:
        return proven_result(board, score, column, source, budget, nodes=nodes)
    return unproven_result(column, score, source, budget, nodes=nodes)
