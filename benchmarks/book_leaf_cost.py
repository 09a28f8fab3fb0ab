"""CPU seconds to solve a book leaf, by ply: the basis of a book's CPU-hour estimate.

Samples positions uniformly from the enumerated leaves of each ply (every
position not over, one per mirror pair, as the builder solves them), solves
each with a fresh table (cold: an upper estimate -- a builder worker keeps its
table across sibling leaves) and prints per ply: leaves, sample, mean and
median CPU seconds, and leaves x mean as CPU-hours.

    .venv/bin/python benchmarks/book_leaf_cost.py --plies 6 8 10 --sample 10
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from c4engine.board import Board
from c4engine.experiments.book_builder import enumerate_positions
from c4engine.search.solver.exact import Solver

# Positions per ply that the enumeration would take too long to count here
# (7x6, not over, one per mirror pair); from `c4 perft` counts halved, rounded.
_ESTIMATED = {9: 276_000, 10: 800_000, 11: 2_200_000, 12: 6_000_000}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--plies", type=int, nargs="+", default=[6, 8, 10])
    parser.add_argument("--sample", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--table-mb", type=float, default=64)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    solver = Solver(table_size_mb=args.table_mb)
    deepest = max(p for p in args.plies if p <= 8) if any(p <= 8 for p in args.plies) else 0
    levels = enumerate_positions(7, 6, 4, deepest)
    print("| ply | leaves | sample | mean CPU s | median CPU s | CPU-hours for the ply |")
    print("|---|---|---|---|---|---|")
    for ply in args.plies:
        if ply < len(levels):
            count = len(levels[ply])
            pool = list(levels[ply].values())
            chosen = [bytes(moves) for _c, _m, moves in rng.sample(pool, args.sample)]
        else:
            count = _ESTIMATED[ply]
            chosen = []
            while len(chosen) < args.sample:  # random games, a stand-in for a uniform sample
                board = Board()
                for _ in range(ply):
                    board.play(rng.choice(board.legal_moves()))
                    if board.is_over:
                        break
                if not board.is_over:
                    chosen.append(bytes(board.moves))
        times = []
        for moves in chosen:
            solver.reset()
            start = time.process_time()
            solver.solve(Board.from_moves(list(moves)), best_move=False)
            times.append(time.process_time() - start)
        mean = statistics.mean(times)
        estimated = "~" if ply >= len(levels) else ""
        print(
            f"| {ply} | {estimated}{count} | {len(times)} | {mean:.2f} | {statistics.median(times):.2f} | "
            f"{estimated}{count * mean / 3600:.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
