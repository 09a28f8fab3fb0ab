"""The exact solver's steps on bitboards in Python: a move played, a move that wins, the first legal
column."""

from __future__ import annotations

from c4engine.board import Board

__all__ = ["first_legal", "is_winning", "play"]


def play(current: int, mask: int, column: int, board: Board) -> tuple[int, int] | None:
    """(current, mask) after the side to move plays ``column``, None if it is full."""
    geometry = board.geometry
    if mask & geometry.top_of(column):
        return None
    new_mask = mask | geometry.drop(mask, column)
    return current ^ mask, new_mask


def is_winning(current: int, mask: int, column: int, board: Board) -> bool:
    from c4engine.lines import has_line

    geometry = board.geometry
    stones = current | geometry.drop(mask, column)
    return has_line(stones, geometry.height, geometry.connect)


def first_legal(mask: int, board: Board) -> int | None:
    for column in board.geometry.center_order:
        if not mask & board.geometry.top_of(column):
            return column
    return None
