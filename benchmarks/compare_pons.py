"""Side-by-side benchmark: c4engine's solver against Pascal Pons' C++ solver, same run, same machine.

Usage::

    PYTHONPATH=src python benchmarks/compare_pons.py --pons /path/to/c4solver [--data DIR]

``--pons`` is a ``c4solver`` binary you built yourself from
https://github.com/PascalPons/connect4 (nothing here fetches or builds it);
it runs without an opening book.  Both solvers keep their table across the
positions of a set, as Pons' ``main`` does; each set starts with a fresh
table on both sides.  Times are CPU seconds (user+sys of the child for
Pons, ``process_time`` for c4engine) -- the machine may be shared, and CPU
time is the fairer clock then; wall times are printed too.  Without
``--pons`` only c4engine is measured.

Sets and sizes follow Pons' published benchmark: the whole of L3_R1,
L2_R1, L2_R2 and L1_R1, the first 20 positions of L1_R2 and L1_R3.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

from c4engine import Board
from c4engine.cli.solve import default_bench_dir
from c4engine.search.solver import Solver

SETS = [
    ("Test_L3_R1", None),
    ("Test_L2_R1", None),
    ("Test_L2_R2", None),
    ("Test_L1_R1", None),
    ("Test_L1_R2", 20),
    ("Test_L1_R3", 20),
]


def read_set(path: Path, limit: int | None) -> list[tuple[str, int]]:
    cases = []
    for line in path.read_text().splitlines():
        if line.strip():
            moves, score = line.split()
            cases.append((moves, int(score)))
    return cases[:limit] if limit else cases


def run_pons(binary: str, cases: list[tuple[str, int]]) -> tuple[float, float, int]:
    """(cpu seconds, wall seconds, correct) of one c4solver process over the positions."""
    stdin = "".join(moves + "\n" for moves, _ in cases)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([binary], input=stdin, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    scores = [int(line.split()[1]) for line in done.stdout.splitlines() if line.strip()]
    correct = sum(got == want for got, (_, want) in zip(scores, cases, strict=False))
    return cpu, wall, correct


def run_ours(solver: Solver, cases: list[tuple[str, int]]) -> tuple[float, float, int, int]:
    """(cpu seconds, wall seconds, correct, nodes)."""
    solver.reset()
    boards = [Board.from_moves(moves) for moves, _ in cases]  # pure-Python rules: not timed
    correct = nodes = 0
    cpu = time.process_time()
    start = time.perf_counter()
    for board, (_, want) in zip(boards, cases, strict=True):
        result = solver.solve(board, best_move=False)
        correct += result.score == want
        nodes += result.nodes
    return time.process_time() - cpu, time.perf_counter() - start, correct, nodes


def machine() -> str:
    model = platform.processor() or "?"
    try:
        for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
            if line.startswith("Model name"):
                model = line.split(":", 1)[1].strip()
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pons", help="path of Pons' c4solver binary")
    parser.add_argument("--data", help="directory of the Test_* sets")
    parser.add_argument("--table-mb", type=float, default=64)
    parser.add_argument("--sets", nargs="*", help="only these sets (names like Test_L2_R2 or Test_L1_R3:5)")
    args = parser.parse_args()
    data = default_bench_dir(args.data)
    sets = SETS
    if args.sets:
        sets = []
        for spec in args.sets:
            name, _, count = spec.partition(":")
            sets.append((name, int(count) if count else None))
    print(f"machine: {machine()}")
    print(f"date: {time.strftime('%Y-%m-%d %H:%M')}")
    solver = Solver(table_size_mb=args.table_mb)
    print(f"table: {solver.table_entries} entries, {solver.table_bytes / 2**20:.0f} MiB")
    header = (
        "| set | positions | correct | c4engine cpu s | wall s | mean nodes | knodes/s | Pons cpu s | ratio |"
    )
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for name, limit in sets:
        cases = read_set(data / name, limit)
        pons_cpu = None
        if args.pons:
            pons_cpu, _, pons_correct = run_pons(args.pons, cases)
            assert pons_correct == len(cases), f"Pons' solver got {pons_correct}/{len(cases)} on {name}"
        cpu, wall, correct, nodes = run_ours(solver, cases)
        label = name if limit is None else f"{name} (first {limit})"
        rate = nodes / cpu / 1000 if cpu else 0.0
        pons_text = "-" if pons_cpu is None else f"{pons_cpu:.2f}"
        ratio = "-" if not pons_cpu else f"{cpu / pons_cpu:.2f}"
        print(
            f"| {label} | {len(cases)} | {correct} | {cpu:.2f} | {wall:.2f} | {nodes / len(cases):.0f} "
            f"| {rate:.0f} | {pons_text} | {ratio} |",
            flush=True,
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (this process): {peak:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
