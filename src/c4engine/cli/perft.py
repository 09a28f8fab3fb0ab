"""``c4 perft``: the number of distinct positions reachable at each ply, the check of a move generator."""

from __future__ import annotations

import argparse

from c4engine.board import Board
from c4engine.cli.command import Command
from c4engine.cli.options import add_board_options, check_depth
from c4engine.cli.progress import ProgressLine
from c4engine.notation import parse_size

__all__ = ["COMMANDS", "PERFT", "run_perft"]


def _perft_options(parser: argparse.ArgumentParser) -> None:
    add_board_options(parser)
    parser.add_argument("--depth", type=int, required=True, help="last ply to count")


def run_perft(args: argparse.Namespace) -> int:
    """Handler of ``c4 perft``: prints ``PLY COUNT`` lines; bad options raise :class:`C4Error`."""
    from c4engine.perft import perft

    width, height = parse_size(args.size)
    Board(width, height, args.connect)  # a bad size or connect-N is named before the depth
    check_depth(args.depth, "--depth", width, height, least=0)
    with ProgressLine("perft", args.depth + 1, unit=" plies") as bar:
        counts = perft(args.depth, width, height, args.connect, progress=lambda ply, count: bar.advance())
    for ply, count in enumerate(counts):
        print(ply, count)
    return 0


PERFT = Command(
    "perft",
    summary="count the positions reachable at each ply",
    description="Print, for each ply 0..DEPTH, the number of distinct positions reachable "
    "(finished games included): the standard check of a move generator.",
    add_options=_perft_options,
    run=run_perft,
)
COMMANDS = (PERFT,)
