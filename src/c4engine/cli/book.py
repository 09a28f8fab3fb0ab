"""``c4 book``: build, verify and describe opening books.

* ``c4 book build --depth D [-o FILE]`` enumerates, solves the leaves in
  parallel (``--workers``, or a Dask cluster with ``--scheduler``),
  checkpoints to SQLite (``--checkpoint``, default ``FILE.sqlite``) and
  writes the book.  Run it again after an interruption, or with a greater
  depth and the same checkpoint, and it solves only what is missing.
* ``c4 book verify [FILE] --sample N --seed S`` re-solves a random sample of
  entries and lists mismatches (exit 1 if there is any).
* ``c4 book info [FILE]`` prints the header and the entries per ply.

FILE defaults to the book shipped with c4engine for the board.
"""

from __future__ import annotations

import argparse
import os
import random
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
    check_depth,
    check_input_file,
    check_output_path,
    usable_cores,
)
from c4engine.cli.progress import ProgressLine, format_duration
from c4engine.errors import BookError, C4Error
from c4engine.experiments.book_builder import (
    DEFAULT_WORKER_TABLE_MB,
    BuildEstimate,
    LeafProgress,
    PolicySpan,
    build_book,
    default_checkpoint_path,
    solve_positions,
)
from c4engine.geometry import Geometry
from c4engine.notation import parse_size
from c4engine.search.book.file import OpeningBook, board_from_key, default_book_path

__all__ = ["BOOK", "COMMANDS", "LONG_BUILD", "describe_estimate", "run_book"]


def _book_options(parser: argparse.ArgumentParser) -> None:
    """``c4 book``'s actions (``build``, ``verify``, ``info``), each run by ``run_book`` as ``book_run``."""
    actions = parser.add_subparsers(dest="book_command", metavar="ACTION", parser_class=type(parser))
    for action in _ACTIONS:
        action.add_to(actions, handler="book_run")
    parser.set_defaults(book_parser=parser)


def _build_options(build: argparse.ArgumentParser) -> None:
    build.add_argument("--depth", type=int, required=True, help="plies the book covers")
    build.add_argument(
        "-o", "--output", default=None, metavar="FILE", help="book file (default book-WxH-dD.c4b)"
    )
    add_board_options(build)
    build.add_argument("-w", "--weak", action="store_true", help="win/draw/loss only (faster, smaller use)")
    _work_options(build)
    build.add_argument(
        "--checkpoint", default=None, metavar="FILE.sqlite", help="solved positions (default FILE.sqlite)"
    )
    build.add_argument(
        "--batch", type=int, default=None, metavar="N", help="leaves per job (default: automatic)"
    )
    build.add_argument(
        "--policy",
        type=_span,
        action="append",
        default=[],
        metavar="START:END",
        help="also store the perfect player's moves from every START-ply opening, as the side to move "
        "there, up to ply END, beyond DEPTH (repeatable: 2:8 first player, 1:9 second)",
    )


def _verify_options(verify: argparse.ArgumentParser) -> None:
    verify.add_argument("file", nargs="?", help="book file (default: the shipped book for --size)")
    add_board_options(verify)
    verify.add_argument(
        "--sample", type=int, default=100, metavar="N", help="entries to re-solve (default 100)"
    )
    verify.add_argument("--seed", type=int, default=0, help="seed of the sample (default 0)")
    verify.add_argument(
        "--min-ply", type=int, default=0, metavar="P", help="sample only entries with at least P stones"
    )
    _work_options(verify)


def _info_options(info: argparse.ArgumentParser) -> None:
    info.add_argument("file", nargs="?", help="book file (default: the shipped book for --size)")
    add_board_options(info)


def _work_options(parser: argparse.ArgumentParser) -> None:
    add_worker_options(parser, "the solver")
    add_table_option(parser, DEFAULT_WORKER_TABLE_MB, "each worker's transposition table")
    add_progress_option(parser)


def _span(text: str) -> PolicySpan:
    try:
        return PolicySpan.parse(text)
    except BookError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def run_book(args: argparse.Namespace) -> int:
    """Handler of ``c4 book``: dispatch to the action; errors are one line and exit status 2."""
    action = getattr(args, "book_run", None)
    if action is None:
        args.book_parser.print_help()
        return 2
    try:
        status: int = action(args)
        return status
    except C4Error as error:
        print(f"c4 book {args.book_command}: error: {error}", file=sys.stderr)
        return 2


def _open(args: argparse.Namespace) -> OpeningBook:
    if args.file is not None:
        return OpeningBook.open(check_input_file(args.file, "FILE"))
    width, height = parse_size(args.size)
    path = default_book_path(width, height, args.connect)
    if path is None:
        raise BookError(f"no book is shipped for {width}x{height} connect {args.connect}; name a FILE")
    return OpeningBook.open(path)


def _build_paths(args: argparse.Namespace) -> tuple[Path, Path]:
    """The book ``c4 book build`` writes and its checkpoint."""
    width, height = parse_size(args.size)
    width, height = parse_size(args.size)
    Board(width, height, args.connect)  # a bad size or connect-N is named before the files
    check_depth(args.depth, "--depth", width, height, least=0)
    # both files are checked before the first position is solved
    output = check_output_path(
        f"book-{width}x{height}-d{args.depth}.c4b" if args.output is None else args.output, "-o"
    )
    checkpoint = check_output_path(
        str(default_checkpoint_path(output)) if args.checkpoint is None else args.checkpoint,
        "--checkpoint",
        sqlite=True,
    )
    return output, checkpoint


def _build_kept(args: argparse.Namespace) -> str:
    return f"the positions solved so far are kept in {_build_paths(args)[1]}"


LONG_BUILD = 60.0
"""Seconds of estimated solving from which ``c4 book build`` says its estimate before going on."""


def describe_estimate(
    estimate: BuildEstimate, workers: str, load: float | None = None, cores: int = 1
) -> str:
    """The line a long build prints once its sample is solved: how long its leaves may take, and
    that a busy machine (``load`` average above its ``cores``) takes longer.

    >>> print(describe_estimate(BuildEstimate(568, 4, 10.8, 2), "2 workers", 13.1, 2))
    ... # doctest: +NORMALIZE_WHITESPACE
    c4 book build: estimate: 568 leaves to solve, 10.8 s of CPU each (the mean of the first 4 solved):
    1 h 42 min of CPU, about 51 min 7 s with 2 workers on a core each; this machine is busy (load
    13.1 on 2 cores): expect longer; leaf costs vary widely: samples have come out up to 2.4 times low
    """
    busy = (
        f"; this machine is busy (load {load:.1f} on {cores} cores): expect longer"
        if load is not None and load > cores
        else ""
    )
    return (
        f"c4 book build: estimate: {estimate.to_solve} leaves to solve, "
        f"{format_duration(estimate.cpu_per_leaf)} of CPU each (the mean of the first {estimate.sampled} "
        f"solved): {format_duration(estimate.cpu_seconds)} of CPU, about "
        f"{format_duration(estimate.wall_seconds)} with {workers} on a core each{busy}; leaf costs vary "
        "widely: samples have come out up to 2.4 times low"
    )


def _workers_text(args: argparse.Namespace, parallel: int) -> str:
    if args.scheduler is not None:
        return f"the cluster at {args.scheduler} (taken as {parallel} workers)"
    return "this process alone" if args.workers == 0 else f"{parallel} workers"


def _load_average() -> float | None:
    """The system's load over the last minute, where it tells (not on Windows)."""
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else None


class _Pace:
    """The time the work of a phase (the leaves, a ply of the policy) still takes, at this run's
    pace in it so far: the items done per second of wall time since the phase began."""

    def __init__(self) -> None:
        self.phase: object = None
        self.started = time.monotonic()

    def left(self, phase: object, done: int, total: int) -> float | None:
        """Seconds left of ``phase`` with ``done`` of ``total`` items done; None before the first."""
        if phase != self.phase:
            self.phase, self.started = phase, time.monotonic()
        if done == 0:
            return None
        return (total - done) * (time.monotonic() - self.started) / done


def _run_build(args: argparse.Namespace) -> int:
    width, height = parse_size(args.size)
    output, checkpoint = _build_paths(args)
    with ProgressLine(f"book depth {args.depth}", unit=" positions", enabled=args.progress) as bar:
        pace = _Pace()

        def show(progress: LeafProgress) -> None:
            kept = f"{progress.kept} kept" if progress.kept else ""
            each = f"{progress.cpu_seconds / progress.solved:.2f} CPU s each" if progress.solved else ""
            note = ", ".join(part for part in (kept, each) if part)
            left = pace.left("leaves", progress.solved, progress.to_solve)
            bar.update(progress.done, progress.leaves, note, left=left)

        def tell(estimate: BuildEstimate) -> None:
            if estimate.wall_seconds >= LONG_BUILD:
                workers = _workers_text(args, estimate.parallel)
                line = describe_estimate(estimate, workers, _load_average(), usable_cores())
                print(line, file=sys.stderr, flush=True)

        def show_policy(ply: int, solved: int, positions: int, cpu: float) -> None:
            left = pace.left(ply, solved, positions)
            bar.update(solved, positions, f"the player's moves at ply {ply}", left=left)

        stats = build_book(
            output,
            args.depth,
            width=width,
            height=height,
            connect=args.connect,
            weak=args.weak,
            checkpoint=checkpoint,
            workers=args.workers,
            scheduler=args.scheduler,
            batch_size=args.batch,
            table_mb=args.table_mb,
            on_progress=show,
            on_estimate=tell,
            policy=args.policy,
            on_policy_progress=show_policy,
        )
    print(f"book: {output} ({output.stat().st_size} bytes)")
    print(f"positions: {stats.positions}  per ply: {' '.join(map(str, stats.per_ply))}")
    print(f"leaves: {stats.leaves}  solved now: {stats.solved}  from the checkpoint: {stats.reused}")
    if args.policy:
        print(
            f"policy entries beyond depth {args.depth}: {stats.policy}  "
            f"positions searched now: {stats.policy_solved}"
        )
    print(f"solver time: {stats.cpu_seconds:.1f} CPU s  wall: {stats.wall_seconds:.1f} s")
    print(f"checkpoint: {checkpoint}")
    return 0


def _ply_of(key: int, geometry: Geometry) -> int:
    stride = geometry.column_stride
    column_bits = (1 << stride) - 1
    return sum(
        (((key >> (column * stride)) & column_bits) + 1).bit_length() - 1 for column in range(geometry.width)
    )


def _run_info(args: argparse.Namespace) -> int:
    with _open(args) as book:
        header = book.header
        geometry = Geometry.of(header.width, header.height, header.connect)
        per_ply = [0] * (header.reach + 1)
        wins = draws = losses = 0
        for key, score in book.items():
            ply = _ply_of(key, geometry)
            if ply <= header.reach:
                per_ply[ply] += 1
            wins += score > 0
            draws += score == 0
            losses += score < 0
        print(f"file: {book.path} ({book.path.stat().st_size} bytes)")
        print(f"format version: {header.version}")
        print(f"board: {header.width}x{header.height} connect {header.connect}")
        print(f"depth: {header.depth} plies  scores: {header.kind}")
        if header.sparse_depth > header.depth:
            print(f"beyond it: selected positions (a policy) up to ply {header.sparse_depth}")
        print(f"positions: {header.count} (mirror images share an entry)")
        print(f"per ply: {' '.join(map(str, per_ply))}")
        print(f"side to move wins {wins}, draws {draws}, loses {losses}")
        empty = book.lookup_key(0)
        if empty is not None:
            print(f"empty board: {empty}")
    return 0


def _run_verify(args: argparse.Namespace) -> int:
    if args.sample < 1:
        raise BookError(f"--sample must be at least 1, not {args.sample}")
    with _open(args) as book:
        geometry = Geometry.of(book.width, book.height, book.connect)
        if args.min_ply:
            keys = enumerate(key for key, _score in book.items())
            candidates = [index for index, key in keys if _ply_of(key, geometry) >= args.min_ply]
        else:
            candidates = list(range(len(book)))
        chosen = sorted(random.Random(args.seed).sample(candidates, min(args.sample, len(candidates))))
        expected = dict(book.entry(index) for index in chosen)
        jobs = [
            (key, bytes(board_from_key(key, book.width, book.height, book.connect).moves)) for key in expected
        ]
        moves_of = dict(jobs)
        mismatches: list[str] = []
        start = time.perf_counter()
        with ProgressLine("verify", len(jobs), enabled=args.progress, unit=" positions") as bar:
            for results in solve_positions(
                geometry,
                book.weak,
                jobs,
                table_mb=args.table_mb,
                batch_size=4,
                workers=args.workers,
                scheduler=args.scheduler,
            ):
                for key, score, _seconds in results:
                    if score != expected[key]:
                        text = "".join(str(column + 1) for column in moves_of[key])
                        mismatches.append(f"{text or '(empty)'}: book {expected[key]}, solver {score}")
                bar.advance(len(results))
        for line in mismatches:
            print(f"mismatch {line}")
        print(
            f"verified {len(jobs)} of {len(book)} entries (seed {args.seed}): {len(mismatches)} mismatches "
            f"in {time.perf_counter() - start:.1f} s"
        )
    return 1 if mismatches else 0


_ACTIONS = (
    Command(
        "build",
        summary="build a book (resumable)",
        description="Enumerate every position up to DEPTH plies, solve the last ply in parallel, back "
        "the scores up by negamax and write the book.  Solved positions are checkpointed: run the "
        "same command again to resume, or with a greater --depth to extend.",
        add_options=_build_options,
        run=_run_build,
        defaults={"kept": _build_kept},
    ),
    Command(
        "verify",
        summary="re-solve a random sample of a book",
        description="Re-solve a random sample of the book's entries and report every mismatch "
        "(exit status 1 if there is one).",
        add_options=_verify_options,
        run=_run_verify,
    ),
    Command(
        "info",
        summary="header and counts of a book",
        description="Print a book's header and its entries per ply.",
        add_options=_info_options,
        run=_run_info,
    ),
)
BOOK = Command(
    "book",
    summary="build, verify and describe opening books",
    description="Opening books: exact scores of every position up to a depth, for instant answers.",
    add_options=_book_options,
    run=run_book,
)
COMMANDS = (BOOK,)
