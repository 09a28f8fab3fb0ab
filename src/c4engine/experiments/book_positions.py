"""The positions of an opening book: every position of each ply up to a depth, one per mirror pair
(:func:`enumerate_positions`), and their scores backed up from the leaves by negamax (:func:`back_up`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from c4engine.errors import BookError
from c4engine.geometry import Geometry
from c4engine.lines import has_line
from c4engine.search.scale import win_score

__all__ = ["Position", "back_up", "children", "enumerate_positions", "negamax", "win_score_at"]

Position = tuple[int, int, bytes]
"""(current, mask, moves): the side to move's stones, all stones, and a move order reaching them."""


def enumerate_positions(width: int, height: int, connect: int, depth: int) -> list[dict[int, Position]]:
    """The positions of each ply 0..depth that are not over, one per mirror pair, keyed by canonical key.

    Won positions and full boards are left out: their score needs no book.
    Within a ply, positions come in the order they were first reached, so a
    position's children sit together (good for batching: they share subtrees).

    >>> [len(level) for level in enumerate_positions(7, 6, 4, 3)]
    [1, 4, 25, 121]
    """
    geometry = Geometry.of(width, height, connect)
    if depth < 0:
        raise BookError(f"depth must be 0 or more, not {depth}")
    if depth > width * height:
        raise BookError(f"depth {depth} is more than the {width * height} cells of the board")
    levels: list[dict[int, Position]] = [{0: (0, 0, b"")}]
    for _ply in range(depth):
        following: dict[int, Position] = {}
        for current, mask, moves in levels[-1].values():
            for column, child_current, child_mask in children(current, mask, geometry):
                if child_current < 0:
                    continue
                key = child_current + child_mask
                canonical = min(key, geometry.mirror(key))
                if canonical not in following:
                    following[canonical] = (child_current, child_mask, moves + bytes((column,)))
        levels.append(following)
    return levels


def children(current: int, mask: int, geometry: Geometry) -> Iterator[tuple[int, int, int]]:
    """(column, current, mask) per move; current -1 for a move that wins, -2 for one filling the board."""
    for column in range(geometry.width):
        if mask & geometry.top_of(column):
            continue
        stone = geometry.drop(mask, column)
        mover = current | stone
        if has_line(mover, geometry.height, geometry.connect):
            yield column, -1, 0
            continue
        child_mask = mask | stone
        if child_mask == geometry.full:
            yield column, -2, 0
            continue
        yield column, mover ^ child_mask, child_mask


def negamax(current: int, mask: int, geometry: Geometry, win: int, scores: Mapping[int, int]) -> int | None:
    """The position's score from its children's (``scores``, canonical keys); None if one is missing.

    ``win`` is the score of a move that wins at once (it depends on the ply).
    """
    best = -geometry.width * geometry.height
    for _column, child_current, child_mask in children(current, mask, geometry):
        if child_current == -1:
            value = win
        elif child_current == -2:
            value = 0
        else:
            child_key = child_current + child_mask
            found = scores.get(min(child_key, geometry.mirror(child_key)))
            if found is None:
                return None
            value = -found
        best = max(best, value)
    return best


def win_score_at(geometry: Geometry, weak: bool, ply: int) -> int:
    """The score of winning with the stone played at ``ply``."""
    return 1 if weak else win_score(geometry.width * geometry.height, ply)


def back_up(
    levels: Sequence[dict[int, Position]], leaf_scores: dict[int, int], geometry: Geometry, weak: bool
) -> dict[int, int]:
    """Scores of every position of ``levels``: the leaves' from ``leaf_scores``, the rest by negamax."""
    scores = {key: leaf_scores[key] for key in levels[-1]}
    for ply in range(len(levels) - 2, -1, -1):
        win = win_score_at(geometry, weak, ply)
        for key, (current, mask, _moves) in levels[ply].items():
            score = negamax(current, mask, geometry, win, scores)
            if score is None:
                raise KeyError(f"position {key} has a child with no score")
            scores[key] = score
    return scores
