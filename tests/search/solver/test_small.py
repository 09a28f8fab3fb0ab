"""The pure-Python small search against the published scores and the compiled solver."""

from __future__ import annotations

import pytest
from tests.conftest import PONS

from c4engine import Board
from c4engine.errors import LimitError
from c4engine.search.limit import Limit
from c4engine.search.solver.exact import Solver
from c4engine.search.solver.small import analyze_quick, line_quick, solve_quick

NO_LIMIT = 10**7


def _lines(name: str, count: int) -> list[tuple[str, int]]:
    pairs = [line.split() for line in (PONS / name).read_text().splitlines() if line.strip()]
    return [(moves, int(score)) for moves, score in pairs[:count]]


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(table_size_mb=8)


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


@pytest.mark.parametrize(("name", "count"), [("Test_L3_R1", 150), ("Test_L2_R1", 40)])
def test_scores_and_moves_are_the_published_scores_and_keep_them(
    solver: Solver, name: str, count: int
) -> None:
    for moves, score in _lines(name, count):
        board = Board.from_moves(moves)
        for weak in (False, True):
            found = solve_quick(board, weak=weak, limit=Limit(nodes=NO_LIMIT))
            assert found is not None, moves
            want = _sign(score) if weak else score
            assert found.score == want, (moves, weak)
            assert found.best_move is not None and board.can_play(found.best_move)
            if board.is_winning_move(found.best_move):
                continue
            child = board.copy()
            child.play(found.best_move)
            kept = 0 if child.is_full else -solver.solve(child, weak=weak).score
            assert kept == want, (moves, weak, found.best_move)


@pytest.mark.parametrize(("name", "count"), [("Test_L3_R1", 60), ("Test_L2_R1", 20)])
def test_analyses_are_the_compiled_solvers(solver: Solver, name: str, count: int) -> None:
    """Every column's score and the principal variation, move for move."""
    for moves, _score in _lines(name, count):
        board = Board.from_moves(moves)
        for weak in (False, True):
            found = analyze_quick(board, weak=weak, limit=Limit(nodes=NO_LIMIT))
            assert found is not None, moves
            expected = solver.analyze(board, weak=weak)
            assert (found.scores, found.pv) == (expected.scores, expected.pv), (moves, weak)


def test_a_win_in_two_beside_slow_wins_is_found_at_once() -> None:
    """The move proving the score is kept: solving the other moves to find one could take millions."""
    for weak in (False, True):
        found = solve_quick(Board.from_moves("4455"), weak=weak, limit=Limit(nodes=1000))
        assert found is not None
        assert found.score == (1 if weak else 18) and found.best_move in (2, 5)


def test_a_lost_position_still_names_a_move() -> None:
    # O has two threats (columns 1 and 5 of the bottom row) that X cannot both stop
    board = Board.from_moves("2233444")
    found = solve_quick(board, limit=Limit(nodes=NO_LIMIT))
    assert found is not None and found.score == -((42 - 7) // 2)
    assert found.best_move is not None and board.can_play(found.best_move)


def test_other_board_sizes(solver: Solver) -> None:
    for moves in ("", "33", "3243"):
        board = Board.from_moves(moves, 5, 4)
        found = solve_quick(board, limit=Limit(nodes=NO_LIMIT))
        assert found is not None
        assert found.score == solver.solve(board).score


def test_the_node_limit_gives_up() -> None:
    assert solve_quick(Board(), limit=Limit(nodes=1000)) is None
    assert solve_quick(Board.from_moves("4455"), best_move=False, limit=Limit(nodes=1)) is None
    assert analyze_quick(Board(), limit=Limit(nodes=1000)) is None


def test_a_quick_search_needs_a_node_limit() -> None:
    """It looks at no clock: a limit without nodes would never stop it."""
    board = Board.from_moves("4455")
    with pytest.raises(LimitError, match="bounded by nodes alone"):
        solve_quick(board, Limit(time=1.0))
    with pytest.raises(LimitError, match="bounded by nodes alone"):
        line_quick(board, 2, Limit())


def test_connect_4_only() -> None:
    with pytest.raises(ValueError, match="connect 4 only"):
        solve_quick(Board(7, 6, 5), limit=Limit(nodes=10))
    with pytest.raises(ValueError, match="connect 4 only"):
        analyze_quick(Board(7, 6, 3), limit=Limit(nodes=10))
