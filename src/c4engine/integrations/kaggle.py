"""A Kaggle ConnectX agent: ``agent(observation, configuration) -> column``.

>>> from c4engine.integrations.kaggle import agent
>>> observation = {"board": [0] * 42, "mark": 1}
>>> configuration = {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": 2}
>>> agent(observation, configuration)          # the centre, at once
3

With ``kaggle-environments`` installed (``pip install --no-deps
kaggle-environments jsonschema requests numpy`` is enough for ConnectX)::

    import kaggle_environments
    env = kaggle_environments.make("connectx")
    env.run([agent, "negamax"])

Kaggle's board is a flat list of ``rows * columns`` cells, row by row from
the top, 0 empty, 1 and 2 the players' marks (1 moves first).  The agent
may be handed any position: it rebuilds the :class:`~c4engine.board.Board`
from the cells (:meth:`Board.from_grid <c4engine.board.Board.from_grid>`),
whatever order the moves came in, and honours ``rows``, ``columns`` and
``inarow``.

How it chooses, within ``think_fraction`` of ``configuration.actTimeout``
(45% by default, never the overage budget): it asks the analysis service
(:class:`~c4engine.search.analysis.analyst.Analyst`) for the position's best move --

1. from the opening book, where the book knows the position (7x6);
2. on a board the exact solver takes (``columns * (rows + 1) <= 128``), by
   *solving* the position with ``solver_share`` of the time; a solved
   position is played perfectly (the quickest win, the longest defence);
3. otherwise with the heuristic engine (``areas`` evaluator, compiled where
   the board fits 64 bits), deepening until the time is up: the best move
   of the last depth it completed.

Importing the module loads the compiled kernels (the libraries the install
built, else numba's cache, or compiling them on the very first run) so that
move 1 is not slowed by it;
:data:`WARM_UP_SECONDS` says what that took.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from c4engine.board import Board
from c4engine.errors import C4Error
from c4engine.geometry import MAX_SIZE, center_order
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.limit import MIN_TIME, Limit
from c4engine.search.results import PlayResult

__all__ = ["WARM_UP_SECONDS", "ConnectXAgent", "agent", "board_from_observation"]

DEFAULT_ACT_TIMEOUT = 2.0
"""Seconds per move when the configuration gives none (Kaggle's default ``actTimeout``)."""


def _get(obj: Any, name: str, default: Any = None) -> Any:
    """A field of a Kaggle observation/configuration (a dict with attribute access, or a plain dict)."""
    if isinstance(obj, Mapping):
        return obj.get(name, default)
    return getattr(obj, name, default)


def board_from_observation(observation: Any, configuration: Any) -> Board:
    """The position in a ConnectX observation, as a :class:`Board` (a move order is found for it).

    >>> cells = [0] * 35 + [0, 0, 2, 1, 1, 0, 0]       # 7x6, bottom row: . . O X X . .
    >>> board = board_from_observation({"board": cells, "mark": 2}, {"rows": 6, "columns": 7, "inarow": 4})
    >>> board.move_string, board.turn.value
    ('435', 2)
    """
    rows = int(_get(configuration, "rows", 6))
    columns = int(_get(configuration, "columns", 7))
    inarow = int(_get(configuration, "inarow", 4))
    cells = list(_get(observation, "board"))
    if len(cells) != rows * columns:
        raise C4Error(f"the board has {len(cells)} cells, not rows * columns = {rows * columns}")
    grid = [cells[row * columns : (row + 1) * columns] for row in range(rows)]
    return Board.from_grid(grid, connect=inarow)


class ConnectXAgent:
    """The ConnectX agent with its settings; :func:`agent` is one with the defaults.

    ``think_fraction`` of the move time limit (``actTimeout``) is spent
    thinking, at most ``max_think`` seconds if given; ``solver_share`` of
    that goes to the exact solver first (``use_solver=False`` skips it).
    The solver's table and the engine's stay between moves, as they do in a
    Kaggle episode.  :attr:`last` tells how the last move was chosen.
    """

    def __init__(
        self,
        *,
        think_fraction: float = 0.45,
        max_think: float | None = None,
        solver_share: float = 0.5,
        use_solver: bool = True,
        table_size_mb: float = 64,
    ) -> None:
        if not 0 < think_fraction <= 1:
            raise ValueError(f"think_fraction must be in (0, 1], not {think_fraction!r}")
        if max_think is not None and max_think <= 0:
            raise ValueError(f"max_think must be a positive number of seconds, not {max_think!r}")
        self.think_fraction = think_fraction
        self.max_think = max_think
        self.analyst = Analyst(table_size_mb=table_size_mb, solver_share=solver_share if use_solver else 0.0)
        self.last: PlayResult | None = None
        """How the last move was chosen: the analysis service's answer, its ``time`` the agent's
        whole move; on a board c4engine cannot take, the most central column (source ``"rules"``,
        not proven)."""

    def budget(self, configuration: Any) -> float:
        """Seconds to think for one move under ``configuration``."""
        limit = _get(configuration, "actTimeout", None)
        if limit is None:
            limit = _get(configuration, "timeout", DEFAULT_ACT_TIMEOUT)
        seconds = float(limit) * self.think_fraction
        return min(seconds, self.max_think) if self.max_think is not None else seconds

    def __call__(self, observation: Any, configuration: Any) -> int:
        move = Limit(time=max(self.budget(configuration), MIN_TIME)).start()  # this move's clock
        inarow = int(_get(configuration, "inarow", 4))
        columns = int(_get(configuration, "columns", 7))
        rows = int(_get(configuration, "rows", 6))
        if inarow < 2 or inarow > max(columns, rows) or max(columns, rows) > MAX_SIZE:
            # Connect-1 is won by any stone, an impossible connect-N never, and boards over
            # MAX_SIZE are beyond c4engine: the most central legal column.
            cells = list(_get(observation, "board"))
            column = next(c for c in center_order(columns) if cells[c] == 0)
            self.last = PlayResult(
                column=column, score=None, source="rules", proven=False, time=move.time_spent
            )
            return column
        board = board_from_observation(observation, configuration)
        result = self.analyst.solve(board, move.remaining())
        assert result.column is not None  # the game is not over: a ConnectX agent is asked only then
        self.last = replace(result, time=move.time_spent)
        return result.column


def _warm_up() -> float:
    """Run the compiled paths once on tiny positions; the seconds it took."""
    start = time.perf_counter()
    board = Board.from_moves("4453")
    Analyst(book=None, table_size_mb=8).analyze(board, Limit(time=0.05))
    Analyst(book=None, table_size_mb=8).solve(Board.from_moves("44", 4, 4, 3))
    return time.perf_counter() - start


WARM_UP_SECONDS = _warm_up()
"""What loading the compiled kernels took when this module was imported."""

_DEFAULT = ConnectXAgent()


def agent(observation: Any, configuration: Any) -> int:
    """The default ConnectX agent (see the module notes): the 0-based column to play."""
    return _DEFAULT(observation, configuration)
