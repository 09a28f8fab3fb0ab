"""Perfect play: the opening book first, the exact solver after it.

:class:`PerfectPlayer` asks the analysis service
(:class:`c4engine.search.analysis.analyst.Analyst`) and plays a game-theoretically best move: the quickest
win, else a draw, else the slowest loss; equal moves are broken centre-first
(or at random with ``random_ties``).  Centre-first, unless the book scores every
move, it asks for the most central move keeping the position's score
(:meth:`Analyst.keeping_move <c4engine.search.analysis.analyst.Analyst.keeping_move>`), from the
score its own last move kept: after a best reply, one null-window search confirms it.
Otherwise it asks for an analysis of every column.  With a time or node ``limit`` (by default
:data:`DEFAULT_PERFECT_LIMIT`; :data:`PROOF_SECONDS` on a position short of its board's reach, where
no proof comes soon: :mod:`c4engine.search.solver.reach`) it still moves when the limit stops
the solver: the move the solver proved to reach at least a draw, else the engine's
(:data:`ESTIMATE_LIMIT`), and records the move as unproven (:attr:`PerfectPlayer.last`, a
:class:`~c4engine.search.results.PlayResult`, its ``stopped`` saying why;
:attr:`PerfectPlayer.unproven`).

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
from dataclasses import replace
from typing import Final

from c4engine.board import Board
from c4engine.errors import GameOverError, UnsupportedBoardError
from c4engine.geometry import Geometry, require_solver_holds
from c4engine.play.levels import LEVELS
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.analysis.answers import proven_result, unproven_result
from c4engine.search.analysis.books import DEFAULT_BOOK, BookChoice
from c4engine.search.choice import best_column
from c4engine.search.limit import Budget, Limit
from c4engine.search.progress import Hook
from c4engine.search.results import DEFAULT_TABLE_MB, PlayResult, PositionAnalysis
from c4engine.search.scale import win_score

__all__ = ["DEFAULT_PERFECT_LIMIT", "ESTIMATE_LIMIT", "PROOF_SECONDS", "PerfectPlayer", "check_perfect_board"]

DEFAULT_PERFECT_LIMIT: Final = Limit(time=60.0)
"""What the perfect player may spend on proving one move, from its board's reach on
(:meth:`Analyst.outlook <c4engine.search.analysis.analyst.Analyst.outlook>`): past it, it plays the engine's
move (:data:`ESTIMATE_LIMIT`), said to be unproven."""

PROOF_SECONDS: Final = 3.0
"""Seconds the perfect player tries to prove a move short of its board's reach (and not in the book):
early in a game on a board bigger than 7x6 (8x8, 9x7, 10x6, 7x9, connect 5 on 9x7) no proof comes
within minutes (docs/levels.md), so waiting a minute bought nothing; a move within about 4 s,
labelled unproven, is what a user can use.  A ``limit`` without time (``UNLIMITED``) keeps trying."""

ESTIMATE_LIMIT: Final = Limit(time=1.0)
"""What the engine's move after a proof that ran out may take (the strong level's time)."""


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
        estimate_limit: Limit = ESTIMATE_LIMIT,
        random_ties: bool = False,
        seed: int | None = None,
        table_size_mb: float = DEFAULT_TABLE_MB,
        name: str = "perfect",
        analyst: Analyst | None = None,
    ) -> None:
        self.name = name
        self.limit = limit
        self.estimate_limit = estimate_limit
        """What the engine's move may take when a proof ran out of :attr:`limit`."""
        self.proof_limit = limit
        """What the last move's proof might take (:data:`PROOF_SECONDS` short of the board's reach)."""
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
            limit = self._proof_limit(board)
            kept = self.analyst.keeping_move(board, limit, floor=floor, poll=self.poll)
            return self._record(board, kept if kept.proven else self._estimated(board, kept))
        budget = self.limit.start()
        column = board.winning_column()
        if column is not None:
            score = win_score(board.width * board.height, board.move_count)
            return self._record(board, proven_result(board, score, column, "rules", budget))
        analysis = self.analyst.analyze(board, self._proof_limit(board), pv=False, poll=self.poll)
        values = analysis.proven_values()
        if analysis.proven:
            column = best_column(board, values, self._random)
            return self._record(board, _choice(board, column, values[column], True, analysis, budget))
        # the analysis's best by dominance: never a column another one is proven better than
        best = analysis.best_columns
        column = best_column(board, [0 if c in best else None for c in range(board.width)], self._random)
        proven = analysis.best_proven and values[column] is not None
        return self._record(board, _choice(board, column, values[column], proven, analysis, budget))

    def _proof_limit(self, board: Board) -> Limit:
        """What this move's proof may take: :attr:`limit`, at most :data:`PROOF_SECONDS` on a position
        short of its board's reach (a limit without time keeps trying); kept in :attr:`proof_limit`."""
        limit = self.limit
        if limit.time is not None and limit.time > PROOF_SECONDS and self.analyst.outlook(board) is not None:
            limit = Limit(time=PROOF_SECONDS, nodes=limit.nodes, depth=limit.depth)
        self.proof_limit = limit
        return limit

    def _estimated(self, board: Board, attempt: PlayResult) -> PlayResult:
        """The move to play when ``attempt`` (the proof) ran out: its move where the solver proved it
        reaches at least a draw, else the engine's within :attr:`estimate_limit`; unproven either way,
        ``stopped`` saying why (the proof's budget)."""
        if attempt.lower is not None and attempt.lower >= 0:
            return attempt
        if attempt.stopped not in ("time limit", "node limit") or self.estimate_limit.unbounded:
            return attempt  # stopped by its asker (or no bound for the engine): no more searching
        guess = self.analyst.engine_move(board, self.estimate_limit, poll=self.poll)
        return replace(
            guess,
            proven=False,
            lower=attempt.lower,
            stopped=attempt.stopped,
            nodes=attempt.nodes + guess.nodes,
            time=attempt.time + guess.time,
        )

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
