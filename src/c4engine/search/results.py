"""What the exact solver answers, as plain data: :class:`SolveResult`, :class:`Analysis`, scores in words.

These live apart from :mod:`c4engine.search.solver` (which re-exports them) so that
code answering without a search -- ``c4 solve`` and ``c4 analyze`` from the
opening book, :class:`c4engine.play.perfect.Analyst` -- builds the same results
without importing numba and the compiled kernels.  Scores follow the
convention described in :mod:`c4engine.search.solver`.

>>> result = SolveResult(18, True, 18, 18, 3, 7, 0.001, False, 42, 6)
>>> result.describe()
'win in 1 move'
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["DEFAULT_TABLE_MB", "Analysis", "SolveResult", "moves_to_end", "score_words"]

DEFAULT_TABLE_MB = 64
"""The solver's default transposition-table memory, in MiB."""


def moves_to_end(score: int, cells: int, stones: int) -> int:
    """How many moves the winner makes, from a position scoring ``score``, up to its winning stone.

    The winner is the side to move for a positive score, the opponent for a
    negative one; 0 for a draw.

    >>> moves_to_end(1, 42, 0)   # empty board: the first player's 21st stone wins
    21
    >>> moves_to_end(-1, 42, 1)
    20
    """
    if score > 0:
        return (cells + 1 - stones) // 2 - score + 1
    if score < 0:
        return (cells - stones) // 2 + score + 1
    return 0


def score_words(score: int, cells: int = 42, stones: int = 0, weak: bool = False) -> str:
    """A score in words, for the side to move: "win in N moves", "draw", "loss in N moves".

    N counts the winner's own moves from now, the winning stone included.
    ``weak`` scores (-1, 0, 1) are just "win", "draw", "loss".

    >>> score_words(18, 42, 6)
    'win in 1 move'
    >>> score_words(0)
    'draw'
    >>> score_words(-2, 42, 1)
    'loss in 19 moves'
    >>> score_words(-1, weak=True)
    'loss'
    """
    if score == 0:
        return "draw"
    if weak:
        return "win" if score > 0 else "loss"
    n = moves_to_end(score, cells, stones)
    plural = "move" if n == 1 else "moves"
    return f"{'win' if score > 0 else 'loss'} in {n} {plural}"


@dataclass(frozen=True)
class SolveResult:
    """The outcome of :meth:`Solver.solve`.

    ``score`` is exact (``exact`` True) or None when a limit stopped the
    search; ``lower <= score <= upper`` always holds for the true score.
    ``best_move`` is a 0-based column: a move reaching the score when
    exact, otherwise the best move found so far (proved to reach ``lower``
    when ``best_proved``), or None.  Weak solves score -1, 0 or 1.
    """

    score: int | None
    exact: bool
    lower: int
    upper: int
    best_move: int | None
    nodes: int
    elapsed: float
    weak: bool
    cells: int
    stones: int
    stopped: str | None = None
    best_proved: bool = True

    def describe(self) -> str:
        """The result in words: "win in 3 moves", "draw", "loss in 5 moves", or the bounds."""
        if self.score is not None:
            return score_words(self.score, self.cells, self.stones, self.weak)
        low = score_words(self.lower, self.cells, self.stones, self.weak)
        high = score_words(self.upper, self.cells, self.stones, self.weak)
        return f"unknown ({self.stopped}): between {low} and {high}"


@dataclass(frozen=True)
class Analysis:
    """The outcome of :meth:`Solver.analyze`: every column's score.

    ``scores[c]`` is the score of the position (for the side to move) if it
    plays column ``c``, None for a full column (or, when ``exact`` is False,
    a column not finished); ``best_columns`` are the columns with the best
    score, ``pv`` a principal variation (0-based columns, best play by both
    sides to the end of the game, or as far as the limits allowed).
    """

    scores: tuple[int | None, ...]
    best_columns: tuple[int, ...]
    pv: tuple[int, ...]
    nodes: int
    elapsed: float
    weak: bool
    exact: bool
    cells: int
    stones: int
    lowers: tuple[int | None, ...] = field(default=())
    uppers: tuple[int | None, ...] = field(default=())

    @property
    def score(self) -> int | None:
        known = [s for s in self.scores if s is not None]
        return max(known) if known and self.exact else None

    def describe(self) -> str:
        score = self.score
        if score is None:
            return "unknown (stopped)"
        return score_words(score, self.cells, self.stones, self.weak)
