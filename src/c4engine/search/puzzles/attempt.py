"""Solving a puzzle: one try at a move, right or refuted, and the hints.

:func:`try_move` judges the solver's move at one step of a puzzle: the
solution's move is right (and the opponent's reply from the solution
follows, or the puzzle is solved); any other is refused with its
refutation -- the opponent's best reply after it and the outcome it leads
to, proven by the analysis service.  :class:`PuzzleSession` keeps a puzzle
under way for a front-end (the terminal's ``c4 puzzle``; the web page sends
the step with each try, see :func:`try_move`).

>>> from c4engine.search.analysis.analyst import Analyst
>>> from c4engine.search.puzzles.puzzle import Puzzle
>>> puzzle = Puzzle("64434", solution=(1,), goal="win", ends="forced win", score=18,
...                 themes=("double threat",))
>>> session = PuzzleSession(puzzle, Analyst())
>>> wrong = session.play(3)
>>> wrong.right, wrong.refutation, wrong.words
(False, 1, 'X plays 2: X wins in 16 moves')
>>> right = session.play(1)
>>> right.right, right.solved, session.solved
(True, True, True)
>>> for hint in hints(puzzle, 0):
...     print(hint)
O to move: the position is won for O, and only one move keeps the win
the theme: double threat
the move: column 2
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from c4engine.board import Board
from c4engine.errors import PuzzleError
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.limit import Limit
from c4engine.search.puzzles.puzzle import Puzzle

__all__ = ["REFUTATION_LIMIT", "Attempt", "PuzzleSession", "hints", "position_at", "try_move"]

REFUTATION_LIMIT: Final = Limit(time=5.0)
"""The most a refutation's proof may take: a puzzle's positions are near the end of the game, where
it comes in milliseconds; past it the outcome is said to be unproven."""


@dataclass(frozen=True)
class Attempt:
    """One try: the ``column`` played (0-based) at ``step`` (the solver's move, from 0), whether it is
    ``right``; for a right move the opponent's ``reply`` from the solution (None when the puzzle is
    ``solved``), for a wrong one the ``refutation`` -- the opponent's best reply (None when the move
    ended the game) -- and the ``outcome`` it leads to from the opponent's view (``"win in 3"``,
    ``"draw"``; ``"unknown"`` when not proven in time).  ``words`` says it for a person."""

    step: int
    column: int
    right: bool
    solved: bool = False
    reply: int | None = None
    refutation: int | None = None
    outcome: str | None = None
    words: str = ""

    def to_json(self) -> dict[str, Any]:
        """The try in JSON, columns counted from 1."""

        def shown(column: int | None) -> int | None:
            return None if column is None else column + 1

        return {
            "step": self.step,
            "column": self.column + 1,
            "right": self.right,
            "solved": self.solved,
            "reply": shown(self.reply),
            "refutation": shown(self.refutation),
            "outcome": self.outcome,
            "words": self.words,
        }


def position_at(puzzle: Puzzle, step: int) -> Board:
    """The board at the solver's move ``step`` (from 0): the position and the solution's moves before it."""
    if not 0 <= step < puzzle.length:
        raise PuzzleError(f"step {step}: the puzzle has the solver's moves 0..{puzzle.length - 1}")
    board = puzzle.board()
    for column in puzzle.solution[: 2 * step]:
        board.play(column)
    return board


def try_move(
    puzzle: Puzzle, step: int, column: int, analyst: Analyst, limit: Limit = REFUTATION_LIMIT
) -> Attempt:
    """Judge ``column`` (0-based) as the solver's move at ``step`` (see the module's notes); a column
    that cannot be played raises the board's error (:class:`~c4engine.errors.IllegalMoveError`)."""
    board = position_at(puzzle, step)
    board.play(column)  # an illegal column: the board says why
    expected = puzzle.solution[2 * step]
    if column == expected:
        if step == puzzle.length - 1:
            return Attempt(step, column, True, True, words="solved")
        reply = puzzle.solution[2 * step + 1]
        return Attempt(
            step, column, True, reply=reply, words=f"right; {board.turn.symbol} replies {reply + 1}"
        )
    opponent = board.turn.symbol
    if board.is_over:
        return Attempt(step, column, False, outcome="draw", words="the board is full: only a draw")
    result = analyst.solve(board, limit)
    score = result.score
    if score is None or not score.proven or result.column is None:
        return Attempt(
            step,
            column,
            False,
            outcome="unknown",
            words="a wrong move (its refutation is not proven in time)",
        )
    verb = {"win": "wins in", "draw": "draws", "loss": "loses in"}[score.outcome]
    moves = score.moves
    said = f"{opponent} {verb}" + ("" if moves is None else f" {moves} move{'s' if moves != 1 else ''}")
    return Attempt(
        step,
        column,
        False,
        refutation=result.column,
        outcome=score.label(),
        words=f"{opponent} plays {result.column + 1}: {said}",
    )


def hints(puzzle: Puzzle, step: int) -> tuple[str, ...]:
    """The hints at the solver's move ``step``, gentlest first: the goal, the theme, the move itself."""
    board = position_at(puzzle, step)
    side = board.turn.symbol
    goal = (
        f"{side} to move: the position is won for {side}, and only one move keeps the win"
        if puzzle.goal == "win"
        else f"{side} to move: {side} can still draw, and only one move keeps the draw"
    )
    found = [goal]
    if puzzle.themes:
        found.append(f"the theme: {', '.join(puzzle.themes)}")
    found.append(f"the move: column {puzzle.solution[2 * step] + 1}")
    return tuple(found)


class PuzzleSession:
    """A puzzle under way: the board, the solver's step, the tries; :meth:`play` tries a move."""

    def __init__(self, puzzle: Puzzle, analyst: Analyst, limit: Limit = REFUTATION_LIMIT) -> None:
        self.puzzle = puzzle
        self.step = 0
        self.solved = False
        self.wrong_tries = 0
        self._analyst = analyst
        self._limit = limit

    @property
    def board(self) -> Board:
        """The board now: at the solver's current move, or the end of the solution once solved."""
        if self.solved:
            board = self.puzzle.board()
            for column in self.puzzle.solution:
                board.play(column)
            return board
        return position_at(self.puzzle, self.step)

    def play(self, column: int) -> Attempt:
        """Try ``column`` (0-based): a right move advances the puzzle (the reply played), a wrong one not."""
        if self.solved:
            raise PuzzleError("the puzzle is solved")
        attempt = try_move(self.puzzle, self.step, column, self._analyst, self._limit)
        if not attempt.right:
            self.wrong_tries += 1
        elif attempt.solved:
            self.solved = True
        else:
            self.step += 1
        return attempt

    def hints(self) -> tuple[str, ...]:
        return hints(self.puzzle, self.step)
