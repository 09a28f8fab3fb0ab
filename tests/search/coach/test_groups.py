"""Groups: every line of ``connect`` cells once; the groups a player can still complete."""

from __future__ import annotations

import pytest

from c4engine.board import Board
from c4engine.player import Player
from c4engine.search.coach.groups import all_groups, groups_through, open_groups, square_name


@pytest.mark.parametrize(("width", "height", "connect"), [(7, 6, 4), (5, 4, 3), (9, 7, 5), (4, 4, 4)])
def test_every_line_is_a_group_once(width: int, height: int, connect: int) -> None:
    groups = all_groups(Board(width, height, connect).geometry)
    rows = (width - connect + 1) * height
    columns = width * (height - connect + 1)
    diagonals = 2 * max(0, width - connect + 1) * max(0, height - connect + 1)
    assert len(groups) == rows + columns + diagonals == len({group.cells for group in groups})
    through = groups_through(Board(width, height, connect).geometry)
    assert sum(len(found) for found in through.values()) == connect * len(groups)


def test_open_groups_hold_no_stone_of_the_opponent_and_an_empty_cell() -> None:
    board = Board.from_moves("4455")
    for player in (Player.FIRST, Player.SECOND):
        for group in open_groups(board, player):
            owners = [board.cell(*cell) for cell in group.cells]
            assert player.other not in owners and None in owners
    assert square_name((3, 0), 7) == "d1" and square_name((27, 2), 30) == "28:3"
