"""Every column's answer while an analysis (:meth:`c4engine.search.analysis.analyst.Analyst.analyze`) builds
it: settled by the rules, the book, elimination, the solver, or estimated by the engine
(:class:`ColumnAnswers`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from c4engine.board import Board
from c4engine.search.choice import known_bound
from c4engine.search.results import ColumnAnalysis, PositionAnalysis, Score, Source
from c4engine.search.scale import WIN_THRESHOLD, sign, win_score

if TYPE_CHECKING:  # for the types only: a solve (c4 solve --no-book) loads none of them first
    from c4engine.search.book.file import OpeningBook
    from c4engine.search.solver.answers import Analysis

__all__ = ["ColumnAnswers", "after", "column_range", "ends_game", "scaled"]


class ColumnAnswers:
    """Every column's answer as an analysis of ``board`` finds it: its score (exact, or the engine's
    estimate) and where it came from, its proven bounds, its line and whether that reaches the end;
    ``known`` the book's score of the position on the question's scale (``weak``: win/draw/loss),
    which caps every column."""

    def __init__(self, board: Board, weak: bool) -> None:
        self.board = board
        self.weak = weak
        self.cells, self.stones = board.width * board.height, board.move_count
        lowest, highest = column_range(self.cells, self.stones, weak)
        self.scores: list[Score | None] = [None] * board.width
        self.sources: list[Source | None] = [None] * board.width
        self.lowers: list[int | None] = [lowest if board.can_play(c) else None for c in range(board.width)]
        self.uppers: list[int | None] = [highest if board.can_play(c) else None for c in range(board.width)]
        self.lines: list[tuple[int, ...]] = [() for _ in range(board.width)]
        self.complete = [False] * board.width
        self.known: int | None = None

    def settle(self, column: int, score: int, source: Source) -> None:
        """``column`` proven to score ``score`` (strong; made weak for a weak question) by ``source``."""
        if self.weak:
            score = sign(score)
        self.scores[column] = Score.proven_value(score, cells=self.cells, stones=self.stones, weak=self.weak)
        self.sources[column] = source
        self.lowers[column] = self.uppers[column] = score

    def settle_by_rules(self) -> None:
        """The columns the rules score: a win at once, the board's last cell."""
        for column in self.board.legal_moves():
            if self.board.is_winning_move(column):
                self.settle(column, win_score(self.cells, self.stones), "rules")
                self.lines[column], self.complete[column] = (column,), True
            elif self.stones + 1 == self.cells:
                self.settle(column, 0, "rules")
                self.lines[column], self.complete[column] = (column,), True

    def settle_by_book(self, book: OpeningBook | None) -> int | None:
        """Every column ``book`` knows, even when it lacks others, and its score of the position as a cap
        of every column; that (strong) score, None where there is none."""
        book_value = None if book is None else book.score(self.board)
        self.known = None if book_value is None else scaled(book_value, self.weak)
        if book is not None:
            for column, score in enumerate(book.move_scores(self.board)):
                if score is not None and self.scores[column] is None:
                    self.settle(column, score, "book")
        if self.known is not None:  # no move scores more than the position itself
            for column in self.board.legal_moves():
                self.uppers[column] = min(known_bound(self.uppers[column]), self.known)
        return book_value

    def settle_by_elimination(self) -> None:
        """The position scores ``known``: when only one column can reach it, that column does."""
        known = self.known
        if known is None:
            return
        reaching = [c for c in self.board.legal_moves() if known_bound(self.uppers[c]) >= known]
        answer = self.scores[reaching[0]] if len(reaching) == 1 else None
        if len(reaching) == 1 and (answer is None or not answer.proven):
            self.settle(reaching[0], known, "book")

    def book_candidates(self, open_columns: Sequence[int]) -> list[int]:
        """The columns of ``open_columns`` that may keep the book's score, while none is known to."""
        known = self.known
        return (
            [c for c in open_columns if known_bound(self.uppers[c]) >= known]
            if known is not None
            and not any(known_bound(self.lowers[c]) >= known for c in self.board.legal_moves())
            else []
        )

    def take_reach(self, reaching: int | None, below: Sequence[int], book_value: int) -> None:
        """What the probes for the book's (strong) score ``book_value`` found: the column ``reaching`` it,
        the columns ``below`` it."""
        for column in below:
            self.uppers[column] = min(known_bound(self.uppers[column]), scaled(book_value - 1, self.weak))
        if reaching is not None:
            self.settle(reaching, book_value, "book")
        self.settle_by_elimination()

    def take_quick(self, quick: Analysis, open_columns: Sequence[int]) -> None:
        """The pure-Python search's exact scores of ``open_columns`` and its lines."""
        for column in open_columns:
            quick_score = quick.scores[column]
            assert quick_score is not None  # a legal move
            self.settle(column, quick_score, "solver")
        for column, line in enumerate(quick.lines):
            if line:
                self.lines[column], self.complete[column] = line, True

    def take_solved(self, solved: Analysis, open_columns: Sequence[int]) -> None:
        """What the solver proved of ``open_columns``, within what was known before."""
        for column in open_columns:
            score = solved.scores[column]
            if score is not None:
                self.settle(column, score, "solver")
                continue
            lower = max(known_bound(self.lowers[column]), known_bound(solved.lowers[column]))
            upper = min(known_bound(self.uppers[column]), known_bound(solved.uppers[column]))
            if lower == upper:
                self.settle(column, lower, "solver")
            else:
                self.lowers[column], self.uppers[column] = lower, upper
        self.settle_by_elimination()

    def take_estimates(self, estimates: dict[int, tuple[float, tuple[int, ...]]]) -> None:
        """The engine's values of the columns left open (for the side to move, with their lines): an
        estimate, or a proof where the engine saw the end of the game within the proven bounds."""
        cells, stones = self.cells, self.stones
        for column, (value, line) in estimates.items():
            # the child's value, negated, is this column's: count this column's stone as one more ply
            if abs(value) >= WIN_THRESHOLD:
                value += -1 if value > 0 else 1
            estimate = Score.from_engine(value, cells=cells, stones=stones)
            low, high = self.lowers[column], self.uppers[column]
            assert low is not None and high is not None
            seen = int(estimate.value) if estimate.proven else None
            if seen is not None and self.weak:
                seen = sign(seen)
            if seen is not None and low <= seen <= high:  # the engine saw the end of the game
                self.settle(column, seen, "engine")
                self.lines[column], self.complete[column] = line, ends_game(self.board, line)
            else:
                self.scores[column] = Score.estimate(value, cells=cells, stones=stones)
                self.sources[column] = "engine"
        self.settle_by_elimination()  # the engine may have seen the end of every other column

    def analysis(
        self,
        best: tuple[int, ...],
        proven: bool,
        chosen: int,
        nodes: int,
        time: float,
        helper_nodes: tuple[int, ...],
    ) -> PositionAnalysis:
        """The answer: ``best`` columns (``proven`` best or not), the ``chosen`` one's line, the ``nodes``
        searched (``helper_nodes`` by the solver's other threads) in ``time`` seconds."""
        return PositionAnalysis(
            tuple(self.column(c) for c in range(self.board.width)),
            best,
            self.lines[chosen] or (chosen,),
            proven and self.complete[chosen],
            nodes,
            time,
            proven,
            (nodes - sum(helper_nodes), *helper_nodes) if helper_nodes else (),
            self.known,
        )

    def column(self, column: int) -> ColumnAnalysis | None:
        """``column``'s answer (None for a full column): every playable column has a score by now."""
        if not self.board.can_play(column):
            return None
        score, source = self.scores[column], self.sources[column]
        lower, upper = self.lowers[column], self.uppers[column]
        assert score is not None and source is not None and lower is not None and upper is not None
        line = self.lines[column] or (column,)
        return ColumnAnalysis(column, score, lower, upper, source, line, self.complete[column])


def scaled(score: int, weak: bool) -> int:
    """A strong score on the question's scale: its sign when ``weak``."""
    return sign(score) if weak else score


def column_range(cells: int, stones: int, weak: bool) -> tuple[int, int]:
    """The lowest and highest score a move can have, before anything is proved about it.

    >>> column_range(42, 0, False), column_range(42, 0, True)   # a win at once is the rules'
    ((-21, 20), (-1, 1))
    """
    if weak:
        return -1, 1
    # a move's score is minus its child's, whose range is that of a position with one more stone
    return -win_score(cells, stones + 1), win_score(cells, stones + 2)


def after(board: Board, column: int) -> Board:
    """A copy of ``board`` with ``column`` played."""
    child = board.copy()
    child.play(column)
    return child


def ends_game(board: Board, line: Sequence[int]) -> bool:
    """Whether playing ``line`` from ``board`` ends the game with its last stone (and not before)."""
    walk = board.copy()
    for column in line:
        if walk.is_over or not walk.can_play(column):
            return False
        walk.play(column)
    return walk.is_over
