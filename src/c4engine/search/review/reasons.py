"""Why a costly move cost what it did: the coach's reasons for every mistake and blunder of a review
(:func:`with_reasons`).

A reason is the coach's :func:`~c4engine.search.coach.explanation.explain_move`: what the move
changed in the facts of the position -- a threat given up or let through, the zugzwang handed over,
a proof by Allis' rules broken or given to the opponent -- then the solver's score after it and its
refutation, every sentence rendered from a checked fact.  It is asked of the review's own analyst
(whose table the review has just warmed), each solve within the review's limit a ply and what is
left of its total time.  Most of a reason's cost is the coach's search for proofs by rules, before
the move and after it (about 0.3 s of CPU a reason on 7x6 with Allis' combination for the second
player: docs/review.md).

>>> from c4engine.search.analysis.analyst import Analyst
>>> from c4engine.search.limit import UNLIMITED
>>> from c4engine.search.review.game import review_game
>>> review = review_game(Analyst(), "44556", UNLIMITED)
>>> [ply.why is not None for ply in review.plies]   # the two blunders, and only they
[False, False, True, True, False]
>>> review.plies[3].why.split(". ")[0]
'X answers in column 3 with a double threat (columns 2 and 6): one move cannot stop both'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from c4engine.board import Board
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.coach.explanation import explain, explain_move
from c4engine.search.limit import MIN_TIME, Budget, Limit
from c4engine.search.results import Score
from c4engine.search.review.answers import PlyReview
from c4engine.search.review.verdicts import PlyVerdict

__all__ = ["REASONED", "reason_limit", "with_reasons"]

REASONED: Final[tuple[PlyVerdict, ...]] = ("mistake", "blunder")
"""The verdicts whose plies get a ``why``: the moves proven to have changed the game's result."""


def with_reasons(
    analyst: Analyst, positions: Sequence[Board], plies: Sequence[PlyReview], limit: Limit, total: Budget
) -> tuple[PlyReview, ...]:
    """``plies`` with the coach's ``why`` on every one whose verdict is in :data:`REASONED`.

    ``positions[ply.index]`` is the position each ply's move was played
    in; ``limit`` is the review's limit a ply and ``total`` the review's
    whole budget under way (:func:`reason_limit`).  The best score the
    review proved is handed to the coach, so only the position after the
    move is solved (twice: its score, then its refutation line).  Once
    ``total``'s time is spent no more reasons are asked: the later plies keep
    ``why`` None: only a review whose total time runs out can leave a mistake
    without its reasons (the coach's search for a proof by rules is bounded by
    no limit, so this is the one way to keep the reasons within the total).
    """
    reasoned = []
    for ply in plies:
        if ply.verdict in REASONED and total.expired is None:
            board = positions[ply.index]
            asked = reason_limit(limit, total)
            best = None
            if ply.score_before is not None:
                best = Score.proven_value(ply.score_before, cells=ply.cells, stones=board.move_count)
            before = explain(board, analyst=analyst, limit=asked, score=best)
            move = explain_move(board, ply.column, analyst=analyst, limit=asked, before=before)
            ply = replace(ply, why=move.why())
        reasoned.append(ply)
    return tuple(reasoned)


def reason_limit(limit: Limit, total: Budget) -> Limit:
    """One reason's limit: the review's ``limit`` a ply, its time cut to what is left of ``total``'s
    (at least :data:`~c4engine.search.limit.MIN_TIME`).

    >>> spent = Limit(time=2.0).start(iter([0.0, 1.5]).__next__)
    >>> reason_limit(Limit(time=1.0), spent), reason_limit(Limit(nodes=10**6), Limit().start())
    (Limit(time=0.5), Limit(nodes=1000000))
    """
    left = total.time_left()
    if left is None or (limit.time is not None and limit.time <= left):
        return limit
    return replace(limit, time=max(left, MIN_TIME))
