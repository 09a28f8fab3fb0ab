"""``c4 puzzles``: puzzles from games, one JSON object a line.

::

    c4 puzzles games.txt -o puzzles.jsonl                 # a move string a line
    c4 puzzles match.sqlite -o puzzles.jsonl --workers 2  # a c4 match database; game.json records too
    c4 puzzles match.sqlite -o puzzles.jsonl --scheduler tcp://10.0.0.5:8786

Each finished game is kept in ``--checkpoint`` (default ``OUT.sqlite``): the
same command run again after a stop resumes there.  The criteria and the
JSON: docs/puzzles.md; the library: :mod:`c4engine.experiments.puzzles`.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from c4engine.board import Board
from c4engine.cli.command import Command
from c4engine.cli.options import (
    add_board_options,
    add_progress_option,
    add_table_option,
    add_worker_options,
    check_input_file,
    check_output_path,
)
from c4engine.cli.progress import ProgressLine
from c4engine.errors import PuzzleError, UnsupportedBoardError
from c4engine.geometry import require_solver_holds
from c4engine.notation import parse_size
from c4engine.search.puzzles.line import MAX_SOLVER_MOVES

__all__ = ["COMMANDS", "PUZZLES", "run_puzzles"]


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "games",
        nargs="+",
        metavar="GAMES_FILE",
        help="move strings (one a line), game.json records (JSONL too) or a c4 match database; "
        "several are read in turn",
    )
    parser.add_argument(
        "-o", "--output", required=True, metavar="FILE", help="the puzzles' JSONL file to write"
    )
    parser.add_argument(
        "--checkpoint", metavar="FILE.sqlite", help="the finished games, to resume from (default OUT.sqlite)"
    )
    parser.add_argument(
        "--max-moves",
        type=int,
        default=MAX_SOLVER_MOVES,
        metavar="N",
        help=f"the most moves of the solver's side in a solution (default {MAX_SOLVER_MOVES})",
    )
    add_board_options(parser)
    add_worker_options(parser, "the games", default=0)
    add_table_option(parser, default=64, what="solver table")
    add_progress_option(parser)


def _paths(args: argparse.Namespace) -> tuple[Path, Path]:
    output = check_output_path(args.output, "-o")
    checkpoint = args.checkpoint if args.checkpoint is not None else f"{output}.sqlite"
    return output, check_output_path(checkpoint, "--checkpoint", sqlite=True)


def _kept(args: argparse.Namespace) -> str:
    return f"the finished games are kept in {_paths(args)[1]}"


def run_puzzles(args: argparse.Namespace) -> int:
    from c4engine.experiments.puzzles import build_puzzles, read_games  # the solver's imports: only to run
    from c4engine.search.puzzles.collection import write_puzzles

    width, height = parse_size(args.size)
    Board(width, height, args.connect)  # a bad size fails before any work
    if not 1 <= args.max_moves <= 20:
        raise PuzzleError(f"--max-moves must be 1..20, not {args.max_moves}")
    sources = [check_input_file(name, "GAMES_FILE") for name in args.games]
    output, checkpoint = _paths(args)
    games = [game for source in sources for game in read_games(source, width, height, args.connect)]
    for game in games:
        try:
            require_solver_holds(game.width, game.height, "puzzles")
        except UnsupportedBoardError as refused:
            raise PuzzleError(f"{game.label}: {refused}") from None
    start = time.perf_counter()
    found = 0
    with ProgressLine("puzzles", len(games), unit=" games", enabled=args.progress) as bar:

        def progress(games_done: int, puzzles: int) -> None:
            nonlocal found
            found += puzzles
            bar.advance(games_done, note=f"{found} puzzles")

        result = build_puzzles(
            games,
            workers=args.workers,
            scheduler=args.scheduler,
            checkpoint=checkpoint,
            table_size_mb=args.table_mb,
            max_moves=args.max_moves,
            on_progress=progress,
        )
    written = write_puzzles(result.puzzles, output)
    elapsed = time.perf_counter() - start
    resumed = f", {result.resumed} from the checkpoint" if result.resumed else ""
    print(
        f"wrote {written} puzzles to {output} from {result.games} games{resumed}: "
        f"{result.mistakes} mistakes seen, {result.repeats} repeated positions left out, "
        f"{result.unproven} positions skipped as not proven within the limit; {elapsed:.1f} s"
    )
    return 0


PUZZLES = Command(
    "puzzles",
    summary="make puzzles from games (JSONL)",
    description="Find the positions right after a mistake where the side to move has exactly one move "
    "that keeps its outcome at each of its turns, until the win is forced or the draw held, and write "
    "them one JSON object a line (position, solution, size, connect, goal, themes, difficulty, source).  "
    "Finished games are checkpointed: the same command resumes.  Criteria: docs/puzzles.md.",
    add_options=_options,
    run=run_puzzles,
    defaults={"kept": _kept},
)
COMMANDS = (PUZZLES,)
