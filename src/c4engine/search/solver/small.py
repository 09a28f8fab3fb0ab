"""Small exact searches in pure Python: a nearly decided position answered before numba could load.

The compiled solver (:mod:`c4engine.search.solver.exact`) searches millions of
nodes a second, but a process pays about half a CPU second to import numba
and load its kernel -- more than a whole end-game search of a few thousand
nodes costs here, at some 7 microseconds a node.  The analysis service
(:mod:`c4engine.search.analysis.analyst`) therefore tries this search first, within
a node budget, while it has not made its compiled solver, and gives up on
it for good once the budget is spent.

The algorithm is Pascal Pons' published negamax, which the compiled kernel
refines: only moves that do not lose at once, the ones making the most
new threats first, upper bounds in a dictionary, and null-window searches
narrowing the score.  Scores follow the same convention (see
:mod:`c4engine.search.solver.exact`); node counts differ from the kernel's.  It answers as the
compiled solver does (:class:`~c4engine.search.solver.answers.SolveResult`,
:class:`~c4engine.search.solver.answers.Analysis`, always proven), which the analysis service
turns into the public answers of :mod:`c4engine.search.results`.

>>> from c4engine import Board
>>> found = solve_quick(Board.from_moves("2252576253462244111563365343671351441"), Limit(nodes=1000))
>>> found.score, found.best_move, found.nodes > 0
(-1, 5, True)
>>> solve_quick(Board(), Limit(nodes=1000)) is None   # the empty board: far too big
True
>>> analysis = analyze_quick(Board.from_moves("22525762534622441115633653436713514"), Limit(nodes=1000))
>>> analysis.scores, analysis.pv
((-3, None, None, -3, None, -2, -3), (5, 6, 3, 6))
"""

from __future__ import annotations

from time import perf_counter

from c4engine.board import Board
from c4engine.errors import LimitError
from c4engine.geometry import Geometry
from c4engine.search.limit import Limit
from c4engine.search.scale import score_range, sign, win_score
from c4engine.search.solver.answers import Analysis, SolveResult

__all__ = ["analyze_quick", "line_quick", "solve_quick"]


class _OutOfNodes(Exception):
    """The node budget ran out: the position is not a small search."""


def solve_quick(
    board: Board, limit: Limit, *, weak: bool = False, best_move: bool = True
) -> SolveResult | None:
    """The exact score of ``board`` for the side to move, or None if it takes more than ``limit``'s nodes.

    The result names the move that proved the score, if one had to;
    otherwise, with ``best_move``, the most central move that a null-window
    search shows keeps it.  The game must not be over, and must be connect 4 (on a
    board of any size).
    """
    if board.connect != 4:
        raise ValueError(f"solve_quick plays connect 4 only, not connect {board.connect}")
    began = perf_counter()
    search = _Search(board.geometry, _nodes_of(limit))
    current, mask, stones = board.current_bits, board.mask_bits, board.move_count
    try:
        score, column = search.value(current, mask, stones, weak)
        if column is None and best_move:
            column = search.keeping_move(current, mask, stones, score, weak)
    except _OutOfNodes:
        return None
    return SolveResult(
        score, True, score, score, column, search.nodes, perf_counter() - began, weak, search.cells, stones
    )


def analyze_quick(board: Board, limit: Limit, *, weak: bool = False, pv: bool = True) -> Analysis | None:
    """Every column's exact score on ``board``, or None if it takes more than ``limit``'s nodes.

    Scored as :meth:`c4engine.search.solver.exact.Solver.analyze` scores them, its
    principal variation starting, like the solver's, from the leftmost best
    column and going on with the move that proves each position's score.
    The game must not be over, and must be connect 4.
    """
    if board.connect != 4:
        raise ValueError(f"analyze_quick plays connect 4 only, not connect {board.connect}")
    began = perf_counter()
    search = _Search(board.geometry, _nodes_of(limit))
    scores: list[int | None] = [None] * board.width
    line: list[int] = []
    lines: list[tuple[int, ...]] = []
    try:
        for column in board.legal_moves():
            child = board.copy()
            if child.push(column):  # a win at once: the most a move can score
                won = win_score(search.cells, board.move_count)
                scores[column] = sign(won) if weak else won
            elif child.is_full:
                scores[column] = 0
            else:
                scores[column] = -search.value(child.current_bits, child.mask_bits, child.move_count, weak)[0]
        if pv:
            best = max(score for score in scores if score is not None)
            lines = [
                tuple(search.line(board, c, weak)) if score is not None else ()
                for c, score in enumerate(scores)
            ]
            line = list(lines[scores.index(best)])
    except _OutOfNodes:
        return None
    best = max(score for score in scores if score is not None)
    return Analysis(
        scores=tuple(scores),
        best_columns=tuple(c for c, score in enumerate(scores) if score == best),
        pv=tuple(line),
        nodes=search.nodes,
        time=perf_counter() - began,
        weak=weak,
        proven=True,
        cells=search.cells,
        stones=board.move_count,
        lines=tuple(lines) if pv else (),
    )


def line_quick(board: Board, column: int, limit: Limit) -> tuple[tuple[int, ...], int] | None:
    """Best play from ``board`` to the end of the game starting with ``column``, and the nodes searched;
    None if it takes more than ``limit``'s nodes.  Connect 4 only.

    >>> line_quick(Board.from_moves("22525762534622441115633653436713514"), 5, Limit(nodes=1000))[0]
    (5, 6, 3, 6)
    """
    if board.connect != 4:
        raise ValueError(f"line_quick plays connect 4 only, not connect {board.connect}")
    search = _Search(board.geometry, _nodes_of(limit))
    try:
        return tuple(search.line(board, column)), search.nodes
    except _OutOfNodes:
        return None


def _nodes_of(limit: Limit) -> int:
    """The nodes a quick search may take: ``limit``'s, which it must have (the search looks at no clock)."""
    if limit.nodes is None:
        raise LimitError(f"a quick search is bounded by nodes alone: {limit!r} has none")
    return limit.nodes


def _half_towards_zero(x: int) -> int:
    """``x / 2`` rounded towards zero, as the published solver's C division narrows its window."""
    return -(-x // 2) if x < 0 else x // 2


class _Search:
    """One search's state: the board's masks, the table of upper bounds and the node count."""

    def __init__(self, geometry: Geometry, most_nodes: int) -> None:
        self.cells = geometry.width * geometry.height
        # the win score by the stones on the board (search.scale), looked up where the search is hot
        self.win_at = [win_score(self.cells, stones) for stones in range(self.cells + 4)]
        self.bottom = geometry.bottom
        self.full = geometry.full
        self.columns = [geometry.column_mask(column) for column in geometry.center_order]
        self.order = geometry.center_order
        stride = geometry.column_stride
        self.steps = (stride, stride - 1, stride + 1)  # across, and the two diagonals
        self.table: dict[int, int] = {}
        self.nodes = 0
        self.most_nodes = most_nodes
        self.root_stones = -1
        self.root_move: int | None = None  # the move of the root's last cut: it scores at least beta

    def winning_cells(self, stones: int, mask: int) -> int:
        """The empty cells (playable or not) where one more of ``stones`` would make four in a row.

        Per direction, a cell completes a line with three stones before it,
        two before and one after, one before and two after, or three after;
        the spare bit above each column keeps lines from wrapping round.
        """
        cells = (stones << 1) & (stones << 2) & (stones << 3)  # three below
        for step in self.steps:
            pair = (stones << step) & (stones << 2 * step)
            cells |= pair & (stones << 3 * step)
            cells |= pair & (stones >> step)
            pair = (stones >> step) & (stones >> 2 * step)
            cells |= pair & (stones << step)
            cells |= pair & (stones >> 3 * step)
        return cells & self.full & ~mask

    def value(self, current: int, mask: int, stones: int, weak: bool) -> tuple[int, int | None]:
        """The exact score of a position not over (its sign if ``weak``), narrowed by null windows, and
        the move that proved it (None when no search had to: every move scores at least that).

        The move that lifted the lower bound last scores at least the final
        lower bound -- the score.
        """
        playable = (mask + self.bottom) & self.full
        wins = playable & self.winning_cells(current, mask)
        if wins:
            won = win_score(self.cells, stones)
            column = next(self.order[rank] for rank, mask_of in enumerate(self.columns) if wins & mask_of)
            return (sign(won) if weak else won), column
        self.root_stones = stones
        proven_move: int | None = None
        low, high = (-1, 1) if weak else score_range(self.cells, stones)
        while low < high:
            middle = low + (high - low) // 2
            if middle <= 0 and _half_towards_zero(low) < middle:
                middle = _half_towards_zero(low)
            elif middle >= 0 and _half_towards_zero(high) > middle:
                middle = _half_towards_zero(high)
            self.root_move = None
            found = self.negamax(current, mask, stones, middle, middle + 1)
            if found <= middle:
                high = found
            else:
                low, proven_move = found, self.root_move
        return (sign(low) if weak else low), proven_move

    def line(self, board: Board, column: int, weak: bool = False) -> list[int]:
        """Best play from ``board`` to the end of the game, starting with ``column``."""
        line = [column]
        walk = board.copy()
        while not walk.push(column) and not walk.is_full:
            current, mask, stones = walk.current_bits, walk.mask_bits, walk.move_count
            score, proven_move = self.value(current, mask, stones, weak)
            column = (
                proven_move
                if proven_move is not None
                else self.keeping_move(current, mask, stones, score, weak)
            )
            line.append(column)
        return line

    def keeping_move(self, current: int, mask: int, stones: int, score: int, weak: bool) -> int:
        """The most central move keeping ``score`` (its sign if ``weak``): one null-window search a move.

        Needed when :meth:`value` proved the score without a move: the lowest
        score there is, which nearly every move keeps.  A move keeps the score
        when its child scores at most ``-score``; any move keeps a weak loss.
        """
        target = score_range(self.cells, stones)[0] if weak and score < 0 else score
        playable = (mask + self.bottom) & self.full
        for rank, column_mask in enumerate(self.columns):
            move = playable & column_mask
            if not move:
                continue
            child_current, child_mask = current ^ mask, mask | move
            if child_mask == self.full:
                keeps = target <= 0
            elif (child_mask + self.bottom) & self.full & self.winning_cells(child_current, child_mask):
                keeps = score_range(self.cells, stones)[0] >= target  # the opponent wins at once
            else:
                keeps = self.negamax(child_current, child_mask, stones + 1, -target, 1 - target) <= -target
            if keeps:
                return self.order[rank]
        raise AssertionError(f"no move keeps the score {score}")

    def negamax(self, current: int, mask: int, stones: int, alpha: int, beta: int) -> int:
        """The score within (alpha, beta) of a position whose side to move cannot win at once."""
        self.nodes += 1
        if self.nodes > self.most_nodes:
            raise _OutOfNodes
        cells, win_at = self.cells, self.win_at
        reachable = playable = (mask + self.bottom) & self.full
        threats = self.winning_cells(current ^ mask, mask)
        forced = playable & threats
        if forced:
            if forced & (forced - 1):
                return -win_at[stones + 1]  # two threats to stop: the opponent wins next
            playable = forced
        playable &= ~(threats >> 1)  # never play just below the opponent's winning cell
        if not playable:
            return -win_at[stones + 1]
        if stones >= cells - 2:
            return 0  # no line can come from the last two stones any more
        lowest = -win_at[stones + 3]  # the opponent cannot win with its next stone
        if alpha < lowest:
            alpha = lowest
            if alpha >= beta:
                return alpha
        highest = win_at[stones + 2]  # nor this side with this one
        key = current + mask
        highest = self.table.get(key, highest)
        if beta > highest:
            beta = highest
            if alpha >= beta:
                return beta
        moves = []
        counted = ~(threats << 1)  # not right above an opponent's threat: that never wins (kernels.moves)
        for rank, column_mask in enumerate(self.columns):
            move = playable & column_mask
            if move:
                useful = self.winning_cells(current | move, mask) & counted
                # one right above a cell the opponent could play next counts half as much again:
                # the opponent may not play there (kernels.moves)
                barring = useful & ((((reachable ^ move) | (move << 1)) & self.full) << 1)
                moves.append((-(2 * useful.bit_count() + barring.bit_count()), rank, move))
        moves.sort()
        for _threats, rank, move in moves:
            found = -self.negamax(current ^ mask, mask | move, stones + 1, -beta, -alpha)
            if found >= beta:
                if stones == self.root_stones:
                    self.root_move = self.order[rank]
                return found
            if found > alpha:
                alpha = found
        self.table[key] = alpha
        return alpha
