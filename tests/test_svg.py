"""The SVG picture: valid XML, one element per stone, the cues it promises."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from c4engine import Board, Player
from c4engine.svg import board_svg

SVG = "{http://www.w3.org/2000/svg}"


def parse(board: Board, **options: bool | int) -> ET.Element:
    root = ET.fromstring(board_svg(board, **options))  # type: ignore[arg-type]
    assert root.tag == f"{SVG}svg"
    return root


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [element for element in root.iter() if name in element.get("class", "").split()]


def cell_of(element: ET.Element) -> tuple[int, int]:
    return int(element.attrib["data-column"]), int(element.attrib["data-row"])


def centre_of(element: ET.Element) -> tuple[float, float]:
    return float(element.attrib["cx"]), float(element.attrib["cy"])


def test_empty_board() -> None:
    root = parse(Board())
    assert with_class(root, "piece") == []
    assert len(with_class(root, "hole")) == 42
    assert with_class(root, "last") == [] and with_class(root, "win") == []
    assert root.attrib["width"] == "300" and root.attrib["viewBox"] == "0 0 300 284"
    title = root.find(f"{SVG}title")
    assert title is not None and title.text == "Connect-4 on 7x6: 0 moves, *, X to move"


def test_one_piece_per_stone_in_the_right_cell_and_colour() -> None:
    board = Board.from_moves("4453432312")
    root = parse(board)
    pieces = with_class(root, "piece")
    assert len(pieces) == board.move_count
    for piece in pieces:
        column, row = cell_of(piece)
        owner = board.cell(column, row)
        assert owner is not None
        assert piece.get("class") == ("piece first" if owner is Player.FIRST else "piece second")
    assert len({cell_of(piece) for piece in pieces}) == board.move_count
    # The colours: red for the first player, yellow for the second.
    fills = {piece.get("class"): piece.get("fill") for piece in pieces}
    assert fills == {"piece first": "#dc2626", "piece second": "#facc15"}


def test_pieces_sit_in_their_holes_bottom_row_lowest() -> None:
    board = Board.from_moves("11")
    root = parse(board, size=40)
    holes = {centre_of(hole) for hole in with_class(root, "hole")}
    pieces = {cell_of(piece): centre_of(piece) for piece in with_class(root, "piece")}
    assert set(pieces.values()) <= holes
    assert pieces[0, 0][0] == pieces[0, 1][0]
    assert pieces[0, 0][1] > pieces[0, 1][1]  # SVG y grows downwards: row 0 is lowest


def test_second_player_has_a_distinct_mark() -> None:
    board = Board.from_moves("4453432")
    root = parse(board)
    marks = [centre_of(mark) for mark in with_class(root, "mark")]
    second = [centre_of(piece) for piece in with_class(root, "piece") if "second" in piece.get("class", "")]
    first = [centre_of(piece) for piece in with_class(root, "piece") if "first" in piece.get("class", "")]
    assert len(second) == 3 and len(first) == 4
    assert sorted(marks) == sorted(second)  # one mark inside each second-player stone, none elsewhere
    assert not set(marks) & set(first)


def test_winning_cells_are_marked() -> None:
    board = Board.from_moves("1122334")  # X wins along the bottom row
    root = parse(board)
    assert {cell_of(win) for win in with_class(root, "win")} == {(0, 0), (1, 0), (2, 0), (3, 0)}
    lines = with_class(root, "win-line")
    assert len(lines) == 1
    assert [float(lines[0].attrib[name]) for name in ("x1", "x2")] == [30, 150]
    off = parse(board, show_winning_line=False)
    assert with_class(off, "win") == [] and with_class(off, "win-line") == []


def test_two_winning_lines_at_once() -> None:
    # X's last stone, in column 4 at the bottom, completes the bottom row (4-7) and the rising
    # diagonal (4, 5, 6, 7 from row 1 to row 4) together: an L of seven cells, two segments.
    board = Board.from_moves("637667577773534")
    assert board.winner is Player.FIRST
    root = parse(board)
    assert {cell_of(win) for win in with_class(root, "win")} == set(board.winning_cells())
    assert len(set(board.winning_cells())) == 7
    assert _lines_through(board) == [0, 2]
    segments = {
        tuple(float(line.attrib[name]) for name in ("x1", "y1", "x2", "y2"))
        for line in with_class(root, "win-line")
    }
    bottom_y = 10 + 5.5 * 40
    assert segments == {
        (150, bottom_y, 270, bottom_y),  # along the bottom row
        (150, bottom_y, 270, bottom_y - 3 * 40),  # up the diagonal
    }


def _lines_through(board: Board) -> list[int]:
    """The directions in which the last stone is part of a line (naively)."""
    column = board.moves[-1]
    row = board.column_height(column) - 1
    found = []
    for index, (dc, dr) in enumerate(((1, 0), (0, 1), (1, 1), (1, -1))):
        length = 1
        for sign in (1, -1):
            step = 1
            while True:
                c, r = column + sign * dc * step, row + sign * dr * step
                if (
                    not (0 <= c < board.width and 0 <= r < board.height)
                    or board.cell(c, r) is not board.winner
                ):
                    break
                length += 1
                step += 1
        if length >= board.connect:
            found.append(index)
    return found


def test_last_move_is_marked() -> None:
    board = Board.from_moves("445")
    root = parse(board)
    (last,) = with_class(root, "last")
    (piece,) = [piece for piece in with_class(root, "piece") if cell_of(piece) == (4, 0)]
    assert centre_of(last) == centre_of(piece)
    assert with_class(parse(board, highlight_last=False), "last") == []


def test_column_numbers() -> None:
    board = Board(12, 4, 4)
    root = parse(board)
    labels = with_class(root, "coordinate")
    assert [label.text for label in labels] == [str(number) for number in range(1, 13)]
    xs = [float(label.attrib["x"]) for label in labels]
    assert xs == sorted(xs)
    holes_bottom = max(centre_of(hole)[1] for hole in with_class(root, "hole"))
    assert all(float(label.attrib["y"]) > holes_bottom for label in labels)
    plain = parse(board, coordinates=False)
    assert with_class(plain, "coordinate") == []
    assert float(plain.attrib["height"]) < float(root.attrib["height"])


def test_size_scales_and_is_checked() -> None:
    assert parse(Board(), size=20).attrib["width"] == "150"
    for bad in (0, 7, -40, 40.0, "40", True):
        with pytest.raises(ValueError, match="size"):
            board_svg(Board(), size=bad)  # type: ignore[arg-type]


def test_jupyter_hook_uses_it() -> None:
    board = Board.from_moves("4453")
    assert board._repr_svg_() == board_svg(board)


@st.composite
def games(draw: st.DrawFn) -> Board:
    width = draw(st.integers(3, 14))
    height = draw(st.integers(3, 10))
    board = Board(width, height, draw(st.integers(3, min(6, max(width, height)))))
    for _ in range(draw(st.integers(0, width * height))):
        legal = board.legal_moves()
        if not legal:
            break
        board.play(draw(st.sampled_from(legal)))
    return board


@settings(max_examples=100, deadline=None)
@given(games())
def test_any_game_draws_as_valid_svg(board: Board) -> None:
    root = parse(board)
    pieces = with_class(root, "piece")
    assert len(pieces) == board.move_count
    assert len(with_class(root, "hole")) == board.width * board.height
    assert len(with_class(root, "mark")) == board.move_count // 2
    assert {cell_of(win) for win in with_class(root, "win")} == set(board.winning_cells())
    assert len(with_class(root, "last")) == (1 if board.moves else 0)
    assert len(with_class(root, "coordinate")) == board.width
