"""Choosing among columns: the best by the dominance rule over proven bounds (:func:`best_by_bounds`),
and the best-scoring one, centre-first among equals (:func:`best_column`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from c4engine.board import Board
from c4engine.search.results import Score

__all__ = ["best_by_bounds", "best_column", "known_bound"]


def best_column(board: Board, scores: Sequence[int | None], rng: random.Random | None = None) -> int:
    """The best-scoring column: centre-first among equals, or at random with ``rng``.

    >>> best_column(Board(), [-2, -1, 0, 1, 0, -1, -2])
    3
    """
    best = max(score for score in scores if score is not None)
    ties = [column for column in board.geometry.center_order if scores[column] == best]
    if rng is not None and len(ties) > 1:
        return rng.choice(sorted(ties))
    return ties[0]


def best_by_bounds(
    board: Board,
    scores: Sequence[Score | None],
    lowers: Sequence[int | None],
    uppers: Sequence[int | None],
    *,
    at_least: int | None = None,
) -> tuple[tuple[int, ...], bool]:
    """The best columns by the dominance rule, and whether they are proven best.

    Each column's exact score lies in ``[lowers[c], uppers[c]]`` (solver
    scale); ``scores[c]`` is that score when proven, else the engine's
    estimate.  A column is proven best when its lower bound reaches every
    other column's upper bound: the best are then all such columns.  A
    column whose upper bound is below another's lower bound is *out*.
    Otherwise the best are the columns not out that rank first: by the
    result their lower bound proves (a win, at least a draw, nothing), then
    by the value (an exact score on the engine's scale, or the estimate held
    within the bounds).  So a proven draw is preferred to a column merely
    estimated better, but never to one proven at least a draw; and no
    recommendation is a column another one is proven better than.
    ``at_least`` is a proven lower bound of the position's own score (the
    book's): some column reaches it, so a column whose upper bound is below it
    is out too.

    >>> board = Board.from_moves("4435541")
    >>> loss_in_1, loss_in_2 = (Score.proven_value(s, cells=42, stones=7) for s in (-17, -16))
    >>> guess = Score.estimate(-500.0, cells=42, stones=7)
    >>> best_by_bounds(board, [loss_in_2, loss_in_1, guess], [-16, -17, -17], [-16, -17, 17])
    ((2,), False)
    >>> best_by_bounds(board, [loss_in_2, loss_in_1, guess], [-16, -17, -17], [-16, -17, -16])
    ((0,), True)
    """
    playable = [c for c, score in enumerate(scores) if score is not None]
    bounds = {c: (known_bound(lowers[c]), known_bound(uppers[c])) for c in playable}
    proven = tuple(c for c in playable if all(bounds[c][0] >= bounds[d][1] for d in playable if d != c))
    if proven:
        return proven, True
    top_lower = max(low for low, _ in bounds.values())
    if at_least is not None and any(high >= at_least for _, high in bounds.values()):
        top_lower = max(top_lower, at_least)
    contenders = [c for c in playable if bounds[c][1] >= top_lower]

    def rank(column: int) -> tuple[int, float, float]:
        score = scores[column]
        assert score is not None
        low, high = bounds[column]
        value = raw = score.engine_value()
        if not score.proven:  # an estimate is held within what is proven
            value = min(max(value, _on_engine_scale(low, score)), _on_engine_scale(high, score))
        # among columns held alike (two "at least a draw" estimated below 0), the estimate decides
        return (1 if low > 0 else 0 if low == 0 else -1), value, raw

    ranks = {c: rank(c) for c in contenders}
    top = max(ranks.values())
    return tuple(c for c in contenders if ranks[c] == top), False


def _on_engine_scale(bound: int, like: Score) -> float:
    """A bound of a column's exact score on the engine's scale (0: a draw, about +-1e9: a win or loss)."""
    return Score.proven_value(bound, cells=like.cells, stones=like.stones, weak=like.weak).engine_value()


def known_bound(bound: int | None) -> int:
    assert bound is not None  # every playable column has bounds
    return bound
