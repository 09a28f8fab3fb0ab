"""One ply of a game review: the position's value and the best columns proven the cheap way where the
solver can, else from a full analysis within what is left (:func:`review_ply`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from c4engine.board import Board
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.limit import Budget, Limit
from c4engine.search.progress import Hook
from c4engine.search.review.answers import PlyReview
from c4engine.search.review.columns import (
    Bounds,
    best_bounds,
    column_bounds,
    columns_reaching,
    intersect,
    known_columns,
    score_range_of,
    solve_value,
)
from c4engine.search.review.lines import Aside
from c4engine.search.review.verdicts import verdict_of

__all__ = ["SOLVE_SHARE", "review_ply"]

SOLVE_SHARE: Final = 0.7
"""The part of a ply's time for the exact way (the solver); the rest, if that does not prove it all,
for the full analysis with the engine's estimates."""


@dataclass
class _Proof:
    """What a ply's review has found so far: the bounds of the played column's score
    (``lower``/``upper``) and of the best one (``before_*``), the best columns (``proven_best`` when
    proven, and whether ``best_complete``; ``best`` the analysis' choice), the engine's estimates."""

    lower: int
    upper: int
    before_lower: int
    before_upper: int
    best: tuple[int, ...] = ()
    proven_best: tuple[int, ...] = ()
    best_complete: bool = False
    estimate: float | None = None
    best_estimate: float | None = None

    @property
    def proven(self) -> bool:
        return self.lower == self.upper and self.before_lower == self.before_upper


def review_ply(
    analyst: Analyst,
    board: Board,
    played: int,
    limit: Limit,
    poll: Hook | None,
    after_move: tuple[int, int] | None,
    aside: Aside,
    chosen: bool,
) -> PlyReview:
    """One ply: the position's value and the best columns proven the cheap way where the solver can,
    else from a full analysis within what is left.  A move nobody chose (not ``chosen``) is scored
    the same way but not judged, and gets no better line.

    ``after_move`` bounds the value of the position the move leads to, for
    its next mover (known from the ply after it, reviewed first): so the
    played column's score needs no search, and the position's value is
    searched from it up (:func:`~c4engine.search.review.columns.solve_value`).  The columns the rules or the
    book score need no search either; each other column is one null-window
    search of its child against the value.  A costly move's better line is
    asked of ``lines``.
    """
    lowest, highest = score_range_of(board)
    columns = known_columns(analyst, board)
    if played not in columns:
        columns[played] = (-after_move[1], -after_move[0]) if after_move is not None else (lowest, highest)
    lower, upper = columns[played]
    proof = _Proof(lower, upper, lower, highest)  # the best column is at least the one played
    budget = limit.start()
    fast = (limit.share(SOLVE_SHARE) if limit.time is not None else limit).start()  # the cheap way's part
    if board.geometry.solver_holds:
        _prove_the_cheap_way(analyst, board, proof, columns, budget, fast, poll, aside, chosen)
    if not proof.proven:
        # what the cheap way left, and a quarter of the ply's time at least, whatever it took
        left = budget.remaining(at_least=(limit.time or 0.0) / 4)
        _prove_by_analysis(analyst, board, played, proof, left, poll)
    return _judged_ply(board, played, proof, aside, chosen)


def _prove_the_cheap_way(
    analyst: Analyst,
    board: Board,
    proof: _Proof,
    columns: Bounds,
    budget: Budget,
    fast: Budget,
    poll: Hook | None,
    aside: Aside,
    chosen: bool,
) -> None:
    """Narrow ``proof`` with the book and the solver within ``fast`` (the cheap way's part of the ply's
    ``budget``): the position's value searched from the played column's score up, then its best columns."""
    proof.before_lower, proof.before_upper = intersect(
        (proof.before_lower, proof.before_upper), best_bounds(board, columns)
    )
    if (known := analyst.book_score(board)) is not None:
        proof.before_lower, proof.before_upper = known, known
    # the book's value and the played score known: nothing in this ply needs a search but its best
    # columns (and line), which nothing else waits for: they are found apart (see Aside)
    apart = known is not None and proof.lower == proof.upper and len(columns) < len(board.legal_moves())
    if apart:
        costly = (
            chosen and proof.lower < proof.before_lower
        )  # the played column below the value: a line is wanted
        aside.best(board, proof.before_lower, columns, fast.limit, costly)
    if proof.before_lower != proof.before_upper:
        with budget.paused(), fast.paused():  # loading the solver is no ply's time
            analyst.solver.load(board)
        solved = solve_value(analyst, board, proof.before_lower, fast, poll)
        proof.before_lower, proof.before_upper = intersect((proof.before_lower, proof.before_upper), solved)
    if proof.before_lower == proof.before_upper and not apart:
        proof.proven_best, proof.best_complete = columns_reaching(
            analyst, board, proof.before_lower, columns, fast
        )


def _prove_by_analysis(
    analyst: Analyst, board: Board, played: int, proof: _Proof, left: Limit, poll: Hook | None
) -> None:
    """Narrow ``proof`` with a full analysis within ``left``: every column's proven bounds, the best
    columns among them where the cheap way left them open, and the engine's estimates of what is not exact."""
    analysis = analyst.analyze(board, left, pv=False, poll=poll)
    bounds = {column: column_bounds(analysis, column, board) for column in board.legal_moves()}
    proof.lower, proof.upper = intersect((proof.lower, proof.upper), bounds[played])
    bounds[played] = (proof.lower, proof.upper)
    proof.before_lower, proof.before_upper = intersect(
        (proof.before_lower, proof.before_upper),
        (max(low for low, _ in bounds.values()), max(high for _, high in bounds.values())),
    )
    if not proof.best_complete:
        proof.proven_best = tuple(
            column
            for column, (low, _) in bounds.items()
            if all(low >= high for other, (_, high) in bounds.items() if other != column)
        )
        # complete when every other column is proven below a best one
        floor = min((bounds[column][0] for column in proof.proven_best), default=None)
        proof.best_complete = floor is not None and all(
            high < floor for column, (_, high) in bounds.items() if column not in proof.proven_best
        )
    proof.best = proof.proven_best or analysis.best_columns
    played_score = analysis.scores[played]
    proof.estimate = None if played_score is None or proof.lower == proof.upper else float(played_score.value)
    proof.best_estimate = None if proof.before_lower == proof.before_upper else float(analysis.score.value)


def _judged_ply(board: Board, played: int, proof: _Proof, aside: Aside, chosen: bool) -> PlyReview:
    """The ply's review from ``proof``: its verdict, and a costly move's better line asked of ``aside``."""
    verdict_name, or_worse = verdict_of(
        proof.before_lower, proof.before_upper, proof.lower, proof.upper, chosen
    )
    proven_best = proof.proven_best
    if verdict_name not in ("best", "not chosen") and proven_best:
        # the line is searched apart (see Aside) and joins the ply at the end of the review
        value = proof.before_lower if proof.before_lower == proof.before_upper else None
        first = board.geometry.most_central(proven_best)
        assert first is not None  # proven_best is not empty
        aside.line(board, first, value)
    return PlyReview(
        board.move_count,
        board.turn,
        played,
        board.width * board.height,
        proof.before_lower,
        proof.before_upper,
        proof.lower,
        proof.upper,
        proof.estimate,
        proof.best_estimate,
        tuple(sorted(proven_best)) if proven_best else proof.best,
        bool(proven_best),
        proof.best_complete and bool(proven_best),
        verdict_name,
        or_worse,
        (),
        False,
        chosen,
    )
