"""Themes from what the board shows after the solution."""

from __future__ import annotations

import pytest

from c4engine import Board
from c4engine.notation import parse_moves
from c4engine.search.puzzles.themes import board_themes, last_threats


def test_a_double_threat() -> None:
    board = Board.from_moves("4455")  # X plays 3: threats at 2 and 6 on the bottom row
    assert board_themes(board, (2,), "win", "forced win") == ("double threat",)


def test_a_block_is_named_beside_the_main_theme() -> None:
    board = Board.from_moves("12131")  # O to move, X threatens column 1
    assert board_themes(board, (0,), "draw", "draw held") == ("defence", "block")


@pytest.mark.parametrize(
    ("position", "solution", "theme"),
    [
        ("373233322444256522546", "44537", "threat above threat"),
        ("5726545554423442241312333113526", "666677777", "zugzwang"),
    ],
)
def test_how_the_forced_win_is_forced(position: str, solution: str, theme: str) -> None:
    board = Board.from_moves(position)
    for column in parse_moves(solution):
        board.play(column)
    assert last_threats(board) == theme
    mover = board.turn.other
    threats = board.winning_columns(mover)
    assert len(threats) == (1 if theme == "threat above threat" else 0)
    for reply in board.legal_moves():  # whatever the opponent does, the mover wins at once
        after = board.copy()
        after.play(reply)
        assert after.winning_columns()
