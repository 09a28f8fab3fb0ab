"""The analysis service: one place that answers questions about a position.

Every front-end -- ``c4 solve`` and ``c4 analyze``, ``c4 move``, the terminal
hint, the web page, the Kaggle agent, the Gymnasium and PettingZoo
opponents, ``c4 dataset`` -- asks an :class:`Analyst`, which goes, within
one :class:`~c4engine.search.limit.Limit`:

1. to the **rules**: a move that wins at once, a move that fills the board;
2. to the **opening book** (:mod:`c4engine.search.book`): exact, instant;
3. to the **exact solver** (:mod:`c4engine.search.solver`), on boards that
   fit 64-bit bitboards, for as long as the limit allows -- a small search
   first in pure Python (:mod:`c4engine.search.quick`), while the compiled
   solver is not loaded yet;
4. to the **heuristic engine** (:mod:`c4engine.search.engine`) for whatever
   is left unproven -- an estimate, marked as one.

Every answer (:class:`~c4engine.search.results.PositionAnalysis`,
:class:`~c4engine.search.results.PlayResult`) says of each score whether it is
exact and where it came from.

>>> from c4engine import Board
>>> analyst = Analyst()
>>> analysis = analyst.analyze(Board())                     # the empty board: from the book
>>> [score.label() for score in analysis.scores]
['loss in 20', 'loss in 21', 'draw', 'win in 21', 'draw', 'loss in 21', 'loss in 20']
>>> analysis.exact_values(), analysis.best_columns, analysis.source
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
import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Final

from c4engine.board import Board
from c4engine.errors import BookError, GameOverError
from c4engine.geometry import require_64_bits
from c4engine.search.book import OpeningBook, default_book_path
from c4engine.search.limit import DEFAULT_POLL_INTERVAL, UNLIMITED, Budget, Limit
from c4engine.search.progress import Hook
from c4engine.search.quick import analyze_quick, line_quick, solve_quick
from c4engine.search.results import (
    DEFAULT_TABLE_MB,
    WIN_THRESHOLD,
    PlayResult,
    PositionAnalysis,
    Score,
    Source,
)
from c4engine.search.scale import score_range, win_score

if TYPE_CHECKING:  # the solver and the engine (numba) are imported on first search: book answers need none
    from c4engine.search.engine import Engine
    from c4engine.search.evaluators import Evaluator
    from c4engine.search.solver import Solver

__all__ = ["DEFAULT_BOOK", "Analyst", "BookChoice", "best_by_bounds", "best_column", "shared_analyst"]

SOLVER_SHARE: Final = 0.7
"""The part of a timed question the exact solver gets when the engine may have to estimate the rest."""

_ENGINE_POLL_INTERVAL: Final = 0.02
"""CPU seconds between the engine's calls of the poll hook: it stops within about this long."""

QUICK_SEARCH_NODES: Final = 5_000
"""The most nodes one question may take in the pure-Python search (:mod:`c4engine.search.quick`,
about 0.1 CPU s) before the analyst turns to the compiled solver, whose loading costs about 0.5."""

QUICK_SEARCH_NODES_BESIDE_LIBRARY: Final = 1_000
"""The same where the solver's kernel has a shared library (:mod:`c4engine.kernels.library`):
loading the solver then costs about 0.1 CPU s, mostly numpy's import, so a small search in
Python pays only while it stays smaller (about 0.02 CPU s)."""

QUICK_BUDGET_NODES: Final = 10_000
"""The nodes an analyst spends in pure-Python searches in all (about 0.07 CPU s): a long run of small
questions (a batch) then goes on compiled, faster once loaded, having lost little."""

BOOK_LINE_SHARE: Final = 0.25
"""The most of a bounded question (its time, its nodes) an answer of the book alone spends on
taking its recommended line past the book with the solver; without a bound it searches nothing:
its lines are the book's, at once, and say where they stop."""

PROBE_NODES: Final = 20_000
"""The first round's node budget of each null-window search for a move keeping the book's score
(:meth:`Analyst.analyze` under a limit); each round after it gets four times more."""


class _DefaultBook:
    """Marker: the book shipped with c4engine for the board, if there is one."""

    def __repr__(self) -> str:
        return "DEFAULT_BOOK"


DEFAULT_BOOK: Final = _DefaultBook()

BookChoice = OpeningBook | str | Path | _DefaultBook | None


def best_column(board: Board, scores: Sequence[int | None], rng: random.Random | None = None) -> int:
    """The best-scoring column: centre-first among equals, or at random with ``rng``.

    >>> best_column(Board(), [-2, -1, 0, 1, 0, -1, -2])
    3
    """
    best = max(score for score in scores if score is not None)
    ties = [column for column in board.geometry.center_order if scores[column] == best]
    if rng is not None and len(ties) > 1:
        return rng.choice(sorted(ties))
    return ties[0]


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
    The solver it makes searches on ``threads`` threads (:class:`c4engine.search.solver.Solver`).
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
        self._book_choice = book
        self._books: dict[tuple[int, int, int], OpeningBook | None] = {}
        if isinstance(book, OpeningBook):
            self._books[(book.width, book.height, book.connect)] = book
        elif isinstance(book, str | Path):
            opened = OpeningBook.open(book)
            self._books[(opened.width, opened.height, opened.connect)] = opened
        self._solver = solver
        self._table_size_mb = table_size_mb
        self._threads = threads
        self._evaluator = evaluator
        self._quick_nodes_left = QUICK_BUDGET_NODES
        self._load_seconds = 0.0  # spent loading compiled searches: no question's clock counts it

    def __repr__(self) -> str:
        return f"Analyst(book={self._book_choice!r}, table_size_mb={self._table_size_mb})"

    # ------------------------------------------------------------ parts

    @property
    def solver(self) -> Solver:
        """The exact solver, made on first use."""
        if self._solver is None:
            from c4engine.search.solver import Solver

            self._solver = Solver(table_size_mb=self._table_size_mb, threads=self._threads)
        return self._solver

    def book_for(self, board: Board) -> OpeningBook | None:
        """The book used for boards of this size, or None."""
        geometry = (board.width, board.height, board.connect)
        if geometry not in self._books:
            book: OpeningBook | None = None
            if isinstance(self._book_choice, _DefaultBook):
                path = default_book_path(*geometry)
                book = OpeningBook.open(path) if path is not None else None
            self._books[geometry] = book
        found = self._books[geometry]
        if found is not None and (found.width, found.height, found.connect) != geometry:
            raise BookError(f"the book is for {found.width}x{found.height} connect {found.connect}")
        return found

    def _strong_book(self, board: Board) -> OpeningBook | None:
        """The book for ``board`` when it can give exact scores of it (strong, game not over)."""
        book = self.book_for(board)
        return None if book is None or book.weak or board.is_over else book

    def book_scores(self, board: Board) -> list[int | None] | None:
        """Every move's score from the book, or None when the book lacks one of them."""
        book = self._strong_book(board)
        if book is None:
            return None
        scores = book.move_scores(board)
        if any(score is None for column, score in enumerate(scores) if board.can_play(column)):
            return None
        return scores

    def book_score(self, board: Board) -> int | None:
        """The position's own score from the book, or None when the book lacks it."""
        book = self._strong_book(board)
        return None if book is None else book.score(board)

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
        budget = limit.start()
        cells, stones = board.width * board.height, board.move_count
        scores: list[Score | None] = [None] * board.width
        sources: list[Source | None] = [None] * board.width
        lowest, highest = _column_range(cells, stones, weak)
        lowers: list[int | None] = [lowest if board.can_play(c) else None for c in range(board.width)]
        uppers: list[int | None] = [highest if board.can_play(c) else None for c in range(board.width)]
        lines: list[tuple[int, ...]] = [() for _ in range(board.width)]
        complete = [False] * board.width
        nodes = 0
        helper_nodes: tuple[int, ...] = ()  # the solver's other threads'

        def settle(column: int, score: int, source: Source) -> None:
            if weak:
                score = (score > 0) - (score < 0)
            scores[column] = Score.exact(score, cells=cells, stones=stones, weak=weak)
            sources[column] = source
            lowers[column] = uppers[column] = score

        for column in board.legal_moves():
            if board.is_winning_move(column):
                settle(column, win_score(cells, stones), "rules")
                lines[column], complete[column] = (column,), True
            elif stones + 1 == cells:
                settle(column, 0, "rules")
                lines[column], complete[column] = (column,), True
        book = self._strong_book(board) if use_book else None
        book_value = None if book is None else book.score(board)
        known = None if book_value is None else _scaled(book_value, weak)
        if book is not None:  # every column the book knows, even when it lacks others
            for column, score in enumerate(book.move_scores(board)):
                if score is not None and scores[column] is None:
                    settle(column, score, "book")
        if known is not None:  # no move scores more than the position itself
            for column in board.legal_moves():
                uppers[column] = min(_bound(uppers[column]), known)

        def settle_by_elimination() -> None:
            # the position scores ``known``: when only one column can reach it, that column does
            if known is None:
                return
            reaching = [c for c in board.legal_moves() if _bound(uppers[c]) >= known]
            answer = scores[reaching[0]] if len(reaching) == 1 else None
            if len(reaching) == 1 and (answer is None or not answer.is_exact):
                settle(reaching[0], known, "book")

        settle_by_elimination()
        open_columns = [c for c in board.legal_moves() if scores[c] is None]
        searched = False  # whether anything beyond the rules and the book answered
        bounded = limit.time is not None or limit.nodes is not None
        # the columns that may keep the book's score, while none is known to
        candidates = (
            [c for c in open_columns if _bound(uppers[c]) >= known]
            if known is not None and not any(_bound(lowers[c]) >= known for c in board.legal_moves())
            else []
        )
        if book_value is not None and bounded and candidates and self._solves(board):
            # under a limit, first prove a move that keeps the book's score: the recommendation
            self._load_solver(board, budget)
            searched = True
            reaching, below = self._reach(board, book_value, candidates, self._solver_limit(limit))
            for column in below:
                uppers[column] = min(_bound(uppers[column]), _scaled(book_value - 1, weak))
            if reaching is not None:
                settle(reaching, book_value, "book")
            settle_by_elimination()
            open_columns = [c for c in open_columns if scores[c] is None]
        quick_nodes = self._quick_nodes(board, limit) if open_columns else 0
        quick = analyze_quick(board, Limit(nodes=quick_nodes), weak=weak, pv=pv) if quick_nodes else None
        if quick is not None:
            searched = True
            self._quick_nodes_left -= quick.nodes
            nodes += quick.nodes
            for column in open_columns:
                quick_score = quick.scores[column]
                assert quick_score is not None  # a legal move
                settle(column, quick_score, "solver")
            for column, line in enumerate(quick.lines):
                if line:
                    lines[column], complete[column] = line, True
        elif open_columns and self._solves(board):
            self._load_solver(board, budget)
            searched = True
            # what the solver's share has left after the probes for the book's score (none without them)
            solver_limit = budget.remaining(self._solver_limit(limit))
            solved = self.solver.analyze(
                board,
                solver_limit,
                weak=weak,
                pv=False,
                poll=poll,
                poll_interval=_poll_interval(solver_limit),
            )
            nodes += solved.nodes
            budget.spend(solved.nodes)
            helper_nodes = solved.nodes_per_thread[1:]
            for column in open_columns:
                score = solved.scores[column]
                if score is not None:
                    settle(column, score, "solver")
                    continue
                # what the solver proved, within what was known before
                lower = max(_bound(lowers[column]), _bound(solved.lowers[column]))
                upper = min(_bound(uppers[column]), _bound(solved.uppers[column]))
                if lower == upper:
                    settle(column, lower, "solver")
                else:
                    lowers[column], uppers[column] = lower, upper
            settle_by_elimination()
        open_columns = [c for c in open_columns if scores[c] is None]
        if open_columns:
            self._load_engine(board, budget)
            searched = True
        estimates, estimated_nodes = (
            self._estimate(board, open_columns, budget, poll) if open_columns else ({}, 0)
        )
        nodes += estimated_nodes
        for column, (value, line) in estimates.items():
            # the child's value, negated, is this column's: count this column's stone as one more ply
            if abs(value) >= WIN_THRESHOLD:
                value += -1 if value > 0 else 1
            estimate = Score.from_engine(value, cells=cells, stones=stones)
            low, high = lowers[column], uppers[column]
            assert low is not None and high is not None
            seen = int(estimate.value) if estimate.is_exact else None
            if seen is not None and weak:
                seen = (seen > 0) - (seen < 0)
            if seen is not None and low <= seen <= high:  # the engine saw the end of the game
                settle(column, seen, "engine")
                lines[column], complete[column] = line, _ends_game(board, line)
            else:
                scores[column], sources[column] = Score.estimate(value, cells=cells, stones=stones), "engine"
        settle_by_elimination()  # the engine may have seen the end of every other column
        best, proven = best_by_bounds(board, scores, lowers, uppers, at_least=known)
        chosen = best_column(board, [0 if c in best else None for c in range(board.width)])
        if pv and not weak:
            order = [chosen] + [c for c in board.geometry.center_order if c != chosen]
            for column in order:
                answer = scores[column]
                if answer is None or not answer.is_exact or complete[column]:
                    continue
                if not searched:  # an answer of the book alone: its lines are the book's ...
                    found = self.line(board, column, int(answer.value), search=False)
                    if column == chosen and not found[1] and (limit.time or limit.nodes):
                        # ... but the recommended line goes on within a share of a bounded question
                        found = self.line(board, column, int(answer.value), limit.share(BOOK_LINE_SHARE))
                    lines[column], complete[column] = found
                    continue
                with self._loads_left_out(budget):  # the line may load the solver
                    left = Limit(time=budget.remaining().time)
                    found = self.line(board, column, int(answer.value), left)
                lines[column], complete[column] = found
                if not complete[column] and left.time is not None:
                    break  # the limit ran out
        line = lines[chosen] or (chosen,)
        return PositionAnalysis(
            tuple(scores),
            tuple(sources),
            best,
            line,
            proven and complete[chosen],
            nodes,
            budget.time_spent,
            tuple(lowers),
            tuple(uppers),
            proven,
            tuple(lines[c] or (c,) if board.can_play(c) else () for c in range(board.width)),
            tuple(complete),
            (nodes - sum(helper_nodes), *helper_nodes) if helper_nodes else (),
            known,
        )

    def _reach(
        self, board: Board, score: int, columns: Sequence[int], limit: Limit
    ) -> tuple[int | None, list[int]]:
        """Which of ``columns`` -- every column that may keep ``board``'s exact (strong) ``score``;
        the others are known to score less -- keeps it, within ``limit``: the column proven to
        (None if none was before the limit ran out), and the columns shown to score less.

        One null-window search a column, centre-first, in rounds of growing node budgets
        (:data:`PROBE_NODES`, four times more each round): a column scoring less is usually
        refuted in a few thousand nodes, while proving the one that keeps the score costs the
        whole proof -- so the cheap refutations come first, and when every column but one is
        refuted, that one keeps the score without a search of its own.  Under a node limit the
        budgets handed out count against it, whatever the searches took.
        """
        budget = limit.start()
        below: list[int] = []
        waiting = [c for c in board.geometry.center_order if c in columns]
        round_nodes = PROBE_NODES
        while waiting:
            for column in list(waiting):
                if len(waiting) == 1 and len(below) + 1 == len(columns):
                    return column, below  # every other column scores less
                left = budget.nodes_left()
                nodes = round_nodes if left is None else min(round_nodes, left)
                if nodes <= 0 or budget.expired:
                    return None, below
                budget.spend(nodes)
                probe = Limit(time=budget.remaining().time, nodes=nodes)
                # the column keeps ``score`` unless the opponent's reply scores more than ``-score``
                beaten = self.solver.is_at_least(_after(board, column), 1 - score, probe)
                if beaten is None:
                    continue  # not within this round's budget
                if not beaten:
                    return column, below
                below.append(column)
                waiting.remove(column)
            round_nodes *= 4
        return None, below

    def _estimate(
        self,
        board: Board,
        columns: list[int],
        budget: Budget,
        poll: Hook | None,
    ) -> tuple[dict[int, tuple[float, tuple[int, ...]]], int]:
        """The engine's values of the unproven ``columns`` (for the side to move, with the line
        from the column on), and the nodes searched, within what is left of ``budget``.

        Under a time or node limit the columns are searched depth by depth, all of
        them to one depth before any goes deeper, and each keeps its value at
        the last depth completed for all: values of different depths (an odd
        depth ends on the mover's stone, an even one on the reply's) do not
        compare, and would make the ranking swing from one round to the next.
        """
        nodes = 0
        limit = budget.limit
        settled: dict[int, tuple[float, tuple[int, ...]]] = {}
        if limit.time is None and limit.nodes is None:
            engine = self._engine(limit, poll)
            for column in columns:
                found = engine.search(_after(board, column))
                nodes += found.nodes
                settled[column] = (-_engine_value(found), (column, *found.line))
            return settled, nodes
        deepest = board.width * board.height - board.move_count - 1
        if limit.depth is not None:
            deepest = min(deepest, limit.depth)
        for depth in range(1, max(deepest, 1) + 1):
            this_round: dict[int, tuple[float, tuple[int, ...]]] = {}
            for column in columns:
                known = settled.get(column)
                if known is not None and abs(known[0]) >= WIN_THRESHOLD:
                    this_round[column] = known  # seen to the end of the game already
                    continue
                left = budget.remaining()
                engine = self._engine(Limit(time=left.time, nodes=left.nodes, depth=depth), poll)
                found = engine.search(_after(board, column))
                nodes += found.nodes
                budget.spend(found.nodes)
                if found.stopped and settled:
                    return settled, nodes  # this depth did not finish: keep the last one that did
                this_round[column] = (-_engine_value(found), (column, *found.line))
            settled = this_round
            if all(abs(value) >= WIN_THRESHOLD for value, _ in settled.values()):
                break
        return settled, nodes

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
            found, complete = self.line(board, column, int(score.value), search=False)
        else:
            left = Limit(time=budget.remaining().time)
            with self._loads_left_out(budget):  # the line may load the solver
                found, complete = self.line(board, column, int(score.value), left)
        return replace(result, line=found, line_complete=complete, time=budget.time_spent)

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
        cells, stones = board.width * board.height, board.move_count
        wins = board.winning_columns()
        if wins:
            column = next(c for c in board.geometry.center_order if c in wins)
            return self._exact_result(board, win_score(cells, stones), column, "rules", 0, budget, weak)
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
                elif book is not None and board.geometry.fits_64_bits:
                    self._load_solver(board, budget)
                    # as an analysis does: among the columns the book lacks, cheap refutations first
                    lacking = [c for c, score in enumerate(book.move_scores(board)) if score is None]
                    lacking = [c for c in lacking if board.can_play(c)]
                    chosen, _below = self._reach(board, known, lacking, self._solver_limit(limit))
                if chosen is None:  # the limit ran out before a move was proven to keep the score
                    self._load_engine(board, budget)
                    guess = self._engine(budget.remaining()).search(board).column
                    guessed = self._exact_result(board, known, guess, "book", 0, budget, weak)
                    ran_out = "time limit" if limit.time is not None else "node limit"
                    return replace(
                        guessed, proven=False, stopped=ran_out if board.geometry.fits_64_bits else None
                    )
            return self._exact_result(board, known, chosen, "book", 0, budget, weak)
        quick_nodes = self._quick_nodes(board, limit)
        quick = (
            solve_quick(board, Limit(nodes=quick_nodes), weak=weak, best_move=best_move)
            if quick_nodes
            else None
        )
        if quick is not None:
            self._quick_nodes_left -= quick.nodes
            return self._exact_result(
                board, quick.score, quick.best_move, "solver", quick.nodes, budget, weak
            )
        if self._solves(board):
            self._load_solver(board, budget)
            solver_limit = self._solver_limit(limit)
            result = self.solver.solve(
                board,
                solver_limit,
                weak=weak,
                poll=poll,
                poll_interval=_poll_interval(solver_limit),
                best_move=best_move,
            )
            if result.exact and result.score is not None:
                solved = self._exact_result(
                    board, result.score, result.best_move, "solver", result.nodes, budget, weak
                )
                return replace(solved, nodes_per_thread=result.nodes_per_thread)
            stopped = result.stopped
            lower, upper, nodes = result.lower, result.upper, result.nodes
            # a move the solver proved to reach at least a draw, before the limit stopped it
            drawing = result.best_move if result.best_proved and result.lower >= 0 else None
        else:
            lower, upper, nodes, stopped = *score_range(cells, stones), 0, None
            drawing = None
        self._load_engine(board, budget)
        budget.spend(nodes)
        found = self._engine(budget.remaining(), poll).search(board)
        assert found.score is not None  # the engine always scores its move
        proven = found.score.is_exact  # the engine saw the end of the game: its move keeps that score
        if drawing is not None and found.column != drawing and _engine_value(found) < WIN_THRESHOLD:
            # dominance: a move proven at least a draw ranks above one only estimated, bar a win seen
            found, proven = replace(found, column=drawing, line=(drawing,)), False
        return replace(
            found,
            proven=proven,
            lower=lower,
            upper=upper,
            nodes=nodes + found.nodes,
            time=budget.time_spent,
            stopped=stopped or found.stopped,
        )

    def is_at_least(self, board: Board, score: int, limit: Limit = UNLIMITED) -> bool | None:
        """Whether ``board`` scores ``score`` or more for the side to move; None if the limit ran out.

        One null-window search of the solver (a board it can hold, the game not
        over), within ``limit``.
        """
        require_64_bits(board.width, board.height)
        _check_playable(board)
        return self.solver.is_at_least(board, score, limit)

    def move_reaching(self, board: Board, target: int, limit: Limit = UNLIMITED) -> int | None:
        """A move keeping the score ``target`` (known exact), tested centre-first; None if the limit ran out.

        One null-window search a move ("can the opponent then score more than
        ``-target``?") with the table warm: far cheaper than scoring every
        move, and the first move that passes is the centre-first tie-break.
        """
        budget = limit.start()
        child = board.copy()
        for column in board.geometry.center_order:
            if not board.can_play(column):
                continue
            if board.is_winning_move(column):
                return column
            child.play(column)
            if child.is_full:
                reaches: bool | None = target == 0
            else:
                left = Limit(time=budget.remaining().time, nodes=limit.nodes)
                beaten = self.solver.is_at_least(child, 1 - target, left)
                reaches = None if beaten is None else not beaten
            child.undo()
            if reaches is None:
                return None
            if reaches:
                return column
        raise AssertionError(f"no move of {board.move_string!r} reaches its score {target}")

    def line(
        self, board: Board, column: int, score: int, limit: Limit = UNLIMITED, *, search: bool = True
    ) -> tuple[tuple[int, ...], bool]:
        """Best play from ``board`` starting with ``column``, whose exact (strong) score is ``score``.

        Returns the line (0-based columns) and whether it reaches the end of
        the game -- the winning stone, or the full board for a draw -- which
        it does unless ``limit`` runs out first.  Each move keeps the score:
        the book's where it knows (through a policy book's own moves too),
        else the most central move a null-window search shows keeps it.
        Without ``search`` the line is the rules' and the book's alone -- no
        solver, at once -- and stops where the book does.

        >>> Analyst().line(Board.from_moves("445566"), 2, 18)   # the win on the spot
        ((2,), True)
        >>> line, complete = Analyst().line(Board.from_moves("44"), 3, 1, search=False)
        >>> line[:3], complete                                 # the book's own line, short of the end
        ((3, 3, 3), False)
        """
        budget = limit.start()
        quick_nodes = self._quick_nodes(board, limit) if search else 0
        quick = line_quick(board, column, Limit(nodes=quick_nodes)) if quick_nodes else None
        if quick is not None:  # near the end: no need to load the compiled solver
            self._quick_nodes_left -= quick[1]
            return quick[0], True
        line = [column]
        walk = _after(board, column)
        target = -score  # the opponent's score after ``column``: the scale counts from the game's end
        while not walk.is_over:
            left = Limit(time=budget.remaining().time, nodes=limit.nodes)
            with self._loads_left_out(budget):  # the search's loading, before its clock starts
                move = self._keeping_move(walk, target, left if search else None)
            if move is None:
                return tuple(line), False
            line.append(move)
            walk.play(move)
            target = -target
        return tuple(line), True

    def _keeping_move(self, board: Board, target: int, limit: Limit | None) -> int | None:
        """A move of ``board`` keeping its exact score ``target``: the book's, else the solver's within
        ``limit`` (None: no search); None when neither answers (or the solver cannot hold the board)."""
        wins = board.winning_columns()
        if wins:
            return next(c for c in board.geometry.center_order if c in wins)
        scores = self.book_scores(board)
        if scores is not None and target in scores:
            return next(c for c in board.geometry.center_order if scores[c] == target)
        book = self._strong_book(board)
        if book is not None and (kept := book.keeping_move(board, target)) is not None:
            return kept
        if limit is None or not board.geometry.fits_64_bits:
            return None
        self._load_solver(board)  # before the limit's clock starts: the caller leaves it out
        return self.move_reaching(board, target, limit)

    # ------------------------------------------------------------ internals

    def _load_solver(self, board: Board, budget: Budget | None = None) -> None:
        """Make the solver and load its compiled search for ``board``'s size, ``budget`` paused.

        Loading -- compiling, the first time on a machine -- is no search time: neither a
        question's time limit nor the time it reports counts it (the questions waiting on a
        nested one leave it out too: :meth:`_loads_left_out`).
        """
        with contextlib.nullcontext() if budget is None else budget.paused(), self._counted_load():
            self.solver.load(board)

    def _load_engine(self, board: Board, budget: Budget) -> None:
        """Load the engine's compiled search if it serves ``board``, ``budget`` paused (see
        :meth:`_load_solver`)."""
        with budget.paused(), self._counted_load():
            self._engine(UNLIMITED).load(board)

    @contextmanager
    def _counted_load(self) -> Iterator[None]:
        """A load of a compiled search, its seconds counted in :attr:`_load_seconds`: the questions
        waiting on a nested one leave them out (:meth:`_loads_left_out`)."""
        loading = UNLIMITED.start()
        try:
            yield
        finally:
            self._load_seconds += loading.time_spent

    @contextmanager
    def _loads_left_out(self, budget: Budget) -> Iterator[None]:
        """A block in which a nested question may load a compiled search: ``budget`` leaves that out."""
        loaded = self._load_seconds
        try:
            yield
        finally:
            budget.exclude(self._load_seconds - loaded)

    def _solves(self, board: Board) -> bool:
        return self.solver_share > 0 and board.geometry.fits_64_bits

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
        from c4engine.search.engine import Engine
        from c4engine.search.evaluators import areas

        return Engine(
            self._evaluator or areas,
            limit,
            center_first_move=False,
            poll=poll,
            poll_interval=_ENGINE_POLL_INTERVAL,
        )

    def _exact_result(
        self,
        board: Board,
        score: int,
        column: int | None,
        source: Source,
        nodes: int,
        budget: Budget,
        weak: bool,
    ) -> PlayResult:
        """The answer of an exact ``score`` and ``column`` keeping it (None: not asked for)."""
        cells, stones = board.width * board.height, board.move_count
        if weak:
            score = (score > 0) - (score < 0)
        return PlayResult(
            column=column,
            score=Score.exact(score, cells=cells, stones=stones, weak=weak),
            source=source,
            proven=column is not None,
            line=() if column is None else (column,),
            nodes=nodes,
            time=budget.time_spent,
            lower=score,
            upper=score,
        )


_ANALYSTS: dict[float, Analyst] = {}


def shared_analyst(table_size_mb: float = DEFAULT_TABLE_MB) -> Analyst:
    """This process's analyst for the shipped books, made on first use: one solver (and table) per table size.

    >>> shared_analyst() is shared_analyst()
    True
    """
    if table_size_mb not in _ANALYSTS:
        _ANALYSTS[table_size_mb] = Analyst(table_size_mb=table_size_mb)
    return _ANALYSTS[table_size_mb]


def _engine_value(found: PlayResult) -> float:
    """The engine's answer's score on its own scale (a win at ply ``p``: ``WIN_SCORE - p``)."""
    assert found.score is not None  # the engine always scores its move
    return found.score.engine_value()


def _scaled(score: int, weak: bool) -> int:
    """A strong score on the question's scale: its sign when ``weak``."""
    return (score > 0) - (score < 0) if weak else score


def _bound(bound: int | None) -> int:
    assert bound is not None  # every playable column has bounds
    return bound


def _column_range(cells: int, stones: int, weak: bool) -> tuple[int, int]:
    """The lowest and highest score a move can have, before anything is proved about it.

    >>> _column_range(42, 0, False), _column_range(42, 0, True)   # a win at once is the rules'
    ((-21, 20), (-1, 1))
    """
    if weak:
        return -1, 1
    # a move's score is minus its child's, whose range is that of a position with one more stone
    return -win_score(cells, stones + 1), win_score(cells, stones + 2)


def _after(board: Board, column: int) -> Board:
    """A copy of ``board`` with ``column`` played."""
    child = board.copy()
    child.play(column)
    return child


def _ends_game(board: Board, line: Sequence[int]) -> bool:
    """Whether playing ``line`` from ``board`` ends the game with its last stone (and not before)."""
    walk = board.copy()
    for column in line:
        if walk.is_over or not walk.can_play(column):
            return False
        walk.play(column)
    return walk.is_over


def _check_playable(board: Board) -> None:
    if board.is_over:
        raise GameOverError("the game is over: nothing to analyze")


def _poll_interval(limit: Limit) -> float:
    """CPU seconds between the solver's looks at the clock: short under a short time limit.

    On a busy machine a slice of CPU takes several times as long on the wall clock.
    """
    if limit.time is None:
        return DEFAULT_POLL_INTERVAL
    return max(0.005, min(DEFAULT_POLL_INTERVAL, limit.time / 20))


def best_by_bounds(
    board: Board,
    scores: Sequence[Score | None],
    lowers: Sequence[int | None],
    uppers: Sequence[int | None],
    *,
    at_least: int | None = None,
) -> tuple[tuple[int, ...], bool]:
    """The best columns by the dominance rule, and whether they are proven best.

    Each column's exact score lies in ``[lowers[c], uppers[c]]`` (solver
    scale); ``scores[c]`` is that score when proven, else the engine's
    estimate.  A column is proven best when its lower bound reaches every
    other column's upper bound: the best are then all such columns.  A
    column whose upper bound is below another's lower bound is *out*.
    Otherwise the best are the columns not out that rank first: by the
    result their lower bound proves (a win, at least a draw, nothing), then
    by the value (an exact score on the engine's scale, or the estimate held
    within the bounds).  So a proven draw is preferred to a column merely
    estimated better, but never to one proven at least a draw; and no
    recommendation is a column another one is proven better than.
    ``at_least`` is a proven lower bound of the position's own score (the
    book's): some column reaches it, so a column whose upper bound is below it
    is out too.

    >>> board = Board.from_moves("4435541")
    >>> loss_in_1, loss_in_2 = (Score.exact(s, cells=42, stones=7) for s in (-17, -16))
    >>> guess = Score.estimate(-500.0, cells=42, stones=7)
    >>> best_by_bounds(board, [loss_in_2, loss_in_1, guess], [-16, -17, -17], [-16, -17, 17])
    ((2,), False)
    >>> best_by_bounds(board, [loss_in_2, loss_in_1, guess], [-16, -17, -17], [-16, -17, -16])
    ((0,), True)
    """
    playable = [c for c, score in enumerate(scores) if score is not None]
    bounds = {c: (_bound(lowers[c]), _bound(uppers[c])) for c in playable}
    proven = tuple(c for c in playable if all(bounds[c][0] >= bounds[d][1] for d in playable if d != c))
    if proven:
        return proven, True
    top_lower = max(low for low, _ in bounds.values())
    if at_least is not None and any(high >= at_least for _, high in bounds.values()):
        top_lower = max(top_lower, at_least)
    contenders = [c for c in playable if bounds[c][1] >= top_lower]

    def rank(column: int) -> tuple[int, float, float]:
        score = scores[column]
        assert score is not None
        low, high = bounds[column]
        value = raw = score.engine_value()
        if not score.is_exact:  # an estimate is held within what is proven
            value = min(max(value, _on_engine_scale(low, score)), _on_engine_scale(high, score))
        # among columns held alike (two "at least a draw" estimated below 0), the estimate decides
        return (1 if low > 0 else 0 if low == 0 else -1), value, raw

    ranks = {c: rank(c) for c in contenders}
    top = max(ranks.values())
    return tuple(c for c in contenders if ranks[c] == top), False


def _on_engine_scale(bound: int, like: Score) -> float:
    """A bound of a column's exact score on the engine's scale (0: a draw, about +-1e9: a win or loss)."""
    return Score.exact(bound, cells=like.cells, stones=like.stones, weak=like.weak).engine_value()
