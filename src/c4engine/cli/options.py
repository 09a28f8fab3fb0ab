"""Command-line options that several ``c4`` commands share."""

from __future__ import annotations

import argparse

from c4engine.errors import C4Error, echo
from c4engine.search.results import check_table_mb

__all__ = ["add_board_options", "table_mb"]


def add_board_options(parser: argparse.ArgumentParser) -> None:
    """``--size WxH`` (a string: parse it with :func:`c4engine.notation.parse_size`) and ``--connect N``."""
    parser.add_argument("--size", default="7x6", metavar="WxH", help="board width x height (default 7x6)")
    parser.add_argument(
        "--connect", type=int, default=4, metavar="N", help="stones in a row to win (default 4)"
    )


def table_mb(text: str) -> float:
    """The ``type`` of a ``--table-mb`` option: a number of MB a solver can have, checked before any work.

    >>> table_mb("nan")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: the table size must be a number of MB, not nan
    """
    try:
        return check_table_mb(float(text))
    except (ValueError, C4Error) as error:
        message = str(error) if isinstance(error, C4Error) else f"{echo(text)} is not a number of MB"
        raise argparse.ArgumentTypeError(message) from None
