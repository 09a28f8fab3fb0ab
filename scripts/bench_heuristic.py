"""Benchmark of the compiled heuristic search (docs/benchmarks-log.md, "Heuristic search").

Run: ``PYTHONPATH=src python scripts/bench_heuristic.py``.  Prints the first
compile time (with an empty numba cache), nodes per second of the kernel and
of the pure-Python search on the same positions at the same depth, and the
worst and mean move time of each level from depth 6 (no noise) over a few self-play games.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import time

from c4engine.board import Board
from c4engine.play.levels import LEVELS
from c4engine.search.engine.evaluators import evaluator_by_name
from c4engine.search.engine.negamax import Engine
from c4engine.search.limit import Limit


def compile_time() -> float:
    """Seconds for a fresh interpreter to import and run a first kernel search with an empty cache."""
    code = (
        "import time; t = time.perf_counter()\n"
        "from c4engine.board import Board; from c4engine.search.engine.negamax import Engine\n"
        "from c4engine.search.limit import Limit\n"
        "Engine(limit=Limit(depth=3)).search(Board.from_moves('4453'))\n"
        "print(time.perf_counter() - t)\n"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        cold = float(
            subprocess.run(
                [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
            ).stdout
        )
        warm = float(
            subprocess.run(
                [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
            ).stdout
        )
    print(f"first search, empty numba cache: {cold:.1f} s; next interpreter (cached): {warm:.2f} s")
    return cold


def positions(count: int) -> list[Board]:
    rng = random.Random(1)
    boards: list[Board] = []
    while len(boards) < count:
        board = Board()
        for _ in range(rng.randint(4, 16)):
            if board.is_over:
                break
            board.play(rng.choice(board.legal_moves()))
        if not board.is_over and not board.winning_columns() and not board.winning_columns(board.turn.other):
            boards.append(board)
    return boards


def nodes_per_second() -> None:
    boards = positions(12)
    print("| depth | search | nodes | CPU s | nodes/s | kernel speed-up (nodes/s) | (time) |")
    print("|---|---|---|---|---|---|---|")
    for depth in (5, 6, 7):
        rows = {}
        for use_kernel in (False, True):
            engine = Engine(limit=Limit(depth=depth), use_kernel=use_kernel, center_first_move=False)
            nodes = 0
            cpu = 0.0
            for board in boards:
                result = engine.search(board)
                nodes += result.nodes
                cpu += result.cpu_time
            rows[use_kernel] = nodes, cpu
        (slow_nodes, slow_cpu), (fast_nodes, fast_cpu) = rows[False], rows[True]
        ratio = (fast_nodes / fast_cpu) / (slow_nodes / slow_cpu)
        print(f"| {depth} | Python | {slow_nodes} | {slow_cpu:.3f} | {slow_nodes / slow_cpu:,.0f} | | |")
        print(
            f"| {depth} | kernel | {fast_nodes} | {fast_cpu:.3f} | {fast_nodes / fast_cpu:,.0f} "
            f"| {ratio:.0f}x | {slow_cpu / fast_cpu:.0f}x |"
        )


def levels(games: int = 3) -> None:
    print("| level | depth | moves | worst move s | mean move s | nodes/s |")
    print("|---|---|---|---|---|---|")
    for entry in LEVELS:
        depth = entry.limit.depth
        if depth is None or depth < 6:  # shallow levels take well under a millisecond a move
            continue
        worst = total = 0.0
        moves = nodes = 0
        for game in range(games):
            rng = random.Random(game)
            board = Board()
            for _ in range(2):  # two random opening moves, for variety
                board.play(rng.choice(board.legal_moves()))
            # one engine a game, as EnginePlayer keeps it
            engine = Engine(evaluator_by_name(entry.evaluator), Limit(depth=depth))
            while not board.is_over:
                result = engine.search(board)
                worst = max(worst, result.cpu_time)
                total += result.cpu_time
                moves += 1
                nodes += result.nodes
                assert result.move is not None
                board.play(result.move)
        print(
            f"| {entry.number} | {depth} | {moves} | {worst:.3f} | {total / moves:.4f} "
            f"| {nodes / total:,.0f} |"
        )


if __name__ == "__main__":
    start = time.perf_counter()
    compile_time()
    Engine(limit=Limit(depth=3)).search(Board.from_moves("4453"))
    nodes_per_second()
    levels()
    print(f"({time.perf_counter() - start:.0f} s)")
