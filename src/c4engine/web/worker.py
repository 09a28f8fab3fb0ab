"""The engine work of the web front-end, run in worker processes.

Everything here takes and returns plain data (move strings, sizes, dicts) so
it can cross a process boundary; the app (:mod:`c4engine.web.app`) sends
these functions to its worker processes (:mod:`c4engine.web.pool`) so the
event loop never searches.  Each takes a ``stop`` callable: the pool sets it
when the client that asked has gone away, and the search ends at its next
poll.

:func:`analyze` is the one place that decides how a position is analysed
(:func:`_proven_scores`: the opening book, then the exact solver within most
of the time cap); columns not proven by then -- early in the game, or on
boards too big for the solver -- get the heuristic
:class:`~c4engine.search.engine.Engine`'s estimate in the time left.

Scores follow the solver benchmarks' convention: positive when the side to
move wins by playing that column, ``(cells + 1 - stones) // 2`` in magnitude,
where ``stones`` counts the stones on the board when the winning stone is
played, that stone excepted (so a quicker win scores higher, and a win with
the board's last stone still scores 1); ``0`` is a draw.  A column whose
outcome the search could not prove gets ``exact: false``, the engine's
heuristic score and ``lean``, that score on a human scale from -1 (clearly
worse) to +1 (clearly better).

The best columns are those with the best *proven* score.  An unproven
column outranks them only when its proven lower bound is higher (the solver
bounds every column it started on, and a heuristic search to depth ``d``
that found no forced loss proves the loss, if any, comes later); among such
columns, and when nothing is proven at all, the estimates decide.  So an
estimate is never ranked above a proof on its own say-so.

>>> result = analyze(Board.from_moves("4455"), time_cap=2.0)   # from the opening book
>>> [column["label"] for column in result["columns"][2:6:3]]   # an open three: two ways to win
['win in 2', 'win in 2']
>>> result["best"], result["exact"]
([3, 6], True)
"""

from __future__ import annotations

import contextlib
import math
import os
import random
from collections.abc import Callable
from time import monotonic
from typing import Any

from c4engine.board import Board
from c4engine.play import levels
from c4engine.play.perfect import Analyst
from c4engine.play.players import EnginePlayer
from c4engine.search.engine import WIN_SCORE, Engine, SearchProgress
from c4engine.search.evaluators import windows
from c4engine.search.results import Analysis, moves_to_end
from c4engine.search.solver import SolveProgress, Solver

__all__ = ["Stop", "analyze", "analyze_position", "engine_move", "warm_up"]

Stop = Callable[[], bool]
"""Asked during a search; True ends it (the client went away)."""

_MAX_PLIES = 32 * 32
_WIN_THRESHOLD = WIN_SCORE - _MAX_PLIES
_SOLVER_TABLE_MB = 32  # per worker process
_SOLVER_SHARE = 0.7  # of the time cap; the heuristic search gets the rest
_POLL = 0.02  # seconds between checks of ``stop``: a cancelled search ends this soon
# Engine scores of this size mean "clearly better": the opening's columns
# score a few hundred, a won position over a thousand.
_LEAN_SCALE = 400.0

_analyst: Analyst | None = None


def _never() -> bool:
    return False


def _worker_analyst() -> Analyst:
    """This process's book and solver, made on first use and kept (with the solver's table)."""
    global _analyst
    if _analyst is None:
        _analyst = Analyst(table_size_mb=_SOLVER_TABLE_MB)
    return _analyst


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


def _proven_scores(board: Board, seconds: float, stop: Stop) -> Analysis | None:
    """Every column's exact score that the book or the solver gives within ``seconds``.

    The one call to switch to the analysis service; None when the board is
    too big for the solver and the book lacks it.
    """
    analyst = _worker_analyst()
    if analyst.book_scores(board) is not None:
        return analyst.analyze(board, pv=True)

    def poll(_progress: SolveProgress) -> bool:
        return stop()

    if not Solver.supports(board.width, board.height):
        return None
    return analyst.solver.analyze(board, pv=True, time_limit=seconds, poll=poll, poll_interval=_POLL)


def _exact_entry(column: int, score: int, board: Board) -> dict[str, Any]:
    """A proven column: ``score`` in the solver's convention (see the module's doc)."""
    entry: dict[str, Any] = {"column": column + 1, "exact": True, "score": score, "lean": None}
    if score == 0:
        return entry | {"outcome": "draw", "moves": None, "label": "draw"}
    moves = moves_to_end(score, board.width * board.height, board.move_count)
    outcome = "win" if score > 0 else "loss"
    return entry | {"outcome": outcome, "moves": moves, "label": f"{outcome} in {moves}"}


def _engine_entry(column: int, value: float, board: Board) -> dict[str, Any]:
    """A column the engine searched; ``value`` is its score for the mover after playing ``column``.

    A forced win or loss the engine saw is exact; anything else is an estimate.
    """
    if abs(value) >= _WIN_THRESHOLD:
        plies = int(WIN_SCORE - abs(value))  # plies from now, the winning stone included
        before = board.move_count + plies - 1
        magnitude = (board.width * board.height + 1 - before) // 2
        return _exact_entry(column, magnitude if value > 0 else -magnitude, board)
    score = round(value, 1)
    return {
        "column": column + 1,
        "exact": False,
        "score": score,
        "lean": round(math.tanh(value / _LEAN_SCALE), 3),
        "outcome": "unknown",
        "moves": None,
        "label": f"{score:+.0f}",
    }


def analyze(board: Board, time_cap: float, stop: Stop = _never) -> dict[str, Any]:
    """The value of every column of ``board`` for the side to move, within ``time_cap`` seconds.

    Returns ``{"columns": [entry or None per column], "best": [1-based columns],
    "exact": bool, "pv": [1-based columns]}``; an entry has ``column``
    (1-based), ``score``, ``exact``, ``outcome`` (``win``/``loss``/``draw``/
    ``unknown``), ``moves`` (the winner's moves to the end, the column's own
    included for a win), ``label`` (``"win in 5"``, ``"draw"``, ``"loss in
    8"``, or the heuristic score) and ``lean`` (estimates only: -1..1).
    ``pv`` is the best line from the first best column when every column is
    proven, else empty.
    """
    legal = board.legal_moves()
    cells = board.width * board.height
    columns: list[dict[str, Any] | None] = [None] * board.width
    lowers: list[int | None] = [None] * board.width  # proven lower bounds of unproven columns
    deadline = monotonic() + time_cap
    proven = _proven_scores(board, time_cap * _SOLVER_SHARE, stop)
    if proven is not None:
        for column, score in enumerate(proven.scores):
            if score is not None:
                columns[column] = _exact_entry(column, score, board)
        lowers = list(proven.lowers) or lowers
    unsolved = [column for column in legal if columns[column] is None]

    def poll(_progress: SearchProgress) -> bool:
        return stop()

    for index, column in enumerate(unsolved):
        if board.is_winning_move(column):
            columns[column] = _engine_entry(column, WIN_SCORE - 1, board)
            continue
        child = board.copy()
        child.play(column)
        if child.is_full:
            columns[column] = _exact_entry(column, 0, board)
            continue
        share = max(deadline - monotonic(), 0.0) / (len(unsolved) - index)
        engine = Engine(
            windows, time_limit=max(share, 0.002), center_first_move=False, poll=poll, poll_interval=_POLL
        )
        result = engine.search(child)
        value = -result.score + 0.0
        if abs(value) >= _WIN_THRESHOLD:
            value = value - 1 if value > 0 else value + 1  # one more ply: this column's stone
        remaining = cells - child.move_count
        if abs(value) < _WIN_THRESHOLD and not result.stopped and result.depth >= remaining:
            columns[column] = _exact_entry(column, 0, board)  # searched to the end: a draw
            continue
        columns[column] = _engine_entry(column, value, board)
        if value > -_WIN_THRESHOLD and result.depth > 0:
            # no forced loss within ``depth`` plies of the child: if lost, the winning stone
            # comes later, after at least child.move_count + depth stones
            floor = -((cells + 1 - child.move_count - result.depth) // 2)
            known = lowers[column]
            lowers[column] = floor if known is None else max(floor, known)
    entries = [entry for entry in columns if entry is not None]
    exact = all(entry["exact"] for entry in entries)
    ranked = [entry for entry in entries if entry["exact"]]
    if ranked:
        top = max(entry["score"] for entry in ranked)
        above = [e for e in entries if not e["exact"] and (lowers[e["column"] - 1] or -cells) > top]
        ranked = above or ranked
    ranked = ranked or entries
    best_score = max(entry["score"] for entry in ranked)
    best = [entry["column"] for entry in ranked if entry["score"] == best_score]
    pv = [column + 1 for column in proven.pv] if exact and proven is not None and proven.exact else []
    if pv and pv[0] not in best:  # the engine proved a quicker win than the solver's line
        pv = []
    return {"columns": columns, "best": best, "exact": exact, "pv": pv}


def analyze_position(
    moves: str, width: int, height: int, connect: int, time_cap: float, stop: Stop = _never
) -> dict[str, Any]:
    """:func:`analyze` on the position given as a move string (what the pool is sent)."""
    started = monotonic()
    result = analyze(Board.from_moves(moves, width, height, connect), time_cap, stop)
    result["elapsed"] = round(monotonic() - started, 4)
    return result


def engine_move(
    moves: str,
    width: int,
    height: int,
    connect: int,
    level: int,
    time_cap: float,
    stop: Stop = _never,
    seed: int | None = None,
) -> dict[str, Any]:
    """The move the computer of ``level`` chooses, stopped after ``time_cap`` seconds.

    Returns ``{"column": 1-based, "exact": whether the level's full search
    finished in time, "elapsed": seconds}``.
    """
    board = Board.from_moves(moves, width, height, connect)
    capped = False

    def poll(progress: SearchProgress) -> bool:
        nonlocal capped
        if progress.elapsed >= time_cap or stop():
            capped = True
        return capped

    started = monotonic()
    player = EnginePlayer(
        level=level, seed=random.randrange(2**32) if seed is None else seed, poll=poll, poll_interval=_POLL
    )
    column = player.choose_move(board)
    return {"column": column + 1, "exact": not capped, "elapsed": round(monotonic() - started, 4)}
