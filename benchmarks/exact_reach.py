"""From how many stones exact answers come within 1 s and 10 s, on the common big boards.

    PYTHONPATH=src python benchmarks/exact_reach.py [--boards 8x8,9x7,10x6,7x9,9x7c5] [--seconds 10]

For each board one game is played by the engine against itself (level 4's
search, its noise seeded, so the positions are a game's, not a random
walk's); then, from the game's late positions to its early ones, two stones
at a time, each position is solved exactly, without the book, by a fresh
analyst (a cold table: no help from the later positions) within
``--seconds`` of wall-clock time.  It stops at the first position not proven
in time.  The row gives, per board, the fewest stones from which every
position measured (from there to the end) was proven within 1 s and within
``--seconds``, and each position's seconds.  One game a board: a rough
figure -- another game's positions can be harder or easier by a few stones
-- and wall-clock seconds, which a loaded machine stretches (say so when
quoting them).  ``src/c4engine/search/solver/reach.py`` holds the figures the
commands quote.
"""

from __future__ import annotations

import argparse
import time

from c4engine.board import Board
from c4engine.play.players import EnginePlayer
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.limit import Limit

BOARDS = "7x6,8x8,9x7,10x6,7x9,9x7c5"


def _game(width: int, height: int, connect: int, seed: int) -> Board:
    board = Board(width, height, connect)
    players = [EnginePlayer(level=4, seed=seed), EnginePlayer(level=4, seed=seed + 1)]
    while not board.is_over:
        board.play(players[board.move_count % 2].choose_move(board))
    return board


def _reach(board: Board, seconds: float) -> tuple[int | None, int | None, list[tuple[int, float | None]]]:
    """(from 1 s, from ``seconds``, [(stones, seconds or None)]) for the positions of ``board``'s game."""
    timed: list[tuple[int, float | None]] = []
    within_one: int | None = None
    within: int | None = None
    one_ok = True
    for stones in range(board.move_count - 2, -1, -2):
        position = Board(board.width, board.height, board.connect)
        for column in board.moves[:stones]:
            position.play(column)
        analyst = Analyst(book=None, table_size_mb=64)
        start = time.perf_counter()
        result = analyst.solve(position, Limit(time=seconds))
        took = time.perf_counter() - start
        proven = result.score is not None and result.score.proven
        timed.append((stones, took if proven else None))
        if not proven:
            break
        within = stones
        if one_ok and took <= 1.0:
            within_one = stones
        else:
            one_ok = False
    return within_one, within, timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", default=BOARDS)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"| board | exact within 1 s from | within {args.seconds:g} s from | seconds by stones |")
    print("|---|---|---|---|")
    for spec in args.boards.split(","):
        size, _, connect = spec.partition("c")
        width, height = (int(part) for part in size.split("x"))
        game = _game(width, height, int(connect or 4), args.seed)
        one, within, timed = _reach(game, args.seconds)
        cells = ", ".join(f"{stones}: {'-' if took is None else f'{took:.2f}'}" for stones, took in timed)
        name = f"{width}x{height}" + (f" connect {connect}" if connect else "")
        print(f"| {name} | {one} stones | {within} stones | {cells} |", flush=True)


if __name__ == "__main__":
    main()
