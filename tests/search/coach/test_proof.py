"""Proofs by rules: Allis' examples, the empty board, and the published sets against their scores."""

from __future__ import annotations

from collections import Counter

import pytest
from tests.conftest import PONS

from c4engine.board import Board
from c4engine.player import Player
from c4engine.search.coach.checker import check_proof
from c4engine.search.coach.claims import claim_holds
from c4engine.search.coach.proof import find_proof


def test_diagram_6_1_claimeven_only_the_second_player_at_least_draws() -> None:
    proof = find_proof(Board.from_moves("34444445"))
    assert proof is not None and proof.move is None
    assert (proof.claim, proof.rule_names, proof.controller) == (
        "second player at least draws",
        ("claimeven",),
        Player.SECOND,
    )


def test_a_second_position_of_claimevens_only() -> None:
    proof = find_proof(Board.from_moves("1333333777777421"))
    assert proof is not None
    assert (proof.claim, proof.rule_names) == ("second player at least draws", ("claimeven",))


def test_diagram_8_1_the_first_player_wins_with_the_odd_threat_at_a3() -> None:
    proof = find_proof(Board.from_moves("333244442525155"))
    assert proof is not None and proof.claim == "first player wins"
    assert proof.rule_names == ("claimeven", "baseinverse", "oddthreat")
    (threat,) = [rule for rule in proof.rules if rule.rule == "oddthreat"]
    assert threat.squares == ((0, 2),)  # a3: column a = 1, row 3
    assert {rule["rule"] for rule in proof.to_json()["rules"]} == {"claimeven", "baseinverse", "oddthreat"}


def test_the_empty_board_gets_no_proof() -> None:
    assert find_proof(Board()) is None


def test_boards_of_odd_height_get_no_proof() -> None:
    assert find_proof(Board.from_moves("34444", 7, 5)) is None


def _scored(name: str) -> list[tuple[str, int]]:
    lines = (PONS / name).read_text().split("\n")
    return [(moves, int(score)) for moves, score in (line.split() for line in lines if line)]


@pytest.mark.parametrize("name", ["Test_L3_R1", "Test_L2_R1"])
def test_no_proof_of_a_published_set_is_contradicted_or_rejected(name: str) -> None:
    # the sets' scores are the solver's (side to move): the exact verdict, at once
    proved, rules = 0, Counter[str]()
    for moves, score in _scored(name):
        board = Board.from_moves(moves)
        proof = find_proof(board)
        if proof is None:
            continue
        first = score if board.turn is Player.FIRST else -score
        assert claim_holds(proof.claim, first), (moves, score, proof.claim)
        assert check_proof(board, proof) == (), moves
        proved += 1
        rules.update(proof.rule_names)
    assert proved > 200  # docs/explain.md: 646 and 236 of the 1000
    assert rules["claimeven"] and rules["oddthreat"] and rules["aftereven"] and rules["baseinverse"]


def test_small_boards_every_proof_agrees_with_the_solver() -> None:
    from c4engine.search.analysis.analyst import Analyst

    analyst = Analyst(book=None)
    import random

    rng = random.Random(7)
    checked = 0
    for width, height, connect in ((5, 4, 4), (6, 4, 3), (4, 4, 3), (5, 6, 4)):
        for _ in range(100):
            board = Board(width, height, connect)
            for _ in range(rng.randrange(width * height - 2)):
                moves = [c for c in board.legal_moves() if not board.is_winning_move(c)]
                if not moves:
                    break
                board.play(rng.choice(moves))
            proof = find_proof(board)
            if proof is None:
                continue
            assert check_proof(board, proof) == ()
            score = analyst.solve(board).score
            assert score is not None and score.proven
            first = int(score.value) if board.turn is Player.FIRST else -int(score.value)
            assert claim_holds(proof.claim, first), (board.move_string, board.size, connect, proof.claim)
            checked += 1
    assert checked > 20
