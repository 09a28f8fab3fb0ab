"""The ``c4`` command.

Every sub-command reports bad input as one line on standard error and a
non-zero exit status (2), never a traceback.  Ctrl-C stops any of them at
once with one line -- what is kept, and the command that resumes it -- and
exit status 130; a second Ctrl-C while it stops is ignored, so the stop
(killing busy workers, closing the database) is never cut short.  A
command that keeps its work says so with ``defaults={"kept": F}`` in its
:class:`~c4engine.cli.command.Command`: ``F(args)`` tells where (e.g.
``"the finished games are kept in m.sqlite"``).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import re
import sys
from collections.abc import Sequence
from typing import NoReturn

from c4engine import __version__
from c4engine.cli.command import Command
from c4engine.cli.interrupts import EXIT_INTERRUPTED, first_ctrl_c_stops, interrupted_line
from c4engine.cli.options import Subparsers
from c4engine.cli.progress import tell_of_compile
from c4engine.errors import ECHO_LIMIT, C4Error
from c4engine.search import on_compile

__all__ = ["build_parser", "main", "run"]

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one short line (the reason and where to look).

    argparse quotes a bad value whole; a quoted value longer than
    :data:`~c4engine.errors.ECHO_LIMIT` is cut, as :func:`~c4engine.errors.echo` cuts it.
    """

    def error(self, message: str) -> NoReturn:
        message = _LONG_QUOTE.sub(lambda quoted: _cut(quoted.group(0)), " ".join(message.split()))
        if len(message) > _MESSAGE_LIMIT:  # many long words, each cut: the line still fits a terminal's width
            message = f"{message[:_MESSAGE_LIMIT]}..."
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


_MESSAGE_LIMIT = 140
"""The most characters of argparse's message a usage error's one line keeps."""

_LONG_QUOTE = re.compile(rf"'[^']{{{ECHO_LIMIT},}}'|\"[^\"]{{{ECHO_LIMIT},}}\"|\S{{{ECHO_LIMIT},}}")


def _cut(quoted: str) -> str:
    length = len(quoted) - 2 if quoted[0] in "'\"" else len(quoted)
    return f"{quoted[:ECHO_LIMIT]}... ({length} characters)"


def _command_parser(parser: argparse.ArgumentParser, args: argparse.Namespace) -> argparse.ArgumentParser:
    """The parser of the (sub-)command ``args`` were read for: ``c4 book build``'s for ``c4 book build``."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            chosen = getattr(args, action.dest, None)
            if chosen in action.choices:
                return _command_parser(action.choices[chosen], args)
    return parser


# Every sub-command, in the order ``c4 --help`` lists them, and the module whose
# ``COMMANDS`` declare it (:class:`~c4engine.cli.command.Command`).  A module is
# imported only when one of its commands is registered, so ``c4 solve`` loads
# nothing ``c4 tune`` needs.
_COMMANDS: dict[str, str] = {
    "play": "c4engine.cli.play",
    "perft": "c4engine.cli.perft",
    "solve": "c4engine.cli.solve",
    "analyze": "c4engine.cli.solve",
    "bench": "c4engine.cli.solve",
    "move": "c4engine.cli.move",
    "review": "c4engine.cli.review",
    "explain": "c4engine.cli.explain",
    "book": "c4engine.cli.book",
    "match": "c4engine.cli.match",
    "tune": "c4engine.cli.tune",
    "dataset": "c4engine.cli.dataset",
    "puzzles": "c4engine.cli.puzzles",
    "puzzle": "c4engine.cli.puzzle",
    "serve": "c4engine.cli.serve",
}


def _add_command(commands: Subparsers, name: str) -> None:
    declared: Sequence[Command] = importlib.import_module(_COMMANDS[name]).COMMANDS
    command = next(command for command in declared if command.name == name)
    command.add_to(commands).set_defaults(run=command.run)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``c4`` parser: every sub-command, or only ``command`` when it names one.

    ``main`` passes the command about to run, so that only its module (and
    what that imports) is loaded: ``c4 solve`` answered from the opening
    book never imports numba.  Help and errors read the same either way.
    """
    # Typed as a plain parser so that its sub-parsers action is the shared Subparsers type.
    parser: argparse.ArgumentParser = _Parser(
        prog="c4", description="Connect-Four for any board: play, solve, analyse."
    )
    parser.add_argument("--version", action="version", version=f"c4engine {__version__}")
    commands: Subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in [command] if command in _COMMANDS else _COMMANDS:
        _add_command(commands, name)
    return parser


def _sizes_joined(arguments: list[str]) -> list[str]:
    """``--size -7x6`` as ``--size=-7x6``: argparse takes a value starting with a dash (and not a
    plain negative number) for an option, and would say only "expected one argument"; joined, the
    option's own check names the width it refuses.

    >>> _sizes_joined(["solve", "4453", "--size", "-7x6"]), _sizes_joined(["--size", "7x6", "-w"])
    (['solve', '4453', '--size=-7x6'], ['--size', '7x6', '-w'])
    """
    joined: list[str] = []
    for token in arguments:
        if joined and joined[-1].startswith("--") and "=" not in joined[-1] and re.match(r"-\d+[xX]", token):
            joined[-1] = f"{joined[-1]}={token}"
        else:
            joined.append(token)
    return joined


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``c4`` with ``argv`` (default: the command line); returns the exit status."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    # c4 does no linear algebra: OpenBLAS's thread pool, started when numpy is imported, only
    # burns CPU time (0.1-0.15 s of a command's start-up here).  A value set by the user stands.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    # A player 'module:NAME' may be a file in the current folder, as with 'python -m'; appended,
    # so that such a file never hides an installed module.  Spawned workers inherit sys.path.
    if os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())
    on_compile(tell_of_compile)  # a first answer that waits for a compile says so
    args = argparse.Namespace(command=arguments[0] if arguments and arguments[0] in _COMMANDS else None)
    try:
        # Ctrl-C is taken before the command's modules load: an import cut short is a Ctrl-C like any other
        with first_ctrl_c_stops():
            parser = build_parser(args.command)
            args, extras = parser.parse_known_args(_sizes_joined(arguments))
            if extras:  # named by the sub-command that did not know them: c4 solve: error: ...
                _command_parser(parser, args).error(f"unrecognized arguments: {' '.join(extras)}")
            if args.command is None:
                parser.print_help()
                return EXIT_USAGE
            status: int = args.run(args)
            return status
    except C4Error as error:
        print(f"c4 {args.command}: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(interrupted_line(args, arguments), file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return 0


def run() -> NoReturn:
    """The ``c4`` program (``python -m c4engine`` too): :func:`main` on the command line, then exit
    with its status.

    What is still alive then is first put out of the garbage collector's sight (``gc.freeze``):
    the interpreter's last collections, as it ends, need not walk every module and class again
    (a tenth of the start-up and ending of a short command: docs/benchmarks-log.md, "Start-up of a
    batch").  :func:`main` itself does not, as a caller may run it many times in one process.
    """
    status = main()
    gc.freeze()
    sys.exit(status)


if __name__ == "__main__":
    run()
