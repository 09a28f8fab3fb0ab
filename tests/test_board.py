"""The rules: validation, moves, wins, undo, mirror, display; property tests against a naive grid scan."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from c4engine import (
    MAX_SIZE,
    Board,
    BoardBusyError,
    BoardSizeError,
    ColumnFullError,
    ColumnOutOfRangeError,
    ConnectError,
    GameOverError,
    IllegalMoveError,
    Player,
)

DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


# --------------------------------------------------------- naive reference


def grid_of(board: Board) -> dict[tuple[int, int], Player]:
    """The stones as ``{(column, row): player}``, read through ``rows()`` (top row first)."""
    rows = board.rows()
    assert len(rows) == board.height
    stones = {}
    for top_index, line in enumerate(rows):
        assert len(line) == board.width
        row = board.height - 1 - top_index
        for column, player in enumerate(line):
            if player is not None:
                stones[column, row] = player
    return stones


def naive_line_cells(
    stones: dict[tuple[int, int], Player], connect: int
) -> dict[Player, set[tuple[int, int]]]:
    """Every cell in a run of ``connect`` or more same-coloured stones, per player, by walking the grid."""
    cells: dict[Player, set[tuple[int, int]]] = {Player.FIRST: set(), Player.SECOND: set()}
    for (column, row), player in stones.items():
        for dc, dr in DIRECTIONS:
            run = [(column + dc * step, row + dr * step) for step in range(connect)]
            if all(stones.get(cell) is player for cell in run):
                cells[player].update(run)
    return cells


def naive_winner(board: Board) -> Player | None:
    lines = naive_line_cells(grid_of(board), board.connect)
    winners = [player for player, cells in lines.items() if cells]
    assert len(winners) <= 1, "both sides have a line: the game should have stopped earlier"
    return winners[0] if winners else None


def snapshot(board: Board) -> tuple[object, ...]:
    return (
        board.key(),
        board.moves,
        board.winner,
        board.turn,
        board.mask_bits,
        board.current_bits,
        str(board),
    )


# -------------------------------------------------------------- strategies


@st.composite
def sizes(draw: st.DrawFn) -> tuple[int, int, int]:
    width = draw(st.integers(3, 10))
    height = draw(st.integers(3, 10))
    connect = draw(st.integers(3, min(6, max(width, height))))
    return width, height, connect


@st.composite
def games(draw: st.DrawFn) -> Board:
    """A random legal game on a random size, stopped at a random ply (or when it ends)."""
    board = Board(*draw(sizes()))
    length = draw(st.integers(0, board.width * board.height))
    for _ in range(length):
        legal = board.legal_moves()
        if not legal:
            break
        board.play(draw(st.sampled_from(legal)))
    return board


def replay(board: Board) -> list[Board]:
    """``board``'s game one position at a time, from the empty board."""
    positions = [Board(board.width, board.height, board.connect)]
    for column in board.moves:
        step = positions[-1].copy()
        step.play(column)
        positions.append(step)
    return positions


# ------------------------------------------------------------ properties


@settings(max_examples=300, deadline=None)
@given(games())
def test_winner_matches_a_naive_scan_after_every_move(board: Board) -> None:
    positions = replay(board)
    # Every prefix, not just the end: a win found one move late would pass a check of the end alone.
    for position in positions:
        assert position.winner == naive_winner(position)
        assert position.is_over == (
            position.winner is not None or position.move_count == board.width * board.height
        )
    # is_winning_move, on the last two positions (the one before a win is the interesting one).
    for position in positions[-2:]:
        if position.is_over:
            continue
        for column in position.legal_moves():
            after = position.copy()
            after.play(column)
            assert position.is_winning_move(column) == (naive_winner(after) is position.turn)


@settings(max_examples=300, deadline=None)
@given(games())
def test_undo_restores_the_exact_state_step_by_step(board: Board) -> None:
    states = [snapshot(position) for position in replay(board)]
    assert states[-1] == snapshot(board)
    for expected_column, before in zip(reversed(board.moves), reversed(states[:-1]), strict=True):
        assert board.undo() == expected_column
        assert snapshot(board) == before
    assert board.move_count == 0
    assert board.key() == Board(board.width, board.height, board.connect).key()


@settings(max_examples=300, deadline=None)
@given(games())
def test_mirror(board: Board) -> None:
    mirrored = board.mirror()
    assert mirrored.mirror() == board
    assert mirrored.mirror().moves == board.moves
    assert board.mirror_key() == mirrored.key()
    assert mirrored.mirror_key() == board.key()
    assert board.canonical_key() == mirrored.canonical_key()
    assert mirrored.winner == board.winner
    for column in range(board.width):
        for row in range(board.height):
            assert mirrored.cell(board.width - 1 - column, row) == board.cell(column, row)


@settings(max_examples=300, deadline=None)
@given(games())
def test_winning_cells_are_exactly_the_winners_lines_including_the_last_move(board: Board) -> None:
    cells = board.winning_cells()
    if board.winner is None:
        assert cells == []
        return
    last_column = board.moves[-1]
    last_cell = (last_column, board.column_height(last_column) - 1)
    assert last_cell in cells
    assert len(cells) >= board.connect
    assert len(set(cells)) == len(cells)
    assert all(board.cell(column, row) is board.winner for column, row in cells)
    assert set(cells) == naive_line_cells(grid_of(board), board.connect)[board.winner]


@settings(max_examples=200, deadline=None)
@given(games())
def test_repr_and_move_string_round_trip(board: Board) -> None:
    again = eval(repr(board), {"Board": Board})
    assert again == board
    assert again.moves == board.moves
    assert again._dimensions() == board._dimensions()


@settings(max_examples=200, deadline=None)
@given(games())
def test_rows_cell_and_column_height_agree(board: Board) -> None:
    stones = grid_of(board)
    assert len(stones) == board.move_count
    for column in range(board.width):
        height = board.column_height(column)
        assert all((column, row) in stones for row in range(height))
        assert all((column, row) not in stones for row in range(height, board.height))
    assert sum(1 for player in stones.values() if player is Player.FIRST) == (board.move_count + 1) // 2


# ------------------------------------------------------------ validation


@pytest.mark.parametrize("width", [0, -1, MAX_SIZE + 1, 7.0, "7", None, True])
def test_impossible_width(width: object) -> None:
    Board()  # the 7x6 geometry is cached: 7.0 and True must still be refused
    Board(1, 6, 4)
    with pytest.raises(BoardSizeError, match="width"):
        Board(width, 6, 4)  # type: ignore[arg-type]


@pytest.mark.parametrize("height", [0, -3, MAX_SIZE + 1, 6.0, "6"])
def test_impossible_height(height: object) -> None:
    with pytest.raises(BoardSizeError, match="height"):
        Board(7, height, 4)  # type: ignore[arg-type]


def test_largest_board_is_allowed() -> None:
    board = Board(MAX_SIZE, MAX_SIZE, 4)
    board.play(MAX_SIZE - 1)
    assert board.column_height(MAX_SIZE - 1) == 1


def test_connect_that_cannot_fit_says_why() -> None:
    with pytest.raises(
        ConnectError, match=r"connect 5 cannot fit on a 4x3 board: no row, column or diagonal"
    ):
        Board(4, 3, 5)


@pytest.mark.parametrize(
    ("connect", "message"), [(1, "at least 2"), (0, "at least 2"), (4.0, "whole number")]
)
def test_bad_connect(connect: object, message: str) -> None:
    with pytest.raises(ConnectError, match=message):
        Board(7, 6, connect)  # type: ignore[arg-type]


def test_full_column() -> None:
    board = Board.from_moves("444444")
    assert not board.can_play(3)
    assert 3 not in board.legal_moves()
    with pytest.raises(ColumnFullError, match="column 4 is full"):
        board.play(3)
    with pytest.raises(ColumnFullError):
        board.is_winning_move(3)


@pytest.mark.parametrize("column", [7, -1, 100, "3", 2.0, None, True])
def test_column_out_of_range(column: object) -> None:
    board = Board()
    assert not board.can_play(column)  # type: ignore[arg-type]
    with pytest.raises(ColumnOutOfRangeError):
        board.play(column)  # type: ignore[arg-type]
    assert board.move_count == 0


def test_move_after_a_win() -> None:
    board = Board.from_moves("1212121")
    assert board.winner is Player.FIRST
    assert board.result == "1-0"
    assert board.legal_moves() == []
    assert not board.can_play(4)
    with pytest.raises(GameOverError, match="X has won"):
        board.play(4)


def test_move_after_a_draw() -> None:
    board = Board.from_moves([0, 1, 2, 3], width=4, height=1, connect=3)  # X O X O: nobody has three
    assert board.is_draw and board.is_over and board.winner is None
    assert board.result == "1/2-1/2"
    with pytest.raises(GameOverError, match="full"):
        board.play(0)


def test_undo_on_an_empty_board() -> None:
    with pytest.raises(IllegalMoveError, match="no move to undo") as caught:
        Board().undo()
    assert type(caught.value) is IllegalMoveError


def test_undo_after_a_win_reopens_the_game() -> None:
    board = Board.from_moves("1212121")
    assert board.undo() == 0
    assert board.winner is None and board.result == "*"
    assert board.can_play(0)


def test_can_play_and_legal_moves() -> None:
    board = Board(3, 2, 2)
    assert board.legal_moves() == [0, 1, 2]
    board.play(1)
    board.play(1)
    assert board.legal_moves() == [0, 2]
    assert [board.can_play(column) for column in range(3)] == [True, False, True]


def test_is_winning_move() -> None:
    board = Board.from_moves("121212")  # X has three in column 1, O three in column 2
    assert board.is_winning_move(0)
    assert not board.is_winning_move(1)  # O's winning spot, but it is X's turn
    assert not board.is_winning_move(3)
    board.play(3)
    assert board.is_winning_move(1)
    # X holds the rising diagonal's first three cells (column 1 row 1 to column 3 row 3); row 4 of
    # column 4 is the only cell that completes it, and column 4 has three stones: it is playable now.
    diagonal = Board.from_moves("1223343447")
    assert [column for column in range(7) if diagonal.is_winning_move(column)] == [3]
    with pytest.raises(ColumnOutOfRangeError):
        board.is_winning_move(9)


def test_frozen_refuses_play_and_undo() -> None:
    board = Board.from_moves("44")
    with board.frozen() as same:
        assert same is board
        with pytest.raises(BoardBusyError):
            board.play(0)
        with pytest.raises(BoardBusyError):
            board.undo()
        with board.frozen():  # nesting: still busy after the inner block ends
            pass
        with pytest.raises(BoardBusyError):
            board.play(0)
        # Reading and copying stay allowed, and a copy is not frozen.
        assert board.legal_moves() == list(range(7))
        clone = board.copy()
        clone.play(0)
    assert board.move_string == "44"
    with pytest.raises(RuntimeError), board.frozen():
        raise RuntimeError("a search failed")
    board.play(0)  # the frozen state was released despite the exception
    assert board.move_string == "441"


def test_str_for_a_wide_board() -> None:
    board = Board.from_moves("1,12,10", width=12, height=3, connect=3)
    assert str(board) == "\n".join(
        [
            "  .  .  .  .  .  .  .  .  .  .  .  .",
            "  .  .  .  .  .  .  .  .  .  .  .  .",
            "  X  .  .  .  .  .  .  .  .  X  .  O",
            "  1  2  3  4  5  6  7  8  9 10 11 12",
        ]
    )


def test_str_for_the_standard_board() -> None:
    assert str(Board.from_moves("4453")) == "\n".join(
        [
            " . . . . . . .",
            " . . . . . . .",
            " . . . . . . .",
            " . . . . . . .",
            " . . . O . . .",
            " . . O X X . .",
            " 1 2 3 4 5 6 7",
        ]
    )


@pytest.mark.parametrize(
    ("board", "text"),
    [
        (Board(), "Board.from_moves('')"),
        (Board.from_moves("4453"), "Board.from_moves('4453')"),
        (
            Board.from_moves("12,3", width=12, height=5, connect=5),
            "Board.from_moves('12,3', width=12, height=5, connect=5)",
        ),
        (
            Board.from_moves("11", width=7, height=6, connect=3),
            "Board.from_moves('11', width=7, height=6, connect=3)",
        ),
    ],
)
def test_repr_round_trips_through_eval(board: Board, text: str) -> None:
    assert repr(board) == text
    again = eval(repr(board), {"Board": Board})
    assert again == board and again.moves == board.moves and again.connect == board.connect


def test_copy_is_independent() -> None:
    board = Board.from_moves("4453")
    clone = board.copy()
    clone.play(0)
    assert board.move_string == "4453" and clone.move_string == "44531"
    board.undo()
    assert clone.move_string == "44531" and board.move_string == "445"
    assert clone.cell(2, 0) is Player.SECOND and board.cell(2, 0) is None


def test_rows_and_cell() -> None:
    board = Board.from_moves("4453", width=5, height=3, connect=3)
    x, o = Player.FIRST, Player.SECOND
    assert board.rows() == [
        [None, None, None, None, None],
        [None, None, None, o, None],
        [None, None, o, x, x],
    ]
    assert board.cell(3, 0) is x and board.cell(3, 1) is o and board.cell(0, 0) is None
    for bad in [(5, 0), (0, 3), (-1, 0), ("1", 0), (0, 1.0)]:
        with pytest.raises(ColumnOutOfRangeError):
            board.cell(*bad)  # type: ignore[arg-type]


def test_column_height() -> None:
    board = Board.from_moves("44453")
    assert [board.column_height(column) for column in range(7)] == [0, 0, 1, 3, 1, 0, 0]
    with pytest.raises(ColumnOutOfRangeError):
        board.column_height(7)


def test_equality_ignores_history_but_not_size() -> None:
    assert Board.from_moves("4453") == Board.from_moves("4354")
    assert Board.from_moves("4453") != Board.from_moves("4435")
    assert Board(7, 6, 4) != Board(7, 6, 5)
    assert Board() != "Board()"


# ------------------------------------------------------------- from_grid


def cells_of(board: Board) -> list[list[int]]:
    return [[0 if owner is None else int(owner) for owner in row] for row in board.rows()]


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_from_grid_rebuilds_any_unfinished_position(data: st.DataObject) -> None:
    width = data.draw(st.integers(3, 9))
    height = data.draw(st.integers(3, 8))
    board = Board(width, height, 3)
    for _ in range(data.draw(st.integers(0, width * height))):
        if board.is_over:
            break
        board.play(data.draw(st.sampled_from(board.legal_moves())))
    if board.winner is not None:
        board.undo()
    rebuilt = Board.from_grid(cells_of(board), connect=3)
    assert rebuilt == board
    assert rebuilt.turn is board.turn
    assert rebuilt.move_count == board.move_count


def test_from_grid_finds_an_order_that_needs_backtracking() -> None:
    # The centre column holds X under O, column 1 O under X.  The search tries the
    # centre first, so O's first stone goes onto X there -- a dead end (X's next stone
    # has nowhere to go) that it must back out of: O starts column 1 instead.
    grid = [[0, 0, 0], [1, 2, 0], [2, 1, 0]]
    board = Board.from_grid(grid, connect=3)
    assert cells_of(board) == grid
    assert board.moves == (1, 0, 0, 1)


@pytest.mark.parametrize(
    ("grid", "reason"),
    [
        ([[1, 0, 0], [0, 0, 0], [2, 0, 0]], "stone above an empty cell"),
        ([[0, 0, 0], [0, 0, 0], [2, 0, 0]], "0 stones of the first player and 1 of the second"),
        ([[0, 0, 0], [1, 0, 0], [1, 2, 1]], "3 stones of the first player and 1 of the second"),
        ([[0, 0, 0], [1, 0, 0], [2, 0, 0]], "no game reaches this position"),
        ([[0, 0, 0], [2, 2, 0], [1, 1, 1]], "X already has 3 in a row"),
        ([[0, 0, 3], [0, 0, 0], [0, 0, 0]], "cell values are 0, 1 or 2"),
        ([[0, 0, 0], [0, 0]], "rows must all have 3 cells"),
    ],
)
def test_from_grid_refuses_impossible_grids(grid: list[list[int]], reason: str) -> None:
    from c4engine.errors import PositionError

    with pytest.raises(PositionError, match=reason):
        Board.from_grid(grid, connect=3)
