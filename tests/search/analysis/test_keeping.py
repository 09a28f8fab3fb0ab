"""The most central move keeping a position's score (Analyst.keeping_move), checked against the published
scores of Pons' sets (src/c4engine/data/pons) and an independent solver's table."""

from __future__ import annotations

import pytest
from tests.conftest import PONS
from tests.positions import score_of_move

from c4engine.board import Board
from c4engine.errors import GameOverError, UnsupportedBoardError
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.analysis.keeping import reaching_move
from c4engine.search.book.file import OpeningBook
from c4engine.search.limit import UNLIMITED, Limit
from c4engine.search.solver.exact import Solver


def _published(name: str, count: int, most_stones: int = 42) -> list[tuple[Board, int]]:
    """The first ``count`` positions of a published set with at most ``most_stones``, and their scores."""
    cases = []
    for line in (PONS / name).read_text().splitlines():
        moves, score = line.split()
        if len(moves) <= most_stones:
            cases.append((Board.from_moves(moves), int(score)))
    return cases[:count]


@pytest.fixture(scope="module")
def judge() -> Solver:
    """Another solver, its own table: it scores the position each move leaves."""
    return Solver(table_size_mb=16)


def _keepers(board: Board, score: int, judge: Solver) -> list[int]:
    """The columns keeping ``score``, centre-first."""
    order = board.geometry.center_order
    return [c for c in order if board.can_play(c) and score_of_move(board, c, judge) == score]


@pytest.mark.parametrize(("name", "count"), [("Test_L3_R1", 6), ("Test_L2_R1", 4)])
def test_the_solvers_move_is_the_most_central_keeping_the_published_score(
    name: str, count: int, judge: Solver
) -> None:
    analyst = Analyst(book=None, table_size_mb=16)
    for board, published in _published(name, count):
        result = analyst.keeping_move(board)
        assert result.proven and result.lower == result.upper == published, board.move_string
        assert result.score is not None and result.score.value == published
        assert result.source in {"solver", "rules"} and result.nodes >= 0
        assert result.column == _keepers(board, published, judge)[0], board.move_string


def test_the_books_move_keeps_the_published_score_without_a_search() -> None:
    analyst = Analyst()  # the shipped 7x6 book holds every position of up to 7 stones
    book = analyst.book_for(Board())
    assert isinstance(book, OpeningBook)
    cases = _published("Test_L1_R3", 5, most_stones=6)
    assert len(cases) == 5
    for board, published in cases:
        result = analyst.keeping_move(board)
        assert result.proven and result.source == "book" and result.lower == published, board.move_string
        assert result.column is not None and result.nodes == 0
        child = board.copy()
        child.play(result.column)
        assert book.score(child) == -published
        scores = book.move_scores(board)
        assert result.column == next(c for c in board.geometry.center_order if scores[c] == published)


@pytest.mark.parametrize("offset", [0, 1, 3])
def test_a_floor_gives_the_same_move(offset: int, judge: Solver) -> None:
    """A floor at the score (a best reply: one null-window search) or below it (a mistaken reply:
    a solve from the floor up) answers as no floor does."""
    for board, published in _published("Test_L2_R1", 3):
        floor = published - offset
        result = Analyst(book=None, table_size_mb=16).keeping_move(board, floor=floor)
        assert result.proven and result.lower == published, (board.move_string, floor)
        assert result.column == _keepers(board, published, judge)[0]


def test_a_tiny_node_limit_never_claims_a_proof_it_lacks(judge: Solver) -> None:
    """Under a few hundred nodes most middle-game moves stay unproven: their lower bound, when there is
    one, holds; a move answered proven keeps the published score."""
    unproven = 0
    for board, published in _published("Test_L2_R2", 8):
        result = Analyst(book=None, table_size_mb=8).keeping_move(board, Limit(nodes=200))
        assert result.column is not None and board.can_play(result.column)
        if result.proven:
            assert result.lower == published and score_of_move(board, result.column, judge) == published
            continue
        unproven += 1
        assert result.score is None and result.stopped is not None, board.move_string
        assert result.lower is None or result.lower <= published, board.move_string
        if result.lower is not None:
            assert score_of_move(board, result.column, judge) >= result.lower, board.move_string
    assert unproven >= 4  # the limit did stop searches: the check above was exercised


def test_a_win_on_the_spot_is_the_rules_answer() -> None:
    result = Analyst(book=None).keeping_move(Board.from_moves("112233"))
    assert (result.column, result.source, result.proven, result.lower) == (3, "rules", True, 18)


def test_games_over_and_boards_past_the_solver_are_refused() -> None:
    with pytest.raises(GameOverError):
        Analyst(book=None).keeping_move(Board.from_moves("1212121"))
    with pytest.raises(UnsupportedBoardError):
        Analyst(book=None).keeping_move(Board(9, 14, 5))


def test_reaching_move_counts_its_nodes(judge: Solver) -> None:
    board, published = _published("Test_L3_R1", 1)[0]
    column, nodes = reaching_move(Solver(table_size_mb=8), board, published, UNLIMITED)
    assert column == _keepers(board, published, judge)[0] and nodes > 0
