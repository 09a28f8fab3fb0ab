"""Immediate facts: a win now, a forced block, a double threat, a move giving a win above."""

from __future__ import annotations

import random

from c4engine.board import Board
from c4engine.search.coach.immediate import immediate_facts
from c4engine.search.coach.threats import find_threats


def _facts(moves: str) -> dict[str, tuple[int, list[int]]]:
    board = Board.from_moves(moves)
    return {
        f.kind: (int(f.player), [c + 1 for c in f.columns])
        for f in immediate_facts(board, find_threats(board))
    }


def test_a_win_now_is_the_only_fact_said() -> None:
    assert _facts("112233") == {"win_now": (1, [4])}


def test_a_forced_block_and_a_double_threat() -> None:
    facts = _facts("2233447")  # X has b1-d1 open at both ends; O to move
    assert facts["forced_block"] == (2, [1, 5])
    assert facts["double_threat"] == (1, [1, 5])


def test_gives_win_above_names_exactly_the_moves_letting_the_opponent_win_above() -> None:
    rng = random.Random(45)
    seen = 0
    for _ in range(300):
        board = Board()
        for _ in range(rng.randrange(8, 30)):
            moves = [c for c in board.legal_moves() if not board.is_winning_move(c)]
            if not moves:
                break
            board.play(rng.choice(moves))
        if board.is_over or board.winning_columns():
            continue
        facts = {f.kind: f.columns for f in immediate_facts(board, find_threats(board))}
        expected = []
        for column in board.legal_moves():
            child = board.copy()
            child.play(column)
            if child.can_play(column) and child.is_winning_move(column):
                expected.append(column)
        assert facts.get("gives_win_above", ()) == tuple(expected)
        seen += bool(expected)
    assert seen > 10


def test_a_finished_game_has_no_immediate_facts() -> None:
    board = Board.from_moves("1212121")
    assert immediate_facts(board, find_threats(board)) == ()
