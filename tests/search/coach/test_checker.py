"""The checker re-derives a proof from the board alone: it accepts the prover's, rejects tampered ones."""

from __future__ import annotations

from dataclasses import replace

from c4engine.board import Board
from c4engine.player import Player
from c4engine.search.coach.checker import check_proof
from c4engine.search.coach.proof import find_proof
from c4engine.search.coach.rules import RuleInstance


def _proof(moves: str):  # type: ignore[no-untyped-def]
    board = Board.from_moves(moves)
    proof = find_proof(board)
    assert proof is not None
    return board, proof


def test_the_provers_proofs_are_accepted() -> None:
    for moves in ("34444445", "1333333777777421", "333244442525155"):
        board, proof = _proof(moves)
        assert check_proof(board, proof) == ()


def test_a_wrong_claim_is_rejected() -> None:
    board, proof = _proof("34444445")
    assert check_proof(board, replace(proof, claim="second player wins"))
    assert check_proof(board, replace(proof, claim="draw"))


def test_a_missing_rule_leaves_groups_unrefuted() -> None:
    board, proof = _proof("34444445")
    problems = check_proof(board, replace(proof, rules=proof.rules[:-1]))
    assert any("refuted by no rule" in problem for problem in problems)


def test_a_claimeven_not_in_the_plan_or_on_an_odd_square_is_rejected() -> None:
    board, proof = _proof("34444445")
    bogus = RuleInstance("claimeven", ((0, 1), (0, 2)), ())  # a2-a3: the upper square is odd
    assert check_proof(board, replace(proof, rules=(*proof.rules, bogus)))
    wrong = replace(proof.rules[0], refutes=proof.rules[1].refutes)
    assert any(
        "does not refute" in p for p in check_proof(board, replace(proof, rules=(wrong, *proof.rules[1:])))
    )


def test_a_plan_with_a_pair_the_opponent_cannot_open_first_is_rejected() -> None:
    board, proof = _proof("34444445")
    plan = proof.plan
    pairs = list(plan.column_pairs)
    (lower, upper) = pairs[0]
    pairs[0] = (upper, lower)  # the controller would have to take the lower cell
    assert check_proof(board, replace(proof, plan=replace(plan, column_pairs=tuple(pairs))))


def test_the_proof_is_for_the_side_not_to_move() -> None:
    board, proof = _proof("34444445")
    assert check_proof(board, replace(proof, controller=Player.FIRST))
    board.play(0)
    assert check_proof(board, proof)


COMBINED = {
    "before": "3414355576455177144321543311672273",
    "highinverse": "347573633637564217545173151176",
    "baseclaim": "34767211234546537225571614622534",
    "lowinverse": "5234366411554144162665134725717653",
    "vertical": "74425337641465475671176741236615215533",
}
"""Positions of Test_L3_R1 (the first player to move, who does not win) proved only by a combination
of Allis' solutions, each with the rule named."""


def test_combinations_of_allis_solutions_are_checked_rule_by_rule() -> None:
    for rule, moves in COMBINED.items():
        board, proof = _proof(moves)
        assert proof.plan is None and proof.claim == "second player at least draws"
        assert rule in proof.rule_names
        assert check_proof(board, proof) == ()
        (used,) = [r for r in proof.rules if r.rule == rule][:1]
        moved = replace(used, squares=tuple((c, r + 1) for c, r in used.squares))  # one row up
        tampered = replace(proof, rules=tuple(moved if r is used else r for r in proof.rules))
        assert check_proof(board, tampered), rule
        assert check_proof(board, replace(proof, claim="second player wins"))


def test_allis_table_refuses_a_claimeven_at_a_lowinverse() -> None:
    board, proof = _proof(COMBINED["lowinverse"])
    (inverse,) = [r for r in proof.rules if r.rule == "lowinverse"]
    column, row = max(inverse.squares)  # the upper (odd) square of the inverse's right column
    assert board.cell(column, row + 1) is None
    at = RuleInstance("claimeven", ((column, row), (column, row + 1)), ())  # its lower square at the inverse
    problems = check_proof(board, replace(proof, rules=(*proof.rules, at)))
    assert any("does not let the lowinverse and the claimeven" in p for p in problems), problems


def test_a_combination_after_the_second_players_move_is_checked_after_it() -> None:
    board, proof = _proof("5512243243536")  # O to move: O plays column 4, then Allis' solutions hold
    assert proof.plan is None and proof.move == 3 and proof.controller is Player.SECOND
    assert check_proof(board, proof) == ()
    assert check_proof(board, replace(proof, move=None))  # in the position itself O is to move
