"""Move notation: parsing, formatting, round trips and the errors people see."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from c4engine import Board, NotationError
from c4engine.notation import SEPARATOR, format_moves, parse_moves


def test_compact_form() -> None:
    assert parse_moves("4453") == [3, 3, 4, 2]
    assert format_moves([3, 3, 4, 2]) == "4453"
    assert parse_moves("") == [] and format_moves([]) == ""
    assert parse_moves("  4453 \n") == [3, 3, 4, 2]


def test_separated_form() -> None:
    assert parse_moves("10,3,4", width=12) == [9, 2, 3]
    assert parse_moves(" 10 , 3,4 ", width=12) == [9, 2, 3]
    assert format_moves([9, 2, 3], width=12) == "10,3,4"
    # Separators are accepted on narrow boards too, and the width decides the written form.
    assert parse_moves("4,4,5") == [3, 3, 4]
    assert format_moves([0, 1], width=9) == "12"
    assert format_moves([0, 1], width=10) == "1,2"


def test_single_move_on_a_wide_board_round_trips() -> None:
    # format_moves writes a one-move game on a wide board as plain "10": that must read back as column 10,
    # not as the two moves "1", "0".
    for column in range(12):
        text = format_moves([column], width=12)
        assert parse_moves(text, width=12) == [column]
        assert Board.from_moves(text, width=12, height=4).moves == (column,)


@pytest.mark.parametrize(
    ("text", "width", "index", "token", "message"),
    [
        ("44a3", 7, 2, "a", "move 3 ('a'): not a column number (moves are columns 1..7)"),
        ("4-3", 7, 1, "-", "move 2 ('-'): not a column number"),
        ("4٤", 7, 1, "٤", "move 2 ('٤'): not a column number"),  # an Arabic-Indic four: a digit, not ASCII
        ("48", 7, 1, "8", "move 2 ('8'): column 8 is out of range 1..7"),
        ("40", 7, 1, "0", "move 2 ('0'): column 0 is out of range 1..7"),
        ("4,,5", 7, 1, "", "move 2 (''): empty move (two separators in a row?)"),
        ("4,5,", 7, 2, "", "move 3 (''): empty move"),
        (",4", 7, 0, "", "move 1 (''): empty move"),
        ("3,13,2", 12, 1, "13", "move 2 ('13'): column 13 is out of range 1..12"),
        ("3,x,2", 12, 1, "x", "move 2 ('x'): not a column number (moves are columns 1..12)"),
    ],
)
def test_parse_errors_name_the_move_and_token(
    text: str, width: int, index: int, token: str, message: str
) -> None:
    with pytest.raises(NotationError) as caught:
        parse_moves(text, width)
    assert str(caught.value).startswith(message)
    assert caught.value.index == index
    assert caught.value.token == token


def test_wide_board_hint() -> None:
    # Digits run together on a 12-wide board: one number, 4453, far out of range -- with the hint.
    with pytest.raises(NotationError, match=r"separate the moves with ','") as caught:
        parse_moves("4453", width=12)
    assert "column 4453 is out of range 1..12" in str(caught.value)
    assert caught.value.index == 0
    # No hint on narrow boards, nor when the text was already separated.
    with pytest.raises(NotationError) as narrow:
        parse_moves("48", width=7)
    assert "separate" not in str(narrow.value)
    with pytest.raises(NotationError) as separated:
        parse_moves("3,13", width=12)
    assert "separate" not in str(separated.value)


def test_board_from_moves_names_the_illegal_move() -> None:
    with pytest.raises(NotationError) as caught:
        Board.from_moves("4444444")
    assert str(caught.value) == "move 7 ('4'): column 4 is full"
    assert (caught.value.index, caught.value.token) == (6, "4")
    with pytest.raises(NotationError, match=r"move 8 \('5'\): the game is over: X has won"):
        Board.from_moves("12121215")
    with pytest.raises(NotationError, match=r"move 2 \('8'\)") as out_of_range:
        Board.from_moves([3, 7])
    assert out_of_range.value.index == 1
    with pytest.raises(NotationError, match=r"move 1 \('x'\)"):
        Board.from_moves(["x"])  # type: ignore[list-item]


@st.composite
def move_lists(draw: st.DrawFn) -> tuple[list[int], int, int]:
    """Legal games as (columns, width, height): many on boards wider than 9."""
    width = draw(st.integers(2, 16))
    height = draw(st.integers(2, 8))
    board = Board(width, height, max(width, height))  # connect = longer side: games rarely end early
    for _ in range(draw(st.integers(0, width * height))):
        legal = board.legal_moves()
        if not legal:
            break
        board.play(draw(st.sampled_from(legal)))
    return list(board.moves), width, height


@settings(max_examples=300, deadline=None)
@given(move_lists())
def test_round_trip(game: tuple[list[int], int, int]) -> None:
    columns, width, height = game
    text = format_moves(columns, width)
    assert parse_moves(text, width) == columns
    if width > 9 and len(columns) > 1:
        assert SEPARATOR in text
    if width <= 9:
        assert len(text) == len(columns)  # the compact form: one digit a move
    board = Board.from_moves(text, width, height, max(width, height))
    assert list(board.moves) == columns
    assert board.move_string == text
