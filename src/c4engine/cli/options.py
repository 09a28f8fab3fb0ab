"""Command-line options that several ``c4`` commands share."""

from __future__ import annotations

import argparse
from typing import TypeAlias

from c4engine.errors import C4Error, echo
from c4engine.search.results import check_table_mb

__all__ = ["Subparsers", "add_board_options", "add_progress_option", "add_worker_options", "table_mb"]

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""What ``parser.add_subparsers()`` returns: each command module's ``add_<command>_parser`` takes it."""


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


def _worker_count(text: str) -> int:
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{echo(text)} is not a whole number") from None
    if count < 0:
        raise argparse.ArgumentTypeError(f"must be 0 (work in this process) or more, not {count}")
    return count


def add_worker_options(parser: argparse.ArgumentParser, jobs: str, default: int | None = None) -> None:
    """``--workers N`` and ``--scheduler ADDRESS``: where ``jobs`` run (see :mod:`c4engine.jobs`).

    ``--workers 0`` works in this process, ``N`` on N local worker
    processes; ``default`` None means one per CPU.
    """
    default_text = "one per CPU" if default is None else str(default)
    parser.add_argument(
        "--workers",
        type=_worker_count,
        default=default,
        metavar="N",
        help=f"local worker processes for {jobs} (default {default_text}; 0: none, work in this process)",
    )
    parser.add_argument(
        "--scheduler", metavar="tcp://HOST:PORT", help=f"run {jobs} on this Dask cluster instead"
    )


def add_progress_option(parser: argparse.ArgumentParser) -> None:
    """``--progress``: draw the bar even without a terminal.

    The value is what :class:`c4engine.cli.progress.Progress` takes as
    ``enabled``: True when given, else None (draw on a terminal only).
    """
    parser.add_argument(
        "--progress",
        action="store_const",
        const=True,
        default=None,
        help="draw the progress bar even without a terminal",
    )
