"""The engine's estimates of the columns an analysis leaves open, depth by depth."""

from __future__ import annotations

from c4engine import Board
from c4engine.search.analysis.estimates import estimate_columns
from c4engine.search.engine.evaluators import areas
from c4engine.search.engine.negamax import Engine
from c4engine.search.limit import Limit


def test_the_estimates_stop_at_the_first_depth_done_once_the_time_is_spent() -> None:
    """Every search is given a sliver of time however spent the budget is (``Budget.remaining``):
    the estimates must look at the budget between searches, or they go on depth after depth."""
    board = Board.from_moves("3775312")
    now = [0.0]
    budget = Limit(time=1.0).start(lambda: now[0])
    asked: list[Limit] = []

    def engine_for(limit: Limit) -> Engine:
        asked.append(limit)
        if len(asked) == 7:
            now[0] = 5.0  # the question's time is spent during the last search of depth 1
        return Engine(areas, limit, center_first_move=False)

    settled, nodes = estimate_columns(board, list(range(7)), budget, engine_for)
    assert len(asked) == 7 and {limit.depth for limit in asked} == {1}
    assert sorted(settled) == list(range(7)) and nodes > 0
