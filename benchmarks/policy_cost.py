"""CPU seconds of the perfect player's searched moves, by ply: the basis of a policy book's CPU-hour estimate.

A policy book (``c4 book build --policy``) stores the perfect player's own
move at each of its turns; each such position costs what the player's move
costs there without the policy: the score (from the book at its last ply,
else one null-window search from the score its previous move kept, or a
solve after a mistaken reply) and the centre-first tests of its moves.  This
plays games with the shipped book -- the perfect player against random
replies, as first player from a random 2-ply opening or as second player --
and times each of its searched moves with an emptied table (cold: an upper
estimate -- a builder worker keeps its table across neighbouring positions).

    .venv/bin/python benchmarks/policy_cost.py --games 6 --last-ply 9
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict

from c4engine.board import Board
from c4engine.play.perfect import PerfectPlayer
from c4engine.search.limit import UNLIMITED


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=6, help="games per side")
    parser.add_argument("--last-ply", type=int, default=9, help="stop a game after this ply")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--table-mb", type=float, default=64)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    times: dict[int, list[float]] = defaultdict(list)
    for game in range(2 * args.games):
        player = PerfectPlayer(limit=UNLIMITED, table_size_mb=args.table_mb)
        board = Board()
        opening = 2 if game % 2 == 0 else 1  # first player from a 2-ply opening; second player
        for _ in range(opening):
            board.play(rng.choice(board.legal_moves()))
        ours = board.turn
        while not board.is_over and board.move_count <= args.last_ply:
            if board.turn is ours:
                player.analyst.solver.reset()
                start = time.process_time()
                column = player.choose_move(board.copy())
                assert player.last is not None
                if player.last.source == "solver":
                    times[board.move_count].append(time.process_time() - start)
            else:
                column = rng.choice(board.legal_moves())
            board.play(column)
    print("| ply | searched moves | mean CPU s | median | max |")
    print("|---|---|---|---|---|")
    for ply in sorted(times):
        found = times[ply]
        print(
            f"| {ply} | {len(found)} | {statistics.mean(found):.2f} | {statistics.median(found):.2f} | "
            f"{max(found):.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
