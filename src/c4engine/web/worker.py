"""The engine work of the web front-end, run in worker processes.

Everything here takes and returns plain data (move strings, sizes, dicts) so
it can cross a process boundary; the app (:mod:`c4engine.web.app`) sends
these functions to its worker processes (:mod:`c4engine.web.pool`) so the
event loop never searches.  Each takes a ``stop`` callable: the pool sets it
when the client that asked has gone away, and the search ends at its next
poll.

Analyses and the ``perfect`` level ask the analysis service
(:func:`c4engine.search.analysis.shared_analyst`: rules, opening book, exact
solver, then the heuristic engine for what is left, within the time cap);
levels 1-7 are the ladder's players (level 7 asks the same analyst, so a
worker keeps one solver table).

Analyses answer :meth:`c4engine.search.results.PositionAnalysis.to_json`'s
shape, the one ``c4 analyze --json`` gives (docs/analysis.md): every
column's proven bounds ``lower``/``upper`` on the solver benchmarks' scale,
its exact ``score`` (null when unproven), the engine's ``estimate`` (null
when exact), its line ``pv`` and ``label``; ``best`` by the dominance rule
and ``best_proven``.  For the page, each column also has ``outcome``
(``win``/``draw``/``loss``, ``unknown`` when unproven), ``moves`` (the
winner's moves to the end) and ``lean``, the estimate on a human scale from
-1 (clearly worse) to +1 (clearly better).

>>> result = analyze(Board.from_moves("4455"), time_cap=2.0)   # from the opening book
>>> [column["label"] for column in result["columns"][2:6:3]]   # an open three: two ways to win
['win in 2', 'win in 2']
>>> result["best"], result["best_proven"], len(result["columns"][2]["pv"])   # X, O, X's winning stone
([3, 6], True, 3)
"""

from __future__ import annotations

import contextlib
import math
import os
import random
from collections.abc import Callable
from time import monotonic
from typing import Any, Literal

from c4engine.board import Board
from c4engine.play import levels
from c4engine.play.players import PERFECT, EnginePlayer
from c4engine.search.analysis import shared_analyst
from c4engine.search.engine import SearchProgress
from c4engine.search.limit import Limit
from c4engine.search.results import ColumnAnalysis, PositionAnalysis
from c4engine.search.review import ReviewProgress
from c4engine.search.solver import SolveProgress

__all__ = ["PERFECT", "Stop", "analyze", "analyze_position", "engine_move", "review_moves", "warm_up"]

Stop = Callable[[], bool]
"""Asked during a search; True ends it (the client went away)."""

_POLL = 0.02  # seconds between checks of ``stop``: a cancelled search ends this soon
# An estimate of this size (the service's ``areas`` evaluator) reads as "slightly better":
# on random positions of 6-20 stones half the estimates are within 10 of 0, 90 % within 20.
_LEAN_SCALE = 15.0
# The part of a review's time cap shared among the plies of a board the solver cannot hold.
_REVIEW_SHARE = 0.5


def _never() -> bool:
    return False


def warm_up() -> int:
    """Run in each worker when it starts: lower its priority, import and exercise the engine.

    The lower priority keeps the web server's event loop (and its health
    check) responsive while every worker searches.  Returns the process id.
    """
    with contextlib.suppress(OSError):  # not allowed on some systems
        os.nice(5)
    board = Board.from_moves("4453")
    for number in range(1, len(levels.LEVELS) + 1):
        EnginePlayer(level=number, depth=min(3, levels.level(number).depth), seed=0).choose_move(board)
    analyze(Board.from_moves("44535"), time_cap=0.05)  # past the book: the solver compiles and runs
    return os.getpid()


def _analysis(board: Board, seconds: float, stop: Stop) -> PositionAnalysis:
    """The analysis service's answer within ``seconds``, stopped early when ``stop`` says so."""

    def poll(_progress: SolveProgress | SearchProgress) -> bool:
        return stop()

    return shared_analyst().analyze(board, Limit(time=seconds), poll=poll)


def _for_the_page(entry: dict[str, Any], column: ColumnAnalysis) -> dict[str, Any]:
    """A column's JSON with what the page draws besides: the outcome, the winner's moves, the lean."""
    score = column.score
    estimate = column.estimate
    return entry | {
        "outcome": score.outcome,
        "moves": score.moves,
        "lean": None if estimate is None else round(math.tanh(estimate / _LEAN_SCALE), 3) + 0.0,
    }


def analyze(board: Board, time_cap: float, stop: Stop = _never) -> dict[str, Any]:
    """Every column of ``board`` for the side to move, within ``time_cap`` seconds, as JSON.

    :meth:`~c4engine.search.results.PositionAnalysis.to_json`'s fields, each
    column's with ``outcome``, ``moves`` and ``lean`` added (see above).
    """
    analysis = _analysis(board, time_cap, stop)
    result = analysis.to_json(board.move_string, board.size, board.connect)
    columns = analysis.columns
    result["columns"] = [
        None if entry is None or column is None else _for_the_page(entry, column)
        for entry, column in zip(result["columns"], columns, strict=True)
    ]
    return result


def analyze_position(
    moves: str, width: int, height: int, connect: int, time_cap: float, stop: Stop = _never
) -> dict[str, Any]:
    """:func:`analyze` on the position given as a move string (what the pool is sent)."""
    started = monotonic()
    result = analyze(Board.from_moves(moves, width, height, connect), time_cap, stop)
    result["elapsed"] = round(monotonic() - started, 4)
    return result


def review_moves(
    moves: str,
    width: int,
    height: int,
    connect: int,
    ply_time: float,
    total_time: float,
    stop: Stop = _never,
) -> dict[str, Any]:
    """The analysis service's review of the game ``moves`` (:meth:`Analyst.review`), as its JSON.

    Each ply gets ``ply_time`` seconds.  On boards the solver holds, most
    plies are proven in milliseconds (the table is warm from the game's end),
    so the time goes to the few hard ones; on boards it cannot hold every ply
    spends its whole time on an estimate, so there each gets at most its
    share of half ``total_time`` (the other half for what a ply costs beyond
    its limit).  Either way the review stops once it has run
    ``total_time`` seconds: ``complete`` is then false and ``plies`` holds
    the plies reviewed, the game's last ones.  ``stop`` ends it at once.
    Adds ``elapsed`` and ``ply_time`` (the seconds each ply was given).
    """
    board = Board.from_moves(moves, width, height, connect)
    analyst = shared_analyst()
    share = _REVIEW_SHARE * total_time / max(1, board.move_count)
    per_ply = ply_time if board.geometry.fits_64_bits else min(ply_time, share)
    started = monotonic()

    def poll(_progress: SolveProgress | SearchProgress) -> bool:
        return stop()

    def over_time(_progress: ReviewProgress) -> bool:
        return stop() or monotonic() - started > total_time

    review = analyst.review(board, Limit(time=per_ply), progress=over_time, poll=poll)
    result = review.to_json()
    result["elapsed"] = round(monotonic() - started, 4)
    result["ply_time"] = round(per_ply, 4)
    return result


def engine_move(
    moves: str,
    width: int,
    height: int,
    connect: int,
    level: int | Literal["perfect"],
    time_cap: float,
    stop: Stop = _never,
    seed: int | None = None,
) -> dict[str, Any]:
    """The move the computer of ``level`` chooses, stopped after ``time_cap`` seconds.

    ``perfect`` asks the analysis service for the best move it can prove in
    the time.  Returns ``{"column": 1-based, "exact": whether the level's
    full search finished in time (for ``perfect``: whether the move is
    proven best), "elapsed": seconds}``.
    """
    board = Board.from_moves(moves, width, height, connect)
    started = monotonic()
    if level == PERFECT:

        def stop_poll(_progress: SolveProgress | SearchProgress) -> bool:
            return stop()

        verdict = shared_analyst().solve(board, Limit(time=time_cap), poll=stop_poll)
        assert verdict.best_move is not None  # the app refuses finished games
        column, exact = verdict.best_move, verdict.exact
    else:
        capped = False

        def poll(progress: SearchProgress) -> bool:
            nonlocal capped
            if progress.elapsed >= time_cap or stop():
                capped = True
            return capped

        player = EnginePlayer(
            level=level,
            seed=random.randrange(2**32) if seed is None else seed,
            poll=poll,
            poll_interval=_POLL,
        )
        column, exact = player.choose_move(board), not capped
    return {"column": column + 1, "exact": exact, "elapsed": round(monotonic() - started, 4)}
