"""The shipped puzzle set, checked again by the project's own solver: at each of the solver side's
moves exactly one column keeps the goal, each reply is the opponent's most resilient, the line ends
as the puzzle claims -- every one of them (about 90 CPU s in all, most of it on the earliest
positions; ``benchmarks/check_puzzles.py`` does the same with a report of each check's time)."""

from __future__ import annotations

import pytest

from c4engine.search.analysis.analyst import Analyst
from c4engine.search.puzzles.check import check_puzzle
from c4engine.search.puzzles.collection import shipped_puzzles
from c4engine.search.puzzles.puzzle import Puzzle

PUZZLES = shipped_puzzles()
CHUNKS = 8
"""The set is checked in this many tests, which the test run's workers share."""


@pytest.fixture(scope="module")
def analyst() -> Analyst:
    return Analyst()


def test_the_set_is_at_least_500_distinct_7x6_puzzles() -> None:
    assert len(PUZZLES) >= 500
    assert {(p.width, p.height, p.connect) for p in PUZZLES} == {(7, 6, 4)}
    assert len({p.key for p in PUZZLES}) == len(PUZZLES)  # no position twice, mirror images included
    assert all(p.source is not None and p.source.label for p in PUZZLES)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_the_shipped_puzzles_check(analyst: Analyst, chunk: int) -> None:
    wrong: list[tuple[Puzzle, tuple[str, ...]]] = []
    for puzzle in PUZZLES[chunk::CHUNKS]:
        found = check_puzzle(puzzle, analyst)
        if not found.ok:
            wrong.append((puzzle, found.problems))
    assert wrong == []
