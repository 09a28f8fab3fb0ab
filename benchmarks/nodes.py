"""Nodes the exact solver searches, one thread, no book: what a change to the search saves.

    .venv/bin/python benchmarks/nodes.py Test_L2_R1 Test_L1_R2:50 Test_L1_R3:5 weak strong
    .venv/bin/python benchmarks/nodes.py 10x6=tests/data/wide_10x6_mid.txt 8x8=tests/data/wide_8x8_mid.txt:10

Each argument is a published set (``NAME`` or ``NAME:N`` for its first N
positions, from ``src/c4engine/data/pons``), or a file of the same
``MOVES SCORE`` lines on another board (``WxH=PATH`` or ``WxH=PATH:N``, as
the ones of ``tests/data``), solved strongly in one batch
(``Solver.solve_many``) from an empty table, every score checked against
the set's; or ``weak`` / ``strong``, the empty 7x6 board.  It prints the
nodes, the CPU seconds of the search (the kernel is compiled and loaded
before the clock starts) and the load average at the end.  On one thread
the node count does not depend on the machine or its load, so two checkouts
compare exactly by nodes even on a busy machine; the CPU seconds only on a
quiet one.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from c4engine import Board
from c4engine.search.solver.exact import Solver

DATA = Path(__file__).resolve().parent.parent / "src" / "c4engine" / "data" / "pons"


def _warm_solver(width: int = 7, height: int = 6) -> Solver:
    """A one-thread solver whose kernel for boards of ``width`` x ``height`` is loaded, with an
    empty table."""
    solver = Solver(threads=1)
    solver.solve(Board.from_moves([3, 3, 4, 4], width, height), best_move=False)
    solver.reset()
    return solver


def solve_set(name: str, limit: int | None) -> tuple[int, float, int]:
    """(nodes, CPU seconds, wrong scores) of the set's first ``limit`` positions (all when None):
    a published set's ``NAME``, or ``WxH=PATH``."""
    size, _, path = name.rpartition("=")
    width, height = (int(side) for side in size.split("x")) if size else (7, 6)
    text = Path(path).read_text() if size else (DATA / name).read_text()
    lines = [line.split() for line in text.splitlines() if line.strip()][:limit]
    boards = [Board.from_moves(moves, width, height) for moves, _ in lines]
    solver = _warm_solver(width, height)
    start = time.process_time()
    result = solver.solve_many(boards)
    seconds = time.process_time() - start
    wrong = sum(score != int(expected) for (_, expected), score in zip(lines, result.scores, strict=True))
    return sum(result.nodes), seconds, wrong


def solve_empty(weak: bool) -> tuple[int, float, int]:
    """(nodes, CPU seconds, score) of the empty 7x6 board."""
    solver = _warm_solver()
    start = time.process_time()
    result = solver.solve(Board(), weak=weak, best_move=False)
    return result.nodes, time.process_time() - start, result.score


def main(arguments: list[str]) -> int:
    """Measure each argument in turn; non-zero when a score is wrong."""
    failed = False
    for what in arguments:
        if what in ("weak", "strong"):
            nodes, seconds, score = solve_empty(what == "weak")
            print(f"empty {what:<14} nodes {nodes:>13,}  cpu {seconds:8.2f} s  score {score}", flush=True)
            failed |= score != 1
        else:
            name, _, limit = what.partition(":")
            nodes, seconds, wrong = solve_set(name, int(limit) if limit else None)
            print(f"{what:<20} nodes {nodes:>13,}  cpu {seconds:8.2f} s  wrong {wrong}", flush=True)
            failed |= wrong > 0
    print("load average at the end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
