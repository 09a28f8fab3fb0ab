"""The probes for a column keeping the book's score: who is searched when, and what it costs."""

from __future__ import annotations

from c4engine import Board
from c4engine.search.analysis.book_probes import PROBE_NODES, reach
from c4engine.search.limit import Limit
from c4engine.search.solver.exact import Solver


class _Probes:
    """A fake null-window search: ``keeper``'s column is never decided, every other is refuted at
    once; every search is recorded, with its column and budget."""

    def __init__(self, keeper: int, cost: int = 1_000) -> None:
        self.keeper = keeper
        self.cost = cost
        self.asked: list[tuple[int, int | None]] = []

    def __call__(self, child: Board, score: int, limit: Limit) -> tuple[bool | None, int]:
        column = child.moves[-1]
        self.asked.append((column, limit.nodes))
        if column == self.keeper:
            return None, limit.nodes or 1
        return True, self.cost


def test_a_won_positions_likely_keeper_comes_last_and_is_never_searched_once_the_rest_is_refuted() -> None:
    probes = _Probes(keeper=2)
    found = reach(probes, Board.from_moves("3775312"), 2, range(7), Limit(time=30), likely=2)
    assert found.column == 2 and sorted(found.below) == [0, 1, 3, 4, 5, 6]
    assert [column for column, _ in probes.asked] == [3, 4, 1, 5, 0, 6]  # centre-first, 2 never
    assert found.nodes == 6 * 1_000


def test_the_likely_keeper_waits_for_the_second_round_when_the_first_leaves_others() -> None:
    board = Board.from_moves("3775312")
    asked: list[tuple[int, int | None]] = []

    def probe(child: Board, score: int, limit: Limit) -> tuple[bool | None, int]:
        column = child.moves[-1]
        asked.append((column, limit.nodes))
        if column == 3 and len(asked) < 3:  # column 4: refuted in the second round only
            return None, limit.nodes or 1
        return (None, limit.nodes or 1) if column == 2 else (True, 10)

    found = reach(probe, board, 2, [2, 3, 4], Limit(time=30), likely=2)
    assert found.column == 2 and found.below == (4, 3)
    first, second = PROBE_NODES, 4 * PROBE_NODES
    assert asked == [(3, first), (4, first), (3, second)]  # 2: skipped in round one, left alone after


def test_a_lost_or_drawn_position_goes_centre_first_whatever_the_guess() -> None:
    probes = _Probes(keeper=6)
    found = reach(probes, Board.from_moves("3775312"), 0, range(7), Limit(time=30), likely=3)
    assert found.column == 6
    assert [column for column, _ in probes.asked] == [3, 2, 4, 1, 5, 0]


def test_the_nodes_searched_count_against_a_node_limit() -> None:
    """A refutation costing 1,000 nodes costs the limit 1,000, not its round's budget: six of them
    fit in 10,000 nodes, and the seventh column keeps the score."""
    probes = _Probes(keeper=6, cost=1_000)
    found = reach(probes, Board.from_moves("3775312"), 2, range(7), Limit(nodes=10_000))
    assert found.column == 6 and found.nodes == 6_000
    assert [nodes for _, nodes in probes.asked] == [10_000, 9_000, 8_000, 7_000, 6_000, 5_000]


def test_the_probes_stop_when_the_limit_is_spent() -> None:
    probes = _Probes(keeper=3)
    found = reach(probes, Board.from_moves("3775312"), 2, range(7), Limit(nodes=10_000))
    assert found.column is None and found.nodes == 10_000 and probes.asked == [(3, 10_000)]


def test_the_real_probes_prove_column_3_of_3775312_within_500_000_nodes() -> None:
    """The solver's own searches, the engine's choice (column 3) last: the six refutations take
    about 0.35 M nodes (every machine counts the same); centre-first they take 0.64 M."""
    board = Board.from_moves("3775312")
    solver = Solver(table_size_mb=8)
    found = reach(solver.null_window, board, 2, range(7), Limit(nodes=500_000), likely=2)
    assert found.column == 2 and sorted(found.below) == [0, 1, 3, 4, 5, 6]
    assert found.nodes <= 500_000
    centre_first = reach(Solver(table_size_mb=8).null_window, board, 2, range(7), Limit(nodes=500_000))
    assert centre_first.column is None
