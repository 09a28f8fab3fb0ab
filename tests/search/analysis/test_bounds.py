"""The analysis never claims more than it proved: bounds, best by dominance and lines, checked against
the published benchmark sets at small time caps (no book, so the solver and the engine do the work)."""

from __future__ import annotations

from pathlib import Path

import pytest

from c4engine import Board
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.limit import Limit
from c4engine.search.results import PositionAnalysis
from c4engine.search.scale import moves_to_end
from c4engine.search.solver.exact import Solver

PONS = Path(__file__).resolve().parents[3] / "src" / "c4engine" / "data" / "pons"

SAMPLES = {
    "Test_L3_R1": range(0, 1000, 100),
    "Test_L2_R1": range(0, 1000, 100),
    "Test_L2_R2": range(0, 1000, 100),
    "Test_L1_R1": range(0, 1000, 200),
    "Test_L1_R2": range(0, 20, 2),
    # the early hard positions take 0.5 s to minutes each to solve column by column: the four of the
    # first forty that take under a second, so the truths stay cheap
    "Test_L1_R3": (2, 5, 13, 25),
}
"""Which lines of each published set are checked (0-based line numbers)."""

CAPS = (0.02, 0.1, 0.3)
"""The time caps, in seconds, taken in turn from one position to the next."""


def _published(name: str) -> list[tuple[str, int]]:
    lines = (PONS / name).read_text().splitlines()
    return [(lines[i].split()[0], int(lines[i].split()[1])) for i in SAMPLES[name]]


def ends_as_scored(board: Board, line: tuple[int, ...], score: int) -> bool:
    """Whether ``line`` (0-based) played from ``board`` ends the game on its last stone with the result
    ``score`` says for the side to move, on the move it says."""
    cells, stones = board.width * board.height, board.move_count
    mover = board.turn
    walk = board.copy()
    for column in line:
        if walk.is_over or not walk.can_play(column):
            return False
        walk.play(column)
    if not walk.is_over:
        return False
    if score == 0:
        return walk.winner is None and walk.is_full
    moves = moves_to_end(score, cells, stones)  # the winner's stones, the winning one included
    if score > 0:
        return walk.winner == mover and len(line) == 2 * moves - 1
    return walk.winner == mover.other and len(line) == 2 * moves


def check(board: Board, analysis: PositionAnalysis, truths: tuple[int | None, ...]) -> None:
    """Every claim of ``analysis`` against the columns' true scores."""
    columns = analysis.columns
    playable = [c for c in range(board.width) if board.can_play(c)]
    top = max(truth for truth in truths if truth is not None)
    for c in playable:
        column, truth = columns[c], truths[c]
        assert column is not None and truth is not None
        assert column.lower <= truth <= column.upper, (c, column, truth)
        if column.proven:
            assert column.score.value == truth == column.lower == column.upper
            if column.pv_complete:
                assert column.pv[0] == c and ends_as_scored(board, column.pv, truth), column
        else:
            assert column.estimate is not None and column.lower < column.upper
    best = analysis.best_columns
    assert best and set(best) <= set(playable)
    if analysis.best_proven:
        assert all(truths[c] == top for c in best), (best, truths)
    for c in best:  # never a column another one is proven better than
        column = columns[c]
        assert column is not None
        assert all(column.upper >= other.lower for other in columns if other is not None)
    if analysis.pv_proven:
        assert ends_as_scored(board, analysis.pv, top)


@pytest.mark.parametrize("name", list(SAMPLES))
def test_capped_analyses_of_the_published_sets_claim_only_what_is_true(name: str) -> None:
    judge = Solver(table_size_mb=16)
    analyst = Analyst(book=None, table_size_mb=16)
    for index, (moves, published) in enumerate(_published(name)):
        board = Board.from_moves(moves)
        truths = judge.analyze(board, pv=False).scores
        assert max(truth for truth in truths if truth is not None) == published, moves
        analyst.solver.reset()  # from a cold table, as a fresh question: the cap must bite
        analysis = analyst.analyze(board, Limit(time=CAPS[index % len(CAPS)]))
        check(board, analysis, truths)


def test_an_analysis_without_a_cap_is_exact_with_every_line_to_the_end() -> None:
    judge = Solver(table_size_mb=16)
    analyst = Analyst(book=None, table_size_mb=16)
    for moves, _published_score in _published("Test_L2_R2")[:4]:
        board = Board.from_moves(moves)
        analysis = analyst.analyze(board)
        assert analysis.proven and analysis.best_proven and analysis.pv_proven
        assert all(column is None or column.pv_complete for column in analysis.columns)
        check(board, analysis, judge.analyze(board, pv=False).scores)
