"""The exact solver's own answers, internal to the search layer.

:meth:`Solver.solve <c4engine.search.solver.exact.Solver.solve>` answers a :class:`SolveResult`,
:meth:`Solver.solve_many <c4engine.search.solver.exact.Solver.solve_many>` a :class:`BatchResult` and
:meth:`Solver.analyze <c4engine.search.solver.exact.Solver.analyze>` an :class:`Analysis`.  The analysis
service turns them into the public answers of :mod:`c4engine.search.results` (a move's
:class:`~c4engine.search.results.PlayResult`, a position's
:class:`~c4engine.search.results.PositionAnalysis`), which are what the front-ends and the players
read; no module above the search layer imports these (``tests/test_layers.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from c4engine.search.results import score_words

__all__ = ["Analysis", "BatchResult", "SolveResult"]


@dataclass(frozen=True)
class SolveResult:
    """The outcome of :meth:`Solver.solve`.

    ``score`` is exact (``proven`` True) or None when a limit stopped the
    search; ``lower <= score <= upper`` always holds for the true score.
    ``best_move`` is a 0-based column: a move reaching the score when
    exact, otherwise the best move found so far (proved to reach ``lower``
    when ``best_proven``), or None.  Weak solves score -1, 0 or 1.
    ``nodes_per_thread`` splits ``nodes`` between the solver's threads, the
    caller's first (one number with one thread).
    """

    score: int | None
    proven: bool
    lower: int
    upper: int
    best_move: int | None
    nodes: int
    time: float
    weak: bool
    cells: int
    stones: int
    stopped: str | None = None
    best_proven: bool = True
    nodes_per_thread: tuple[int, ...] = ()

    def describe(self) -> str:
        """The result in words: "win in 3 moves", "draw", "loss in 5 moves", or the bounds."""
        if self.score is not None:
            return score_words(self.score, self.cells, self.stones, self.weak)
        low = score_words(self.lower, self.cells, self.stones, self.weak)
        high = score_words(self.upper, self.cells, self.stones, self.weak)
        return f"unknown ({self.stopped}): between {low} and {high}"


@dataclass(frozen=True)
class BatchResult:
    """The outcome of :meth:`Solver.solve_many`: the exact scores of many positions, in order.

    ``scores[i]``, ``nodes[i]`` and ``best_moves[i]`` belong to the ``i``-th
    position (the best move when the search proved one, else None, as
    :meth:`Solver.solve` with ``best_move=False``).  ``complete`` is False when
    :meth:`Solver.cancel` stopped the batch: the tuples then hold the
    positions finished before it.  ``time`` is the whole batch's, in seconds.
    """

    scores: tuple[int, ...]
    nodes: tuple[int, ...]
    best_moves: tuple[int | None, ...]
    time: float
    weak: bool
    complete: bool


@dataclass(frozen=True)
class Analysis:
    """The outcome of :meth:`Solver.analyze`: every column's score.

    ``scores[c]`` is the score of the position (for the side to move) if it
    plays column ``c``, None for a full column (or, when ``proven`` is False,
    a column not finished); ``best_columns`` are the columns with the best
    score, ``pv`` a principal variation (0-based columns, best play by both
    sides to the end of the game, or as far as the limits allowed) and
    ``lines`` each column's best line to the end, starting with the column
    (empty when not asked for, or for a full column).
    ``nodes_per_thread`` splits ``nodes`` between the solver's threads, the
    caller's first.
    """

    scores: tuple[int | None, ...]
    best_columns: tuple[int, ...]
    pv: tuple[int, ...]
    nodes: int
    time: float
    weak: bool
    proven: bool
    cells: int
    stones: int
    lowers: tuple[int | None, ...] = field(default=())
    uppers: tuple[int | None, ...] = field(default=())
    nodes_per_thread: tuple[int, ...] = field(default=())
    lines: tuple[tuple[int, ...], ...] = field(default=())

    @property
    def score(self) -> int | None:
        known = [s for s in self.scores if s is not None]
        return max(known) if known and self.proven else None

    def describe(self) -> str:
        score = self.score
        if score is None:
            return "unknown (stopped)"
        return score_words(score, self.cells, self.stones, self.weak)
