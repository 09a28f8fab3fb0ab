"""Claims: which exact scores (the first player's) agree with each."""

from __future__ import annotations

from c4engine.search.coach.claims import CLAIMS, claim_holds


def test_each_claim_holds_for_the_scores_it_names() -> None:
    agree = {claim: [score for score in (-3, 0, 3) if claim_holds(claim, score)] for claim in CLAIMS}
    assert agree == {
        "first player wins": [3],
        "first player at least draws": [0, 3],
        "draw": [0],
        "second player at least draws": [-3, 0],
        "second player wins": [-3],
    }
