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

import math
import os
from dataclasses import dataclass, field

from c4engine.errors import TableSizeError

__all__ = [
    "DEFAULT_TABLE_MB",
    "MIN_TABLE_MB",
    "Analysis",
    "SolveResult",
    "check_table_mb",
    "moves_to_end",
    "score_words",
]

DEFAULT_TABLE_MB = 64
"""The solver's default transposition-table memory, in MiB."""

MIN_TABLE_MB = 8
"""The smallest table the solver takes, in MiB: 2**20 entries of 8 bytes (``kernels.table.MIN_BITS``)."""


def physical_memory_mb() -> float | None:
    """The machine's physical memory in MiB, or None where the system does not tell."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**20
    except (AttributeError, ValueError, OSError):  # no sysconf, or not these names (not POSIX)
        return None


def check_table_mb(table_size_mb: float) -> float:
    """``table_size_mb`` if a solver can have a table that size, else :class:`TableSizeError`.

    A table larger than the machine's physical memory is refused before
    anything is allocated (it could only swap, or fail part-way).

    >>> check_table_mb(8)
    8
    >>> check_table_mb(float("nan"))
    Traceback (most recent call last):
    ...
    c4engine.errors.TableSizeError: the table size must be a number of MB, not nan
    """
    if not math.isfinite(table_size_mb):
        raise TableSizeError(f"the table size must be a number of MB, not {table_size_mb}")
    memory = physical_memory_mb()
    allowed = f"{MIN_TABLE_MB}..{int(memory)} MB" if memory else f"at least {MIN_TABLE_MB} MB"
    if table_size_mb < MIN_TABLE_MB:
        raise TableSizeError(f"a table of {table_size_mb:g} MB is too small: use {allowed}")
    if memory is not None and table_size_mb > memory:
        raise TableSizeError(
            f"a table of {table_size_mb:g} MB is more than this machine's memory: use {allowed}"
        )
    return table_size_mb


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
