"""Judging a move (c4engine.search.review.verdicts): a verdict claims only what the bounds prove."""

from __future__ import annotations

from c4engine.search.review.verdicts import VERDICTS, judge


def test_judge_claims_only_what_bounds_prove() -> None:
    # a proven win answered by a proven draw-or-loss: at least a mistake, maybe a blunder
    assert judge(1, 5, -10, 0) == ("mistake", True)
    assert judge(1, 5, -10, -1) == ("blunder", False)
    assert judge(0, 0, -3, -1) == ("mistake", False)
    assert judge(0, 4, -3, -1) == ("mistake", True)  # at least a draw thrown to a loss: a draw or a win lost
    assert judge(-2, 4, -3, -1) == ("not proven", False)  # the best may lose as well
    assert judge(3, 6, 1, 2) == ("inaccuracy", False)  # proven slower, both wins
    assert judge(-5, 3, -8, -6) == ("not proven", False)
    for verdict in ("best", "inaccuracy", "mistake", "blunder", "not proven", "not chosen"):
        assert verdict in VERDICTS
