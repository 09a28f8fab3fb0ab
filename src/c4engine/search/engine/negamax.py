"""The classic engine: negamax search with alpha-beta pruning, in pure Python.

It works on any board size and connect-N and with any evaluator from
:mod:`c4engine.search.engine.evaluators` (or your own ``Callable[[Board], float]``).

Scores are for the side to move.  A win at ply ``p`` from the root (``p = 1``
is the move being chosen) scores ``WIN_SCORE - p`` and a loss at ply ``p``
``-(WIN_SCORE - p)``, so the search prefers the quickest win and the slowest
loss; a drawn (full) board scores 0; any other position at the search horizon
gets the evaluator's score, which must stay far inside ``±WIN_SCORE``
(the built-in ones stay inside ``±EVAL_LIMIT``, a million).

What the search does, in order:

* on an empty board it plays the centre at once (``center_first_move``, as the
  classic c4 library did);
* it takes a win in one whenever there is one, and when the opponent threatens
  to win in one it considers only the blocking move(s) -- even at depth 1;
* otherwise it searches the legal moves centre first (``Geometry.center_order``),
  within one :class:`~c4engine.search.limit.Limit`: to its fixed ``depth``, or
  -- when it bounds the ``time`` or the ``nodes`` -- deepening one ply at a
  time (previous best move first) until a bound is reached, returning the
  best move of the last depth it completed.

``pruning=False`` turns the alpha-beta search into plain minimax: the same
value and the same move (the first best one in move order), many more nodes.

The compiled path: with the ``windows`` evaluator (the function or a
:class:`~c4engine.search.engine.evaluators.WindowsEvaluator`) or ``areas``, on a board with
``width * (height + 1) <= 64``, the search runs in
:mod:`c4engine.kernels.heuristic` (via :mod:`c4engine.search.engine.compiled`) --
tens of times more nodes a second.  It computes the same scores and picks the
same move (the root is searched in the same order, first best kept); only
the principal variation may differ below the root where two replies tie, and
the node counts differ (a transposition table orders the moves).  At a
fixed depth it deepens 1, 2, ... first to fill that table, so a poll hook
sees those depths and, if it stops the search, gets the best move of the
last depth completed.  The clock and the poll hook are checked between
slices of a few milliseconds of CPU.  ``use_kernel=False`` forces the Python
search; ``pruning=False`` and any other evaluator always take it.

>>> from c4engine.board import Board
>>> engine = Engine(limit=Limit(depth=4))
>>> result = engine.search(Board.from_moves("4455"))   # X to move
>>> result.column, result.describe()   # column 3 (0-based 2): an open three, two threats
(2, 'win in 2 moves')
>>> result.line                        # O blocks one end, X completes the other
(2, 3, 1)
>>> result.proven, result.source, result.depth
(True, 'engine', 4)
>>> Engine(pruning=False).search(Board.from_moves("4455"), Limit(depth=4)).column
2
"""

from __future__ import annotations

import math
from time import process_time
from typing import TYPE_CHECKING

from c4engine.board import Board
from c4engine.errors import GameOverError
from c4engine.lines import has_line
from c4engine.search.engine.answers import RootAnswer
from c4engine.search.engine.evaluators import Evaluator, windows
from c4engine.search.limit import UNLIMITED, Limit
from c4engine.search.progress import Hook, Progress
from c4engine.search.results import PlayResult, Score
from c4engine.search.scale import WIN_SCORE, WIN_THRESHOLD

if TYPE_CHECKING:
    # numba (half a second to import): imported by an engine that may take the compiled path, when
    # it is made, so that importing this module -- c4 --help does -- costs nothing.
    from c4engine.search.engine import compiled as compiled_engine

__all__ = ["DEFAULT_DEPTH", "DEFAULT_LIMIT", "Engine"]

DEFAULT_DEPTH = 6
"""Plies searched when the limit bounds neither the depth, nor the time, nor the nodes."""

DEFAULT_LIMIT = Limit(depth=DEFAULT_DEPTH)
"""An engine's own limit unless it is given one."""


_INF = math.inf
_LOST = -math.inf  # the leaf cache's mark for "the side to move here has already lost"
_NO_NODE_STOP = 1 << 62  # a node count no search reaches: no node bound


def _is_positive(value: object) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float) and value > 0


def _check_limit(limit: object) -> Limit:
    if not isinstance(limit, Limit):
        raise TypeError(f"limit must be a Limit, not {limit!r}")
    return limit


class _Stop(Exception):
    """Unwinds the search when the time or the nodes are spent or the poll hook asks to stop;
    ``reason`` says which."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Engine:
    """A depth-limited negamax search with alpha-beta pruning.

    ``evaluator`` scores the positions at the horizon (side to move); it must
    depend on the stones only: within one search the engine evaluates each
    leaf position once (a cache of at most :attr:`EVAL_CACHE_SIZE` entries).
    ``limit`` is the engine's own :class:`~c4engine.search.limit.Limit`
    (default :data:`DEFAULT_LIMIT`), which :meth:`search` may replace for
    one search.  Its ``depth`` is the number of plies searched (without one,
    :data:`DEFAULT_DEPTH`).  When it bounds the ``time`` (seconds of
    wall-clock time) or the ``nodes`` (positions visited), the search
    deepens 1, 2, 3, ... plies until a bound is reached, the ``depth`` if
    one is given, or the end of the game, and answers with the best move of
    the last depth it completed.  The time and node counts are checked
    every millisecond or so of CPU, and before the node bound is passed: a
    node-bounded search visits at most about a board's width of nodes more.
    ``poll`` is called at least
    every ``poll_interval`` CPU seconds with a :class:`~c4engine.search.progress.Progress`; if it
    returns ``True`` the search stops and answers with the best move found so
    far.  A search that ends within one interval never calls it.  The clocks
    start once the compiled search is loaded: its one-time loading (compiling,
    the first time on a machine) is neither search time nor polled.

    The board given to :meth:`search` is never touched: the engine searches a
    private copy and holds the original :meth:`~c4engine.board.Board.frozen`
    meanwhile, so a hook that tries to play or undo on it gets
    :class:`~c4engine.errors.BoardBusyError`.

    ``use_kernel``: ``None`` (default) searches compiled whenever it can
    (see the module notes and :meth:`uses_kernel`), ``False`` never, ``True``
    like ``None`` but refuses an evaluator or ``pruning=False`` that can
    never take the compiled path (boards too big still fall back).

    >>> from c4engine.board import Board
    >>> Engine(limit=Limit(depth=2)).best_move(Board.from_moves("112233"))   # X wins in column 4
    3
    >>> Engine(limit=Limit(depth=1)).best_move(Board.from_moves("12121"))    # O blocks in column 1
    0
    """

    EVAL_CACHE_SIZE = 1 << 16
    """Leaf evaluations kept during a search (by position); emptied when full. 0 turns it off."""

    def __init__(
        self,
        evaluator: Evaluator = windows,
        limit: Limit = DEFAULT_LIMIT,
        *,
        pruning: bool = True,
        poll: Hook | None = None,
        poll_interval: float = 0.05,
        center_first_move: bool = True,
        use_kernel: bool | None = None,
    ) -> None:
        if not callable(evaluator):
            raise TypeError(f"evaluator must be callable, not {evaluator!r}")
        _check_limit(limit)
        if not _is_positive(poll_interval):
            raise ValueError(f"poll_interval must be a positive number of seconds, not {poll_interval!r}")
        if poll is not None and not callable(poll):
            raise TypeError(f"poll must be callable or None, not {poll!r}")
        if use_kernel is not None and not isinstance(use_kernel, bool):
            raise TypeError(f"use_kernel must be True, False or None, not {use_kernel!r}")
        if use_kernel and not pruning:
            raise ValueError("use_kernel=True needs pruning: the compiled search always prunes")
        if use_kernel is not False and pruning:
            # The compiled twin (numba, half a second) loads with the engine, not inside the clock
            # of its first search; importing this module alone (c4 --help) loads nothing.
            from c4engine.search.engine import compiled as compiled_engine

            if use_kernel and not compiled_engine.has_kernel(evaluator):
                raise ValueError(f"use_kernel=True needs the windows or areas evaluator, not {evaluator!r}")
        self.evaluator = evaluator
        self.limit = limit
        self.pruning = pruning
        self.poll = poll
        self.poll_interval = float(poll_interval)
        self.center_first_move = center_first_move
        self.use_kernel = use_kernel
        self._kernel: compiled_engine.KernelSearch | None = None  # made on first use, kept (its table too)
        self._weights: compiled_engine.KernelWeights | None = None  # the kernel's weights, this search
        self._cache: dict[int, float] = {}  # leaf evaluations of the current search, by position key
        self._searching = False
        # Per-search state (set by search()).
        self._board = Board()
        self._order: tuple[tuple[int, int, int], ...] = ()
        self._full = 0
        self._pv: list[tuple[int, ...]] = []
        self._nodes = 0
        self._start = 0.0
        self._budget = UNLIMITED.start()
        self._next_poll = _INF
        self._next_check = 0
        self._stride = 1
        self._last_tick = 0.0
        self._current_depth = 0
        self._answer: RootAnswer | None = None
        self._partial: RootAnswer | None = None

    def __repr__(self) -> str:
        name = getattr(self.evaluator, "__name__", None) or repr(self.evaluator)
        return f"Engine({name}, {self.limit!r}, pruning={self.pruning})"

    # ------------------------------------------------------------ public

    def uses_kernel(self, board: Board) -> bool:
        """Whether :meth:`search` takes the compiled path on ``board`` (see the class notes).

        >>> from c4engine.board import Board
        >>> Engine().uses_kernel(Board()), Engine(use_kernel=False).uses_kernel(Board())
        (True, False)
        >>> Engine().uses_kernel(Board(9, 7)), Engine(pruning=False).uses_kernel(Board())  # 9 * 8 > 64 bits
        (False, False)
        """
        return self._kernel_weights(board) is not None

    def load(self, board: Board) -> None:
        """Load the compiled search now if :meth:`search` takes it on ``board`` (once a process;
        compiling it, the first time on a machine, is announced by
        :func:`c4engine.kernels.announce_compile`).

        :meth:`search` does so before its clocks start; a caller with a clock of its own calls
        this first.
        """
        if self._kernel_weights(board) is not None:
            from c4engine.search.engine import compiled as compiled_engine

            compiled_engine.load_kernel()

    def _kernel_weights(self, board: Board) -> compiled_engine.KernelWeights | None:
        if self.use_kernel is False or not self.pruning or not board.geometry.fits_64_bits:
            return None
        from c4engine.search.engine import compiled as compiled_engine

        return compiled_engine.kernel_weights(self.evaluator, board.connect)

    def best_move(self, board: Board) -> int:
        """The column (0-based) :meth:`search` chooses."""
        move = self.search(board).column
        assert move is not None  # the engine always chooses a column (search raises GameOverError first)
        return move

    def search(self, board: Board, limit: Limit | None = None) -> PlayResult:
        """Search ``board`` for the side to move; :class:`GameOverError` if the game is over.

        ``limit`` replaces the engine's own (:attr:`limit`) for this search
        only; ``None`` keeps the engine's.

        The answer's ``score`` is the engine's value (:meth:`Score.from_engine`: exact when the
        search saw the end of the game, else an estimate), ``depth`` the last depth searched
        completely (0 for the centre-first opening move), ``line`` the expected play from the
        root, ``stopped`` ``"time limit"``, ``"node limit"`` or ``"stopped by poll"`` when one
        cut it short; ``proven`` when the score is exact and comes from a depth searched completely.

        >>> from c4engine.board import Board
        >>> found = Engine().search(Board.from_moves("4453"), Limit(nodes=500))
        >>> found.stopped, found.nodes - 500 <= 7   # the last depth completed, a few nodes past the bound
        ('node limit', True)
        >>> Engine().search(Board.from_moves("1212121"), Limit(depth=3))
        Traceback (most recent call last):
        ...
        c4engine.errors.GameOverError: cannot search a finished game: X has won
        """
        limit = self.limit if limit is None else _check_limit(limit)
        if board.winner is not None:
            raise GameOverError(f"cannot search a finished game: {board.winner.symbol} has won")
        if board.is_full:
            raise GameOverError("cannot search a finished game: the board is full (a draw)")
        if self._searching:
            raise RuntimeError("this engine is already searching (a poll hook cannot start another search)")
        self._searching = True
        try:
            with board.frozen():
                return self._search(board.copy(), limit)
        finally:
            self._searching = False
            self._cache = {}

    # ------------------------------------------------------------ driver

    def _search(self, board: Board, limit: Limit) -> PlayResult:
        geometry = board.geometry
        self._board = board
        self._full = geometry.full
        self._order = tuple(
            (column, geometry.top_of(column), geometry.bottom_of(column)) for column in geometry.center_order
        )
        self._cache = {}
        self._weights = self._kernel_weights(board)
        self._nodes = 1
        self._start_clocks(limit)
        self._current_depth = 1
        self._answer = None
        self._partial = None

        mask = board.mask_bits
        legal = [column for column, top, _ in self._order if not mask & top]
        empty_cells = geometry.width * geometry.height - board.move_count

        if self.center_first_move and mask == 0:
            column = geometry.center_order[0]
            return self._result(column, self._static_score(column), 0, (column,))

        for column in legal:
            if board.is_winning_move(column):
                return self._result(column, WIN_SCORE - 1, 1, (column,))
        opponent = board.current_bits ^ mask
        threats = [
            column
            for column in legal
            if has_line(
                opponent | geometry.drop(mask, column),
                geometry.height,
                geometry.connect,
            )
        ]
        candidates = threats or legal
        if self._weights is not None:
            # Loading the compiled search (once a process; compiling it, the first time on a
            # machine) is no search time, nor may it eat a time limit: the clocks start again.
            self.load(board)
            self._start_clocks(limit)

        self._pv = [() for _ in range(empty_cells + 2)]
        root_stones = board.move_count
        completed = 0
        stopped: str | None = None
        try:
            if limit.time is None and limit.nodes is None:
                depth = min(DEFAULT_DEPTH if limit.depth is None else limit.depth, empty_cells)
                if self._weights is not None:
                    # The kernel deepens 1, 2, ... depth - 1 first: its transposition table then
                    # orders the moves of the last iteration.  The root keeps the centre-first
                    # order, so ties go to the same move as in the Python search.
                    for shallower in range(1, depth):
                        self._current_depth = shallower
                        self._partial = None
                        self._answer = self._search_root(shallower, candidates)
                        completed = shallower
                    self._partial = None
                self._current_depth = depth
                self._answer = self._search_root(depth, candidates)
                completed = depth
            else:
                deepest = empty_cells if limit.depth is None else min(limit.depth, empty_cells)
                for depth in range(1, deepest + 1):
                    self._current_depth = depth
                    if self._answer is not None:
                        first = self._answer[0]
                        candidates = [first] + [column for column in candidates if column != first]
                    self._partial = None
                    self._answer = self._search_root(depth, candidates)
                    completed = depth
                    score = self._answer[1]
                    if abs(score) >= WIN_THRESHOLD or len(candidates) == 1:
                        break
        except _Stop as stop:
            stopped = stop.reason
            while board.move_count > root_stones:  # unwind the interrupted line
                board.pop()
        if self._answer is None:  # no depth completed: the unfinished one's best so far, if any
            if self._partial is None:
                column = candidates[0]
                return self._result(column, self._static_score(column), 0, (column,), stopped=stopped)
            column, score, pv = self._partial
            return self._result(column, score, 0, pv, stopped=stopped, complete=False)
        column, score, pv = self._answer
        return self._result(column, score, completed, pv, stopped=stopped)

    def _result(
        self,
        column: int,
        value: float,
        depth: int,
        line: tuple[int, ...],
        *,
        stopped: str | None = None,
        complete: bool = True,
    ) -> PlayResult:
        """The answer; ``complete``: the move comes from a depth searched completely, so a win or
        loss the search saw is proven (an unfinished depth may have missed a quicker win)."""
        board = self._board
        cells = board.width * board.height
        # + 0.0: a draw is 0.0, never -0.0
        score = Score.from_engine(float(value) + 0.0, cells=cells, stones=board.move_count)
        return PlayResult(
            column=column,
            score=score,
            source="engine",
            proven=score.proven and complete,
            line=line,
            nodes=self._nodes,
            time=self._budget.time_spent,
            depth=depth,
            stopped=stopped,
        )

    def _static_score(self, column: int) -> float:
        """The score of playing ``column`` judged by the evaluator alone (no search)."""
        board = self._board
        won = board.push(column)
        self._nodes += 1
        try:
            if won:
                return WIN_SCORE - 1
            if board.is_full:
                return 0
            return -self.evaluator(board)
        finally:
            board.pop()

    # ------------------------------------------------------- the clock

    def _start_clocks(self, limit: Limit) -> None:
        self._start = self._last_tick = process_time()
        self._budget = limit.start()
        self._next_poll = self._start + self.poll_interval if self.poll is not None else _INF
        self._stride = 1
        self._next_check = self._nodes + min(1, self._nodes_left())

    def _nodes_left(self) -> int:
        """The nodes the limit leaves the search (a count no search reaches without a node limit)."""
        self._budget.nodes_spent = self._nodes  # the search counts its nodes itself, in its hot loop
        left = self._budget.nodes_left()
        return _NO_NODE_STOP if left is None else left

    def _tick(self) -> None:
        """Check the clock and the nodes (the limit, the poll hook); adapt how often that happens."""
        now = process_time()
        gap = now - self._last_tick
        self._last_tick = now
        # Aim at one check every 1-4 ms of CPU whatever a node costs.
        if gap < 0.001:
            self._stride = min(self._stride * 2, 1 << 14)
        elif gap > 0.004 and self._stride > 1:
            self._stride //= 2
        self._next_check = self._nodes + min(self._stride, self._nodes_left())
        expired = self._budget.expired
        if expired is not None:
            raise _Stop(expired)
        if self.poll is not None and now >= self._next_poll:
            self._next_poll = now + self.poll_interval
            best = self._answer or self._partial
            progress = Progress(
                nodes=self._nodes,
                time=self._budget.time_spent,
                best_move=best[0] if best else None,
                depth=self._current_depth,
                score=best[1] if best else None,
                cpu_time=now - self._start,
            )
            if self.poll(progress):
                raise _Stop("stopped by poll")

    # ------------------------------------------------------ the search

    def _search_root(self, depth: int, candidates: list[int]) -> RootAnswer:
        """Search ``candidates`` to ``depth``: (best move, score, pv); first best in order wins ties."""
        if self._weights is not None:
            return self._kernel_root(depth, candidates, self._weights)
        board = self._board
        evaluate = self.evaluator
        full = self._full
        pv = self._pv
        best = -_INF
        alpha = -_INF
        answer: RootAnswer | None = None
        for column in candidates:
            if self._nodes >= self._next_check:
                self._tick()
            self._nodes += 1
            won = board.push(column)
            line: tuple[int, ...] = ()
            if won:
                score: float = WIN_SCORE - 1
            elif board.mask_bits == full:
                score = 0
            elif depth == 1:
                score = -evaluate(board)
            else:
                score = -self._alphabeta(depth - 1, -_INF, -alpha, 1)
                line = pv[1]
            board.pop()
            if score > best:
                best = score
                answer = self._partial = RootAnswer(column, score, (column, *line))
                if score > alpha:
                    alpha = score
        if answer is None:  # only if the evaluator gave NaN for every move
            answer = RootAnswer(candidates[0], best, (candidates[0],))
        return answer

    def _kernel_root(
        self, depth: int, candidates: list[int], weights: compiled_engine.KernelWeights
    ) -> RootAnswer:
        """:meth:`_search_root` by the compiled kernel; the clock and poll hook are checked between slices."""
        if self._kernel is None:
            from c4engine.search.engine import compiled as compiled_engine

            self._kernel = compiled_engine.KernelSearch()

        def between_slices(nodes: int, partial: RootAnswer | None) -> None:
            self._nodes += nodes
            self._partial = partial
            self._tick()

        answer, nodes = self._kernel.iterate(
            self._board, weights, depth, candidates, between_slices, self._nodes_left()
        )
        self._nodes += nodes
        self._partial = answer
        return answer

    def _alphabeta(self, depth: int, alpha: float, beta: float, ply: int) -> float:
        """Negamax (fail-soft) from the position ``ply`` plies below the root.

        With :attr:`pruning` off no cut-off of any kind is made -- plain
        minimax, the reference the pruned search must agree with.
        """
        if self._nodes >= self._next_check:
            self._tick()
        pruning = self.pruning
        pv = self._pv
        pv[ply] = ()
        win = WIN_SCORE - ply - 1  # the best any move here can do: win at once
        if pruning:
            if alpha >= win:
                return win
            if beta <= 1 - win:  # the worst: lose to the opponent's next move
                return 1 - win
        board = self._board
        mask = board.mask_bits
        full = self._full
        best = -_INF
        for column, top, bottom in self._order:
            if mask & top:
                continue
            self._nodes += 1
            if depth == 1:
                score = self._leaf_score(column, mask | (mask + bottom), win)
                line: tuple[int, ...] = (column,)
            else:
                if board.push(column):
                    score = win
                    line = (column,)
                elif mask | (mask + bottom) == full:
                    score = 0
                    line = (column,)
                else:
                    score = -self._alphabeta(depth - 1, -beta, -alpha, ply + 1)
                    line = (column, *pv[ply + 1])
                board.pop()
            if score > best:
                best = score
                pv[ply] = line
                if score > alpha:
                    alpha = score
                    if pruning and (alpha >= beta or score == win):
                        break
        return best

    def _leaf_score(self, column: int, child_mask: int, win: float) -> float:
        """The score of playing ``column`` at the horizon: a win, a draw, or minus the evaluation.

        Each leaf position is evaluated once per search (cached by its key).
        """
        board = self._board
        key = (board.current_bits ^ board.mask_bits) + child_mask
        cache = self._cache
        value = cache.get(key)
        if value is None:
            if board.push(column):
                value = _LOST
            elif child_mask == self._full:
                value = 0.0
            else:
                value = self.evaluator(board)
            board.pop()
            if len(cache) >= self.EVAL_CACHE_SIZE:
                cache.clear()
            if self.EVAL_CACHE_SIZE:
                cache[key] = value
        return win if value is _LOST else -value
