"""The exact solver on two threads against one: whole ``c4 solve`` processes, interleaved.

One command measures issue 28's goals on a quiet machine (nothing else running):

    .venv/bin/python benchmarks/threads.py --rounds 5            # about 3 minutes
    .venv/bin/python benchmarks/threads.py --rounds 3 --strong   # and the strong empty board (~50 s a run)
    .venv/bin/python benchmarks/threads.py --check 100           # answers: 2 threads against the sets' scores

Each round runs every case with ``--threads 2`` and then with ``--threads 1``
(``c4 solve --no-book``, a fresh process each, after one untimed solve so
that the compiled kernel is cached), so a change in the machine's load hits both
alike.  The cases: the first 5 positions of ``Test_L1_R3`` (one process,
positions on standard input, as ``c4 solve`` scores a file), the weak solve
of the empty board and, with ``--strong``, its strong solve.  Per case and
thread count it prints the median wall and CPU seconds (user + sys of the
child), the wall ratio 2 threads / 1 thread against the goal, the nodes in
all and per thread (from one more run of each position alone, which prints
them), and each run's load average before and after: a load above 0.5
before a run means the numbers are not a quiet machine's.  Then, per case,
each round's ratio, and which rounds the machine did not give two cores:
the two threads took more than :data:`CONTENDED_CPU` times one thread's CPU
for about the same nodes (a VM's cores slowing each other down), with the
median ratio of the other rounds.

``--check N`` solves the first N positions of each of the six published
sets with ``--threads 2`` and compares every score with the set's (the full
sets: ``--check 1000``; the set ``Test_L1_R3`` alone takes about half an hour).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

SETS = Path(__file__).resolve().parent.parent / "src" / "c4engine" / "data" / "pons"
ALL_SETS = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3")
GOALS = {"Test_L1_R3 first 5": 0.65, "weak empty board": 0.6}
CONTENDED_CPU = 1.2
"""A round whose two threads took more than this times one thread's CPU ran on contended cores: two
threads search only 3-8 % more nodes than one (docs/benchmarks-log.md)."""
WARM_UP = "2252576253462244111563365343671351441"
"""A position solved in a few nodes: loads (or first compiles) the kernel before any run is timed."""
_NODES = re.compile(r"^nodes: (\d+)(?: \(per thread: ([\d +]+)\))?", re.MULTILINE)


@dataclass
class Case:
    name: str
    args: list[str]
    stdin: str | None = None
    positions: list[str] = field(default_factory=list)
    """Positions solved one by one for the node counts (``c4 solve`` prints them for one position)."""


@dataclass
class Runs:
    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    loads: list[tuple[float, float]] = field(default_factory=list)


def _c4(args: list[str], stdin: str | None = None) -> tuple[str, float, float]:
    """Output, wall and CPU (user + sys) seconds of one ``python -m c4engine ARGS``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "c4engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=dict(os.environ, NO_COLOR="1"),
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"c4 {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout, wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def _first_positions(name: str, count: int) -> list[tuple[str, int]]:
    lines = (SETS / name).read_text().splitlines()[:count]
    return [(moves, int(score)) for moves, score in (line.split() for line in lines)]


def _cases(strong: bool) -> list[Case]:
    hard = [moves for moves, _ in _first_positions("Test_L1_R3", 5)]
    cases = [
        Case("Test_L1_R3 first 5", ["solve", "--no-book"], "\n".join(hard) + "\n", hard),
        Case("weak empty board", ["solve", "--no-book", "--weak", ""], positions=[""]),
    ]
    if strong:
        cases.append(Case("strong empty board", ["solve", "--no-book", ""], positions=[""]))
    return cases


def _nodes(case: Case, threads: int) -> tuple[int, list[int]]:
    """Nodes in all and per thread, summed over the case's positions solved one by one."""
    total, per_thread = 0, [0] * threads
    weak = ["--weak"] if "--weak" in case.args else []
    for position in case.positions:
        out, _, _ = _c4(["solve", "--no-book", *weak, "--threads", str(threads), position])
        match = _NODES.search(out)
        if match is None:
            raise SystemExit(f"no node count in: {out}")
        total += int(match.group(1))
        split = [int(n) for n in match.group(2).split(" + ")] if match.group(2) else [int(match.group(1))]
        per_thread = [a + b for a, b in zip(per_thread, split + [0] * (threads - len(split)), strict=True)]
    return total, per_thread


def measure(rounds: int, strong: bool) -> None:
    cases = _cases(strong)
    counts = (2, 1)
    runs = {(case.name, n): Runs() for case in cases for n in counts}
    print(f"load average at the start: {os.getloadavg()[0]:.2f} (quiet: below 0.5)", flush=True)
    _c4(["solve", "--no-book", WARM_UP])  # untimed: the compiled kernel and its library cached
    for round_number in range(1, rounds + 1):
        for case in cases:
            for threads in counts:
                load_before = os.getloadavg()[0]
                _, wall, cpu = _c4([*case.args, "--threads", str(threads)], case.stdin)
                record = runs[(case.name, threads)]
                record.walls.append(wall)
                record.cpus.append(cpu)
                record.loads.append((load_before, os.getloadavg()[0]))
                print(
                    f"round {round_number} {case.name:<20} threads {threads}: wall {wall:7.2f} s  "
                    f"cpu {cpu:7.2f} s  load {load_before:.2f} -> {os.getloadavg()[0]:.2f}",
                    flush=True,
                )
    print()
    print(f"{'case':<20} {'threads':>7} {'wall':>8} {'cpu':>8} {'ratio':>6} {'goal':>5}  nodes (per thread)")
    for case in cases:
        one = statistics.median(runs[(case.name, 1)].walls)
        for threads in counts:
            record = runs[(case.name, threads)]
            wall = statistics.median(record.walls)
            total, split = _nodes(case, threads)
            goal = GOALS.get(case.name)
            ratio = f"{wall / one:6.2f}" if threads > 1 else f"{'':>6}"
            goal_text = f"{goal:5.2f}" if goal and threads > 1 else f"{'':>5}"
            print(
                f"{case.name:<20} {threads:>7} {wall:7.2f}s {statistics.median(record.cpus):7.2f}s {ratio} "
                f"{goal_text}  {total} ({' + '.join(map(str, split))})"
            )
    print()
    for case in cases:
        one_run, two_run = runs[(case.name, 1)], runs[(case.name, 2)]
        ratios = [two / one for two, one in zip(two_run.walls, one_run.walls, strict=True)]
        contended = [
            number
            for number, (two, one) in enumerate(zip(two_run.cpus, one_run.cpus, strict=True), 1)
            if two > CONTENDED_CPU * one
        ]
        free = [ratio for number, ratio in enumerate(ratios, 1) if number not in contended]
        print(
            f"{case.name}: ratio by round {', '.join(f'{ratio:.2f}' for ratio in ratios)}; "
            f"contended rounds: {', '.join(map(str, contended)) or 'none'}"
            + (f"; median of the others {statistics.median(free):.2f}" if free and contended else "")
        )
    loads = [load for record in runs.values() for pair in record.loads for load in pair]
    print(f"\nload average during the runs: {min(loads):.2f} .. {max(loads):.2f}")


def check(count: int) -> int:
    """Solve the first ``count`` positions of every set with 2 threads; the number of wrong scores."""
    wrong = 0
    for name in ALL_SETS:
        cases = _first_positions(name, count)
        stdin = "\n".join(moves for moves, _ in cases) + "\n"
        out, wall, _ = _c4(["solve", "--no-book", "--threads", "2"], stdin)
        answers = [int(line.split()[-1]) for line in out.splitlines()]
        bad = sum(answer != score for answer, (_, score) in zip(answers, cases, strict=True))
        wrong += bad
        print(f"{name}: {len(cases)} positions, {bad} wrong, {wall:.1f} s", flush=True)
    return wrong


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds of every case (default 5)")
    parser.add_argument("--strong", action="store_true", help="also the strong empty-board solve (~50 s)")
    parser.add_argument("--check", type=int, metavar="N", help="check N positions of each set instead")
    args = parser.parse_args()
    if args.check:
        sys.exit(1 if check(args.check) else 0)
    measure(args.rounds, args.strong)


if __name__ == "__main__":
    main()
