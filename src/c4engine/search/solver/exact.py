"""The exact solver: perfect-play scores of positions, computed by compiled kernels.

Scores follow the published Connect-4 solver benchmarks (:mod:`c4engine.search.scale`):
for the side to move, positive when it wins, the sooner the higher; 0 for a draw;
negative when it loses.

On the standard board the empty position scores 1: the first player wins
with the last stone it can play.  In words (:func:`score_words`) a score
is told as "win in N moves" / "loss in N moves", where N counts the moves
of the side that wins, from now, including the winning stone: "win in 1
move" means the next stone wins, "loss in 1 move" means the opponent's next
stone wins whatever is played.

The weak solver only tells win (1), draw (0) or loss (-1), usually much
faster.

>>> from c4engine import Board
>>> solver = Solver(table_size_mb=8)
>>> result = solver.solve(Board.from_moves("2252576253462244111563365343671351441"))
>>> result.score, result.describe()
(-1, 'loss in 2 moves')
"""

from __future__ import annotations

import contextlib
import dataclasses
import sys
import threading
import time
from collections.abc import Iterable, Iterator

from c4engine.board import Board
from c4engine.errors import GameOverError, ThreadCountError
from c4engine.geometry import fits_64_bits, require_solver_holds
from c4engine.kernels import layout as _layout
from c4engine.kernels.library import solver_kernel
from c4engine.kernels.memory import CArray
from c4engine.kernels.transposition import DEFAULT_TABLE_MB, MIN_TABLE_BITS, Table
from c4engine.search.limit import DEFAULT_POLL_INTERVAL, UNLIMITED, Limit
from c4engine.search.progress import Hook, Progress
from c4engine.search.scale import score_range, sign, win_score
from c4engine.search.solver import threads as _parallel
from c4engine.search.solver.answers import Analysis, BatchResult, SolveResult
from c4engine.search.solver.bits import first_legal, play
from c4engine.search.solver.columns import best_line, bound_columns
from c4engine.search.solver.run import Deadline, SolverRun

__all__ = ["Solver"]

ETC_MARGIN = 11
"""Enhanced transposition cutoffs are tried in nodes with more than this many empty cells.

Nearer the end a node's subtree is too small to repay probing every child
(docs/benchmarks-log.md: the margin measured with the table's near-end part)."""


class Solver:
    """An exact Connect-N solver with its transposition table.

    ``table_size_mb`` is the table's memory (:attr:`table`, a
    :class:`~c4engine.kernels.transposition.Table`): from 24 MiB on, a
    near-end part of 8 MiB for the positions near the end of the game and
    a main part, the largest power of two that fits in the rest, for the
    others; below that, one part.  The default 72 is 64 MiB + 8 MiB.  Each
    part is used from its first 512 KiB, and doubles whenever one
    position's search has taken enough nodes to fill it
    (:attr:`table_bytes_in_use`): small searches stay in the processor's
    cache.  Reusing one solver keeps the table, which
    speeds up related positions (a game, an analysis).  The table is
    cleared when the board size or connect-N changes.

    ``threads`` searches share the table (:mod:`c4engine.search.solver.threads`):
    a search that runs past about a fortieth of a second is raced by
    ``threads - 1`` helper threads, and the table grows as that search's
    nodes would have grown it on one thread.  Until a search is raced it
    runs as on one thread -- the same nodes, the same table growth, no busy
    marks, no helper's stack made --, so short searches cost nothing more.
    The answers are the same with any number of threads; the results count
    the nodes of each (``nodes_per_thread``).
    """

    def __init__(self, table_size_mb: float = DEFAULT_TABLE_MB, weak: bool = False, threads: int = 1) -> None:
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise ThreadCountError(f"threads must be a whole number of at least 1, not {threads!r}")
        self.table = Table(table_size_mb)
        """The transposition table: its parts, sizes and use (a ``kernels.transposition.Table``)."""
        self.weak = weak
        self._geometry: tuple[int, int, int] | None = None
        self._args: _layout.KernelArgs | None = None  # the kernel's, for the geometry loaded
        self._cancel = _layout.new_flag()
        self._lock = threading.Lock()
        self._deadline = Deadline()  # cancels a timed search when its time is spent
        self.threads = threads
        self._searchers: list[_parallel.Searcher] = []
        self._grower: _parallel.Searcher | None = None  # a race's, for growing the table (_race)
        self.race_from_nodes = _parallel.RACE_FROM_NODES
        self.etc_margin = ETC_MARGIN

    # ------------------------------------------------------------ metadata

    @property
    def table_bytes(self) -> int:
        """Memory of the transposition table, in bytes."""
        return self.table.bytes

    @property
    def table_entries(self) -> int:
        return self.table.entries

    @property
    def table_bytes_in_use(self) -> int:
        """Memory of the table its searches have used so far: its parts start at 512 KiB each and
        double as a search needs, up to :attr:`table_bytes`."""
        return self.table.bytes_in_use

    def load(self, board: Board) -> None:
        """Load the compiled search for ``board``'s size now, once a process (compiling it, the
        first time on a machine, announced by :func:`c4engine.kernels.announce_compile`).

        Each solve does so before its clock starts, so loading is never counted as search time
        nor eats a time limit; a caller with a clock of its own calls this first.
        """
        with self._lock:
            self._load(board.width, board.height, board.connect)

    def _load(self, width: int, height: int, connect: int) -> None:
        if (width, height, connect) not in _LOADED:
            with _scipy_probe_skipped():
                _warm_up(width, height, connect)
            _LOADED.add((width, height, connect))

    def reset(self) -> None:
        """Forget everything the table holds."""
        self.table.reset()

    def cancel(self) -> None:
        """Stop the running search (safe from another thread); it returns a non-exact result."""
        self._cancel[0] = 1
        for searcher in self._searchers:  # the threads of a raced search
            searcher.cancel[0] = 1

    # ------------------------------------------------------------- solving

    def solve(
        self,
        board: Board,
        limit: Limit = UNLIMITED,
        *,
        weak: bool | None = None,
        poll: Hook | None = None,
        poll_interval: float = DEFAULT_POLL_INTERVAL,
        best_move: bool = True,
        at_least: int | None = None,
    ) -> SolveResult:
        """The score of ``board`` for the side to move (see the module's doc for the convention).

        The result's ``best_move`` is the move the search proved best; when
        the search ends without such a proof, the children are solved to find
        one (usually cheap with the table warm) unless ``best_move`` is False,
        when it may then be None (batch scoring and benchmarks need only the score).

        ``limit`` bounds the search by its ``time`` (seconds, wall clock) and
        ``nodes``; its ``depth`` means nothing to the exact solver, which always
        searches to the end, and is ignored.  ``poll`` is called with a
        :class:`~c4engine.search.progress.Progress` (nodes, time, bounds, best move) about every
        ``poll_interval`` CPU seconds and stops the search by returning True.
        A stopped search returns ``proven=False`` with the bounds proved so far.

        ``at_least`` is a score already proved for the position (say, by
        :meth:`is_at_least`, or because the previous move kept that score):
        the search starts from it instead of proving it again.  A wrong
        bound gives a wrong answer.

        >>> from c4engine import Board
        >>> board = Board.from_moves("2252576253462244111563365343671351441")
        >>> Solver(table_size_mb=8).solve(board, at_least=-1).score
        -1
        """
        weak = self.weak if weak is None else weak
        with self._lock:
            self._prepare(board)
            run = SolverRun.of(limit, poll, poll_interval)
            with board.frozen(), self._timed(run):
                current, mask = board.current_bits, board.mask_bits
                return self._solve(current, mask, board, weak, run, best_move, at_least, whole_run=True)

    def solve_many(self, boards: Iterable[Board], *, weak: bool | None = None) -> BatchResult:
        """The exact scores of many positions, solved one after the other in one compiled call.

        The same scores as :meth:`solve` with ``best_move=False`` on each board
        in turn (the table carries over from one to the next, as it does
        there), without the per-call cost of :meth:`solve` -- its limits,
        polling and result object -- which for a position solved in a few
        hundred nodes is most of the time.  No limits: only :meth:`cancel`
        stops it.  Every board is checked (not over, a supported size) before
        any is solved.

        >>> from c4engine import Board
        >>> games = ["2252576253462244111563365343671351441", "7422341735647741166133573473242566"]
        >>> batch = Solver(table_size_mb=8).solve_many(Board.from_moves(game) for game in games)
        >>> batch.scores
        (-1, 1)
        """
        weak = self.weak if weak is None else weak
        boards = list(boards)
        for board in boards:
            self._check(board)
        scores: list[int] = []
        nodes: list[int] = []
        best_moves: list[int | None] = []
        complete = True
        with self._lock:
            for width, height, connect in {(b.width, b.height, b.connect) for b in boards}:
                self._load(width, height, connect)  # before the clock starts
            budget = UNLIMITED.start()  # its clock: the batch has no limits
            self._cancel[0] = 0
            start = 0
            while start < len(boards) and complete:
                # one compiled call for each run of boards of the same geometry
                geometry = boards[start].geometry
                end = start + 1
                while end < len(boards) and boards[end].geometry is geometry:
                    end += 1
                complete = self._solve_run(boards[start:end], weak, scores, nodes, best_moves)
                start = end
        return BatchResult(tuple(scores), tuple(nodes), tuple(best_moves), budget.time_spent, weak, complete)

    def is_at_least(
        self,
        board: Board,
        score: int,
        limit: Limit = UNLIMITED,
    ) -> bool | None:
        """Whether ``board`` scores ``score`` or more for the side to move (strong scores).

        One null-window search: much cheaper than :meth:`solve` when only a
        threshold matters (is this move as good as the best one?).  None when
        ``limit`` (its time and nodes; its depth is ignored) stopped the search
        before the answer.

        >>> from c4engine import Board
        >>> solver = Solver(table_size_mb=8)
        >>> board = Board.from_moves("2252576253462244111563365343671351441")
        >>> solver.is_at_least(board, -1), solver.is_at_least(board, 0)
        (True, False)
        """
        return self.null_window(board, score, limit)[0]

    def null_window(self, board: Board, score: int, limit: Limit = UNLIMITED) -> tuple[bool | None, int]:
        """:meth:`is_at_least`, and the nodes its search took: for a caller spending one budget on
        many such searches (the probes for the book's score,
        :func:`~c4engine.search.analysis.book_probes.reach`).

        >>> from c4engine import Board
        >>> answer, nodes = Solver(table_size_mb=8).null_window(Board.from_moves("4444"), 1)
        >>> answer, nodes > 0
        (True, True)
        """
        with self._lock:
            self._prepare(board)
            stones = board.move_count
            lowest, highest = score_range(board.width * board.height, stones)
            if score <= lowest:
                return True, 0
            if score > highest:
                return False, 0
            run = SolverRun.of(limit)
            state = _layout.new_state(score - 1, score)
            with board.frozen(), self._timed(run):
                status = self._run(board.current_bits, board.mask_bits, stones, board, state, run)
            nodes = run.budget.nodes_spent
            return (None if status != _layout.DONE else int(state[_layout.S_MIN]) >= score), nodes

    def analyze(
        self,
        board: Board,
        limit: Limit = UNLIMITED,
        *,
        weak: bool | None = None,
        pv: bool = True,
        poll: Hook | None = None,
        poll_interval: float = DEFAULT_POLL_INTERVAL,
    ) -> Analysis:
        """The score of every move of ``board`` (None for a full column) and a principal variation.

        ``limit`` (its time and nodes; its depth means nothing to the exact
        solver and is ignored) applies to the whole analysis.
        """
        weak = self.weak if weak is None else weak
        with self._lock:
            self._prepare(board)
            run = SolverRun.of(limit, poll, poll_interval)
            start_lanes = self._lane_nodes()
            with board.frozen(), self._timed(run):
                analysis = self._analyze(board, weak, run, pv)
            split = self._nodes_per_thread(analysis.nodes, start_lanes)
            return dataclasses.replace(analysis, nodes_per_thread=split)

    # ------------------------------------------------------------ internals

    @contextlib.contextmanager
    def _timed(self, run: SolverRun) -> Iterator[None]:
        """Cancel the search the moment ``run``'s time is spent: the search looks at the clock only
        between slices sized by its CPU speed, which a loaded machine stretches several times over."""

        def expire() -> None:
            run.timed_out = True
            self.cancel()

        with self._deadline.armed(run.budget, expire):
            yield

    def _check(self, board: Board) -> None:
        """Refuse a board that is over or too big for the solver (:func:`c4engine.geometry.solver_holds`)."""
        if board.winner is not None or board.is_full:
            raise GameOverError("the game is over: nothing to solve")
        require_solver_holds(board.width, board.height)

    def _prepare(self, board: Board) -> None:
        self._check(board)
        self._cancel[0] = 0  # a cancel from here on stops this search, one during the loading too
        width, height, connect = board.width, board.height, board.connect
        geometry = (width, height, connect)
        if geometry != self._geometry:
            if self._geometry is not None:
                self.reset()
            self._load(width, height, connect)  # before the search's clock starts
            self._geometry = geometry
            etc_until = width * height - self.etc_margin
            self.table.use_entry_words(1 if fits_64_bits(width, height) else 2)  # cleared if changed
            self._args = _layout.new_args(width, height, self.table, etc_until, self._cancel)
            self._searchers = []  # the old size's: a race makes the new size's (_race_lanes)
            self._grower = None

    def _solve_run(
        self,
        boards: list[Board],
        weak: bool,
        scores: list[int],
        nodes: list[int],
        best_moves: list[int | None],
    ) -> bool:
        """Solve ``boards`` (one geometry, checked) in one batch call, appending to the lists.

        False when cancelled (the lists then end with the last position finished).
        """
        first = boards[0]
        self._prepare(first)
        cells = first.width * first.height
        count = len(boards)
        positions = _layout.positions(
            [(b.current_bits, b.mask_bits) for b in boards], not first.geometry.fits_64_bits
        )
        rows = _layout.new_rows(count)
        for p, board in enumerate(boards):
            rows[p, _layout.R_STONES] = board.move_count
            lower, upper = (-1, 1) if weak else score_range(cells, board.move_count)
            rows[p, _layout.R_LOWER], rows[p, _layout.R_UPPER] = lower, upper
        state = _layout.new_state(rows[0, _layout.R_LOWER], rows[0, _layout.R_UPPER])
        status = self._call_kernel(first, positions, rows, state, _layout.NO_NODE_STOP)
        # when cancelled, the position under way is state[S_POSITION]
        done = count if status == _layout.DONE else state[_layout.S_POSITION]
        for row in rows.tolist()[:done]:
            score = row[_layout.R_SCORE]
            scores.append(sign(score) if weak else score)
            nodes.append(row[_layout.R_NODES])
            move = row[_layout.R_ROOT_MOVE]
            best_moves.append(move if move >= 0 else None)
        return done == count

    def _solve(
        self,
        current: int,
        mask: int,
        board: Board,
        weak: bool,
        run: SolverRun,
        find_best: bool,
        at_least: int | None = None,
        whole_run: bool = False,
    ) -> SolveResult:
        """Solve the position (current, mask) of ``board``'s geometry, which must not be over; its time
        counts from the start of ``run`` when it is the ``whole_run``, else from now (a child's)."""
        cells = board.width * board.height
        stones = mask.bit_count()
        start_nodes = run.budget.nodes_spent
        start_lanes = self._lane_nodes()
        began = 0.0 if whole_run else run.budget.time_spent
        lowest, highest = score_range(cells, stones)
        lower, upper = (-1, 1) if weak else (lowest, highest)
        if at_least is not None:
            if at_least > highest:
                raise ValueError(f"at_least={at_least} is above the best score possible here")
            lower = max(lower, sign(at_least) if weak else at_least)
        state = _layout.new_state(lower, upper)
        status = self._run(current, mask, stones, board, state, run, weak)
        lo, hi = int(state[_layout.S_MIN]), int(state[_layout.S_MAX])
        if weak:
            lo, hi = sign(lo), sign(hi)
        proven = status == _layout.DONE
        root_move = int(state[_layout.S_ROOT_MOVE])
        best: int | None = root_move
        best_proven = root_move >= 0 and int(state[_layout.S_ROOT_BOUND]) >= int(state[_layout.S_MIN])
        if best is not None and best < 0:
            best = None
        nodes = run.budget.nodes_spent - start_nodes
        if proven and not best_proven and find_best:
            best, extra = self._find_best(current, mask, board, lo, weak, run)
            nodes += extra
            best_proven = best is not None
        if proven and not best_proven:
            best = None
        if not proven and best is None:
            best = first_legal(mask, board)
            best_proven = False
        return SolveResult(
            lo if proven else None,
            proven,
            lo,
            hi,
            best,
            nodes,
            run.budget.time_spent - began,
            weak,
            cells,
            stones,
            stopped=run.stopped,
            best_proven=best_proven,
            nodes_per_thread=self._nodes_per_thread(nodes, start_lanes),
        )

    def _lane_nodes(self) -> list[int]:
        """Each thread's nodes so far: 0 for all before a race has made the searchers."""
        return [searcher.nodes for searcher in self._searchers] or [0] * self.threads

    def _nodes_per_thread(self, nodes: int, since: list[int]) -> tuple[int, ...]:
        """``nodes`` split between the threads: each helper's since its count was ``since``, the
        caller's the rest."""
        helpers = [now - start for now, start in zip(self._lane_nodes()[1:], since[1:], strict=True)]
        return (nodes - sum(helpers), *helpers)

    def _find_best(
        self, current: int, mask: int, board: Board, score: int, weak: bool, run: SolverRun
    ) -> tuple[int | None, int]:
        """A column reaching ``score`` (solving the children, cheap with a warm table)."""
        start = run.budget.nodes_spent
        for column in board.geometry.center_order:
            child = play(current, mask, column, board)
            if child is None:
                continue
            child_current, child_mask = child
            if child_mask == board.geometry.full:
                child_score = 0
            else:
                result = self._solve(child_current, child_mask, board, weak, run, False)
                if not result.proven or result.score is None:
                    return None, run.budget.nodes_spent - start
                child_score = result.score
            if -child_score == score:
                return column, run.budget.nodes_spent - start
        return None, run.budget.nodes_spent - start

    def _call_kernel(
        self,
        board: Board,
        positions: CArray,
        rows: CArray,
        state: CArray,
        node_stop: int,
        searcher: _parallel.Searcher | None = None,
    ) -> int:
        """One call of ``board``'s geometry's kernel on ``positions`` with this solver's table and
        stacks (those of a raced search's ``searcher``)."""
        assert self._args is not None
        etc_until = board.width * board.height - self.etc_margin  # read now: a benchmark may set it
        args = (self._args if searcher is None else searcher.args)._replace(
            boards=positions, rows=rows, state=state, node_stop=node_stop, etc_until=etc_until
        )
        return solver_kernel(board.width, board.height, board.connect)(args)

    def _run(
        self,
        current: int,
        mask: int,
        stones: int,
        board: Board,
        state: CArray,
        run: SolverRun,
        weak: bool = False,
    ) -> int:
        root = _parallel.Root(current, mask, stones, not board.geometry.fits_64_bits)
        positions, rows = root.arrays()
        status = _layout.PAUSED
        while True:
            if run.stopped is not None:
                return _layout.CANCELLED
            slice_nodes = self._next_slice(run)
            if slice_nodes is None:
                return _layout.PAUSED
            before = int(state[_layout.S_NODES])
            if self.threads > 1 and before + slice_nodes > self.race_from_nodes:
                slice_nodes = max(1, self.race_from_nodes - before)  # alone up to where the helpers join in
            cpu = time.thread_time()
            status = self._call_kernel(board, positions, rows, state, before + slice_nodes)
            cpu = time.thread_time() - cpu
            done = int(state[_layout.S_NODES]) - before
            run.budget.spend(done)
            if cpu > 0.01 and done > 0:
                run.rate = done / cpu
            if status == _layout.DONE:
                return status
            if status == _layout.CANCELLED:
                run.stopped = run.why_cancelled()
                return status
            move = int(state[_layout.S_ROOT_MOVE])
            if self._polled(run, int(state[_layout.S_MIN]), int(state[_layout.S_MAX]), move):
                return _layout.CANCELLED
            if self.threads > 1 and int(state[_layout.S_NODES]) >= self.race_from_nodes:
                return self._race(root, board, state, run, weak)

    def _next_slice(self, run: SolverRun, threads: int = 1) -> int | None:
        """How many nodes the next kernel call may search (``threads`` sharing the node limit), or
        None when a limit has stopped the search (``run.stopped`` says which)."""
        slice_nodes = max(1000, int(run.rate * run.poll_interval))
        budget = run.budget
        expired = budget.expired
        if expired is not None:
            run.stopped = expired
            return None
        left = budget.nodes_left()
        if left is not None:
            slice_nodes = min(slice_nodes, max(1, left // threads))
        seconds = budget.time_left()
        if seconds is not None:
            slice_nodes = min(slice_nodes, max(1000, int(run.rate * seconds)))
        return slice_nodes

    def _polled(self, run: SolverRun, lower: int, upper: int, root: int) -> bool:
        """Hand the poll hook the progress; True (and ``run.stopped`` said) when it stops the search."""
        if run.poll is None:
            return False
        progress = Progress(
            nodes=run.budget.nodes_spent,
            time=run.budget.time_spent,
            best_move=root if root >= 0 else None,
            lower=lower,
            upper=upper,
        )
        if run.poll(progress) is True:
            run.stopped = "stopped by poll"
            return True
        return False

    def _race(self, root: _parallel.Root, board: Board, state: CArray, run: SolverRun, weak: bool) -> int:
        """Search ``root`` on from the paused ``state`` with every thread
        (:class:`c4engine.search.solver.threads.Race`); a ``weak`` solve's helpers share the first thread's
        question."""
        assert self._args is not None
        if not self._searchers:
            self._searchers = self._race_lanes(board)

        def call(
            searcher: _parallel.Searcher, positions: CArray, rows: CArray, state: CArray, stop: int
        ) -> int:
            return self._call_kernel(board, positions, rows, state, stop, searcher)

        assert self._grower is not None
        grower = _parallel.TableGrower(self.table, self._grower, call, root)
        race = _parallel.Race(
            self._searchers,
            call,
            root,
            next_slice=lambda threads: self._next_slice(run, threads),
            count=run.budget.spend,
            poll=lambda lower, upper, move: self._polled(run, lower, upper, -1 if move is None else move),
            cancelled=lambda: bool(self._cancel[0]),
            remaining_nodes=run.budget.nodes_left,
            growth_due=grower.due,
            grow=grower.grow,
            other_values=not weak,
        )
        self.table.hold_growth(True)  # the race grows it (growth_due, grow)
        try:
            status = race.run(state)
        finally:
            self.table.hold_growth(False)
        if status == _layout.CANCELLED and run.stopped is None:
            run.stopped = run.why_cancelled()
        return status

    def _race_lanes(self, board: Board) -> list[_parallel.Searcher]:
        """The searchers of a race on ``board``'s size, made at its first race (a solver whose searches
        are all short never makes them): the first has the caller's stack, where the raced search
        is paused, and marks the subtrees it searches; the helpers have stacks of their own, and so
        has the searcher the race grows the table on (``_grower``: the others have searches paused)."""
        assert self._args is not None
        first = self._args._replace(cancel=_layout.new_flag(), shared_until=_parallel.SHARED_PLIES)
        *helpers, self._grower = _parallel.new_searchers(
            self.threads, board.width, board.height, self.table, self._args.etc_until, self._args.busy
        )
        return [_parallel.Searcher(first), *helpers]

    def _analyze(self, board: Board, weak: bool, run: SolverRun, want_pv: bool) -> Analysis:
        width = board.width
        cells = width * board.height
        stones = board.move_count
        current, mask = board.current_bits, board.mask_bits
        scores: list[int | None] = [None] * width
        lowers: list[int | None] = [None] * width
        uppers: list[int | None] = [None] * width
        children: dict[int, tuple[int, int]] = {}
        winning = win_score(cells, stones)
        # a column's score is minus its child's: its natural range is the child's, negated
        child_lowest, child_highest = score_range(cells, stones + 1)
        for column in board.geometry.center_order:
            if not board.can_play(column):
                continue
            if board.is_winning_move(column):
                scores[column] = lowers[column] = uppers[column] = winning
                continue
            child = play(current, mask, column, board)
            assert child is not None
            if child[1] == board.geometry.full:
                scores[column] = lowers[column] = uppers[column] = 0
                continue
            children[column] = child
            lowers[column], uppers[column] = -child_highest, -child_lowest
        if run.budget.limit.time is None and run.budget.limit.nodes is None:
            for column, (child_current, child_mask) in children.items():
                result = self._solve(child_current, child_mask, board, weak, run, False)
                lowers[column], uppers[column] = -result.upper, -result.lower
        else:
            bound_columns(self._run, board, children, lowers, uppers, run, weak)
        if weak:  # win, draw or loss: the bounds' signs
            lowers = [None if low is None else sign(low) for low in lowers]
            uppers = [None if high is None else sign(high) for high in uppers]
        for column in range(width):
            if lowers[column] is not None and lowers[column] == uppers[column]:
                scores[column] = lowers[column]
        proven = all(scores[column] is not None for column in children)
        known = [s for s in scores if s is not None]
        best_score = max(known) if known else None
        best_columns = tuple(c for c in range(width) if best_score is not None and scores[c] == best_score)
        pv: list[int] = []
        if want_pv and best_columns and proven:
            pv = best_line(self._solve, board, best_columns[0], weak, run)
        return Analysis(
            tuple(scores),
            best_columns if proven else (),
            tuple(pv),
            run.budget.nodes_spent,
            run.budget.time_spent,
            weak,
            proven,
            cells,
            stones,
            tuple(lowers),
            tuple(uppers),
        )


@contextlib.contextmanager
def _scipy_probe_skipped() -> Iterator[None]:
    """Skip numba's optional scipy probe while the first compiled kernel loads.

    Loading the first kernel makes numba import scipy.linalg (if installed)
    to look for BLAS: 0.3-0.5 s of a command's start-up, and the solver never
    uses BLAS.  The block is lifted right after, so scipy.linalg can still be
    imported later in the same process.
    """
    name = "scipy.linalg"
    blocked = name not in sys.modules
    if blocked:
        sys.modules[name] = None  # type: ignore[assignment]
    try:
        yield
    finally:
        if blocked and name in sys.modules and sys.modules[name] is None:
            del sys.modules[name]


_LOADED: set[tuple[int, int, int]] = set()
"""The geometries (width, height, connect) whose kernel this process has loaded and run."""


def _warm_up(width: int, height: int, connect: int) -> None:
    """Load the geometry's compiled kernel now (numba compiles a function at its first call),
    by a call that stops before its first node, rather than inside the first timed solve.

    The call has a table of its own (untouched but for its header), made for the geometry: the
    solver's may be laid out for another one.
    """
    table = Table.with_parts(MIN_TABLE_BITS + 1)
    table.use_entry_words(1 if fits_64_bits(width, height) else 2)
    solver_kernel(width, height, connect)(_layout.new_args(width, height, table, 0, _layout.new_flag()))
