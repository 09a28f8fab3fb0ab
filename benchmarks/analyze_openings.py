"""``c4 analyze`` of random opening positions: is every column's score exact, and how fast?

Samples ``--positions`` distinct positions of ``--stones`` stones on 7x6
(random legal moves from the empty board, seeded) and runs
``python -m c4engine analyze MOVES --time T`` on each in a fresh process, as
a user would.  Per position it records the wall time of the whole command,
the time the command reports for its analysis, where the answer came from
(``book``, ``solver``, ``engine``) and whether every column's score is
exact (no ``~`` estimate).  The goal of issue 14: every position of up to
6 stones exact in under 0.5 s, which needs the scores of all their
children -- a full depth-7 book.

    python benchmarks/analyze_openings.py --stones 6 --positions 100 --time 2
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import time

from c4engine.board import Board
from c4engine.search.book.file import OpeningBook, default_book_path

GOAL_S = 0.5


def sample_positions(stones: int, count: int, seed: int) -> list[str]:
    """``count`` distinct move strings of ``stones`` random legal moves that leave the game going."""
    rng = random.Random(seed)
    found: dict[str, None] = {}
    attempts = 0
    while len(found) < count:
        attempts += 1
        if attempts > 100 * count:
            raise SystemExit(f"could not find {count} distinct positions of {stones} stones")
        board = Board()
        moves = ""
        for _ in range(stones):
            column = rng.choice(board.legal_moves())
            if board.is_winning_move(column):
                break
            board.play(column)
            moves += str(column + 1)
        else:
            if not board.is_full:
                found[moves] = None
    return list(found)


def analyze(moves: str, time_limit: float) -> tuple[float, float, str, bool]:
    """(wall s of the command, analysis s it reports, source, every score exact)."""
    env = dict(os.environ, NO_COLOR="1")
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "c4engine", "analyze", moves, "--time", str(time_limit)],
        capture_output=True,
        text=True,
        env=env,
    )
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"c4 analyze {moves} failed: {done.stderr.strip()}")
    fields = dict(line.split(": ", 1) for line in done.stdout.splitlines() if ": " in line)
    scores = fields["scores"].split()
    reported = float(fields["nodes"].split("time:")[1].split()[0])
    return wall, reported, fields["source"], not any(s.startswith("~") for s in scores)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--stones", type=int, default=6, help="stones on the board (default 6)")
    parser.add_argument("--positions", type=int, default=100, help="positions to sample (default 100)")
    parser.add_argument("--time", type=float, default=2.0, help="c4 analyze --time for each (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    book = OpeningBook.open(default_book_path(7, 6, 4))
    positions = sample_positions(args.stones, args.positions, args.seed)
    print(f"machine: {platform.machine()}  load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"book: {book!r}")
    rows = []
    for moves in positions:
        wall, reported, source, exact = analyze(moves, args.time)
        rows.append((wall, reported, source, exact, moves))
    print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    walls = sorted(row[0] for row in rows)
    exact = [row for row in rows if row[3]]
    in_goal = [row for row in exact if row[0] < GOAL_S]
    sources: dict[str, int] = {}
    for row in rows:
        sources[row[2]] = sources.get(row[2], 0) + 1
    print(
        f"{len(rows)} positions of {args.stones} stones (seed {args.seed}): exact {len(exact)}, "
        f"exact in under {GOAL_S} s wall {len(in_goal)}; sources {sources}"
    )
    print(
        f"wall: median {statistics.median(walls):.3f} s, max {walls[-1]:.3f} s; "
        f"reported analysis: median {statistics.median(r[1] for r in rows):.3f} s"
    )
    slow = sorted((row for row in rows if not (row[3] and row[0] < GOAL_S)), reverse=True)
    for wall, reported, source, is_exact, moves in slow[:10]:
        kind = "exact" if is_exact else "estimate"
        print(f"  {moves}: {wall:.3f} s wall, {reported:.3f} s analysis, {source}, {kind}")


if __name__ == "__main__":
    main()
