"""Perft: the published 7x6 counts, and small boards against a naive grid enumerator."""

from __future__ import annotations

import pytest

from c4engine import BoardSizeError, ConnectError
from c4engine.perft import PUBLISHED_7X6, perft

Grid = tuple[tuple[int, ...], ...]  # grid[row][column], row 0 at the bottom; 0 empty, 1 first, 2 second


def naive_has_line(grid: Grid, player: int, connect: int) -> bool:
    height, width = len(grid), len(grid[0])
    for row in range(height):
        for column in range(width):
            if grid[row][column] != player:
                continue
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(column + dc * step, row + dr * step) for step in range(connect)]
                if all(0 <= c < width and 0 <= r < height and grid[r][c] == player for c, r in cells):
                    return True
    return False


def naive_perft(depth: int, width: int, height: int, connect: int) -> list[int]:
    """Distinct positions per ply, on plain nested lists: shares nothing with c4engine."""
    empty: Grid = tuple(tuple(0 for _ in range(width)) for _ in range(height))
    counts = [1]
    frontier = {empty}
    for ply in range(depth):
        player = 1 + ply % 2
        reached: set[Grid] = set()
        for grid in frontier:
            for column in range(width):
                rows = [list(line) for line in grid]
                free = [row for row in range(height) if rows[row][column] == 0]
                if not free:
                    continue
                rows[free[0]][column] = player
                reached.add(tuple(tuple(line) for line in rows))
        counts.append(len(reached))
        frontier = {
            grid
            for grid in reached
            if not naive_has_line(grid, 1, connect)
            and not naive_has_line(grid, 2, connect)
            and any(0 in line for line in grid)
        }
    return counts


def test_published_7x6_counts() -> None:
    assert perft(7) == list(PUBLISHED_7X6[:8])


@pytest.mark.slow
def test_published_7x6_counts_to_ply_8() -> None:
    assert perft(8) == list(PUBLISHED_7X6)  # about a second on a laptop; speed is benchmarks/' business


def test_published_table() -> None:
    assert PUBLISHED_7X6 == (1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275)


@pytest.mark.parametrize(
    ("width", "height", "connect", "depth"),
    [
        (3, 3, 3, 9),  # the whole game: wins from ply 5, so terminal positions must not be expanded
        (4, 3, 3, 12),  # the whole game, and some columns fill before the board does
        (3, 2, 2, 6),  # connect 2: wins at ply 3
        (1, 5, 2, 5),  # one column: alternating stones never make two in a row, the board fills
        (6, 1, 3, 6),  # one row: only horizontal lines
        (5, 4, 4, 8),
        (4, 5, 3, 7),
        (10, 3, 3, 4),  # wider than 9, and wins along diagonals that cross many columns
        (3, 9, 3, 7),  # taller than wide: the column stride is 10 bits
    ],
)
def test_small_boards_match_a_naive_enumerator(width: int, height: int, connect: int, depth: int) -> None:
    assert perft(depth, width, height, connect) == naive_perft(depth, width, height, connect)


def test_counts_end_in_zeros_once_every_game_is_over() -> None:
    counts = perft(12, 3, 3, 3)
    assert counts == naive_perft(12, 3, 3, 3)
    assert counts[9:] == [counts[9], 0, 0, 0]
    assert counts[9] > 0  # some 3x3 games fill the board without a line


def test_depth_zero_and_progress() -> None:
    assert perft(0) == [1]
    reports: list[tuple[int, int]] = []
    counts = perft(4, 5, 4, 3, progress=lambda ply, count: reports.append((ply, count)))
    assert reports == list(enumerate(counts))


@pytest.mark.parametrize("depth", [-1, 2.0, "3", None, True])
def test_bad_depth(depth: object) -> None:
    with pytest.raises(ValueError, match="depth"):
        perft(depth)  # type: ignore[arg-type]


def test_bad_size() -> None:
    with pytest.raises(BoardSizeError):
        perft(2, width=0)
    with pytest.raises(ConnectError):
        perft(2, width=3, height=3, connect=4)
