"""The explanation and the move explanation: facts, a confirmed proof, the score, sentences."""

from __future__ import annotations

import json

from c4engine.board import Board
from c4engine.search.coach.explanation import explain, explain_move
from c4engine.search.limit import Limit
from c4engine.search.results import Score


def test_an_explanation_is_one_json_object_with_its_facts() -> None:
    data = explain(Board.from_moves("333244442525155")).to_json()
    json.dumps(data)
    assert {"threats", "immediate", "zugzwang", "proof", "proof_status", "score", "sentences"} <= set(data)
    assert data["proof"]["claim"] == "first player wins"
    assert data["proof_status"] == "confirmed"
    assert data["score"] == {"value": -2, "proven": True, "words": "loss in 12 moves"}
    assert any("a3" in sentence for sentence in data["sentences"])
    assert [(t["player"], t["column"], t["row"], t["parity"]) for t in data["threats"]] == [
        (1, 1, 3, "odd"),
        (2, 6, 2, "even"),
    ]


def test_a_proof_the_score_contradicts_is_not_shown() -> None:
    board = Board.from_moves("34444445")  # a draw: the second player at least draws
    wrong = Score.proven_value(3, cells=42, stones=8)  # as if the first player won
    explanation = explain(board, score=wrong)
    assert explanation.proof is None and explanation.proof_status == "contradicted"
    unproven = explain(board, score=Score.estimate(0.5, cells=42, stones=8))
    assert unproven.proof is None and unproven.proof_status == "unconfirmed"
    assert any("not proven" in sentence for sentence in unproven.sentences)


def test_an_unproven_score_is_said_to_be_unproven() -> None:
    explanation = explain(Board(), limit=Limit(nodes=50))
    assert explanation.score is not None
    if not explanation.score.proven:  # the book may know the empty board
        assert "not proven" in explanation.sentences[-1]
    assert explanation.proof is None


def test_a_move_under_its_own_threat_gives_it_up_and_breaks_the_proof() -> None:
    board = Board.from_moves("33324444252515")  # X to move; X's odd threat at a3, a1 filled
    move = explain_move(board, 0)  # a2: under X's own threat
    kinds = [change.kind for change in move.changes]
    assert "under_own_threat" in kinds
    assert move.why()
    data = move.to_json()
    assert data["column"] == 1 and data["line"] and data["reply"]["proven"]


def test_a_move_under_the_opponents_threat_is_named() -> None:
    move = explain_move(Board.from_moves("333244442525155"), 0)  # O plays a2 under X's a3
    assert next(change.kind for change in move.changes) == "under_opponent_threat"
    assert move.line[0] == 0  # X wins at once in column 1


def _kinds(moves: str, column: int) -> list[str]:
    return [change.kind for change in explain_move(Board.from_moves(moves), column).changes]


def test_a_missed_win_and_an_ignored_threat_are_named() -> None:
    assert "misses_win" in _kinds("112233", 4)  # X could win in column 4
    assert "ignores_threat" in _kinds("4661237137541742643224", 0)  # O wins in column 3 next


def test_a_reply_with_a_double_threat_is_named() -> None:
    move = explain_move(Board.from_moves("662222576343651642712157"), 2)
    (change,) = [change for change in move.changes if change.kind == "allows_double_threat"]
    assert "column 4" in change.text and move.line[0] == 3


def test_a_move_after_which_the_opponents_rules_prove_the_game_is_named() -> None:
    move = explain_move(Board.from_moves("2252576253462244111563365343671351441"), 5)
    (change,) = [change for change in move.changes if change.kind == "gives_proof"]
    assert "first player wins" in change.text and move.after.proof is not None
