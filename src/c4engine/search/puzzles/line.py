"""The only-move line from a position: the solver's side's only good moves, the opponent's toughest replies.

:func:`only_move_line` asks the analysis service for every column's exact
score (win, draw or loss proven for each, the kept move's score exact) at
each of the solver's turns and requires exactly one column to keep the
position's outcome -- a win, or a draw.  Between them the opponent plays its
most resilient reply: for a win, its slowest loss (the best exact score it
has, centre-first among equals); for a draw, a reply keeping its draw,
chosen to leave the solver one only move again where there is such a reply.
The line ends (:data:`~c4engine.search.puzzles.puzzle.ENDINGS`):

* ``"win"`` -- the solver's move wins the game;
* ``"forced win"`` -- after the solver's move every reply leaves it an
  immediate win (a double threat, a threat above a threat, zugzwang);
* ``"draw held"`` -- the board is full, or every reply keeping the
  opponent's draw leaves the solver two or more moves that keep it.

It gives no line (None) when a turn of the solver has more than one good
move (or none), or only one legal move (no choice), when no wrong move along
the line is tempting (:func:`~c4engine.search.puzzles.difficulty.is_tempting`:
every one lets the opponent win at once, which one move's lookahead sees),
when the line would take more than ``max_moves`` of the solver's moves, or
when ``limit`` ran out before a score it needs was proven.

>>> from c4engine import Board
>>> from c4engine.search.analysis.analyst import Analyst
>>> found = only_move_line(Analyst(), Board.from_moves("445566"))   # X: 3 or 7 wins on the spot
>>> found is None                                                   # two winning moves: no puzzle
True
>>> only_move_line(Analyst(), Board.from_moves("4455")) is None    # X: 3 and 6 make a double threat
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from c4engine.board import Board
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.limit import Limit
from c4engine.search.puzzles.difficulty import is_tempting
from c4engine.search.puzzles.puzzle import Ending, Goal
from c4engine.search.results import PositionAnalysis

__all__ = ["LINE_LIMIT", "MAX_SOLVER_MOVES", "OnlyMoveLine", "only_move_line", "outcomes"]

MAX_SOLVER_MOVES: Final = 6
"""The most moves of the solver's side a solution may take: longer lines are too long to be puzzles."""

LINE_LIMIT: Final = Limit(nodes=4_000_000)
"""What one analysis along a line may search (about a second on one core); a position left unproven
within it gives no puzzle.  A node limit, not a time limit: every run finds the same puzzles."""


@dataclass(frozen=True)
class OnlyMoveLine:
    """What :func:`only_move_line` found: the goal, the solution (0-based; the solver's moves with the
    replies between), how it ends, the position's exact score and the tempting wrong moves along it
    (:func:`~c4engine.search.puzzles.difficulty.is_tempting`)."""

    goal: Goal
    solution: tuple[int, ...]
    ends: Ending
    score: int
    tempting: int


def outcomes(analysis: PositionAnalysis, board: Board) -> dict[int, int] | None:
    """Each legal column's proven outcome for the side to move -- 1 win, 0 draw, -1 loss -- or None
    when one of them is not proven (its bounds straddle two outcomes)."""
    found: dict[int, int] = {}
    for column in board.legal_moves():
        answer = analysis.columns[column]
        if answer is None:
            return None
        low, high = _sign(answer.lower), _sign(answer.upper)
        if low != high:
            return None
        found[column] = low
    return found


def only_move_line(
    analyst: Analyst, board: Board, limit: Limit = LINE_LIMIT, *, max_moves: int = MAX_SOLVER_MOVES
) -> OnlyMoveLine | None:
    """The only-move line from ``board`` (see the module's notes), or None."""
    if board.is_over:
        return None
    line = _Line(analyst, limit)
    walk = board.copy()
    first = line.outcomes(walk)
    if first is None or max(first.values()) < 0:
        return None  # unproven, or lost: nothing to keep
    goal: Goal = "win" if max(first.values()) > 0 else "draw"
    solution: list[int] = []
    tempting = 0
    score: int | None = None
    for _turn in range(max_moves):
        found = line.outcomes(walk)
        if found is None or len(found) < 2:
            return None  # unproven, or one legal move: no choice to make
        kept = 1 if goal == "win" else 0
        keepers = [column for column, outcome in found.items() if outcome == kept]
        if len(keepers) != 1 or max(found.values()) != kept:
            return None
        move = keepers[0]
        if score is None:
            score = 0 if goal == "draw" else line.exact_score(walk, move)
            if score is None:
                return None
        tempting += sum(is_tempting(walk, column) for column in found if column != move)
        walk.play(move)
        solution.append(move)
        ends: Ending | None = "win" if walk.winner is not None else "draw held" if walk.is_full else None
        reply = None
        if ends is None:
            reply = line.forced_win_reply(walk) if goal == "win" else line.draw_reply(walk)
            if reply is None:
                return None
            if reply == _ENDS:
                ends = "forced win" if goal == "win" else "draw held"
        if ends is not None:
            # every other move losing at once is a rule of one move's lookahead, not a puzzle
            return OnlyMoveLine(goal, tuple(solution), ends, score, tempting) if tempting else None
        assert reply is not None
        walk.play(reply)
        solution.append(reply)
    return None


_ENDS: Final = -1
"""What a reply function gives when the line ends after the solver's move."""


class _Line:
    """The analyses of one line's positions, each asked once."""

    def __init__(self, analyst: Analyst, limit: Limit) -> None:
        self._analyst = analyst
        self._limit = limit
        self._analyses: dict[tuple[int, bool], PositionAnalysis] = {}

    def analysis(self, board: Board, *, weak: bool) -> PositionAnalysis:
        key = (board.key(), weak)
        if key not in self._analyses:
            self._analyses[key] = self._analyst.analyze(board, self._limit, weak=weak, pv=False)
        return self._analyses[key]

    def outcomes(self, board: Board) -> dict[int, int] | None:
        """Each legal column's outcome (a weak analysis: win, draw or loss is all it asks)."""
        return outcomes(self.analysis(board, weak=True), board)

    def exact_score(self, board: Board, column: int) -> int | None:
        """``column``'s exact score, None when not proven."""
        answer = self.analysis(board, weak=False).columns[column]
        return None if answer is None or answer.lower != answer.upper else answer.lower

    def forced_win_reply(self, board: Board) -> int | None:
        """The opponent's slowest loss, or :data:`_ENDS` when every reply leaves an immediate win."""
        if all(_leaves_win(board, column) for column in board.legal_moves()):
            return _ENDS
        analysis = self.analysis(board, weak=False)
        if not analysis.best_proven:
            return None
        return next(column for column in board.geometry.center_order if column in analysis.best_columns)

    def draw_reply(self, board: Board) -> int | None:
        """A reply keeping the opponent's draw that leaves the solver one only move (centre-first), or
        :data:`_ENDS` when none does; None when a score it needs is unproven."""
        found = self.outcomes(board)
        if found is None:
            return None
        for column in board.geometry.center_order:
            if found.get(column) != 0:
                continue
            after = board.copy()
            after.play(column)
            if after.is_over:
                continue
            answers = self.outcomes(after)
            if answers is None:
                return None
            if sum(outcome == 0 for outcome in answers.values()) == 1:
                return column
        return _ENDS


def _leaves_win(board: Board, column: int) -> bool:
    """Whether the side that just moved wins at once after the side to move plays ``column``."""
    after = board.copy()
    after.play(column)
    return not after.is_over and bool(after.winning_columns())


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)
