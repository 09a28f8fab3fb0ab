"""Themes from what the board shows after the solution."""

from __future__ import annotations

from dataclasses import replace

import pytest

from c4engine import Board
from c4engine.notation import parse_moves
from c4engine.player import Player
from c4engine.search.coach import proof as coach_proof
from c4engine.search.coach.checker import check_proof
from c4engine.search.puzzles import themes
from c4engine.search.puzzles.themes import board_themes, coach_themes, last_threats, proved_rules


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


def test_a_defence_held_by_claimeven_names_it_after_the_main_theme() -> None:
    board = Board.from_moves("3444444")  # O plays 5: Allis' diagram 6.1, O claims every even square
    reached = Board.from_moves("34444445")
    proof = coach_proof.find_proof(reached)
    assert proof is not None and proof.claim == "second player at least draws"
    assert check_proof(reached, proof) == ()
    assert coach_themes(board, (4,), "draw", "draw held") == ("defence", "claimeven")


def test_a_first_players_odd_threat_wins() -> None:
    board = Board.from_moves("333244442525155")  # Allis' diagram 8.1: X wins by an odd threat
    assert proved_rules(board, Player.FIRST, "win") == ("claimeven", "baseinverse", "oddthreat")


def test_no_proof_no_rule() -> None:
    board = Board.from_moves("12131")  # O blocks column 1; nothing proven after it
    reached = Board.from_moves("121311")
    assert coach_proof.find_proof(reached) is None
    assert coach_themes(board, (0,), "draw", "draw held") == board_themes(board, (0,), "draw", "draw held")


@pytest.mark.parametrize(
    ("reached", "solver", "goal"),
    [
        ("34444445", Player.SECOND, "win"),  # proves O's draw: not the win the puzzle asks
        ("333244442525155", Player.FIRST, "draw"),  # proves X's win: no draw puzzle's position
        ("34574433444", Player.FIRST, "draw"),  # a proof of O's, after an O move: nothing of X's
    ],
)
def test_a_proof_that_says_something_else_than_the_puzzle_is_not_named(
    reached: str, solver: Player, goal: str
) -> None:
    board = Board.from_moves(reached)
    assert coach_proof.find_proof(board) is not None
    assert proved_rules(board, solver, goal) == ()


def test_a_proof_the_checker_refuses_is_not_named(monkeypatch: pytest.MonkeyPatch) -> None:
    board = Board.from_moves("333244442525155")
    found = coach_proof.find_proof(board)
    assert found is not None
    broken = replace(found, rules=found.rules[1:])  # without its oddthreat a group of O is left
    assert check_proof(board, broken)
    monkeypatch.setattr(themes, "find_proof", lambda _: broken)
    assert proved_rules(board, Player.FIRST, "win") == ()
