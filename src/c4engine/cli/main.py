"""The ``c4`` command.

Every sub-command reports bad input as one line on standard error and a
non-zero exit status (2), never a traceback.  Ctrl-C stops any of them at
once with one line -- what is kept, and the command that resumes it -- and
exit status 130; a second Ctrl-C while it stops is ignored, so the stop
(killing busy workers, closing the database) is never cut short.  A
command that keeps its work says so with ``parser.set_defaults(kept=F)``:
``F(args)`` tells where (e.g. ``"the finished games are kept in m.sqlite"``).
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import shlex
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, NoReturn

from c4engine import __version__
from c4engine.board import Board
from c4engine.cli.options import Subparsers, add_board_options, add_worker_count, check_depth
from c4engine.cli.progress import Progress, tell_of_compile
from c4engine.errors import ECHO_LIMIT, C4Error, echo
from c4engine.notation import parse_size
from c4engine.play.levels import DEFAULT_LEVEL, LEVELS
from c4engine.search import on_compile

if TYPE_CHECKING:  # a command imports the heavy modules (numba) it needs when it runs
    from c4engine.play.players import Agent

__all__ = ["main", "parse_size"]

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
"""128 + SIGINT, what a shell reports for a program stopped by Ctrl-C."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one short line (the reason and where to look).

    argparse quotes a bad value whole; a quoted value longer than
    :data:`~c4engine.errors.ECHO_LIMIT` is cut, as :func:`~c4engine.errors.echo` cuts it.
    """

    def error(self, message: str) -> NoReturn:
        message = _LONG_QUOTE.sub(lambda quoted: _cut(quoted.group(0)), " ".join(message.split()))
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


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


def _board(args: argparse.Namespace, moves: str = "") -> Board:
    width, height = parse_size(args.size)
    return Board.from_moves(moves, width, height, args.connect)


# ------------------------------------------------------------------ play


def _add_play(commands: Subparsers) -> None:
    levels = ", ".join(f"{entry.number} {entry.name}" for entry in LEVELS)
    parser = commands.add_parser(
        "play",
        help="play in the terminal",
        description="Play Connect-N in the terminal: against the computer, two people, "
        "or watch two computers.",
        epilog=f"Levels: {levels}.",
    )
    add_board_options(parser)
    parser.add_argument(
        "--level",
        type=_level,
        default=DEFAULT_LEVEL,
        help=f"the computer's level, 1..{len(LEVELS)} or 'perfect' (default {DEFAULT_LEVEL})",
    )
    parser.add_argument("--first", choices=("you", "computer"), default="you", help="who moves first")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--two-players", action="store_true", help="two people at one keyboard")
    mode.add_argument("--watch", action="store_true", help="computer against computer")
    parser.add_argument(
        "--level2", type=_level, help="with --watch: the second computer's level (default: --level)"
    )
    parser.add_argument(
        "--weights", metavar="FILE", help="the computer's windows weights (JSON, e.g. from c4 tune)"
    )
    parser.add_argument("--seed", type=int, help="seed for the computer's random choices (repeatable games)")
    parser.add_argument("--moves", default="", metavar="MOVES", help="start from this position, e.g. 4453")
    parser.add_argument("--show", action="store_true", help="print the position given by --moves and exit")
    color = parser.add_mutually_exclusive_group()
    color.add_argument("--color", dest="color", action="store_true", default=None, help="force colour")
    color.add_argument("--no-color", dest="color", action="store_false", help="no colour")
    parser.set_defaults(run=_run_play)


def _level(text: str) -> int | str:
    """A ``--level`` value: a level number or ``perfect``."""
    from c4engine.play.players import PERFECT

    if text.strip().lower() == PERFECT:
        return PERFECT
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"invalid level {echo(text)}: a number 1..{len(LEVELS)} or 'perfect'"
        ) from None
    if not 1 <= number <= len(LEVELS):
        raise argparse.ArgumentTypeError(
            f"level {number} does not exist: choose 1..{len(LEVELS)} or 'perfect'"
        )
    return number


def _computer(level: int | str, seed: int | None, weights: str | None = None) -> Agent:
    """The computer of ``c4 play``: a level, or ``perfect``; with ``weights``, a level's depth and
    noise searching with the windows weights of that file, and named after it."""
    from c4engine.play.levels import level as recipe
    from c4engine.play.players import PERFECT, EnginePlayer, PerfectPlayer
    from c4engine.search.evaluators import WindowsEvaluator, load_weights

    if level == PERFECT:
        if weights is not None:
            raise C4Error(f"--weights needs a level 1..{len(LEVELS)}: the perfect player does not evaluate")
        return PerfectPlayer(seed=seed)
    if weights is None:
        return EnginePlayer(level=int(level), seed=seed)
    chosen = recipe(int(level))
    noise = f", noise {chosen.noise:.0%}" if chosen.noise else ""
    return EnginePlayer(
        level=chosen.number,
        seed=seed,
        evaluator=WindowsEvaluator(load_weights(weights)[0]),
        name=f"computer, {Path(weights).name} weights, depth {chosen.limit.depth}{noise}",
    )


def _run_play(args: argparse.Namespace) -> int:
    from c4engine.cli.terminal import TerminalGame, render_board, wants_color
    from c4engine.play.game import Game
    from c4engine.play.perfect import check_perfect_board
    from c4engine.play.players import PERFECT, HumanPlayer

    if args.level2 is not None and not args.watch:
        raise C4Error("--level2 is the second computer's level: it needs --watch")
    _board(args)  # a bad size or connect-N is named before the moves
    try:
        board = _board(args, args.moves)
    except C4Error as error:
        raise C4Error(f"--moves: {error}") from None
    color = wants_color(sys.stdout) if args.color is None else args.color
    if args.show:
        print(render_board(board, color=color))
        print(f"{board.turn.symbol} to move" if not board.is_over else f"game over: {board.result}")
        return 0
    second_level = args.level if args.level2 is None else args.level2
    computers = () if args.two_players else (args.level, second_level) if args.watch else (args.level,)
    if PERFECT in computers:
        check_perfect_board(board.width, board.height, "--level perfect")
    players: tuple[Agent, Agent]
    if args.two_players:
        players = (HumanPlayer("player 1"), HumanPlayer("player 2"))
    elif args.watch:
        seed2 = None if args.seed is None else args.seed + 1
        players = (
            _computer(args.level, args.seed, args.weights),
            _computer(second_level, seed2, args.weights),
        )
    else:
        computer = _computer(args.level, args.seed, args.weights)
        players = (HumanPlayer("you"), computer) if args.first == "you" else (computer, HumanPlayer("you"))
    return TerminalGame(Game(players[0], players[1], board=board), color=color).run()


# ----------------------------------------------------------------- perft


def _add_perft(commands: Subparsers) -> None:
    parser = commands.add_parser(
        "perft",
        help="count the positions reachable at each ply",
        description="Print, for each ply 0..DEPTH, the number of distinct positions reachable "
        "(finished games included): the standard check of a move generator.",
    )
    add_board_options(parser)
    parser.add_argument("--depth", type=int, required=True, help="last ply to count")
    parser.set_defaults(run=_run_perft)


def _run_perft(args: argparse.Namespace) -> int:
    from c4engine.search.perft import perft

    board = _board(args)
    width, height = board.width, board.height
    check_depth(args.depth, "--depth", width, height, least=0)
    with Progress("perft", args.depth + 1, unit=" plies") as bar:
        counts = perft(args.depth, width, height, args.connect, progress=lambda ply, count: bar.advance())
    for ply, count in enumerate(counts):
        print(ply, count)
    return 0


# ----------------------------------------------------------------- serve


def _add_serve(commands: Subparsers) -> None:
    parser = commands.add_parser(
        "serve",
        help="play and analyse in the browser",
        description="Serve the web page and its JSON API (OpenAPI document at /docs). "
        "Open the address it prints in a browser.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    add_worker_count(
        parser,
        "analysis processes; moves have their own (default: cores - 1, at least 1; at most the cores)",
        least=1,
    )
    parser.add_argument(
        "--queue", type=int, default=64, help="engine requests queued before 503 (default 64)"
    )
    parser.set_defaults(run=_run_serve)


def _run_serve(args: argparse.Namespace) -> int:
    try:
        from c4engine.web.server import serve
    except ImportError as error:  # pragma: no cover - fastapi and uvicorn are dependencies
        raise C4Error(
            f"the web server needs fastapi and uvicorn ({error}); install them: pip install fastapi uvicorn"
        ) from error
    if args.queue < 1:
        raise C4Error(f"--queue must be at least 1, not {args.queue}")
    if not 0 <= args.port <= 65535:
        raise C4Error(f"--port must be 0..65535, not {args.port}")
    return serve(args.host, args.port, workers=args.workers, max_pending=args.queue)


# ------------------------------------------------------------------ main


# Every sub-command, in the order ``c4 --help`` lists them: the ones above, and
# those in their own modules, where ``add_<command>_parser`` registers the
# command with its handler as ``func``.  A module is imported only when one of
# its commands is registered, so ``c4 solve`` loads nothing ``c4 tune`` needs.
_COMMANDS: dict[str, Callable[[Subparsers], None] | str] = {
    "play": _add_play,
    "perft": _add_perft,
    "solve": "c4engine.cli.solve",
    "analyze": "c4engine.cli.solve",
    "bench": "c4engine.cli.solve",
    "move": "c4engine.cli.move",
    "review": "c4engine.cli.review",
    "book": "c4engine.cli.book",
    "match": "c4engine.cli.match",
    "tune": "c4engine.cli.tune",
    "dataset": "c4engine.cli.dataset",
    "serve": _add_serve,
}


def _add_command(commands: Subparsers, name: str) -> None:
    where = _COMMANDS[name]
    if not isinstance(where, str):
        where(commands)
        return
    add: Callable[[Subparsers], argparse.ArgumentParser] = getattr(
        importlib.import_module(where), f"add_{name}_parser"
    )
    parser = add(commands)
    parser.set_defaults(run=parser.get_default("func"))


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


def _interrupt_once(_signal: int, _frame: FrameType | None) -> None:
    """SIGINT's handler while a command runs: KeyboardInterrupt the first time, then ignored."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def interrupted_line(args: argparse.Namespace, arguments: Sequence[str]) -> str:
    """The one line a command stopped by Ctrl-C prints: what is kept and how to resume.

    >>> args = argparse.Namespace(command="match", kept=lambda args: "the games are kept in m.sqlite")
    >>> interrupted_line(args, ["match", "1", "random"])
    'c4 match: interrupted; the games are kept in m.sqlite; resume: c4 match 1 random'
    >>> interrupted_line(argparse.Namespace(command="analyze"), ["analyze", "44"])
    'c4 analyze: interrupted; nothing is kept'
    """
    kept: Callable[[argparse.Namespace], str | None] | None = getattr(args, "kept", None)
    try:
        what = kept(args) if kept is not None else None
    except C4Error:  # stopped while reading its own options: nothing was started
        what = None
    prefix = f"c4 {args.command}" if args.command else "c4"
    if what is None:
        return f"{prefix}: interrupted; nothing is kept"
    return f"{prefix}: interrupted; {what}; resume: {shlex.join(['c4', *arguments])}"


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
    # Python's own Ctrl-C handler is replaced (before the command's modules load: an import cut
    # short is a Ctrl-C like any other); an ignored SIGINT (a shell's background job) stays so.
    takes_ctrl_c = (
        threading.current_thread() is threading.main_thread()
        and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    )
    previous = signal.signal(signal.SIGINT, _interrupt_once) if takes_ctrl_c else None
    interrupted = False
    args = argparse.Namespace(command=arguments[0] if arguments and arguments[0] in _COMMANDS else None)
    try:
        parser = build_parser(args.command)
        args, extras = parser.parse_known_args(arguments)
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
        # SIGINT stays ignored (see _interrupt_once): the process is about to exit, and a
        # second Ctrl-C must not break that with a traceback
        interrupted = True
        print(interrupted_line(args, arguments), file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return 0
    finally:
        if previous is not None and not interrupted:
            signal.signal(signal.SIGINT, previous)


if __name__ == "__main__":
    sys.exit(main())
