"""The analysis service: one place that answers questions about a position.

Every front-end -- ``c4 solve`` and ``c4 analyze``, ``c4 move``, the terminal
hint, the web page, the Kaggle agent, the Gymnasium and PettingZoo
opponents, ``c4 dataset`` -- asks an :class:`Analyst`, which goes, within
one :class:`~c4engine.search.limit.Limit`:

1. to the **rules**: a move that wins at once, a move that fills the board;
2. to the **opening book** (:mod:`c4engine.search.book.file`): exact, instant;
3. to the **exact solver** (:mod:`c4engine.search.solver.exact`), on the boards it
   holds (up to 128 bits: :func:`c4engine.geometry.solver_holds`), for as long
   as the limit allows -- a small search first in pure Python
   (:mod:`c4engine.search.solver.small`), while the compiled solver is not loaded yet;
4. to the **heuristic engine** (:mod:`c4engine.search.engine.negamax`) for whatever
   is left unproven -- an estimate, marked as one.

Every answer (:class:`~c4engine.search.results.PositionAnalysis`,
:class:`~c4engine.search.results.PlayResult`) says of each score whether it is
exact and where it came from.

>>> from c4engine import Board
>>> analyst = Analyst()
>>> analysis = analyst.analyze(Board())                     # the empty board: from the book
>>> [score.label() for score in analysis.scores]
['loss in 20', 'loss in 21', 'draw', 'win in 21', 'draw', 'loss in 21', 'loss in 20']
>>> analysis.proven_values(), analysis.best_columns, analysis.source
((-2, -1, 0, 1, 0, -1, -2), (3,), 'book')
>>> result = analyst.solve(Board.from_moves("4455"), Limit(time=5))  # four stones: in the book
>>> result.column, result.describe(), result.source, result.proven
(2, 'win in 2 moves', 'book', True)
>>> result = analyst.solve(Board.from_moves("445566"), Limit(time=5))
>>> result.column, result.describe(), result.source
(2, 'win in 1 move', 'rules')
>>> Analyst(book=None).solve(Board.from_moves("4455")).source
'solver'

:func:`shared_analyst` is the process's one analyst (one solver, one
transposition table), for front-ends that answer many requests.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from typing import TYPE_CHECKING, Final

from c4engine.board import Board
from c4engine.errors import GameOverError, UnsupportedBoardError
from c4engine.geometry import SOLVER_BITS, require_solver_holds
from c4engine.kernels.transposition import DEFAULT_TABLE_MB
from c4engine.search.analysis.answers import proven_result
from c4engine.search.analysis.books import DEFAULT_BOOK, BookChoice, Books
from c4engine.search.analysis.columns import ColumnAnswers, after
from c4engine.search.analysis.estimates import engine_value, estimate_columns
from c4engine.search.analysis.keeping import keeping_move, reaching_move
from c4engine.search.analysis.loading import LoadClock
from c4engine.search.choice import best_by_bounds, best_column
from c4engine.search.limit import UNLIMITED, Budget, Limit, poll_interval
from c4engine.search.results import Line, PlayResult, PositionAnalysis, Score
from c4engine.search.scale import WIN_THRESHOLD, open_range, win_score
from c4engine.search.solver.small import analyze_quick, line_quick, solve_quick

if TYPE_CHECKING:  # the solver and the engine (numba) are imported on first search: book answers need none
    from c4engine.search.analysis.book_probes import Reached
    from c4engine.search.book.file import OpeningBook  # imported where there is a book: --no-book needs none
    from c4engine.search.engine.evaluators import Evaluator
    from c4engine.search.engine.negamax import Engine
    from c4engine.search.progress import Hook
    from c4engine.search.solver.exact import Solver

__all__ = ["Analyst", "shared_analyst"]

SOLVER_SHARE: Final = 0.7
"""The part of a timed question the exact solver gets when the engine may have to estimate the rest."""

_ENGINE_POLL_INTERVAL: Final = 0.02
"""CPU seconds between the engine's calls of the poll hook: it stops within about this long."""

QUICK_SEARCH_NODES: Final = 5_000
"""The most nodes one question may take in the pure-Python search (:mod:`c4engine.search.solver.small`,
about 0.1 CPU s) before the analyst turns to the compiled solver, whose loading costs about 0.5."""

QUICK_SEARCH_NODES_BESIDE_LIBRARY: Final = 1_000
"""The same where the solver's kernel has a shared library (:mod:`c4engine.kernels.library`):
loading the solver then costs about 0.01 CPU s (its modules' import, then the library's; no
numpy), about what the search in Python takes for 1000 nodes, so it pays only while it stays
that small (docs/benchmarks-log.md, "Threads on every set": where the process goes)."""

QUICK_BUDGET_NODES: Final = 10_000
"""The nodes an analyst spends in pure-Python searches in all (about 0.07 CPU s): a long run of small
questions (a batch) then goes on compiled, faster once loaded, having lost little."""

BOOK_LINE_SHARE: Final = 0.1
"""The most of a bounded question (its time, its nodes) an answer of the book alone spends on
taking its recommended line past the book with the solver; without a bound it searches nothing:
its lines are the book's, at once, and say where they stop."""


class Analyst:
    """Answers questions about positions: book first, then the exact solver, then the engine.

    ``book`` is an :class:`OpeningBook`, a path, ``None`` (no book) or
    :data:`DEFAULT_BOOK` (the shipped book for the board's size, opened on
    first use).  The solver (with a ``table_size_mb`` table) and the engine
    (scoring with ``evaluator``, default ``areas``) are made on first need
    and kept, so their tables stay warm between questions.  Under a time or
    node limit the solver gets ``solver_share`` of it when the engine may have
    to estimate what the solver leaves open (0: never solve); the engine gets
    what is left, to the limit's depth.  This is the one place a question's
    budget is split: the players and levels hand their whole limit here.
    The solver it makes searches on ``threads`` threads (:class:`c4engine.search.solver.exact.Solver`).
    """

    def __init__(
        self,
        book: BookChoice = DEFAULT_BOOK,
        *,
        solver: Solver | None = None,
        table_size_mb: float = DEFAULT_TABLE_MB,
        evaluator: Evaluator | None = None,
        solver_share: float = SOLVER_SHARE,
        threads: int = 1,
    ) -> None:
        if not 0 <= solver_share <= 1:
            raise ValueError(f"solver_share must be in [0, 1], not {solver_share!r}")
        self.solver_share = solver_share
        self._books = Books(book)
        self._solver = solver
        self._table_size_mb = table_size_mb
        self._threads = threads
        self._evaluator = evaluator
        self._quick_nodes_left = QUICK_BUDGET_NODES
        self._loads = LoadClock()  # loading compiled searches: no question's clock counts it

    def __repr__(self) -> str:
        return f"Analyst(book={self._books.choice!r}, table_size_mb={self._table_size_mb})"

    # ------------------------------------------------------------ parts

    @property
    def solver(self) -> Solver:
        """The exact solver, made on first use: the search layer's part; the layers above ask the
        analyst's questions instead (``tests/test_layers.py``)."""
        if self._solver is None:
            from c4engine.search.solver.exact import Solver

            self._solver = Solver(table_size_mb=self._table_size_mb, threads=self._threads)
        return self._solver

    def with_evaluator(self, evaluator: Evaluator) -> Analyst:
        """An analyst sharing this one's book and solver (its table warm), its engine scoring with
        ``evaluator``: a player with an evaluator of its own asks the process's one solver."""
        return Analyst(
            self._books.choice,
            solver=self.solver,
            table_size_mb=self._table_size_mb,
            evaluator=evaluator,
            solver_share=self.solver_share,
            threads=self._threads,
        )

    def book_for(self, board: Board) -> OpeningBook | None:
        """The book used for boards of this size, or None."""
        return self._books.for_board(board)

    def book_scores(self, board: Board) -> list[int | None] | None:
        """Every move's score from the book, or None when the book lacks one of them."""
        return self._books.move_scores(board)

    def book_score(self, board: Board) -> int | None:
        """The position's own score from the book, or None when the book lacks it."""
        return self._books.score(board)

    # ------------------------------------------------------------ questions

    def analyze(
        self,
        board: Board,
        limit: Limit = UNLIMITED,
        *,
        weak: bool = False,
        use_book: bool = True,
        pv: bool = True,
        poll: Hook | None = None,
    ) -> PositionAnalysis:
        """Every column's proven bounds and score, exact where the rules, the book or the solver prove it.

        Within ``limit`` the solver first settles every column's win, draw or
        loss, then narrows each to its exact score (the columns that may be
        best first).  Columns left unproven when the limit runs out (or on
        boards too big for the solver) keep the bounds proved and get the
        engine's estimate, every column searched to the same depth (the last
        depth completed for all of them, so the estimates compare).  With no
        time or node limit the solver always finishes: every score is exact.
        Every column the book knows is exact; the book's score of the position
        (``book_score``) caps every column, and under a limit the solver's share
        first looks for the column keeping it (the others refuted first, then
        elimination); a column below it is never recommended.
        ``pv`` also finds each exact column's line to the end of the game, as
        far as the limit allows (to the end without one); an answer of the rules
        and the book alone searches nothing: its lines are the book's own, as far
        as the book goes (``lines_complete``).  ``weak`` asks only
        win/draw/loss.  ``poll`` is called now and then by the solver and the
        engine alike; returning True stops both (a client that went away, say).
        The best columns follow the dominance rule (:func:`best_by_bounds`).
        """
        _check_playable(board)
        _check_bounded(board, limit)
        budget = limit.start()
        answers = ColumnAnswers(board, weak)
        answers.settle_by_rules()
        book_value = answers.settle_by_book(self._books.strong(board) if use_book else None)
        answers.settle_by_elimination()
        open_columns = [c for c in board.legal_moves() if answers.scores[c] is None]
        searched, probed = False, 0  # whether anything past the rules and the book answered; probes' nodes
        bounded = limit.time is not None or limit.nodes is not None
        candidates = answers.book_candidates(open_columns)
        if book_value is not None and bounded and candidates and self._solves(board):
            # under a limit, first prove a move that keeps the book's score: the recommendation
            found = self._reach(board, book_value, candidates, budget)
            searched, probed = True, found.nodes
            answers.take_reach(found.column, found.below, book_value)
            open_columns = [c for c in open_columns if answers.scores[c] is None]
        nodes, helper_nodes, solved = self._solve_open(answers, open_columns, limit, budget, pv, poll)
        nodes += probed
        searched = searched or solved
        open_columns = [c for c in open_columns if answers.scores[c] is None]
        if open_columns:
            self._load_engine(board, budget)
            searched = True
        estimates, estimated_nodes = (
            estimate_columns(board, open_columns, budget, lambda share: self._engine(share, poll))
            if open_columns
            else ({}, 0)
        )
        nodes += estimated_nodes
        answers.take_estimates(estimates)
        best, proven = best_by_bounds(
            board, answers.scores, answers.lowers, answers.uppers, at_least=answers.known
        )
        chosen = best_column(board, [0 if c in best else None for c in range(board.width)])
        if pv and not weak:
            self._find_lines(answers, chosen, searched, limit, budget)
        return answers.analysis(best, proven, chosen, nodes, budget.time_spent, helper_nodes)

    def _reach(self, board: Board, score: int, columns: list[int], budget: Budget) -> Reached:
        """Which of ``columns`` keeps ``board``'s (strong) book ``score``, within :data:`PROBE_SHARE` of
        what ``budget`` has left (:func:`reach`: a won position's engine's choice last), nodes spent."""
        # only a book's answer under a limit comes here: a solve without the book never loads it
        from c4engine.search.analysis.book_probes import LIKELY_KEEPER_DEPTH, PROBE_SHARE, reach

        self._load_solver(board, budget)
        guess, guessed = None, 0  # the engine's choice, which reach takes last in a won position
        if score > 0:
            self._load_engine(board, budget)
            ahead = Limit(time=budget.remaining().time, depth=LIKELY_KEEPER_DEPTH)
            chosen = self._engine(ahead).search(board)
            guess, guessed = chosen.column, chosen.nodes
        found = reach(self.solver.null_window, board, score, columns, budget.share(PROBE_SHARE), guess)
        budget.spend(guessed + found.nodes)
        return replace(found, nodes=found.nodes + guessed)

    def _solve_open(
        self,
        answers: ColumnAnswers,
        open_columns: list[int],
        limit: Limit,
        budget: Budget,
        pv: bool,
        poll: Hook | None,
    ) -> tuple[int, tuple[int, ...], bool]:
        """``open_columns`` searched exactly -- a small search in pure Python, else the compiled solver
        within its share of ``budget`` -- into ``answers``: the nodes searched, the solver's other
        threads' nodes, and whether anything was searched."""
        board, weak = answers.board, answers.weak
        quick_nodes = self._quick_nodes(board, limit) if open_columns else 0
        quick = analyze_quick(board, Limit(nodes=quick_nodes), weak=weak, pv=pv) if quick_nodes else None
        if quick is not None:
            self._quick_nodes_left -= quick.nodes
            answers.take_quick(quick, open_columns)
            return quick.nodes, (), True
        if not (open_columns and self._solves(board)):
            return 0, (), False
        self._load_solver(board, budget)
        # what the solver's share has left after the probes for the book's score (none without them)
        solver_limit = budget.remaining(self._solver_limit(limit))
        solved = self.solver.analyze(
            board,
            solver_limit,
            weak=weak,
            pv=False,
            poll=poll,
            poll_interval=poll_interval(solver_limit),
        )
        budget.spend(solved.nodes)
        answers.take_solved(solved, open_columns)
        return solved.nodes, solved.nodes_per_thread[1:], True

    def _find_lines(
        self, answers: ColumnAnswers, chosen: int, searched: bool, limit: Limit, budget: Budget
    ) -> None:
        """Each exact column's line to the end of the game, the ``chosen`` one first, as far as ``budget``
        allows; an answer of the book alone (not ``searched``) takes the book's lines."""
        board, scores, lines, complete = answers.board, answers.scores, answers.lines, answers.complete
        order = [chosen] + [c for c in board.geometry.center_order if c != chosen]
        for column in order:
            answer = scores[column]
            if answer is None or not answer.proven or complete[column]:
                continue
            if not searched:  # an answer of the book alone: its lines are the book's ...
                found = self.line(board, column, int(answer.value), search=False)
                if column == chosen and not found.complete and (limit.time or limit.nodes):
                    # ... but the recommended line goes on within a share of a bounded question
                    found = self.line(board, column, int(answer.value), limit.share(BOOK_LINE_SHARE))
                lines[column], complete[column] = found.moves, found.complete
                continue
            with self._loads.left_out(budget):  # the line may load the solver
                left = Limit(time=budget.remaining().time)
                found = self.line(board, column, int(answer.value), left)
            lines[column], complete[column] = found.moves, found.complete
            if not complete[column] and left.time is not None:
                break  # the limit ran out

    def solve(
        self,
        board: Board,
        limit: Limit = UNLIMITED,
        *,
        weak: bool = False,
        use_book: bool = True,
        best_move: bool = True,
        poll: Hook | None = None,
        line: bool = False,
    ) -> PlayResult:
        """The position's score for the side to move and a move keeping it (``best_move``).

        From the book when it holds the position (the best move is the book's
        when it holds every child, or a child keeping the score as a policy
        book does; else it costs a few null-window searches, as in
        :meth:`analyze`: the others refuted first);
        else from the solver within ``limit``; where the solver cannot
        answer, the engine's estimate.  ``line`` asks for best play to the end
        of the game (:meth:`line`) from an exact score's best move, within
        what is left of ``limit``: the result's ``line`` (``line_complete``) -- for an answer
        from the book, the book's own line, at once, which may stop short.  The result is
        ``proven`` when its score is exact and its column keeps it; with ``best_move=False`` the
        column may be None.
        """
        budget = limit.start()
        result = self._solve(board, budget, weak, use_book, best_move, poll)
        column, score = result.column, result.score
        if not line or weak or not result.proven or column is None or score is None:
            return result
        if result.source in ("rules", "book"):  # a book answer comes at once: its line is the book's
            found = self.line(board, column, int(score.value), search=False)
        else:
            left = Limit(time=budget.remaining().time)
            with self._loads.left_out(budget):  # the line may load the solver
                found = self.line(board, column, int(score.value), left)
        return replace(result, line=found.moves, line_complete=found.complete, time=budget.time_spent)

    def _solve(
        self,
        board: Board,
        budget: Budget,
        weak: bool,
        use_book: bool,
        best_move: bool,
        poll: Hook | None,
    ) -> PlayResult:
        _check_playable(board)
        limit = budget.limit
        _check_bounded(board, limit)
        cells, stones = board.width * board.height, board.move_count
        column = board.winning_column()
        if column is not None:
            return proven_result(board, win_score(cells, stones), column, "rules", budget, weak=weak)
        known = self.book_score(board) if use_book else None
        if known is not None:
            chosen: int | None = None
            if best_move:
                scores = self.book_scores(board)
                book = self.book_for(board)
                if scores is not None:
                    chosen = best_column(board, scores)
                elif book is not None and (kept := book.keeping_move(board, known)) is not None:
                    chosen = kept  # a policy book holds the perfect player's own move: no search
                elif book is not None and board.geometry.solver_holds:
                    # as an analysis does: among the columns the book lacks, cheap refutations first
                    lacking = [c for c, s in enumerate(book.move_scores(board)) if s is None]
                    lacking = [c for c in lacking if board.can_play(c)]
                    chosen = self._reach(board, known, lacking, budget).column
                if chosen is None:  # the limit ran out before a move was proven to keep the score
                    self._load_engine(board, budget)
                    guess = self._engine(budget.remaining()).search(board).column
                    guessed = proven_result(board, known, guess, "book", budget, weak=weak)
                    ran_out = "time limit" if limit.time is not None else "node limit"
                    return replace(
                        guessed, proven=False, stopped=ran_out if board.geometry.solver_holds else None
                    )
            return proven_result(board, known, chosen, "book", budget, weak=weak)
        quick_nodes = self._quick_nodes(board, limit)
        quick = (
            solve_quick(board, Limit(nodes=quick_nodes), weak=weak, best_move=best_move)
            if quick_nodes
            else None
        )
        if quick is not None and quick.score is not None:  # a small search's score is always proven
            self._quick_nodes_left -= quick.nodes
            return proven_result(
                board, quick.score, quick.best_move, "solver", budget, nodes=quick.nodes, weak=weak
            )
        if self._solves(board):
            self._load_solver(board, budget)
            solver_limit = self._solver_limit(limit)
            result = self.solver.solve(
                board,
                solver_limit,
                weak=weak,
                poll=poll,
                poll_interval=poll_interval(solver_limit),
                best_move=best_move,
            )
            if result.proven and result.score is not None:
                solved = proven_result(
                    board, result.score, result.best_move, "solver", budget, nodes=result.nodes, weak=weak
                )
                return replace(solved, nodes_per_thread=result.nodes_per_thread)
            stopped = result.stopped
            # no win on the spot (the rules answered that): the position's bounds are its columns',
            # as an analysis gives them
            low, high = (-1, 1) if weak else open_range(cells, stones)
            lower, upper, nodes = max(result.lower, low), min(result.upper, high), result.nodes
            # a move the solver proved to reach at least a draw, before the limit stopped it
            drawing = result.best_move if result.best_proven and result.lower >= 0 else None
        else:
            lower, upper, nodes, stopped = *((-1, 1) if weak else open_range(cells, stones)), 0, None
            drawing = None
        self._load_engine(board, budget)
        budget.spend(nodes)
        found = self._engine(budget.remaining(), poll).search(board)
        assert found.score is not None  # the engine always scores its move
        proven = found.score.proven  # the engine saw the end of the game: its move keeps that score
        score: Score = found.score
        if drawing is not None and found.column != drawing and engine_value(found) < WIN_THRESHOLD:
            # dominance: a move proven at least a draw ranks above one only estimated, bar a win seen
            found, proven = replace(found, column=drawing, line=(drawing,)), False
        return replace(
            found,
            score=replace(score, weak=True) if weak and not proven else score,
            proven=proven,
            lower=lower,
            upper=upper,
            nodes=nodes + found.nodes,
            time=budget.time_spent,
            stopped=stopped or found.stopped,
        )

    def outlook(self, board: Board) -> str | None:
        """Words for a position an exact solve may take hours on -- short of its board's measured (or
        estimated) reach, :mod:`c4engine.search.solver.reach`, and not in the book -- else None.

        >>> print(Analyst().outlook(Board.from_moves("4453", 8, 8)))
        exact answers on 8x8 come within 10 s from about 22 stones (measured); this position has 4: \
an exact solve may take hours
        >>> Analyst().outlook(Board.from_moves("4453")) is None     # 7x6: in the book
        True
        """
        from c4engine.search.solver.reach import board_reach

        if board.is_over or not board.geometry.solver_holds:
            return None
        reach = board_reach(board.width, board.height, board.connect)
        outlook = None if reach is None else reach.outlook(board.move_count)
        return None if outlook is None or self.book_score(board) is not None else outlook

    def engine_move(self, board: Board, limit: Limit = UNLIMITED, *, poll: Hook | None = None) -> PlayResult:
        """The heuristic engine's move within ``limit``: an estimate, ``proven`` only where the engine
        saw the end of the game -- what a player whose proof ran out plays, said to be unproven.

        >>> result = Analyst(book=None).engine_move(Board.from_moves("4455", 8, 8), Limit(time=1, depth=2))
        >>> result.source, result.proven, result.score.proven
        ('engine', False, False)
        """
        _check_playable(board)
        budget = limit.start()
        self._load_engine(board, budget)
        found = self._engine(budget.remaining(), poll).search(board)
        assert found.score is not None  # the engine always scores its move
        return replace(found, proven=found.score.proven, time=budget.time_spent)

    def is_at_least(self, board: Board, score: int, limit: Limit = UNLIMITED) -> bool | None:
        """Whether ``board`` scores ``score`` or more for the side to move; None if the limit ran out.

        One null-window search of the solver (a board it can hold, the game not
        over), within ``limit``.
        """
        require_solver_holds(board.width, board.height)
        _check_playable(board)
        return self.solver.is_at_least(board, score, limit)

    def move_reaching(self, board: Board, target: int, limit: Limit = UNLIMITED) -> int | None:
        """A move keeping the score ``target`` (known exact), tested centre-first; None if the limit ran out
        (one null-window search a move: :func:`~c4engine.search.analysis.keeping.reaching_move`)."""
        return reaching_move(self.solver, board, target, limit)[0]

    def keeping_move(
        self, board: Board, limit: Limit = UNLIMITED, *, floor: int | None = None, poll: Hook | None = None
    ) -> PlayResult:
        """The most central move keeping ``board``'s score, proven: perfect play's question.

        The score from the rules, the book, else the solver (from ``floor``, a score already proved
        for ``board``, such as the one the asker's previous move kept: one null-window search when
        the reply left it as it was); the move the book's child keeping it, else the first move,
        centre-first, one null-window search shows keeps it (:mod:`c4engine.search.analysis.keeping`).
        When ``limit`` runs out first the move is not ``proven``: ``lower`` is then the score it is
        proved to reach, or None.  A board the solver holds; ``poll`` may stop the solve.

        >>> result = Analyst(book=None).keeping_move(Board.from_moves("4455"))
        >>> result.column, result.describe(), result.source, result.proven
        (2, 'win in 2 moves', 'solver', True)
        """
        _check_playable(board)
        require_solver_holds(board.width, board.height)
        budget = limit.start()
        book = self._books.strong(board)
        return keeping_move(
            board, budget, lambda: self._load_solver(board, budget), book=book, floor=floor, poll=poll
        )

    def line(
        self, board: Board, column: int, score: int, limit: Limit = UNLIMITED, *, search: bool = True
    ) -> Line:
        """Best play from ``board`` starting with ``column``, whose exact (strong) score is ``score``.

        The :class:`~c4engine.search.results.Line`'s moves (0-based columns) reach the end of
        the game -- the winning stone, or the full board for a draw -- unless ``limit`` runs
        out first (``complete``).  Each move keeps the score:
        the book's where it knows (through a policy book's own moves too),
        else the most central move a null-window search shows keeps it.
        Without ``search`` the line is the rules' and the book's alone -- no
        solver, at once -- and stops where the book does.

        >>> Analyst().line(Board.from_moves("445566"), 2, 18)   # the win on the spot
        Line(moves=(2,), complete=True)
        >>> line = Analyst().line(Board.from_moves("44"), 3, 1, search=False)
        >>> line.moves[:3], line.complete                     # the book's own line, short of the end
        ((3, 3, 3), False)
        """
        budget = limit.start()
        quick_nodes = self._quick_nodes(board, limit) if search else 0
        quick = line_quick(board, column, Limit(nodes=quick_nodes)) if quick_nodes else None
        if quick is not None:  # near the end: no need to load the compiled solver
            self._quick_nodes_left -= quick[1]
            return Line(quick[0], complete=True)
        line = [column]
        walk = after(board, column)
        target = -score  # the opponent's score after ``column``: the scale counts from the game's end
        while not walk.is_over:
            left = Limit(time=budget.remaining().time, nodes=limit.nodes)
            with self._loads.left_out(budget):  # the search's loading, before its clock starts
                move = self._line_move(walk, target, left if search else None)
            if move is None:
                return Line(tuple(line), complete=False)
            line.append(move)
            walk.play(move)
            target = -target
        return Line(tuple(line), complete=True)

    def _line_move(self, board: Board, target: int, limit: Limit | None) -> int | None:
        """A move of ``board`` keeping its exact score ``target``: the book's, else the solver's within
        ``limit`` (None: no search); None when neither answers (or the solver cannot hold the board)."""
        winning = board.winning_column()
        if winning is not None:
            return winning
        scores = self.book_scores(board)
        if scores is not None and target in scores:
            return board.geometry.most_central([c for c, score in enumerate(scores) if score == target])
        book = self._books.strong(board)
        if book is not None and (kept := book.keeping_move(board, target)) is not None:
            return kept
        if limit is None or not board.geometry.solver_holds:
            return None
        self._load_solver(board)  # before the limit's clock starts: the caller leaves it out
        return self.move_reaching(board, target, limit)

    # ------------------------------------------------------------ internals

    def _load_solver(self, board: Board, budget: Budget | None = None) -> Solver:
        """Make the solver and load its compiled search for ``board``'s size, ``budget`` paused: the solver.

        Loading -- compiling, the first time on a machine -- is no search time: neither a
        question's time limit nor the time it reports counts it (the questions waiting on a
        nested one leave it out too: :meth:`LoadClock.left_out`).
        """
        with contextlib.nullcontext() if budget is None else budget.paused(), self._loads.counted():
            self.solver.load(board)
        return self.solver

    def _load_engine(self, board: Board, budget: Budget) -> None:
        """Load the engine's compiled search if it serves ``board``, ``budget`` paused (see
        :meth:`_load_solver`)."""
        with budget.paused(), self._loads.counted():
            self._engine(UNLIMITED).load(board)

    def _solves(self, board: Board) -> bool:
        return self.solver_share > 0 and board.geometry.solver_holds

    def _quick_nodes(self, board: Board, limit: Limit) -> int:
        """The nodes a small search in pure Python may take on this question; 0: not worth trying.

        Tried only while the compiled solver is not made (once loaded, it is
        faster), within the analyst's budget (:data:`QUICK_BUDGET_NODES`), on
        connect-4 boards, and for questions without a time or node limit: the
        quick search looks at no clock, and node limits count the compiled
        solver's nodes.  Nor does it call the poll hook: it stops by itself
        within a few hundredths of a second.  A search too big for it makes
        the compiled solver.
        """
        if (
            self._solver is not None
            or self._quick_nodes_left <= 0
            or not self._solves(board)
            or board.connect != 4
            or limit.time is not None
            or limit.nodes is not None
        ):
            return 0
        from c4engine.kernels.library import has_library  # no numpy: a file's existence

        fast_load = has_library(board.width, board.height, board.connect)
        return min(
            QUICK_SEARCH_NODES_BESIDE_LIBRARY if fast_load else QUICK_SEARCH_NODES, self._quick_nodes_left
        )

    def _solver_limit(self, limit: Limit) -> Limit:
        """The solver's part of a question's ``limit`` (the one place a budget is split): its share of
        the time and nodes when the engine may have to estimate what it leaves open."""
        bounded = limit.time is not None or limit.nodes is not None
        return limit.share(self.solver_share) if bounded else limit

    def _engine(self, limit: Limit, poll: Hook | None = None) -> Engine:
        """The heuristic engine within ``limit``; ``poll`` can stop it as it stops the solver."""
        from c4engine.search.engine.evaluators import areas
        from c4engine.search.engine.negamax import Engine

        evaluator, interval = self._evaluator or areas, _ENGINE_POLL_INTERVAL
        return Engine(evaluator, limit, center_first_move=False, poll=poll, poll_interval=interval)


_ANALYSTS: dict[float, Analyst] = {}


def shared_analyst(table_size_mb: float = DEFAULT_TABLE_MB) -> Analyst:
    """This process's analyst for the shipped books, made on first use: one solver (and table) per table size.

    >>> shared_analyst() is shared_analyst()
    True
    """
    if table_size_mb not in _ANALYSTS:
        _ANALYSTS[table_size_mb] = Analyst(table_size_mb=table_size_mb)
    return _ANALYSTS[table_size_mb]


def _check_playable(board: Board) -> None:
    if board.is_over:
        raise GameOverError("the game is over: nothing to analyze")


def _check_bounded(board: Board, limit: Limit) -> None:
    """Refuse a question without any limit on a board the exact solver cannot hold: the engine's
    estimates alone answer there, and searching them to the end of the game would not end.

    >>> _check_bounded(Board(12, 10), Limit(time=2))
    >>> _check_bounded(Board(12, 10), UNLIMITED)
    Traceback (most recent call last):
    ...
    c4engine.errors.UnsupportedBoardError: 12x10 is past the exact solver (width * (height + 1) <= 128, \
it needs 132): only the engine's estimates answer there, and they need a time, node or depth limit
    """
    if limit.unbounded and not board.geometry.solver_holds:
        raise UnsupportedBoardError(
            f"{board.size} is past the exact solver (width * (height + 1) <= {SOLVER_BITS}, it needs "
            f"{board.width * (board.height + 1)}): only the engine's estimates answer there, and they "
            "need a time, node or depth limit"
        )
