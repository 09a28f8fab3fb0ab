"""Game review: every move of a game scored, mistakes marked, the better line shown.

:func:`review_game` asks the analysis service (an
:class:`~c4engine.search.analysis.analyst.Analyst`, as any of its clients does)
about every position of a game -- from the last move back to the first, so
that the solver's table, warm from the end of the game, makes the earlier
positions cheap, and the opening book answers the opening -- and compares
the move played with the best one:

* **best** -- the move kept the mover's score;
* **inaccuracy** -- same result, but a slower win or a quicker loss;
* **mistake** -- a win thrown to a draw, or a draw to a loss;
* **blunder** -- a win thrown to a loss;
* **not proven** -- the limit ran out (or the board is too big for the
  solver) before the comparison was proven: the ply carries the proven
  bounds and the engine's estimate, and no verdict it has not proven;
* **not chosen** -- nobody chose the move (a match's random opening,
  ``opening_plies``): scored, but judged for no one and out of every count.

Every mistake and blunder then gets the coach's reasons, ``why``
(:mod:`c4engine.search.review.reasons`): what the move changed -- a threat,
the zugzwang, a proof by Allis' rules -- and the solver's refutation.

A side's accuracy is its share of best moves among its proven ones, given
only from :data:`MIN_PROVEN_MOVES` proven moves on (fewer say too little).

Every score is on the solver's scale (see :mod:`c4engine.search.solver.exact`),
from the mover's view: ``score_before`` is the best any column gets,
``score_after`` what the played column gets.  Where only bounds are proven,
a verdict is still given when the bounds prove it (a proven win answered by
a move proven to be at most a draw is at least a mistake: ``or_worse``
says when the move may be worse than its verdict).

>>> from c4engine.search.analysis.analyst import Analyst
>>> from c4engine.search.limit import UNLIMITED
>>> review = review_game(Analyst(), "44556", UNLIMITED)   # no cap a ply: every score and line proven
>>> print(review)
Result: unfinished, O to move (*)
<BLANKLINE>
ply  side  col  before      after       verdict
  1  X     4    win in 21   win in 21   best
  2  O     4    loss in 20  loss in 20  best
  3  X     5    win in 20   loss in 19  ?? blunder  (best 4: 4 4 4 4 3 2 6 5 ...)
  4  O     5    win in 19   loss in 2   ?? blunder  (best 3: 3 3 4 4 4 4 6 6 ...)
  5  X     6    win in 2    win in 2    best
<BLANKLINE>
X: 3 moves, accuracy: not enough proven moves (3 proven, 5 needed), 0 inaccuracies, 0 mistakes, 1 blunder
O: 2 moves, accuracy: not enough proven moves (2 proven, 5 needed), 0 inaccuracies, 0 mistakes, 1 blunder
>>> review.summary.turning_points, review.to_json()["plies"][2]["verdict"]
((3, 4), 'blunder')
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Final, Protocol

from c4engine.board import Board
from c4engine.errors import NotationError, ReviewError
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.limit import UNLIMITED, Limit
from c4engine.search.progress import Hook, Progress
from c4engine.search.review.answers import PlyReview, Review
from c4engine.search.review.columns import intersect, value_bounds
from c4engine.search.review.lines import Aside
from c4engine.search.review.ply import review_ply
from c4engine.search.review.reasons import with_reasons
from c4engine.search.review.verdicts import verdict_of

__all__ = ["DEFAULT_PLY_LIMIT", "GameLike", "board_of_game", "review_game"]

DEFAULT_PLY_LIMIT: Final = Limit(time=1.0)
"""What one ply's analysis may cost by default: about a second."""

TOTAL_SHARE: Final = 0.5
"""On a board the solver cannot hold, where every ply spends its whole time on an estimate, the part of
a review's ``total`` time its plies share (the rest for what a ply costs beyond its limit)."""


class GameLike(Protocol):
    """Anything that can give the board its moves lead to (a :class:`c4engine.play.record.GameRecord`)."""

    def to_board(self) -> Board: ...


def review_game(
    analyst: Analyst,
    game: str | Board | GameLike,
    limit: Limit = DEFAULT_PLY_LIMIT,
    *,
    width: int = 7,
    height: int = 6,
    connect: int = 4,
    progress: Hook | None = None,
    poll: Hook | None = None,
    beside: bool | None = None,
    total: Limit | None = None,
    opening_plies: int = 0,
    result: tuple[str, str | None] | None = None,
    reasons: bool = True,
) -> Review:
    """Every move of ``game`` scored and judged by ``analyst``, each ply within ``limit``: the review's
    one entry point, a client of the analysis service.

    ``game`` is a move string (on a ``width`` x ``height`` connect-``connect``
    board), a :class:`Board` with its history, or a game record
    (:func:`board_of_game`).
    The first ``opening_plies`` moves were chosen by nobody (a match's random
    opening): they are scored but judged for no one (``"not chosen"``).
    ``result`` is the game's result and how it ended (``("0-1", "time")``)
    where it did not end on the board (a match game lost on time); by
    default the board's.  ``reasons`` gives every mistake and blunder the coach's
    ``why`` (:mod:`c4engine.search.review.reasons`); without them a review of many
    games costs about half as much.  Without a time limit the review gives the same
    answer every run, as long as the analyst's solver runs on one thread (a
    node budget counts the nodes of every thread, which share the work
    differently each run).

    ``poll`` is handed to every analysis (it can stop a search);
    ``progress`` is called after each ply and stops the review by returning
    True.  ``total``'s time bounds the whole review (each ply's nodes and
    depth are ``limit``'s): it stops once it has run that long, and on a
    board the solver cannot hold each ply gets at most its share of
    :data:`TOTAL_SHARE` of it.  What nothing else waits for --
    the better lines of the costly moves, and the best columns of the plies
    whose value the book gives -- is searched in a thread beside the
    review, by a second analyst (its own solver and table), when ``beside``
    -- by default when the machine has more than one core: the solver's
    kernel runs without the interpreter's lock, so with a core free that
    work costs little wall time (and some more CPU: the second table is not
    warm from the game).
    Either way the review is the same (each line is the most central best
    move at every step, whichever table found it).
    """
    budget = (total or UNLIMITED).start()
    final = board_of_game(game, width, height, connect)
    moves = final.moves
    if not 0 <= opening_plies <= len(moves):
        raise ReviewError(f"{opening_plies} opening plies: the game has {len(moves)} moves")
    positions = _positions_played_in(final)
    if beside is None:
        beside = (os.cpu_count() or 1) > 1
    if budget.limit.time is not None and limit.time is not None and not final.geometry.solver_holds:
        ply_share = budget.limit.share(TOTAL_SHARE / max(1, len(moves)))
        limit = replace(limit, time=min(limit.time, ply_share.time or limit.time))
    reviewed: list[PlyReview] = []
    complete = True
    with Aside(analyst, limit, beside=beside and final.geometry.solver_holds) as aside:
        # the value of the position after each move (the next mover's view), as bounds: known from
        # the ply after it, reviewed first; the game's last position is asked for when the game goes on
        after_move: tuple[int, int] | None = None
        if moves and not final.is_over and final.geometry.solver_holds:
            after_move = value_bounds(analyst.solve(final, limit, poll=poll))
        for index in reversed(range(len(moves))):
            chosen = index >= opening_plies
            ply = review_ply(analyst, positions[index], moves[index], limit, poll, after_move, aside, chosen)
            after_move = (ply.before_lower, ply.before_upper)
            reviewed.append(ply)
            done = Progress(time=budget.time_spent, plies_done=len(reviewed), plies=len(moves), ply=ply)
            stopped = progress is not None and progress(done)
            if (stopped is True or budget.expired) and index > 0:
                complete = False
                aside.stop()
                break
        plies = [aside.finish(ply) for ply in reversed(reviewed)]
    judged = _agreeing(plies)  # the verdicts final: now the mistakes and blunders get their reasons
    reasoned = with_reasons(analyst, positions, judged, limit, budget) if reasons else judged
    outcome, reason = result if result is not None else (final.result, None)
    return Review(
        moves=moves,
        width=final.width,
        height=final.height,
        connect=final.connect,
        result=outcome,
        plies=reasoned,
        complete=complete,
        time=budget.time_spent,
        ply_limit=limit,
        opening_plies=opening_plies,
        result_reason=reason,
    )


def _positions_played_in(final: Board) -> list[Board]:
    """The position each move of ``final``'s game was played in, the empty board first."""
    walk = Board(final.width, final.height, final.connect)
    positions: list[Board] = []
    for column in final.moves:
        positions.append(walk.copy())
        walk.play(column)
    return positions


def _agreeing(plies: list[PlyReview]) -> tuple[PlyReview, ...]:
    """The plies with what each proves of its neighbour shared: a ply's score after its move is the
    next mover's score before, negated (a ply's fallback analysis may have proven it after the next
    ply, reviewed first, was judged), and every changed ply judged again.  So is an estimate: the
    position after a move has one, its own analysis's (the next ply's best), so that consecutive
    plies never tell of one position two values of different signs (an analysis of the earlier
    position estimates it a depth shallower, ending on the other side's stone)."""
    for index in range(len(plies) - 1):
        earlier, later = plies[index], plies[index + 1]
        if earlier.estimate is not None and later.best_estimate is not None:
            plies[index] = earlier = replace(earlier, estimate=-later.best_estimate + 0.0)  # no -0.0
        lower, upper = intersect((earlier.lower, earlier.upper), (-later.before_upper, -later.before_lower))
        if (lower, upper) != (earlier.lower, earlier.upper):
            plies[index] = _judged(replace(earlier, lower=lower, upper=upper))
        if (-upper, -lower) != (later.before_lower, later.before_upper):
            plies[index + 1] = _judged(replace(later, before_lower=-upper, before_upper=-lower))
    return tuple(plies)


def _judged(ply: PlyReview) -> PlyReview:
    """``ply`` with its verdict from its bounds (a move now proven best loses its better line)."""
    verdict, or_worse = verdict_of(ply.before_lower, ply.before_upper, ply.lower, ply.upper, ply.chosen)
    judged = replace(ply, verdict=verdict, or_worse=or_worse)
    if verdict == "best":
        judged = replace(judged, pv=(), pv_complete=False)
    return replace(
        judged,
        estimate=None if ply.lower == ply.upper else ply.estimate,
        best_estimate=None if ply.before_lower == ply.before_upper else ply.best_estimate,
    )


def board_of_game(game: str | Board | GameLike, width: int = 7, height: int = 6, connect: int = 4) -> Board:
    """The final board of ``game``, its history the game: a move string (on a ``width`` x ``height``
    connect-``connect`` board), a :class:`Board` (copied) or a game record (anything with ``to_board()``).

    >>> board_of_game("4455").moves
    (3, 3, 4, 4)
    """
    if isinstance(game, str):
        return Board.from_moves(game.strip(), width, height, connect)
    if isinstance(game, Board):
        return game.copy()
    to_board = getattr(game, "to_board", None)
    if to_board is None:
        raise NotationError(f"a game is a move string, a Board or a game record, not {type(game).__name__}")
    board = to_board()
    if not isinstance(board, Board):
        raise NotationError(f"{type(game).__name__}.to_board() gave {type(board).__name__}, not a Board")
    return board
