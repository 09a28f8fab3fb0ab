"""The reasons of a review (c4engine.search.review.reasons): a why on every mistake and blunder and on
nothing else, agreeing with the review's proven scores, within the review's budget."""

from __future__ import annotations

import functools
from dataclasses import replace

from c4engine.board import Board
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.limit import UNLIMITED, Limit
from c4engine.search.results import Score
from c4engine.search.review.answers import Review
from c4engine.search.review.game import review_game
from c4engine.search.review.reasons import REASONED, reason_limit, with_reasons

GAMES = ("44556", "36424443332122233264466677755555")
"""Two blunders from the book; a game of benchmarks/review_games.txt with a mistake on each side."""


@functools.cache
def _review(moves: str) -> Review:
    return review_game(Analyst(), moves, UNLIMITED)  # one thread, no cap: every ply proven


def test_every_mistake_and_blunder_has_its_reasons_and_nothing_else_has_any() -> None:
    reasoned = 0
    for moves in GAMES:
        review = _review(moves)
        assert review.proven
        for ply in review.plies:
            assert (ply.why is not None) == (ply.verdict in REASONED), ply
            assert ply.to_json()["why"] == ply.why
            reasoned += ply.why is not None
            if ply.why is not None:
                assert ply.why.strip() and ply.why.endswith(".")
    assert reasoned >= 4


def test_the_reasons_say_the_score_the_review_proved() -> None:
    """The coach's score after the move is the review's, seen by the opponent, then to move; and
    its refutation is legal play from the position after the move."""
    for moves in GAMES:
        for ply in _review(moves).plies:
            if ply.why is None:
                continue
            assert ply.score_after is not None
            after = Score.proven_value(-ply.score_after, cells=ply.cells, stones=ply.index + 1)
            opponent = ply.player.other.symbol
            assert f"After it, {opponent} to move: {after.describe()} (proven)." in ply.why
            board = Board.from_moves(moves[: ply.ply])
            refutation = ply.why.split("Refutation: ")[1].rstrip(".").split()
            for column in refutation:
                board.play(int(column) - 1)


def test_a_spent_review_asks_no_more_reasons() -> None:
    review = _review("44556")
    positions = [Board.from_moves("44556"[:index]) for index in range(5)]
    plies = [replace(ply, why=None) for ply in review.plies]
    ticks = iter([0.0])  # the budget starts at 0 s; every later look at the clock says 2 s

    def clock() -> float:
        return next(ticks, 2.0)

    spent = Limit(time=1.0).start(clock)
    again = with_reasons(Analyst(), positions, plies, UNLIMITED, spent)
    assert all(ply.why is None for ply in again)
    fresh = with_reasons(Analyst(), positions, plies, UNLIMITED, UNLIMITED.start())
    assert [ply.why is not None for ply in fresh] == [ply.why is not None for ply in review.plies]


def test_a_reason_s_limit_is_the_ply_s_within_what_is_left() -> None:
    left = Limit(time=10.0).start(iter([0.0, 9.5]).__next__)
    assert reason_limit(Limit(time=1.0, nodes=5000), left) == Limit(time=0.5, nodes=5000)
    assert reason_limit(Limit(depth=4), Limit().start()) == Limit(depth=4)
    assert reason_limit(Limit(depth=4), Limit(time=2.0).start(iter([0.0, 1.0]).__next__)).time == 1.0


def test_a_review_without_reasons_is_the_same_review_with_every_why_none() -> None:
    moves = GAMES[0]
    plain = review_game(Analyst(), moves, UNLIMITED, reasons=False)
    assert all(ply.why is None for ply in plain.plies)
    assert [replace(ply, why=None) for ply in _review(moves).plies] == list(plain.plies)
