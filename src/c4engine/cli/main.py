"""The ``c4`` command.

Every sub-command reports bad input as one line on standard error and a
non-zero exit status (2), never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from c4engine import __version__
from c4engine.board import Board
from c4engine.cli.options import Subparsers, add_board_options
from c4engine.cli.progress import Progress
from c4engine.errors import C4Error, echo
from c4engine.notation import parse_size
from c4engine.play.levels import DEFAULT_LEVEL, LEVELS

if TYPE_CHECKING:  # a command imports the heavy modules (numba) it needs when it runs
    from c4engine.play.players import Agent

__all__ = ["main", "parse_size"]

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (the reason and where to look)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


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
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"invalid level {echo(text)}: a number 1..{len(LEVELS)} or 'perfect'"
        ) from None


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
        name=f"computer, {Path(weights).name} weights, depth {chosen.depth}{noise}",
    )


def _run_play(args: argparse.Namespace) -> int:
    from c4engine.cli.terminal import TerminalGame, render_board, wants_color
    from c4engine.play.game import Game
    from c4engine.play.perfect import check_perfect_board
    from c4engine.play.players import PERFECT, HumanPlayer

    board = _board(args, args.moves)
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

    width, height = parse_size(args.size)
    if args.depth < 0:
        raise C4Error(f"depth must be 0 or more, not {args.depth}")
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
    parser.add_argument(
        "--workers",
        type=int,
        help="analysis processes; moves have their own (default: cores - 1, at least 1)",
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
    if args.workers is not None and args.workers < 1:
        raise C4Error(f"--workers must be at least 1, not {args.workers}")
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
    parser = build_parser(arguments[0] if arguments else None)
    args = parser.parse_args(arguments)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        status: int = args.run(args)
    except C4Error as error:
        print(f"c4 {args.command}: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return status


if __name__ == "__main__":
    sys.exit(main())
