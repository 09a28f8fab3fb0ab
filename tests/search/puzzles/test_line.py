"""The only-move line: one good move at each of the solver's turns, the toughest replies between."""

from __future__ import annotations

import pytest

from c4engine import Board
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.limit import Limit
from c4engine.search.puzzles.line import only_move_line, outcomes


@pytest.fixture(scope="module")
def analyst() -> Analyst:
    return Analyst(solver_share=1.0)


def test_a_double_threat_in_one(analyst: Analyst) -> None:
    found = only_move_line(analyst, Board.from_moves("64434"))
    assert found is not None
    assert (found.goal, found.solution, found.ends) == ("win", (1,), "forced win")


def test_two_good_moves_make_no_line(analyst: Analyst) -> None:
    assert only_move_line(analyst, Board.from_moves("4455")) is None  # 3 and 6 both win
    assert only_move_line(analyst, Board.from_moves("1212121")) is None  # the game is over


def test_a_lost_position_has_nothing_to_keep(analyst: Analyst) -> None:
    assert only_move_line(analyst, Board.from_moves("644343")) is None  # X lost after O's double threat


def test_a_long_win_keeps_every_move_the_only_one(analyst: Analyst) -> None:
    board = Board.from_moves("5726545554423442241312333113526")
    found = only_move_line(analyst, board)
    assert found is not None and found.goal == "win" and found.ends == "forced win"
    assert found.solution == (5, 5, 5, 5, 6, 6, 6, 6, 6)
    walk = board.copy()
    for index, column in enumerate(found.solution):
        if index % 2 == 0:  # the solver's turn: that column alone wins
            wins = [
                c for c, outcome in outcomes(analyst.analyze(walk, pv=False), walk).items() if outcome > 0
            ]
            assert wins == [column]
        walk.play(column)
    assert only_move_line(analyst, board, max_moves=4) is None  # five moves of the solver: too long


def test_a_draw_held_by_only_moves(analyst: Analyst) -> None:
    found = only_move_line(analyst, Board.from_moves("246343446633441556"))
    assert found is not None
    assert (found.goal, found.solution, found.ends, found.score) == ("draw", (2, 4, 4, 5, 5), "draw held", 0)


def test_an_unproven_position_gives_no_line() -> None:
    # a fresh analyst, an early middle game and a few hundred nodes: nothing is proven
    assert (
        only_move_line(Analyst(book=None, solver_share=1.0), Board.from_moves("44444"), Limit(nodes=300))
        is None
    )
