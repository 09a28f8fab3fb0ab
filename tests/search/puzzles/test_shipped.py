"""The shipped puzzle set, checked again by the project's own solver: at each of the solver side's
moves exactly one column keeps the goal, each reply is the opponent's most resilient, the line ends
as the puzzle claims.  Every puzzle of 10 stones or more, and every 8th of the earlier ones -- whose
positions cost the solver most -- in the default run; all of them: ``benchmarks/check_puzzles.py``."""

from __future__ import annotations

import pytest

from c4engine.search.analysis.analyst import Analyst
from c4engine.search.puzzles.check import check_puzzle
from c4engine.search.puzzles.collection import shipped_puzzles
from c4engine.search.puzzles.puzzle import Puzzle

PUZZLES = shipped_puzzles()
EARLY = 10
"""Puzzles of fewer stones are sampled (their checks take seconds each; the later ones milliseconds)."""
CHECKED = [p for p in PUZZLES if len(p.board().moves) >= EARLY] + [
    p for p in PUZZLES if len(p.board().moves) < EARLY
][::8]


@pytest.fixture(scope="module")
def analyst() -> Analyst:
    return Analyst()


def test_the_set_is_at_least_500_distinct_7x6_puzzles() -> None:
    assert len(PUZZLES) >= 500
    assert {(p.width, p.height, p.connect) for p in PUZZLES} == {(7, 6, 4)}
    assert len({p.key for p in PUZZLES}) == len(PUZZLES)  # no position twice, mirror images included
    assert all(p.source is not None and p.source.label for p in PUZZLES)
    assert len(CHECKED) > 0.85 * len(PUZZLES)


@pytest.mark.parametrize("chunk", range(4))
def test_the_shipped_puzzles_check(analyst: Analyst, chunk: int) -> None:
    wrong: list[tuple[Puzzle, tuple[str, ...]]] = []
    for puzzle in CHECKED[chunk::4]:
        found = check_puzzle(puzzle, analyst)
        if not found.ok:
            wrong.append((puzzle, found.problems))
    assert wrong == []
