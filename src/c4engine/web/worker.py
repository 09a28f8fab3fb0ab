"""The engine work of the web front-end, run in worker processes.

Everything here takes and returns plain data (move strings, sizes, dicts) so
it can cross a process boundary; the app (:mod:`c4engine.web.app`) sends
these functions to its worker processes (:mod:`c4engine.web.pool`) so the
event loop never searches.  Each takes a ``stop`` callable: the pool sets it
when the client that asked has gone away, and the search ends at its next
poll.

Analyses and the ``perfect`` level ask the analysis service
(:func:`c4engine.search.analysis.analyst.shared_analyst`: rules, opening book, exact
solver, then the heuristic engine for what is left, within the request's
:class:`~c4engine.search.limit.Limit`, made by the app from its query);
levels 1-7 are the ladder's players (level 7 asks the same analyst, so a
worker keeps one solver table).

Analyses answer :meth:`c4engine.search.results.PositionAnalysis.to_json`'s
shape, the one ``c4 analyze --json`` gives (docs/analysis.md): every
column's proven bounds ``lower``/``upper`` on the solver benchmarks' scale,
its exact ``score`` (null when unproven), the engine's ``estimate`` (null
when exact), its line ``pv`` and ``label``; ``best`` by the dominance rule
and ``best_proven``; the position's own score ``position_score`` (the
book's when it holds the position).  For the page, each column also has ``outcome``
(``win``/``draw``/``loss``, ``unknown`` when unproven), ``moves`` (the
winner's moves to the end) and ``lean``, the estimate on a human scale from
-1 (clearly worse) to +1 (clearly better).

>>> result = analyze(Board.from_moves("4455"), Limit(time=2.0))   # from the opening book
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
from dataclasses import replace
from time import monotonic
from typing import Any, Literal

from c4engine.board import Board
from c4engine.play import levels
from c4engine.play.players import PERFECT, EnginePlayer
from c4engine.search.analysis.analyst import shared_analyst
from c4engine.search.coach.explanation import explain
from c4engine.search.limit import Limit
from c4engine.search.progress import Progress
from c4engine.search.results import ColumnAnalysis, PlayResult, PositionAnalysis
from c4engine.search.review.game import review_game

__all__ = [
    "PERFECT",
    "Stop",
    "analyze",
    "analyze_position",
    "engine_move",
    "explain_position",
    "retry_mistake",
    "review_moves",
    "try_puzzle",
    "warm_up",
]

Stop = Callable[[], bool]
"""Asked during a search; True ends it (the client went away)."""

_POLL = 0.02  # seconds between checks of ``stop``: a cancelled search ends this soon
# An estimate of this size (the service's ``areas`` evaluator) reads as "slightly better":
# on random positions of 6-20 stones half the estimates are within 10 of 0, 90 % within 20.
_LEAN_SCALE = 15.0


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
    for entry in levels.LEVELS:
        shallow = replace(entry.limit, depth=min(3, entry.limit.depth or 3))
        EnginePlayer(entry.number, limit=shallow, seed=0).choose_move(board)
    analyze(Board.from_moves("44535"), Limit(time=0.05))  # past the book: the solver compiles and runs
    return os.getpid()


def _analysis(board: Board, limit: Limit, stop: Stop) -> PositionAnalysis:
    """The analysis service's answer within ``limit``, stopped early when ``stop`` says so."""

    def poll(_progress: Progress) -> bool:
        return stop()

    return shared_analyst().analyze(board, limit, poll=poll)


def _for_the_page(entry: dict[str, Any], column: ColumnAnalysis) -> dict[str, Any]:
    """A column's JSON with what the page draws besides: the outcome, the winner's moves (exact, or at
    most), the lean."""
    score = column.score
    estimate = column.estimate
    return entry | {
        "outcome": score.outcome,
        "moves": score.moves,
        "moves_at_most": column.moves_at_most,
        "lean": None if estimate is None else round(math.tanh(estimate / _LEAN_SCALE), 3) + 0.0,
    }


def analyze(board: Board, limit: Limit, stop: Stop = _never) -> dict[str, Any]:
    """Every column of ``board`` for the side to move, within ``limit``, as JSON.

    :meth:`~c4engine.search.results.PositionAnalysis.to_json`'s fields, each
    column's with ``outcome``, ``moves``, ``moves_at_most`` and ``lean`` added (see above).
    """
    analysis = _analysis(board, limit, stop)
    result = analysis.to_json(board.move_string, board.size, board.connect)
    columns = analysis.columns
    result["columns"] = [
        None if entry is None or column is None else _for_the_page(entry, column)
        for entry, column in zip(result["columns"], columns, strict=True)
    ]
    return result


def analyze_position(
    moves: str, width: int, height: int, connect: int, limit: Limit, stop: Stop = _never
) -> dict[str, Any]:
    """:func:`analyze` on the position given as a move string (what the pool is sent)."""
    started = monotonic()
    result = analyze(Board.from_moves(moves, width, height, connect), limit, stop)
    result["time"] = round(monotonic() - started, 4)
    return result


def explain_position(
    moves: str, width: int, height: int, connect: int, limit: Limit, stop: Stop = _never
) -> dict[str, Any]:
    """The coach's explanation of the position ``moves``
    (:meth:`~c4engine.search.coach.explanation.Explanation.to_json`, the one ``c4 explain --json``
    gives; docs/explain.md), its score asked of the shared analyst within ``limit``.  Adds ``time``.

    ``stop`` is not polled: ``limit`` bounds the solve, and the facts around it (threats, zugzwang,
    the search for a proof by Allis' rules) take no search: a few milliseconds of CPU on 7x6
    (p95 7 ms over 80 positions of Test_L2_R1 and Test_L3_R1), 0.1 s on an empty 12x10, but about
    4 s on an empty 32x32 -- beyond the cap, which bounds only the solve.
    """
    started = monotonic()
    board = Board.from_moves(moves, width, height, connect)
    result = explain(board, analyst=shared_analyst(), limit=limit).to_json()
    result["time"] = round(monotonic() - started, 4)
    return result


def review_moves(
    moves: str,
    width: int,
    height: int,
    connect: int,
    ply: Limit,
    total: Limit,
    stop: Stop = _never,
) -> dict[str, Any]:
    """The review of the game ``moves`` (:func:`~c4engine.search.review.game.review_game`), as its JSON.

    Each ply gets ``ply`` (its time: the server's cap), the whole review
    ``total``'s time (on boards the solver cannot hold, each ply at most its
    share).  Once it has run that long, ``complete`` is false and ``plies`` holds the
    plies reviewed, the game's last ones.  ``stop`` ends it at once.  Adds
    ``time``.
    """
    board = Board.from_moves(moves, width, height, connect)
    started = monotonic()

    def poll(_progress: Progress) -> bool:
        return stop()

    def stopped(_progress: Progress) -> bool:
        return stop()

    review = review_game(shared_analyst(), board, ply, progress=stopped, poll=poll, total=total)
    result = review.to_json()
    result["time"] = round(monotonic() - started, 4)
    return result


def try_puzzle(
    moves: str,
    width: int,
    height: int,
    connect: int,
    puzzle: dict[str, Any],
    step: int,
    column: int,
    limit: Limit,
    stop: Stop = _never,
) -> dict[str, Any]:
    """The try of ``column`` (0-based) at the solver's move ``step`` of ``puzzle`` (its JSON, whose
    position ``moves`` is), as :class:`~c4engine.search.puzzles.attempt.Attempt`'s JSON; the refutation
    of a wrong one is proven within ``limit``."""
    from c4engine.search.puzzles.attempt import try_move
    from c4engine.search.puzzles.puzzle import Puzzle

    return try_move(Puzzle.from_json(puzzle), step, column, shared_analyst(), limit).to_json()


def retry_mistake(
    moves: str, width: int, height: int, connect: int, column: int, limit: Limit, stop: Stop = _never
) -> dict[str, Any]:
    """A retry of the position ``moves`` with ``column`` (0-based), as
    :class:`~c4engine.search.puzzles.retry.Retry`'s JSON, judged within ``limit``."""
    from c4engine.search.puzzles.retry import retry_move

    board = Board.from_moves(moves, width, height, connect)
    return retry_move(shared_analyst(), board, column, limit).to_json()


def engine_move(
    moves: str,
    width: int,
    height: int,
    connect: int,
    level: int | Literal["perfect"],
    limit: Limit,
    stop: Stop = _never,
    seed: int | None = None,
) -> dict[str, Any]:
    """The move the computer of ``level`` chooses, stopped after ``limit``'s time (the server's cap).

    ``perfect`` asks the analysis service for the best move it can prove
    within ``limit``.  Returns the move's :meth:`PlayResult.to_json
    <c4engine.search.results.PlayResult.to_json>` (``column`` 1-based, ``proven``: whether the
    move is proven best, ``stopped``, ``pv`` ...), with ``complete`` (the search finished within
    the limit's time: the level's full search; for ``perfect``, the analysis service's) and
    ``time`` the wall-clock seconds of the whole answer.
    """
    board = Board.from_moves(moves, width, height, connect)
    started = monotonic()
    if level == PERFECT:

        def stop_poll(_progress: Progress) -> bool:
            return stop()

        result = shared_analyst().solve(board, limit, poll=stop_poll)
        complete = result.stopped is None
    else:
        capped = False
        time_cap = math.inf if limit.time is None else limit.time

        def poll(progress: Progress) -> bool:
            nonlocal capped
            if progress.time >= time_cap or stop():
                capped = True
            return capped

        player = EnginePlayer(
            level=level,
            seed=random.randrange(2**32) if seed is None else seed,
            poll=poll,
            poll_interval=_POLL,
        )
        column = player.choose_move(board)
        # a level's random move (its noise) is no search: a move and nothing known of it
        result = player.last or PlayResult(column=column, score=None, source="engine", proven=False)
        complete = not capped
    assert result.column is not None  # the app refuses finished games
    return {**result.to_json(), "complete": complete, "time": round(monotonic() - started, 4)}
