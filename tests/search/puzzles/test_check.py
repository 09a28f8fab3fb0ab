"""The uniqueness check: a right puzzle passes, each kind of wrong claim is found."""

from __future__ import annotations

from dataclasses import replace

import pytest

from c4engine.search.analysis.analyst import Analyst
from c4engine.search.puzzles.check import check_puzzle
from c4engine.search.puzzles.puzzle import Puzzle

LONG_WIN = Puzzle(
    "5726545554423442241312333113526",
    solution=(5, 5, 5, 5, 6, 6, 6, 6, 6),
    goal="win",
    ends="forced win",
    score=0,
)
DRAW = Puzzle("246343446633441556", solution=(2, 4, 4, 5, 5), goal="draw", ends="draw held", score=0)


@pytest.fixture(scope="module")
def analyst() -> Analyst:
    return Analyst()


@pytest.fixture(scope="module")
def long_win(analyst: Analyst) -> Puzzle:
    score = analyst.solve(LONG_WIN.board()).score
    assert score is not None
    return replace(LONG_WIN, score=int(score.value))


def test_right_puzzles_pass(analyst: Analyst, long_win: Puzzle) -> None:
    assert check_puzzle(long_win, analyst).problems == ()
    assert check_puzzle(DRAW, analyst).ok


def test_a_wrong_move_of_the_solver_is_found(analyst: Analyst, long_win: Puzzle) -> None:
    board = long_win.board()
    board.play(5)
    board.play(5)
    other = next(c for c in board.legal_moves() if c != 5)
    wrong = replace(long_win, solution=(5, 5, other))
    problems = check_puzzle(wrong, analyst).problems
    assert problems[0] == f"move 3: the only column keeping the win is 6, not {other + 1}"


def test_a_reply_that_is_not_the_slowest_loss_is_found(analyst: Analyst, long_win: Puzzle) -> None:
    board = long_win.board()
    board.play(5)
    others = [c for c in board.legal_moves() if c != 5]
    wrong = replace(long_win, solution=(5, others[-1], 5))
    assert any("most resilient" in problem for problem in check_puzzle(wrong, analyst).problems)


def test_a_wrong_ending_or_score_is_found(analyst: Analyst, long_win: Puzzle) -> None:
    assert check_puzzle(replace(long_win, ends="win"), analyst).problems == (
        "the last move does not win the game",
    )
    assert (
        check_puzzle(replace(long_win, score=long_win.score + 1), analyst)
        .problems[0]
        .startswith("move 1: the position scores")
    )
    cut = replace(long_win, solution=long_win.solution[:7])  # stopped before the win is forced
    assert "no immediate win" in check_puzzle(cut, analyst).problems[0]


def test_a_draw_puzzle_whose_goal_or_ending_is_wrong_is_found(analyst: Analyst) -> None:
    assert (
        check_puzzle(replace(DRAW, goal="win"), analyst).problems[0]
        == "move 1: the best outcome is not a win"
    )
    cut = replace(DRAW, solution=DRAW.solution[:3])  # the draw still hangs on one move
    assert "the draw hangs on 1 move(s)" in check_puzzle(cut, analyst).problems[0]
