"""Follow-up plans: every empty cell in exactly one pair the opponent opens; the instances they make."""

from __future__ import annotations

import random

from c4engine.board import Board
from c4engine.player import Player
from c4engine.search.coach.rules import instances_of, plans


def test_every_plan_pairs_every_empty_cell_once() -> None:
    rng = random.Random(3)
    for _ in range(40):
        board = Board()
        for _ in range(rng.randrange(10, 34)):
            moves = [c for c in board.legal_moves() if not board.is_winning_move(c)]
            if not moves:
                break
            board.play(rng.choice(moves))
        if board.is_over:
            continue
        empty = {(c, r) for c in range(7) for r in range(board.column_height(c), 6)}
        for plan in plans(board, board.turn.other, 50):
            cells = [cell for pair in (*plan.column_pairs, *plan.across) for cell in pair]
            never = set()
            if plan.threat is not None:
                column, row = plan.threat
                never = {(column, r) for r in range(row + 1, 6)}
            assert len(cells) == len(set(cells)) and set(cells) | never == empty
            assert all(upper == (lower[0], lower[1] + 1) for lower, upper in plan.column_pairs)
            assert plan.claimed == {upper for _, upper in plan.column_pairs}


def test_the_first_players_plan_needs_an_odd_threat() -> None:
    board = Board.from_moves("333244442525155")
    (plan, *_) = list(plans(board, Player.FIRST))
    assert plan.threat == (0, 2)  # a3
    assert ((0, 1), (0, 2)) in plan.column_pairs  # the vertical a2-a3 below it
    rules = {rule.rule for rule in instances_of(board, plan)}
    assert {"oddthreat", "vertical", "claimeven", "baseinverse"} <= rules
    assert list(plans(Board.from_moves("44"), Player.SECOND))  # the second player needs none
    assert not list(plans(Board.from_moves("4"), Player.FIRST))  # no odd threat: no plan
    assert not list(plans(Board.from_moves("4"), Player.SECOND))  # the controller is not to move
