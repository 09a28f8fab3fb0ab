"""Command-line options that several ``c4`` commands share."""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeAlias

from c4engine.errors import C4Error, echo, echo_path
from c4engine.geometry import MAX_SIZE
from c4engine.notation import parse_size
from c4engine.search.limit import MAX_NODES, Limit
from c4engine.search.results import DEFAULT_TABLE_MB, check_table_mb

__all__ = [
    "MAX_SECONDS",
    "Subparsers",
    "WorkerCount",
    "add_board_options",
    "add_limit_options",
    "add_progress_option",
    "add_thread_option",
    "add_worker_count",
    "add_worker_options",
    "board_size",
    "check_depth",
    "check_input_file",
    "check_output_path",
    "limit_from_args",
    "number",
    "scheduler_address",
    "table_mb",
    "usable_cores",
    "whole",
]

MAX_SECONDS = 86_400.0
"""The longest time limit an option takes: a day."""

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""What ``parser.add_subparsers()`` returns: each command module's ``add_<command>_parser`` takes it."""


def board_size(text: str) -> str:
    """The ``type`` of ``--size``: ``WxH`` with sides 1..MAX_SIZE, checked when the options are read.

    The text is kept (parse it with :func:`c4engine.notation.parse_size`).

    >>> board_size("9x7")
    '9x7'
    >>> board_size("0x6")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: board width must be 1..32, not 0
    """
    try:
        sides = parse_size(text)
    except C4Error as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    for name, side in zip(("width", "height"), sides, strict=True):
        if not 1 <= side <= MAX_SIZE:
            raise argparse.ArgumentTypeError(f"board {name} must be 1..{MAX_SIZE}, not {side}")
    return text


def add_board_options(parser: argparse.ArgumentParser) -> None:
    """``--size WxH`` (a string: parse it with :func:`c4engine.notation.parse_size`) and ``--connect N``."""
    parser.add_argument(
        "--size", type=board_size, default="7x6", metavar="WxH", help="board width x height (default 7x6)"
    )
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


def add_table_option(
    parser: argparse.ArgumentParser,
    default: float = DEFAULT_TABLE_MB,
    what: str = "transposition table memory",
) -> None:
    """``--table-mb``: the solver's transposition table, in MB (checked by :func:`table_mb`)."""
    parser.add_argument(
        "--table-mb", type=table_mb, default=default, metavar="MB", help=f"{what} (default {default:g})"
    )


def number(low: float, high: float, *, above: bool = False, unit: str = "") -> Callable[[str], float]:
    """The ``type`` of an option taking a finite number in ``low..high`` (``above``: more than ``low``).

    >>> bias = number(0, 1000)
    >>> bias("2.5")
    2.5
    >>> bias("nan")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: a number 0..1000, not 'nan'
    >>> number(0, 60, above=True, unit=" seconds")("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: more than 0 seconds and at most 60, not '0'
    """
    if above:
        allowed = f"more than {low:g}{unit} and at most {high:g}"
    else:
        allowed = f"a number {low:g}..{high:g}{unit}"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or value > high or value < low or (above and value == low):
            raise argparse.ArgumentTypeError(f"{allowed}, not {echo(text)}")
        return value

    parse.__name__ = "number"
    return parse


def whole(low: int, high: int) -> Callable[[str], int]:
    """The ``type`` of an option taking a whole number in ``low..high``.

    >>> whole(1, 10**12)("5000")
    5000
    >>> whole(1, 10**12)("1.5")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: a whole number 1..1000000000000, not '1.5'
    """

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"a whole number {low}..{high}, not {echo(text)}")
        return value

    parse.__name__ = "whole number"
    return parse


def add_limit_options(
    parser: argparse.ArgumentParser, *, time_help: str, time_default: float | None = None
) -> None:
    """``--time``, ``--nodes`` and ``--depth``: what one question may cost, read into one
    :class:`~c4engine.search.limit.Limit` by :func:`limit_from_args`."""
    parser.add_argument(
        "--time",
        type=number(0, MAX_SECONDS, above=True, unit=" seconds"),
        default=time_default,
        metavar="SECONDS",
        help=time_help,
    )
    parser.add_argument(
        "--nodes",
        type=whole(1, MAX_NODES),
        metavar="N",
        help="search at most N positions (with --time: whichever runs out first)",
    )
    parser.add_argument(
        "--depth",
        type=int,
        metavar="D",
        help="the engine's estimates search at most D plies (the exact solver always searches to the end)",
    )


def limit_from_args(args: argparse.Namespace) -> Limit:
    """The one :class:`~c4engine.search.limit.Limit` of the options :func:`add_limit_options` added,
    made where the command line is read and handed down unchanged (check ``--depth`` against the
    board with :func:`check_depth` first).  An option the command lacks bounds nothing (``c4 move``
    has no ``--nodes``).

    >>> limit_from_args(argparse.Namespace(time=2.0, nodes=None, depth=8))
    Limit(time=2.0, depth=8)
    >>> limit_from_args(argparse.Namespace(time=None, depth=3))
    Limit(depth=3)
    """
    given = vars(args)
    return Limit(time=given.get("time"), nodes=given.get("nodes"), depth=given.get("depth"))


SQLITE_MAGIC = b"SQLite format 3\x00"


def check_output_path(text: str, option: str, *, sqlite: bool = False) -> Path:
    """The path an output option names, checked writable before any work: else a one-line :class:`C4Error`.

    A file that exists is opened for appending (and left as it is), one that
    does not is created and removed again: so a read-only folder is found out
    also where the permission bits say nothing (root, a read-only mount).
    With ``sqlite`` (a database the command resumes from), a file that
    exists must be an SQLite database or empty.

    >>> check_output_path("", "--out")
    Traceback (most recent call last):
    ...
    c4engine.errors.C4Error: --out needs a file name, not ''
    >>> check_output_path("no/such/folder/x.json", "--out")
    Traceback (most recent call last):
    ...
    c4engine.errors.C4Error: --out no/such/folder/x.json: there is no folder no/such/folder
    """
    if not text.strip():
        raise C4Error(f"{option} needs a file name, not {echo(text)}")
    path = Path(text)
    where = f"{option} {echo_path(text)}"
    try:
        if path.is_dir():
            raise C4Error(f"{where} is a folder: name a file (in it)")
        if not path.parent.is_dir():
            what = "not a folder" if path.parent.exists() else "there is no folder"
            raise C4Error(f"{where}: {what} {echo_path(path.parent)}")
        if path.exists():
            with path.open("rb+") as handle:
                head = handle.read(len(SQLITE_MAGIC))
            if sqlite and head and head != SQLITE_MAGIC:
                raise C4Error(f"{where} is not an SQLite database: name a new file or a database of c4")
        else:
            path.open("xb").close()
            path.unlink()
    except OSError as error:
        raise C4Error(f"{where}: cannot write there ({error.strerror or error})") from None
    return path


def check_input_file(text: str, option: str) -> Path:
    """The path an input option names, checked to be a readable file: else a one-line :class:`C4Error`.

    >>> check_input_file(".", "--weights")
    Traceback (most recent call last):
    ...
    c4engine.errors.C4Error: --weights . is a folder, not a file
    """
    path = Path(text)
    where = f"{option} {echo_path(text)}"
    try:
        if not text.strip() or not path.exists():
            raise C4Error(f"{where}: no such file")
        if path.is_dir():
            raise C4Error(f"{where} is a folder, not a file")
        with path.open("rb"):
            pass
    except OSError as error:
        raise C4Error(f"{where}: cannot read it ({error.strerror or error})") from None
    return path


def check_depth(depth: int | None, option: str, width: int, height: int, *, least: int = 1) -> None:
    """Refuse a search depth below ``least`` or beyond the cells of the board (no game lasts longer).

    >>> check_depth(1000, "--depth", 7, 6)
    Traceback (most recent call last):
    ...
    c4engine.errors.C4Error: --depth must be 1..42 (a 7x6 board has 42 cells), not 1000
    """
    cells = width * height
    if depth is not None and not least <= depth <= cells:
        raise C4Error(
            f"{option} must be {least}..{cells} (a {width}x{height} board has {cells} cells), not {depth}"
        )


def usable_cores() -> int:
    """The CPUs this process may run on (its affinity, where the system tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def _worker_count(text: str, least: int = 0) -> int:
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{echo(text)} is not a whole number") from None
    if count < least:
        allowed = "0 (work in this process) or more" if least == 0 else f"at least {least}"
        raise argparse.ArgumentTypeError(f"must be {allowed}, not {count}")
    return count


class WorkerCount(argparse.Action):
    """``--workers N``: a count of local processes, cut to the usable cores with a one-line note.

    More processes than cores only share them (and each holds its own
    tables), so ``N`` above :func:`usable_cores` is taken as that many.
    """

    def __init__(self, *args: Any, least: int = 0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.least = least

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        try:
            count = _worker_count(str(values), self.least)
        except argparse.ArgumentTypeError as error:
            parser.error(f"argument {option_string}: {error}")
        cores = usable_cores()
        if count > cores:
            print(
                f"{parser.prog}: note: {option_string} {count} is more than the {cores} usable cores: "
                f"using {cores}",
                file=sys.stderr,
            )
            count = cores
        setattr(namespace, self.dest, count)


def add_thread_option(parser: argparse.ArgumentParser, default: int | None = None) -> None:
    """``--threads N``: the solver's threads on one table (1..the usable cores, more cut with a note,
    as :class:`WorkerCount`); ``default`` None means every usable core, 1 where the command already
    runs one process per core."""
    default_text = "every usable core" if default is None else str(default)
    parser.add_argument(
        "--threads",
        action=WorkerCount,
        least=1,
        metavar="N",
        help=f"solver threads sharing its table (default {default_text}; at most the usable cores)",
    )
    parser.set_defaults(threads=usable_cores() if default is None else default)


def add_worker_count(parser: argparse.ArgumentParser, help: str, *, least: int = 0) -> None:
    """``--workers N`` alone (no ``--scheduler``): see :class:`WorkerCount`."""
    parser.add_argument("--workers", action=WorkerCount, least=least, metavar="N", help=help)


_ADDRESS = re.compile(r"(?:(?:tcp|tls|ucx)://)?(?:\[[0-9A-Fa-f:.]+\]|[^\s/:\[\]]+):(\d{1,5})")


def scheduler_address(text: str) -> str:
    """The ``type`` of ``--scheduler``: an address ``tcp://HOST:PORT`` (or ``HOST:PORT``).

    >>> scheduler_address("tcp://10.0.0.5:8786")
    'tcp://10.0.0.5:8786'
    >>> scheduler_address("nowhere")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: 'nowhere' is not an address tcp://HOST:PORT
    """
    match = _ADDRESS.fullmatch(text.strip())
    if match is None or not 0 < int(match.group(1)) <= 65535:
        raise argparse.ArgumentTypeError(f"{echo(text)} is not an address tcp://HOST:PORT")
    return text.strip()


def add_worker_options(parser: argparse.ArgumentParser, jobs: str, default: int | None = None) -> None:
    """``--workers N`` and ``--scheduler ADDRESS``: where ``jobs`` run (see :mod:`c4engine.jobs`).

    ``--workers 0`` works in this process, ``N`` on N local worker
    processes; ``default`` None means one per CPU.
    """
    default_text = "one per CPU" if default is None else str(default)
    add_worker_count(
        parser,
        f"local worker processes for {jobs} (default {default_text}; 0: none, work in this process; "
        "at most the usable cores)",
    )
    parser.set_defaults(workers=default)
    parser.add_argument(
        "--scheduler",
        type=scheduler_address,
        metavar="tcp://HOST:PORT",
        help=f"run {jobs} on this Dask cluster instead",
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
