"""Side-by-side benchmark: c4engine's solver against Pascal Pons' C++ solver, same run, same machine.

Usage::

    PYTHONPATH=src python benchmarks/compare_pons.py --pons /path/to/c4solver [--data DIR] [--pairs 3]

``--pons`` is a ``c4solver`` binary you built yourself from
https://github.com/PascalPons/connect4 (nothing here fetches or builds it);
it runs without an opening book.  Each set is measured ``--pairs`` times,
the two solvers interleaved (Pons, c4engine, Pons, c4engine, ...), so a
change in the machine's load hits both alike; the table gives medians.

Two comparisons, CPU seconds (user + sys) -- the machine may be shared, and
CPU time is the fairer clock then:

* **whole process**: ``c4solver < positions`` against ``python -m c4engine
  solve --no-book --threads 1 --table-mb M < positions``, each a fresh process (start-up,
  reading, solving, printing).  c4engine runs as an installed copy does:
  its bytecode and its compiled kernel cached (one untimed run first, and
  ``PYTHONDONTWRITEBYTECODE`` dropped from the children's environment);
  the kernel comes from its shared library when there is one
  (:mod:`c4engine.kernels.library`), which the table's header tells;
* **kernel alone**: c4engine's ``Solver.solve_many`` (the set's positions in
  one compiled call: the scores ``Solver.solve(best_move=False)`` gives one
  by one, without its per-call cost) timed in this process (the ``Board``
  objects are built before the clock starts) against Pons' process minus
  Pons' start-up (the same binary on empty input: the median of three runs
  in the same round, as a set of a few hundredths of a second is not much
  more than that start-up's own spread; where a round still comes out at
  zero or below, the ratio is that of the medians, marked ``*``).

Both solvers keep their table across the positions of a set, as Pons'
``main`` does; each set starts with a fresh table on both sides.  The load
average is printed before and after every set: a ratio taken with the load
above about 1.2 on this 2-core machine is not a quiet-machine figure.
Without ``--pons`` only c4engine is measured.

Sets and sizes follow Pons' published benchmark: the whole of L3_R1,
L2_R1, L2_R2 and L1_R1, the first 20 positions of L1_R2 and L1_R3 (fewer
with ``--sets Test_L1_R3:5``).
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from c4engine import Board
from c4engine.cli.solve import default_bench_dir
from c4engine.kernels.library import has_library
from c4engine.search.results import DEFAULT_TABLE_MB
from c4engine.search.solver import Solver

SETS = [
    ("Test_L3_R1", None),
    ("Test_L2_R1", None),
    ("Test_L2_R2", None),
    ("Test_L1_R1", None),
    ("Test_L1_R2", 20),
    ("Test_L1_R3", 20),
]


@dataclass
class Runs:
    """CPU seconds of every round of one set (kernel: c4engine in-process, Pons minus start-up)."""

    ours_kernel: list[float] = field(default_factory=list)
    ours_whole: list[float] = field(default_factory=list)
    pons_kernel: list[float] = field(default_factory=list)
    pons_whole: list[float] = field(default_factory=list)
    nodes: int = 0


def read_set(path: Path, limit: int | None) -> list[tuple[str, int]]:
    cases = []
    for line in path.read_text().splitlines():
        if line.strip():
            moves, score = line.split()
            cases.append((moves, int(score)))
    return cases[:limit] if limit else cases


def run_process(command: list[str], cases: list[tuple[str, int]]) -> tuple[float, int]:
    """(CPU seconds, correct scores) of one process answering 'POSITION SCORE' lines for the positions."""
    stdin = "".join(moves + "\n" for moves, _ in cases)
    environment = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, input=stdin, capture_output=True, text=True, check=True, env=environment)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    scores = [int(line.split()[1]) for line in done.stdout.splitlines() if line.strip()]
    correct = sum(got == want for got, (_, want) in zip(scores, cases, strict=False))
    return cpu, correct


def run_ours(solver: Solver, cases: list[tuple[str, int]]) -> tuple[float, int, int]:
    """(CPU seconds, correct, nodes) of the solves alone, in this process."""
    solver.reset()
    boards = [Board.from_moves(moves) for moves, _ in cases]  # pure-Python rules: not timed
    cpu = time.process_time()
    batch = solver.solve_many(boards)
    cpu = time.process_time() - cpu
    correct = sum(got == want for got, (_, want) in zip(batch.scores, cases, strict=True))
    return cpu, correct, sum(batch.nodes)


def machine() -> str:
    model = platform.processor() or "?"
    try:
        for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
            if line.startswith("Model name"):
                model = line.split(":", 1)[1].strip()
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}"


def commit() -> str:
    try:
        done = subprocess.run(
            ["git", "describe", "--always", "--dirty"],
            capture_output=True,
            text=True,
            cwd=Path(__file__).parent,
        )
    except OSError:
        return "?"
    return done.stdout.strip() or "?"


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def c4_command(table_mb: float) -> list[str]:
    # one thread: Pons' solver has one, and the CPU-time ratio compares like with like
    return [
        sys.executable,
        "-m",
        "c4engine",
        "solve",
        "--no-book",
        "--threads",
        "1",
        "--table-mb",
        f"{table_mb:g}",
    ]


def measure(
    name: str, cases: list[tuple[str, int]], pairs: int, pons: str | None, solver: Solver, table_mb: float
) -> Runs:
    """Interleaved rounds of one set; raises if a solver gets a score wrong."""
    c4 = c4_command(table_mb)
    runs = Runs()
    for _ in range(pairs):
        if pons:
            start = statistics.median(run_process([pons], [])[0] for _ in range(3))  # start-up's noise
            cpu, correct = run_process([pons], cases)
            assert correct == len(cases), f"Pons' solver got {correct}/{len(cases)} on {name}"
            runs.pons_whole.append(cpu)
            runs.pons_kernel.append(cpu - start)
        cpu, correct = run_process(c4, cases)
        assert correct == len(cases), f"c4 solve got {correct}/{len(cases)} on {name}"
        runs.ours_whole.append(cpu)
        cpu, correct, runs.nodes = run_ours(solver, cases)
        assert correct == len(cases), f"c4engine got {correct}/{len(cases)} on {name}"
        runs.ours_kernel.append(cpu)
    return runs


def ratio(ours: list[float], theirs: list[float]) -> str:
    """The median of the rounds' ratios (each round's pair ran back to back).

    Where a round of Pons' kernel time came out at zero or below (a set of
    a few hundredths of a second, within his start-up's spread), the ratio
    of the two medians instead, marked ``*``; ``-`` when even that median
    is not above zero.
    """
    if not theirs:
        return "-"
    if min(theirs) <= 0:
        middle = statistics.median(theirs)
        return f"{statistics.median(ours) / middle:.2f}*" if middle > 0 else "-"
    return f"{statistics.median(a / b for a, b in zip(ours, theirs, strict=True)):.2f}"


def seconds(values: list[float]) -> str:
    return f"{statistics.median(values):.2f}" if values else "-"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pons", help="path of Pons' c4solver binary")
    parser.add_argument("--data", help="directory of the Test_* sets")
    parser.add_argument("--table-mb", type=float, default=DEFAULT_TABLE_MB, help="c4engine's table MiB")
    parser.add_argument("--pairs", type=int, default=3, help="interleaved rounds per set (default 3)")
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
    print(f"date: {time.strftime('%Y-%m-%d %H:%M %Z')}  commit: {commit()}  pairs: {args.pairs}")
    solver = Solver(table_size_mb=args.table_mb)  # builds the kernel's shared library if it can
    kernel = "shared library" if has_library(7, 6, 4) else "numba (no shared library)"
    print(f"table: {solver.table_entries} entries, {solver.table_bytes / 2**20:.0f} MiB; kernel: {kernel}")
    run_process(c4_command(args.table_mb), [("32164625", 11)])  # untimed: writes the bytecode caches
    header = (
        "| set | positions | mean nodes | Mnodes/s | kernel c4engine s | Pons s | ratio "
        "| process c4engine s | Pons s | ratio | load before; after |"
    )
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for name, limit in sets:
        cases = read_set(data / name, limit)
        before = load()
        runs = measure(name, cases, args.pairs, args.pons, solver, args.table_mb)
        label = name if limit is None else f"{name} (first {limit})"
        kernel = statistics.median(runs.ours_kernel)
        rate = runs.nodes / kernel / 1e6 if kernel else 0.0
        print(
            f"| {label} | {len(cases)} | {runs.nodes / len(cases):.0f} | {rate:.2f} "
            f"| {seconds(runs.ours_kernel)} | {seconds(runs.pons_kernel)} "
            f"| {ratio(runs.ours_kernel, runs.pons_kernel)} "
            f"| {seconds(runs.ours_whole)} | {seconds(runs.pons_whole)} "
            f"| {ratio(runs.ours_whole, runs.pons_whole)} | {before}; {load()} |",
            flush=True,
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print("* the ratio of the medians: a round of Pons' kernel time was not above zero")
    print(f"peak memory (this process): {peak:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
