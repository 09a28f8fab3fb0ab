"""Zugzwang: follow-up squares and Allis' rule of thumb for the control."""

from __future__ import annotations

from c4engine.board import Board
from c4engine.player import Player
from c4engine.search.coach.threats import find_threats
from c4engine.search.coach.zugzwang import find_zugzwang


def _zugzwang(moves: str, width: int = 7, height: int = 6):  # type: ignore[no-untyped-def]
    board = Board.from_moves(moves, width, height)
    return find_zugzwang(board, find_threats(board))


def test_on_the_empty_board_the_second_player_gets_every_even_square_by_follow_up() -> None:
    zugzwang = _zugzwang("")
    assert (zugzwang.controller, zugzwang.reason, zugzwang.follower) == (
        Player.SECOND,
        "follow_up",
        Player.SECOND,
    )
    assert set(zugzwang.follower_squares) == {(c, r) for c in range(7) for r in (1, 3, 5)}
    assert zugzwang.odd_columns == ()


def test_an_odd_threat_of_the_first_player_takes_the_control() -> None:
    zugzwang = _zugzwang("33324444252")  # X's odd threats at a3 and e3; O has no even threat yet
    assert zugzwang.odd_threats == ((0, 2), (4, 2)) and zugzwang.even_threats == ()
    assert (zugzwang.controller, zugzwang.reason) == (Player.FIRST, "odd_threat")
    contested = _zugzwang("333244442525155")  # now O has the even threat at f2 too
    assert (contested.controller, contested.reason) == (None, "contested")


def test_boards_of_odd_height_read_no_control() -> None:
    assert _zugzwang("44", 7, 5).reason == "odd_height"
