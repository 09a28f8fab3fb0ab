"""Random legal positions for the tests (seeded, so every run sees the same ones)."""

from __future__ import annotations

import random

from c4engine.board import Board


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
