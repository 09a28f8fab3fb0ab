"""Move latency of the perfect player, and its results, from the empty 7x6 board.

The perfect player moves first in every game, against a random player and
against the strongest heuristic level; it keeps its solver (and table)
across the games, as a long-running program would.  Against the level,
which is deterministic, the level's first ``--opening-plies`` moves are
random (seeded) so the games differ.  Reported per opponent: games, the
perfect player's wins/draws/losses, moves timed, the median, p95, p99 and
maximum time per move, how many moves were unproven (a time limit stopped
the solver) and where the moves came from (book, solver, immediate win).

    .venv/bin/python benchmarks/perfect_latency.py --games 200
    .venv/bin/python benchmarks/perfect_latency.py --games 4 --time-limit 30 --json out.json
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from c4engine.board import Board, Player
from c4engine.book import OpeningBook, default_book_path
from c4engine.levels import LEVELS
from c4engine.perfect import PerfectPlayer
from c4engine.players import Agent, EnginePlayer, RandomPlayer
from c4engine.progress import Progress


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def _play(
    perfect: PerfectPlayer, opponent: Agent, rng: random.Random, opening: int
) -> tuple[Board, list[float], Counter[str]]:
    board = Board()
    times: list[float] = []
    sources: Counter[str] = Counter()
    opponent_moves = 0
    while not board.is_over:
        if board.turn is Player.FIRST:
            start = time.perf_counter()
            column = perfect.choose_move(board.copy())
            times.append(time.perf_counter() - start)
            assert perfect.last is not None
            sources[perfect.last.source] += 1
        elif opponent_moves < opening:
            column = rng.choice(board.legal_moves())
            opponent_moves += 1
        else:
            column = opponent.choose_move(board.copy())
            opponent_moves += 1
        board.play(column)
    return board, times, sources


def run(opponent_name: str, games: int, perfect: PerfectPlayer, seed: int, opening: int) -> dict[str, object]:
    rng = random.Random(seed)
    wins = draws = losses = 0
    times: list[float] = []
    sources: Counter[str] = Counter()
    unproven_before = perfect.unproven
    distinct: set[str] = set()
    with Progress(games, f"vs {opponent_name}", unit=" games") as bar:
        for game in range(games):
            if opponent_name == "random":
                opponent: Agent = RandomPlayer(seed=seed * 100_000 + game)
                plies = 0
            else:
                opponent = EnginePlayer(level=int(opponent_name), seed=seed * 100_000 + game)
                plies = opening
            board, game_times, game_sources = _play(perfect, opponent, rng, plies)
            distinct.add(board.move_string)
            times += game_times
            sources += game_sources
            wins += board.winner is Player.FIRST
            draws += board.winner is None
            losses += board.winner is Player.SECOND
            bar.advance(note=f"W{wins} D{draws} L{losses}")
    return {
        "opponent": opponent_name,
        "games": games,
        "distinct_games": len(distinct),
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "moves": len(times),
        "median_ms": 1000 * statistics.median(times),
        "p95_ms": 1000 * _percentile(times, 0.95),
        "p99_ms": 1000 * _percentile(times, 0.99),
        "max_ms": 1000 * max(times),
        "unproven": perfect.unproven - unproven_before,
        "sources": dict(sources),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200, help="games per opponent (default 200)")
    parser.add_argument(
        "--opponents",
        default=f"random,{LEVELS[-1].number}",
        help="comma-separated: random and/or level numbers",
    )
    parser.add_argument(
        "--time-limit", type=float, default=None, help="the perfect player's seconds per move"
    )
    parser.add_argument(
        "--table-mb", type=float, default=256, help="the perfect player's table (default 256)"
    )
    parser.add_argument("--book", default=None, help="book file (default: the shipped book)")
    parser.add_argument("--opening-plies", type=int, default=1, help="random first moves of a level opponent")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", default=None, help="write the results here too")
    args = parser.parse_args(argv)
    book_path = Path(args.book) if args.book else default_book_path()
    book = OpeningBook.open(book_path) if book_path else None
    perfect = PerfectPlayer(book=book, time_limit=args.time_limit, table_size_mb=args.table_mb)
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    rows = [
        run(name.strip(), args.games, perfect, args.seed, args.opening_plies)
        for name in args.opponents.split(",")
    ]
    print(f"machine: {platform.machine()} {platform.processor() or ''}  python {sys.version.split()[0]}")
    print(f"commit: {commit}  book: {book!r}  time limit: {args.time_limit}")
    print("| opponent | games (distinct) | W/D/L | moves | median | p95 | p99 | max | unproven | sources |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        print(
            f"| {row['opponent']} | {row['games']} ({row['distinct_games']}) | "
            f"{row['wins']}/{row['draws']}/{row['losses']} | {row['moves']} | {row['median_ms']:.1f} ms | "
            f"{row['p95_ms']:.0f} ms | {row['p99_ms']:.0f} ms | {row['max_ms']:.0f} ms | {row['unproven']} | "
            f"{row['sources']} |"
        )
    if args.json:
        Path(args.json).write_text(json.dumps({"commit": commit, "rows": rows}, indent=2))
    return 0 if all(row["losses"] == 0 for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
