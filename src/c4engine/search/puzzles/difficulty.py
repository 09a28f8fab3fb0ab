"""How hard a puzzle is: the length of its solution and the tempting wrong moves along it.

A wrong move (one that does not keep the puzzle's goal) is *tempting* when
its refutation is not at once: after it the opponent has no immediate win,
so seeing why it fails takes more than a glance at the next move.  A
puzzle's ``rating`` is :data:`MOVE_WEIGHT` points for each of the solver's
moves after the first, plus one point for each tempting wrong move at each
of them; :func:`difficulty_name` names the ranges.

>>> from c4engine import Board
>>> board = Board.from_moves("12131")         # O to move: 7 lets X win in column 1 at once, the block not
>>> is_tempting(board, 6), is_tempting(board, 0)
(False, True)
>>> rating(length=1, tempting=2), difficulty_name(2), difficulty_name(rating(length=3, tempting=4))
(2, 'easy', 'medium')
"""

from __future__ import annotations

from typing import Final, Literal, get_args

from c4engine.board import Board

__all__ = [
    "DIFFICULTIES",
    "EASIEST_HARD",
    "EASIEST_MEDIUM",
    "MOVE_WEIGHT",
    "Difficulty",
    "difficulty_name",
    "is_tempting",
    "rating",
]

Difficulty = Literal["easy", "medium", "hard"]
DIFFICULTIES: Final[tuple[Difficulty, ...]] = get_args(Difficulty)

MOVE_WEIGHT: Final = 3
"""The points each of the solver's moves after the first adds: one more move to find, on a changed board."""

EASIEST_MEDIUM: Final = 6
"""The lowest rating called medium: a one-move puzzle whose six wrong moves all tempt, or two moves
with three tempting wrong ones."""

EASIEST_HARD: Final = 15
"""The lowest rating called hard: five moves to find, or fewer with a dozen tempting wrong ones."""


def is_tempting(board: Board, column: int) -> bool:
    """Whether playing ``column`` leaves the opponent no immediate win (the refutation takes longer)."""
    after = board.copy()
    after.push(column)
    return not after.is_over and not after.winning_columns()


def rating(*, length: int, tempting: int) -> int:
    """A puzzle's rating: :data:`MOVE_WEIGHT` for each of the solver's ``length`` moves after the first,
    and one for each ``tempting`` wrong move along the solution."""
    return MOVE_WEIGHT * (length - 1) + tempting


def difficulty_name(points: int) -> Difficulty:
    """``"easy"`` below :data:`EASIEST_MEDIUM`, ``"hard"`` from :data:`EASIEST_HARD`, else ``"medium"``."""
    if points >= EASIEST_HARD:
        return "hard"
    return "medium" if points >= EASIEST_MEDIUM else "easy"
