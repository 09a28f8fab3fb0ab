"""Random legal positions for the tests (seeded, so every run sees the same ones)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import TYPE_CHECKING

from c4engine.board import Board
from c4engine.notation import parse_size
from c4engine.search.scale import win_score

if TYPE_CHECKING:  # the judge's type: importing numba is the caller's choice
    from c4engine.search.solver.exact import Solver

WIDE_DATA = Path(__file__).resolve().parent / "data"
"""Positions on boards past 64 bits scored by an independent solver (their source: README.md there)."""


def random_positions(
    count: int, seed: int, size: tuple[int, int, int] = (7, 6, 4), stones: tuple[int, int] = (0, 30)
) -> list[Board]:
    """``count`` random positions whose game is not over, each with a number of stones in ``stones``."""
    rng = random.Random(seed)
    boards: list[Board] = []
    while len(boards) < count:
        board = Board(*size)
        for _ in range(rng.randint(*stones)):
            if board.is_over:
                break
            board.play(rng.choice(board.legal_moves()))
        if not board.is_over:
            boards.append(board)
    return boards


def scored_positions(size: str, kind: str = "end", count: int | None = None) -> list[tuple[str, Board, int]]:
    """(moves, board, exact score) of ``tests/data/wide_{size}_{kind}.txt``: the first ``count`` lines
    (all without it), ``size`` like ``"10x6"``, connect 4."""
    width, height = parse_size(size)
    lines = (WIDE_DATA / f"wide_{size}_{kind}.txt").read_text().splitlines()
    cases = []
    for line in lines[:count]:
        moves, score = line.split()
        cases.append((moves, Board.from_moves(moves, width, height, 4), int(score)))
    return cases


def spread(items: list[tuple[str, Board, int]], count: int) -> list[tuple[str, Board, int]]:
    """``count`` of ``items`` spread evenly over them, the first included."""
    step = max(1, len(items) // count)
    return items[::step][:count]


def fewest_stones(items: list[tuple[str, Board, int]], count: int) -> list[tuple[str, Board, int]]:
    """The ``count`` of ``items`` with the fewest stones: the most left to search."""
    return sorted(items, key=lambda item: item[1].move_count)[:count]


def assert_ends_as_scored(board: Board, line: tuple[int, ...] | list[int], score: int) -> None:
    """Playing ``line`` (0-based columns) from ``board`` ends the game exactly as ``score``, the side to
    move's exact score, says: a draw on the full board, or the win of the side it names with the stone
    the score counts (a line that is not best play for both sides ends otherwise)."""
    walk = board.copy()
    mover = walk.turn
    for column in line:
        assert not walk.is_over, f"{board.move_string}: the line goes on after the end"
        walk.play(column)
    assert walk.is_over, f"{board.move_string}: the line {line} stops before the end"
    cells = walk.width * walk.height
    if score == 0:
        assert walk.winner is None and walk.is_full
    else:
        assert walk.winner == (mover if score > 0 else mover.other)
        assert win_score(cells, walk.move_count - 1) == abs(score)


def score_of_move(board: Board, column: int, judge: Solver) -> int:
    """The exact score the side to move gets by playing ``column``: ``judge``'s score of the position
    it leaves, negated (a win on the spot and a full board need no search)."""
    if board.is_winning_move(column):
        return (board.width * board.height + 1 - board.move_count) // 2
    child = board.copy()
    child.play(column)
    score = 0 if child.is_full else judge.solve(child, best_move=False).score
    assert score is not None
    return -score
