"""Ctrl-C on the command line: one stop, one line saying what is kept, exit status 130.

While a command runs, the first SIGINT raises :class:`KeyboardInterrupt`
and every later one is ignored (:func:`first_ctrl_c_stops`), so the stop --
killing busy workers, closing a database -- is never cut short by a second
Ctrl-C.  :func:`interrupted_line` is the line ``c4`` then prints: what the
command keeps (its ``kept`` default, see :mod:`c4engine.cli.main`) and the
command that resumes it.
"""

from __future__ import annotations

import argparse
import contextlib
import shlex
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from types import FrameType

from c4engine.errors import C4Error

__all__ = ["EXIT_INTERRUPTED", "first_ctrl_c_stops", "interrupted_line"]

EXIT_INTERRUPTED = 130
"""128 + SIGINT, what a shell reports for a program stopped by Ctrl-C."""


def _interrupt_once(_signal: int, _frame: FrameType | None) -> None:
    """SIGINT's handler while a command runs: KeyboardInterrupt the first time, then ignored."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


@contextlib.contextmanager
def first_ctrl_c_stops() -> Iterator[None]:
    """Within the block, the first Ctrl-C raises KeyboardInterrupt and later ones are ignored.

    Python's own handler comes back when the block ends, but not after a
    Ctrl-C: the process is about to exit, and a second Ctrl-C must not break
    that with a traceback.  An ignored SIGINT (a shell's background job) stays
    ignored, and a thread other than the main one changes nothing.
    """
    takes_ctrl_c = (
        threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    )
    previous = signal.signal(signal.SIGINT, _interrupt_once) if takes_ctrl_c else None
    interrupted = False
    try:
        yield
    except KeyboardInterrupt:
        interrupted = True
        raise
    finally:
        if previous is not None and not interrupted:
            signal.signal(signal.SIGINT, previous)


def interrupted_line(args: argparse.Namespace, arguments: Sequence[str]) -> str:
    """The one line a command stopped by Ctrl-C prints: what is kept and how to resume.

    >>> args = argparse.Namespace(command="match", kept=lambda args: "the games are kept in m.sqlite")
    >>> interrupted_line(args, ["match", "1", "random"])
    'c4 match: interrupted; the games are kept in m.sqlite; resume: c4 match 1 random'
    >>> interrupted_line(argparse.Namespace(command="analyze"), ["analyze", "44"])
    'c4 analyze: interrupted; nothing is kept'

    A nested command is named whole, by the ``command_prog`` its
    :class:`~c4engine.cli.command.Command` sets:

    >>> interrupted_line(argparse.Namespace(command="book", command_prog="c4 book build"), ["book", "build"])
    'c4 book build: interrupted; nothing is kept'
    """
    kept: Callable[[argparse.Namespace], str | None] | None = getattr(args, "kept", None)
    try:
        what = kept(args) if kept is not None else None
    except C4Error:  # stopped while reading its own options: nothing was started
        what = None
    prefix = getattr(args, "command_prog", None) or (f"c4 {args.command}" if args.command else "c4")
    if what is None:
        return f"{prefix}: interrupted; nothing is kept"
    return f"{prefix}: interrupted; {what}; resume: {shlex.join(['c4', *arguments])}"
