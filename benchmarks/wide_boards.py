"""Boards beyond 64 bits: c4engine against independent scores (tests/data) and published empty boards.

Usage::

    PYTHONPATH=src python benchmarks/wide_boards.py \\
        --reference 10x6=/path/to/steininger_10x6 [--reference 8x8=...] [--reference 9x7=...] \\
        [--sizes 10x6] [--stages mid deep] [--pairs 3] [--threads 1] [--limit 10]
    PYTHONPATH=src python benchmarks/wide_boards.py --outcomes [5x12 11x5 ...] [--timeout 600] [--weak]

The first form solves ``tests/data/wide_{SIZE}_{STAGE}.txt`` (positions on
10x6, 8x8 and 9x7 scored by Christophe Steininger's solver; their README says
how; the stages: ``end`` 6-20 empty cells, ``mid`` 16-20 stones, ``deep``
12-16) with ``c4 solve --size SIZE --no-book`` in batch, whole processes, each
set interleaved ``--pairs`` times with the reference built for that size --
``benchmarks/compare_reference.py`` measures, checks every score and prints
its table, once per size.  ``--reference SIZE=COMMAND`` gives a size's
reference (a batch program in the published protocol that reads the files'
notation, e.g. the Steininger batch driver built with that board size); a
size without one is c4engine alone against the files' scores.  The comparison
of issue 34 (10x6 mid-game, wall time, against the reference on the same
cores) is ``--sizes 10x6 --stages mid``.

The second form solves the empty board of each board of
``tests/data/wide_board_outcomes.csv`` named (default: every one) once, strong
(``--weak``: win / draw / loss), and checks the score against the published
outcome; a solve still running after ``--timeout`` seconds is stopped and
reported as not finished.

Either stops at once with one line when c4engine cannot solve a size (a board
its exact solver does not hold), and exits 1 when a score is wrong.
"""

from __future__ import annotations

import argparse
import csv
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the sibling script, loaded by name
import compare_reference

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
SIZES = ("10x6", "8x8", "9x7")
STAGES = ("end", "mid", "deep")
OUTCOMES = DATA / "wide_board_outcomes.csv"


@dataclass(frozen=True)
class Outcome:
    """A board's published result: the empty board's score for the first player and where it is from."""

    size: str
    outcome: str
    score: int
    source: str


def set_file(size: str, stage: str) -> Path:
    """The data file of a board size and stage.

    >>> set_file("10x6", "mid").name
    'wide_10x6_mid.txt'
    """
    return DATA / f"wide_{size}_{stage}.txt"


def references_by_size(specs: Sequence[str]) -> dict[str, str]:
    """``SIZE=COMMAND`` options as a map from size to command.

    >>> references_by_size(["10x6=/st/st_10x6 -q", "8x8=/st/st_8x8"])
    {'10x6': '/st/st_10x6 -q', '8x8': '/st/st_8x8'}
    """
    found: dict[str, str] = {}
    for spec in specs:
        size, equals, command = spec.partition("=")
        if not equals or not command.strip() or "x" not in size:
            raise SystemExit(f"--reference {spec!r}: expected SIZE=COMMAND, e.g. 10x6=/path/to/st_10x6")
        found[size] = command
    return found


def compare_arguments(
    size: str,
    stages: Sequence[str],
    reference: str | None,
    pairs: int,
    threads: int | None,
    limit: int | None,
) -> list[str]:
    """The command line of ``compare_reference.py`` for one size.

    >>> compare_arguments("10x6", ["mid"], "/st/st_10x6", 3, 1, None)[:4]
    ['--size', '10x6', '--pairs', '3']
    >>> compare_arguments("10x6", ["mid"], None, 3, None, 5)[-1].endswith("wide_10x6_mid.txt:5")
    True
    """
    suffix = f":{limit}" if limit else ""
    arguments = ["--size", size, "--pairs", str(pairs)]
    if threads is not None:
        arguments += ["--threads", str(threads)]
    if reference is not None:
        arguments += ["--reference", f"steininger-{size}={reference}"]
    return [*arguments, "--sets", *(f"{set_file(size, stage)}{suffix}" for stage in stages)]


def read_outcomes(path: Path = OUTCOMES) -> list[Outcome]:
    """The published results of ``wide_board_outcomes.csv``."""
    with path.open(newline="") as handle:
        return [
            Outcome(row["size"], row["outcome"], int(row["score"]), row["source"])
            for row in csv.DictReader(handle)
        ]


def solve_empty(outcome: Outcome, weak: bool, threads: int | None, timeout: float) -> int:
    """Solve one empty board, print a line with its time; 1 when the score is wrong, else 0.

    Stops the benchmark with one line when c4engine fails outright (a board it does not hold).
    """
    command = compare_reference.c4engine_command(threads, weak, None, outcome.size)
    start = time.perf_counter()
    try:
        done = subprocess.run(command, input="\n", capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        print(f"{outcome.size}: not finished in {timeout:g} s (published: {outcome.outcome})", flush=True)
        return 0
    wall = time.perf_counter() - start
    score = compare_reference.text_score(done.stdout)
    if done.returncode or score is None:
        complaints = done.stderr.strip().splitlines()
        reason = complaints[-1] if complaints else "no score"
        raise SystemExit(f"c4engine cannot solve the empty {outcome.size} board: {reason}")
    right = compare_reference.agree(score, outcome.score, weak)
    print(
        f"{outcome.size}: {score} in {wall:.1f} s, published {outcome.score} ({outcome.outcome}, "
        f"{outcome.source}){'' if right else '  **WRONG**'}",
        flush=True,
    )
    return 0 if right else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", action="append", default=[], metavar="SIZE=COMMAND")
    parser.add_argument("--sizes", nargs="*", default=list(SIZES), help=f"boards (default {' '.join(SIZES)})")
    parser.add_argument("--stages", nargs="*", default=list(STAGES), choices=STAGES, help="files per board")
    parser.add_argument("--pairs", type=int, default=3, help="interleaved rounds per file (default 3)")
    parser.add_argument("--threads", type=int, help="c4engine's threads (default: its own)")
    parser.add_argument("--limit", type=int, help="only the first N positions of each file")
    parser.add_argument("--outcomes", nargs="*", metavar="SIZE", help="solve these empty boards instead")
    parser.add_argument("--weak", action="store_true", help="--outcomes: win / draw / loss only")
    parser.add_argument("--timeout", type=float, default=600.0, help="--outcomes: seconds a board")
    args = parser.parse_args(argv)
    if args.outcomes is not None:
        published = read_outcomes()
        known = {outcome.size: outcome for outcome in published}
        unknown = [size for size in args.outcomes if size not in known]
        if unknown:
            raise SystemExit(f"no published outcome for {', '.join(unknown)} in {OUTCOMES.name}")
        chosen = [known[size] for size in args.outcomes] if args.outcomes else published
        return max(
            (solve_empty(outcome, args.weak, args.threads, args.timeout) for outcome in chosen), default=0
        )
    references = references_by_size(args.reference)
    unused = [size for size in references if size not in args.sizes]
    if unused:
        raise SystemExit(f"--reference for {', '.join(unused)}, not among --sizes {' '.join(args.sizes)}")
    status = 0
    for size in args.sizes:
        arguments = compare_arguments(
            size, args.stages, references.get(size), args.pairs, args.threads, args.limit
        )
        print(f"== {size}", flush=True)
        status = max(status, compare_reference.main(arguments))
    return status


if __name__ == "__main__":
    sys.exit(main())
