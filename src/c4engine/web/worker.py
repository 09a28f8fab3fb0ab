"""The engine work of the web front-end, run in worker processes.

Everything here takes and returns plain data (move strings, sizes, dicts) so
it can cross a process boundary; the app (:mod:`c4engine.web.app`) submits
these functions to a process pool so the event loop never searches.

:func:`analyze` is the one place that decides how a position is analysed:
the exact solver (:class:`~c4engine.search.solver.Solver`, one per worker, its
table kept between requests) scores every column it can within most of the
time cap; columns it has not proven by then -- early in the game, or on
boards too big for the solver -- are searched by the heuristic
:class:`~c4engine.search.engine.Engine` in the time left.

Scores follow the solver benchmarks' convention: positive when the side to
move wins by playing that column, ``(cells + 1 - stones) // 2`` in magnitude,
where ``stones`` counts the stones on the board when the winning stone is
played, that stone excepted (so a quicker win scores higher, and a win with
the board's last stone still scores 1); ``0`` is a draw.  A column whose
outcome the search could not prove gets ``exact: false`` and the engine's
heuristic score instead.

>>> result = analyze(Board.from_moves("4455"), time_cap=2.0)
>>> [column["label"] for column in result["columns"][2:6:3]]   # an open three: two ways to win
['win in 2', 'win in 2']
>>> result["best"]
[3, 6]
"""

from __future__ import annotations

import contextlib
import os
import random
from time import monotonic
from typing import Any

from c4engine.board import Board
from c4engine.play import levels
from c4engine.play.players import EnginePlayer
from c4engine.search.engine import WIN_SCORE, Engine, SearchProgress
from c4engine.search.evaluators import windows
from c4engine.search.solver import Solver, moves_to_end

__all__ = ["analyze", "analyze_position", "engine_move", "warm_up"]

_MAX_PLIES = 32 * 32
_WIN_THRESHOLD = WIN_SCORE - _MAX_PLIES
_SOLVER_TABLE_MB = 32  # per worker process
_SOLVER_SHARE = 0.7  # of the time cap; the heuristic search gets the rest

_solver: Solver | None = None


def _worker_solver() -> Solver:
    """This process's solver, created on first use and kept (with its table) for later requests."""
    global _solver
    if _solver is None:
        _solver = Solver(table_size_mb=_SOLVER_TABLE_MB)
    return _solver


def _exact_value(score: int, board: Board) -> float:
    """The solver's ``score`` of a column as an engine value (a win or loss in so many plies)."""
    if score == 0:
        return 0.0
    moves = moves_to_end(score, board.width * board.height, board.move_count)
    plies = 2 * moves - 1 if score > 0 else 2 * moves  # the winner's stones and the replies between
    return float(WIN_SCORE - plies) if score > 0 else float(plies - WIN_SCORE)


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
    analyze(board, time_cap=0.05)
    return os.getpid()


def _column_entry(column: int, value: float, exact: bool, board: Board) -> dict[str, Any]:
    """One column's analysis; ``value`` is the engine's score for the mover after playing ``column``."""
    cells = board.width * board.height
    entry: dict[str, Any] = {"column": column + 1, "exact": exact, "value": value}
    if abs(value) >= _WIN_THRESHOLD:
        plies = int(WIN_SCORE - abs(value))  # plies from now, the winning stone included
        before = board.move_count + plies - 1  # stones on the board when the winning one is dropped
        magnitude = (cells + 1 - before) // 2
        moves = (plies + 1) // 2
        win = value > 0
        entry.update(
            score=magnitude if win else -magnitude,
            outcome="win" if win else "loss",
            moves=moves,
            label=f"{'win' if win else 'loss'} in {moves}",
        )
    elif exact:
        entry.update(score=0, outcome="draw", moves=None, label="draw")
    else:
        entry.update(score=round(value, 1), outcome="unknown", moves=None, label=f"{value:+.0f}")
    return entry


def analyze(board: Board, time_cap: float) -> dict[str, Any]:
    """The value of every column of ``board`` for the side to move, within ``time_cap`` seconds.

    Returns ``{"columns": [entry or None per column], "best": [1-based columns],
    "exact": bool}``; an entry has ``column`` (1-based), ``score``,
    ``exact``, ``outcome`` (``win``/``loss``/``draw``/``unknown``), ``moves``
    (the winner's moves to the end, the column's own included for a win) and
    ``label`` (``"win in 5"``, ``"draw"``, ``"loss in 8"``, or the heuristic
    score).  ``value`` orders the columns (the engine's score).
    """
    legal = board.legal_moves()
    columns: list[dict[str, Any] | None] = [None] * board.width
    deadline = monotonic() + time_cap
    if Solver.supports(board.width, board.height):
        solved = _worker_solver().analyze(board, pv=False, time_limit=time_cap * _SOLVER_SHARE)
        for column, score in enumerate(solved.scores):
            if score is not None:
                columns[column] = _column_entry(column, _exact_value(score, board), True, board)
    unsolved = [column for column in legal if columns[column] is None]
    for index, column in enumerate(unsolved):
        if board.is_winning_move(column):
            columns[column] = _column_entry(column, WIN_SCORE - 1, True, board)
            continue
        child = board.copy()
        child.play(column)
        if child.is_full:
            columns[column] = _column_entry(column, 0.0, True, board)
            continue
        share = max(deadline - monotonic(), 0.0) / (len(unsolved) - index)
        result = Engine(windows, time_limit=max(share, 0.002), center_first_move=False).search(child)
        remaining = child.width * child.height - child.move_count
        value = -result.score + 0.0
        if abs(value) >= _WIN_THRESHOLD:
            value = value - 1 if value > 0 else value + 1  # one more ply: this column's stone
        proven = abs(value) >= _WIN_THRESHOLD or (not result.stopped and result.depth >= remaining)
        columns[column] = _column_entry(column, value, proven, board)
    entries = [entry for entry in columns if entry is not None]
    best_value = max((entry["value"] for entry in entries), default=None)
    return {
        "columns": columns,
        "best": [entry["column"] for entry in entries if entry["value"] == best_value],
        "exact": all(entry["exact"] for entry in entries),
    }


def analyze_position(moves: str, width: int, height: int, connect: int, time_cap: float) -> dict[str, Any]:
    """:func:`analyze` on the position given as a move string (what the pool is sent)."""
    started = monotonic()
    result = analyze(Board.from_moves(moves, width, height, connect), time_cap)
    result["elapsed"] = round(monotonic() - started, 4)
    return result


def engine_move(
    moves: str, width: int, height: int, connect: int, level: int, time_cap: float, seed: int | None = None
) -> dict[str, Any]:
    """The move the computer of ``level`` chooses, stopped after ``time_cap`` seconds.

    Returns ``{"column": 1-based, "exact": whether the level's full search
    finished in time, "elapsed": seconds}``.
    """
    board = Board.from_moves(moves, width, height, connect)
    capped = False

    def poll(progress: SearchProgress) -> bool:
        nonlocal capped
        if progress.elapsed >= time_cap:
            capped = True
        return capped

    started = monotonic()
    player = EnginePlayer(
        level=level, seed=random.randrange(2**32) if seed is None else seed, poll=poll, poll_interval=0.01
    )
    column = player.choose_move(board)
    return {"column": column + 1, "exact": not capped, "elapsed": round(monotonic() - started, 4)}
