"""Retry your mistake: another try at a move of your own game before the answer is shown.

:func:`retry_move` judges a column tried in the position where a mistake was
played: right when it keeps the position's best outcome (a win, or a draw;
a quicker or slower win both keep it), proven by the analysis service; a
wrong one comes with its refutation, the opponent's best reply.  The review
(:mod:`c4engine.search.review`) says which moves were mistakes; the terminal
review and the page's Review view offer each of the player's own for a retry.

>>> from c4engine import Board
>>> from c4engine.search.analysis.analyst import Analyst
>>> before = Board.from_moves("4455")         # X played 2 here in the game; 3 or 6 wins
>>> wrong = retry_move(Analyst(), before, 1)
>>> wrong.right, wrong.words
(False, 'Not 2: O plays 3: O wins in 17 moves.')
>>> right = retry_move(Analyst(), before, 5)
>>> right.right, right.words
(True, 'Right: 6 keeps the win (win in 2).')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from c4engine.board import Board
from c4engine.errors import GameOverError
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.limit import Limit
from c4engine.search.results import bound_words

__all__ = ["RETRY_LIMIT", "Retry", "retry_move"]

RETRY_LIMIT: Final = Limit(time=3.0)
"""What a retry's judgement may take: its position is one the review has proven, most often at once."""


@dataclass(frozen=True)
class Retry:
    """A retried ``column`` (0-based): ``right`` (None when not proven within the limit), its words
    (``outcome``) and the best's (``best_outcome``) from the mover's view, the ``best`` columns, and
    for a wrong one its ``refutation`` (the opponent's best reply; None when the move ends the game)."""

    column: int
    right: bool | None
    outcome: str
    best_outcome: str
    best: tuple[int, ...]
    refutation: int | None
    words: str

    def to_json(self) -> dict[str, Any]:
        """The retry in JSON, columns counted from 1."""
        return {
            "column": self.column + 1,
            "right": self.right,
            "outcome": self.outcome,
            "best_outcome": self.best_outcome,
            "best": [column + 1 for column in self.best],
            "refutation": None if self.refutation is None else self.refutation + 1,
            "words": self.words,
        }


def retry_move(analyst: Analyst, board: Board, column: int, limit: Limit = RETRY_LIMIT) -> Retry:
    """Judge ``column`` (0-based) tried on ``board``, where the mover's mistake was played (see the
    module's notes); an unplayable column raises the board's error."""
    if board.is_over:
        raise GameOverError("the game is over: no move to retry")
    after = board.copy()
    after.play(column)  # an illegal column: the board says why
    analysis = analyst.analyze(board, limit, pv=False)
    cells, stones = board.width * board.height, board.move_count
    tried = analysis.columns[column]
    assert tried is not None  # a legal column has its answer
    best_lower, best_upper = analysis.score_bounds
    outcome = bound_words(tried.lower, tried.upper, cells, stones)
    best_outcome = bound_words(best_lower, best_upper, cells, stones)
    best = analysis.best_columns if analysis.best_proven else ()
    if _sign(best_lower) != _sign(best_upper) or _sign(tried.lower) != _sign(tried.upper):
        words = f"{column + 1}: {outcome}, against the best {best_outcome} (not proven in time)."
        return Retry(column, None, outcome, best_outcome, best, None, words)
    if _sign(tried.lower) == _sign(best_lower):
        kept = {1: "the win", 0: "the draw", -1: "the result"}[_sign(best_lower)]
        words = f"Right: {column + 1} keeps {kept} ({outcome})."
        return Retry(column, True, outcome, best_outcome, best, None, words)
    if after.is_over:
        return Retry(column, False, outcome, best_outcome, best, None, f"Not {column + 1}: {outcome}.")
    reply = analyst.solve(after, limit)
    opponent = after.turn.symbol
    score = reply.score
    if reply.column is None or score is None or not score.proven:
        words = f"Not {column + 1}: {outcome}."
        return Retry(column, False, outcome, best_outcome, best, None, words)
    said = {"win": "wins in", "draw": "draws", "loss": "loses in"}[score.outcome]
    count = "" if score.moves is None else f" {score.moves} move{'s' if score.moves != 1 else ''}"
    words = f"Not {column + 1}: {opponent} plays {reply.column + 1}: {opponent} {said}{count}."
    return Retry(column, False, outcome, best_outcome, best, reply.column, words)


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)
