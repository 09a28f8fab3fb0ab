"""Difficulty: tempting wrong moves, the rating and its names."""

from __future__ import annotations

from c4engine import Board
from c4engine.search.puzzles.difficulty import (
    EASIEST_HARD,
    EASIEST_MEDIUM,
    difficulty_name,
    is_tempting,
    rating,
)


def test_a_move_that_lets_the_opponent_win_at_once_is_not_tempting() -> None:
    board = Board.from_moves("12131")  # X threatens column 1; O to move
    assert [column for column in board.legal_moves() if is_tempting(board, column)] == [0]


def test_rating_counts_moves_after_the_first_and_tempting_ones() -> None:
    assert rating(length=1, tempting=0) == 0
    assert rating(length=2, tempting=1) == 4
    names = [
        difficulty_name(points)
        for points in (0, EASIEST_MEDIUM - 1, EASIEST_MEDIUM, EASIEST_HARD - 1, EASIEST_HARD)
    ]
    assert names == ["easy", "easy", "medium", "medium", "hard"]
