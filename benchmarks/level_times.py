"""Seconds a move of every level on the standard and the big boards: a Markdown table.

    PYTHONPATH=src python benchmarks/level_times.py --games 2 > level-times.md

Each level plays ``--games`` games (colours alternate, ``--random-plies``
seeded random opening moves first) against one opponent that answers fast
on every board, ``depth=4,evaluator=areas,time=0.5`` by default, on 7x6
and 8x7 connect 4 and 9x7 connect 5.  Every move of the level is timed,
wall clock and CPU, and the table gives their median and maximum, how many
moves the level's time budget cut short (its search was stopped), and how
many were proved by the book or the solver instead of searched.  Compiled
code is loaded before the clock runs (one untimed move on each board).

``hint`` (in ``--players``) is the terminal's hint: the analysis service's
best move in ``HINT_SECONDS`` (:mod:`c4engine.cli.terminal`).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import sys
import time
from dataclasses import dataclass, field

from c4engine.board import Board
from c4engine.cli.terminal import HINT_SECONDS
from c4engine.play.levels import LEVELS
from c4engine.play.players import AnalystPlayer, EnginePlayer, parse_agent
from c4engine.player import Player
from c4engine.search.limit import Limit

BOARDS = ((7, 6, 4), (8, 7, 4), (9, 7, 5))


@dataclass
class Row:
    """The timed moves of one level on one board."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    stopped: int = 0
    proved: int = 0
    depths: list[int] = field(default_factory=list)
    points: float = 0.0


HINT = "hint"


def make_player(name: str, seed: int) -> EnginePlayer | AnalystPlayer:
    """Level ``name`` (a number) or the terminal's hint (:data:`HINT`)."""
    if name == HINT:
        return AnalystPlayer(Limit(time=HINT_SECONDS))
    return EnginePlayer(level=int(name), seed=seed)


def play(name: str, size: tuple[int, int, int], games: int, opponent: str, plies: int, seed: int) -> Row:
    """``games`` games of player ``name`` against ``opponent`` on a board of ``size``; its moves timed."""
    row = Row()
    for game in range(games):
        rng = random.Random(f"{seed}-{name}-{size}-{game}")
        player = make_player(name, rng.randrange(2**32))
        other = parse_agent(opponent, seed=rng.randrange(2**32))
        board = Board(*size)
        while board.move_count < plies and not board.is_over:
            board.play(rng.choice(board.legal_moves()))
        level_moves_first = (game % 2 == 0) == (board.move_count % 2 == 0)
        while not board.is_over:
            if (board.move_count % 2 == 0) != level_moves_first:
                board.play(other.choose_move(board.copy()))
                continue
            wall, cpu = time.perf_counter(), time.process_time()
            column = player.choose_move(board.copy())
            row.wall.append(time.perf_counter() - wall)
            row.cpu.append(time.process_time() - cpu)
            last = player.last
            if isinstance(player, AnalystPlayer):
                if last is not None and last.proven:
                    row.proved += 1
                elif last is not None and last.stopped is not None:
                    row.stopped += 1
            elif last is not None and last.source == "engine":
                row.stopped += last.stopped is not None
                row.depths.append(last.depth or 0)
            elif last is not None and last.proven:  # the book's or the solver's proof
                row.proved += 1
            board.play(column)
        if board.winner is None:
            row.points += 0.5
        elif (board.winner is Player.FIRST) == level_moves_first:
            row.points += 1
    return row


def warm_up() -> None:
    """One move of the top level on each board, so that compiling and loading kernels is not timed."""
    for size in BOARDS:
        EnginePlayer(level=len(LEVELS), seed=0).choose_move(Board.from_moves("4453", *size))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games per level and board (default 2)")
    parser.add_argument("--opponent", default="depth=4,evaluator=areas,time=0.5")
    parser.add_argument("--random-plies", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--players", nargs="+", default=[*(str(entry.number) for entry in LEVELS), HINT], help="levels, hint"
    )
    parser.add_argument(
        "--boards", nargs="+", default=[f"{w}x{h}c{n}" for w, h, n in BOARDS], help="WxHcN boards"
    )
    args = parser.parse_args()
    boards = [tuple(int(part) for part in re.split("[xc]", board)) for board in args.boards]
    warm_up()
    print(f"load average before: {' '.join(f'{load:.2f}' for load in os.getloadavg())}", file=sys.stderr)
    lines = [
        "| board | player | moves | wall s median / max | CPU s median / max | budget hit | proved "
        "| depth median (min-max) | score vs opponent |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for width, height, connect in boards:
        for name in args.players:
            row = play(
                name, (width, height, connect), args.games, args.opponent, args.random_plies, args.seed
            )
            depths = (
                f"{statistics.median(row.depths):g} ({min(row.depths)}-{max(row.depths)})"
                if row.depths
                else "-"
            )
            lines.append(
                f"| {width}x{height} c{connect} | {name} | {len(row.wall)} "
                f"| {statistics.median(row.wall):.3f} / {max(row.wall):.3f} "
                f"| {statistics.median(row.cpu):.3f} / {max(row.cpu):.3f} "
                f"| {row.stopped} | {row.proved} | {depths} | {row.points:g}/{args.games} |"
            )
            print(lines[-1], file=sys.stderr, flush=True)
    print(f"load average after: {' '.join(f'{load:.2f}' for load in os.getloadavg())}", file=sys.stderr)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
