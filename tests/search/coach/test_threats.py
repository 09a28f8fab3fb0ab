"""Threats: exactly the empty cells completing a line for a player, against a brute-force enumeration."""

from __future__ import annotations

import random

import pytest

from c4engine.board import Board
from c4engine.player import Player
from c4engine.search.coach.threats import find_threats


def _random_board(rng: random.Random, width: int, height: int, connect: int) -> Board:
    board = Board(width, height, connect)
    for _ in range(rng.randrange(width * height)):
        moves = [c for c in board.legal_moves() if not board.is_winning_move(c)]
        if not moves:
            break
        board.play(rng.choice(moves))
    return board


def _brute_force(board: Board) -> set[tuple[int, int, int]]:
    """(player, column, row) of every empty cell where a stone of the player makes ``connect`` in a row,
    by walking the four directions from the cell over the grid."""
    found = set()
    for column in range(board.width):
        for row in range(board.height):
            if board.cell(column, row) is not None:
                continue
            for player in (Player.FIRST, Player.SECOND):
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    run = 1
                    for sign in (1, -1):
                        c, r = column + sign * dc, row + sign * dr
                        while 0 <= c < board.width and 0 <= r < board.height and board.cell(c, r) is player:
                            run += 1
                            c, r = c + sign * dc, r + sign * dr
                    if run >= board.connect:
                        found.add((int(player), column, row))
    return found


@pytest.mark.parametrize(
    ("width", "height", "connect"), [(7, 6, 4), (6, 5, 4), (5, 4, 3), (9, 7, 5), (4, 4, 2)]
)
def test_threats_are_exactly_the_cells_completing_a_line(width: int, height: int, connect: int) -> None:
    rng = random.Random(width * 100 + height * 10 + connect)
    for _ in range(60):
        board = _random_board(rng, width, height, connect)
        threats = find_threats(board)
        assert {(int(t.player), t.column, t.row) for t in threats} == _brute_force(board)
        for threat in threats:
            assert threat.playable == (threat.row == board.column_height(threat.column))
            assert threat.parity == ("odd" if threat.row % 2 == 0 else "even")
            assert threat.groups and all(threat.cell in group.cells for group in threat.groups)
            for group in threat.groups:
                others = [cell for cell in group.cells if cell != threat.cell]
                assert all(board.cell(*cell) is threat.player for cell in others)


def test_useless_threats_lie_above_a_threat_of_the_opponent_or_of_their_own() -> None:
    board = Board.from_moves("112233")  # X a1-c1, O a2-c2: O's d2 is above X's d1
    useless = {(t.player.symbol, t.column, t.row): t.useless for t in find_threats(board)}
    assert useless == {("X", 3, 0): False, ("O", 3, 1): True}


def test_the_json_has_one_based_cells_and_the_groups() -> None:
    (threat, _) = find_threats(Board.from_moves("112233"))
    data = threat.to_json()
    assert (data["player"], data["column"], data["row"], data["parity"], data["playable"]) == (
        1,
        4,
        1,
        "odd",
        True,
    )
    assert data["groups"] == [[{"column": c, "row": 1} for c in (1, 2, 3, 4)]]
