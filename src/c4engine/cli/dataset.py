"""``c4 dataset``: labelled positions for learning, written as CSV or Parquet.

::

    c4 dataset -o train.csv --plies 14-30 --per-ply 100 --seed 1 --workers 2
    c4 dataset -o train.parquet --count 5000 --bias 1    # Parquet needs c4engine[parquet]

Each row is a position reached by seeded random play (distinct up to mirror
image), its exact score and every move's score from the solver; see
:mod:`c4engine.experiments.dataset`.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from c4engine.board import Board
from c4engine.cli.command import Command
from c4engine.cli.options import (
    add_board_options,
    add_progress_option,
    add_table_option,
    add_worker_options,
    check_output_path,
    number,
)
from c4engine.cli.progress import ProgressLine
from c4engine.errors import DatasetError, UnsupportedBoardError, echo, echo_path
from c4engine.experiments.dataset import (
    FORMATS,
    MAX_ATTEMPTS_PER_POSITION,
    MAX_BIAS,
    build_dataset,
    require_pyarrow,
    sample_positions,
    write_dataset,
)
from c4engine.geometry import require_solver_holds
from c4engine.notation import parse_size

__all__ = ["COMMANDS", "DATASET", "MAX_POSITIONS", "SUFFIXES", "parse_plies", "run_dataset"]

MAX_POSITIONS = 10_000_000
"""The most positions one ``c4 dataset`` may ask for."""
SUFFIXES = {".csv": "csv", ".parquet": "parquet", ".pq": "parquet"}
"""The file suffixes that name a format (any other needs ``--format``)."""


def parse_plies(text: str, cells: int | None = None) -> list[int]:
    """Plies from ``"14-30"``, ``"20"`` or a comma list of those (``"8,12-14"``); ``cells``: below that.

    >>> parse_plies("8,12-14")
    [8, 12, 13, 14]
    >>> parse_plies("9-3")
    Traceback (most recent call last):
    ...
    c4engine.errors.DatasetError: --plies '9-3': the range runs backwards
    >>> parse_plies("30-50", cells=42)
    Traceback (most recent call last):
    ...
    c4engine.errors.DatasetError: --plies '30-50': a board of 42 cells has plies 0..41
    """
    plies: set[int] = set()
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        try:
            first = int(low)
            last = int(high) if dash else first
        except ValueError:
            raise DatasetError(
                f"--plies {echo(text)}: write a ply (20), a range (14-30) or a list (8,12-14)"
            ) from None
        if first > last:
            raise DatasetError(f"--plies {echo(text)}: the range runs backwards")
        if cells is not None and not 0 <= first <= last < cells:
            raise DatasetError(f"--plies {echo(text)}: a board of {cells} cells has plies 0..{cells - 1}")
        plies.update(range(first, last + 1))
    return sorted(plies)


def _format(output: Path, chosen: str | None) -> str:
    """``--format``, else the format the suffix of ``-o`` names; a suffix that names none is refused."""
    if chosen is not None:
        return chosen
    suffix = output.suffix.lower()
    if suffix not in SUFFIXES:
        raise DatasetError(
            f"-o {echo_path(output)}: the suffix {echo(suffix)} names no format; "
            "name a .csv or .parquet file, or give --format csv|parquet"
        )
    return SUFFIXES[suffix]


def _dataset_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-o", "--output", required=True, metavar="FILE", help="file to write (.csv or .parquet)"
    )
    parser.add_argument(
        "--format", choices=FORMATS, help="file format (default: from the suffix, .csv or .parquet)"
    )
    add_board_options(parser)
    parser.add_argument(
        "--plies",
        metavar="A-B",
        help="plies to sample, e.g. 14-30 or 8,12-14 (default: a third full to 2 empty)",
    )
    amount = parser.add_mutually_exclusive_group()
    amount.add_argument("--per-ply", type=int, metavar="N", help="N positions at each ply")
    amount.add_argument(
        "--count", type=int, metavar="N", help="N positions in all, plies drawn at random (100)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the random play (default 0)")
    parser.add_argument(
        "--bias",
        type=number(0, MAX_BIAS),
        default=0.0,
        help=f"prefer central columns in the random play (0 = uniform, up to {MAX_BIAS:g})",
    )
    add_worker_options(parser, "the solver", default=0)
    add_table_option(parser, what="solver table")
    add_progress_option(parser)


def run_dataset(args: argparse.Namespace) -> int:
    width, height = parse_size(args.size)
    Board(width, height, args.connect)  # a bad size or connect-N fails before any work
    try:
        require_solver_holds(width, height, "a dataset")
    except UnsupportedBoardError as refused:
        raise DatasetError(str(refused)) from None
    cells = width * height
    if args.plies is not None:
        plies = parse_plies(args.plies, cells)
    else:
        plies = list(range(cells // 3, max(cells // 3, cells - 2) + 1))
    for option, amount in (("--per-ply", args.per_ply), ("--count", args.count)):
        if amount is not None and not 1 <= amount <= MAX_POSITIONS:
            raise DatasetError(f"{option} must be 1..{MAX_POSITIONS}, not {amount}")
    output = check_output_path(args.output, "-o")
    file_format = _format(output, args.format)
    if file_format == "parquet":
        require_pyarrow()  # no pyarrow: say so now, not after the solving
    count = args.count if args.count is not None or args.per_ply is not None else 100
    start = time.perf_counter()
    misses: list[tuple[int, int]] = []
    boards = sample_positions(
        plies,
        per_ply=args.per_ply,
        count=None if args.per_ply is not None else count,
        width=width,
        height=height,
        connect=args.connect,
        seed=args.seed,
        bias=args.bias,
        on_misses=lambda ended, repeats: misses.append((ended, repeats)),
    )
    wanted = args.per_ply * len(plies) if args.per_ply is not None else count
    if not boards:
        asked = echo(args.plies or f"{plies[0]}-{plies[-1]}")
        raise DatasetError(
            f"--plies {asked}: no random game of {MAX_ATTEMPTS_PER_POSITION} per position reached "
            "such a ply unfinished; choose earlier plies"
        )
    if len(boards) < wanted:
        ended, repeats = misses[0]
        print(
            f"c4 dataset: note: {len(boards)} distinct positions of the {wanted} asked: of "
            f"{ended + repeats + len(boards)} random games, {ended} ended before their ply and "
            f"{repeats} repeated a position (or its mirror image)",
            file=sys.stderr,
        )
    with ProgressLine("dataset", len(boards), unit=" positions", enabled=args.progress) as bar:
        rows = build_dataset(
            boards,
            workers=args.workers,
            scheduler=args.scheduler,
            table_size_mb=args.table_mb,
            on_progress=bar.advance,
        )
    write_dataset(rows, output, width=width, format=file_format)
    elapsed = time.perf_counter() - start
    span = f"{plies[0]}-{plies[-1]}"
    print(f"wrote {len(rows)} positions (plies {span}) to {output} ({file_format}), {elapsed:.1f} s")
    return 0


DATASET = Command(
    "dataset",
    summary="write positions labelled with exact scores (CSV/Parquet)",
    description="Sample positions by seeded random play (distinct up to mirror image) and write "
    "each with its exact score and every move's score from the solver: columns moves, ply, "
    "score, score_1..score_W (empty for a full column), best_moves.  Columns count from 1.",
    add_options=_dataset_options,
    run=run_dataset,
)
COMMANDS = (DATASET,)
