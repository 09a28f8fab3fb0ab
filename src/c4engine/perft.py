"""Perft: how many distinct positions each ply of the game can reach.

The standard check of a move generator.  Unlike chess perft, which counts
move *paths*, Connect-Four positions are counted once however many move
orders reach them (4 then 3 and 3 then 4 give the same board), so each ply is
a set of positions built from the previous one.  A position where the game has
ended (a line, or a full board) is counted at its ply but not played on.

For the standard 7x6 board the counts are published (OEIS A212693):

>>> perft(4)
[1, 7, 49, 238, 1120]
>>> perft(5, width=4, height=4, connect=3)
[1, 4, 16, 52, 160, 436]
"""

from __future__ import annotations

from collections.abc import Callable

from c4engine.geometry import Geometry

__all__ = ["PUBLISHED_7X6", "perft"]

PUBLISHED_7X6: tuple[int, ...] = (1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275)
"""Distinct positions after 0..8 plies on the 7x6 connect-4 board (OEIS A212693)."""

ProgressCallback = Callable[[int, int], None]
"""Called as ``progress(ply, count)`` once each ply has been counted."""


def perft(
    depth: int,
    width: int = 7,
    height: int = 6,
    connect: int = 4,
    *,
    progress: ProgressCallback | None = None,
) -> list[int]:
    """The number of distinct positions after each of 0..``depth`` plies.

    Returns ``depth + 1`` counts; index 0 is the empty board.  Plies past the
    point where every game has ended count 0.  ``progress(ply, count)`` is
    called after each ply, so a long run can report as it goes.

    Raises :class:`ValueError` for a negative or non-integer depth and the
    board's own errors (:class:`~c4engine.errors.BoardSizeError`,
    :class:`~c4engine.errors.ConnectError`) for an impossible size.

    >>> perft(3, width=3, height=3, connect=3)
    [1, 3, 9, 24]
    >>> seen = []
    >>> perft(2, progress=lambda ply, count: seen.append((ply, count)))
    [1, 7, 49]
    >>> seen
    [(0, 1), (1, 7), (2, 49)]
    """
    if isinstance(depth, bool) or not isinstance(depth, int):
        raise ValueError(f"perft depth must be a whole number, not {depth!r}")
    if depth < 0:
        raise ValueError(f"perft depth must be 0 or more, not {depth}")
    geometry = Geometry.of(width, height, connect)

    # A position is one int, ``mask << shift | current`` with ``current`` the
    # stones of the side to move: the pair decodes with one shift and one and,
    # where Board.key() (current + mask) would need a per-column decode.
    shift = width * geometry.column_stride
    low = (1 << shift) - 1
    full = geometry.full
    # Per column: the bottom bit (``mask | (mask + bottom)`` drops a stone, the
    # carry stopping on the column's first empty cell) and the top cell ("full").
    columns = [(geometry.bottom_of(column), geometry.top_of(column)) for column in range(width)]
    # The mover cannot hold a line before their ``connect``-th stone, i.e.
    # before ply 2 * connect - 1: skipping the test there saves most of it early on.
    first_possible_win = 2 * connect - 1
    line_plans = _line_plans(height, connect)

    counts = [1]
    if progress is not None:
        progress(0, 1)
    frontier: set[int] = {0}  # the empty board; a valid size never starts over
    for ply in range(1, depth + 1):
        check_wins = ply >= first_possible_win
        reached: set[int] = set()
        playable: set[int] = set()
        for code in frontier:
            mask = code >> shift
            current = code & low
            # After the move the old opponent is to move: their stones do not change.
            opponent = current ^ mask
            for bottom, top in columns:
                if mask & top:
                    continue
                new_mask = mask | (mask + bottom)
                child = new_mask << shift | opponent
                if child in reached:
                    # Same position by another order: same terminal status, already sorted.
                    continue
                reached.add(child)
                if new_mask == full:
                    continue
                if check_wins:
                    # board.has_line, unrolled: the shift amounts are fixed per board,
                    # and this test is most of perft's time.
                    stones = current | (new_mask ^ mask)
                    for amounts in line_plans:
                        runs = stones
                        for amount in amounts:
                            runs &= runs >> amount
                        if runs:
                            break
                    else:
                        playable.add(child)
                    continue
                playable.add(child)
        counts.append(len(reached))
        if progress is not None:
            progress(ply, len(reached))
        frontier = playable
    return counts


def _line_plans(height: int, connect: int) -> list[tuple[int, ...]]:
    """Per direction, the shifts that find ``connect`` in a row by doubling.

    The same steps as :func:`c4engine.lines.has_line`: ``runs &= runs >> amount``
    for each amount leaves the starts of every run of ``connect``.

    >>> _line_plans(6, 4)
    [(1, 2), (7, 14), (6, 12), (8, 16)]
    """
    plans = []
    for direction in (1, height + 1, height, height + 2):
        amounts = []
        covered = 1
        while covered < connect:
            step = min(covered, connect - covered)
            amounts.append(direction * step)
            covered += step
        plans.append(tuple(amounts))
    return plans
