"""Allis' combination of his solutions: his table, and the search for a cover."""

from __future__ import annotations

from tests.conftest import PONS

from c4engine.board import Board
from c4engine.player import Player
from c4engine.search.coach.claims import claim_holds
from c4engine.search.coach.combination import compatible, find_combination, solutions
from c4engine.search.coach.groups import open_groups


def _solutions(moves: str):  # type: ignore[no-untyped-def]
    board = Board.from_moves(moves)
    return board, solutions(board, open_groups(board, Player.FIRST))


def test_the_table_takes_disjoint_squares_and_keeps_inverses_below_claimevens() -> None:
    _, found = _solutions("5234366411554144162665134725717653")
    claimevens = [s for s in found if s.rule == "claimeven"]
    inverses = [s for s in found if s.rule == "lowinverse"]
    assert claimevens and inverses
    for inverse in inverses:
        for claimeven in claimevens:
            same_column = [c for c in claimeven.squares if c[0] in {cell[0] for cell in inverse.squares}]
            below = all(
                cell[1] < low[1]
                for cell in inverse.squares
                for low in claimeven.claimeven_lowers
                if low[0] == cell[0]
            )
            assert compatible(inverse, claimeven) == compatible(claimeven, inverse) == below, same_column
    for one in claimevens:
        for other in claimevens:
            assert compatible(one, other) == (not one.squares & other.squares)


def test_combinations_are_only_for_the_second_player_with_the_first_to_move() -> None:
    assert find_combination(Board.from_moves("4")) is None  # O to move
    assert find_combination(Board.from_moves("445566")) is None  # X wins at once


def test_no_combination_claims_what_the_score_denies() -> None:
    lines = (PONS / "Test_L2_R2").read_text().split("\n")[:300]
    found = 0
    for moves, score in (line.split() for line in lines if line):
        board = Board.from_moves(moves)
        proof = find_combination(board)
        if proof is not None:
            found += 1
            assert claim_holds(proof.claim, int(score)), moves  # X to move: the score is X's
    assert found > 5
