"""Command-line options that several ``c4`` commands share."""

from __future__ import annotations

import argparse

__all__ = ["add_board_options"]


def add_board_options(parser: argparse.ArgumentParser) -> None:
    """``--size WxH`` (a string: parse it with :func:`c4engine.notation.parse_size`) and ``--connect N``."""
    parser.add_argument("--size", default="7x6", metavar="WxH", help="board width x height (default 7x6)")
    parser.add_argument(
        "--connect", type=int, default=4, metavar="N", help="stones in a row to win (default 4)"
    )
