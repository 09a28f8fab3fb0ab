"""``c4 play``: a game in the terminal against the computer, between two people, or two computers.

The computer is a level (1..7) or ``perfect``; ``--weights FILE`` gives a
level's search the ``windows`` weights of a file written by ``c4 tune``
(:func:`c4engine.play.players.engine_with_weights`).  ``--show`` prints the
position of ``--moves`` and exits.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from c4engine.board import Board
from c4engine.cli.command import Command
from c4engine.cli.options import add_board_options
from c4engine.cli.render import render_board, wants_color
from c4engine.errors import C4Error, echo
from c4engine.notation import parse_size
from c4engine.play.levels import DEFAULT_LEVEL, LEVELS

if TYPE_CHECKING:  # the game imports the heavy modules (numba) when it runs
    from c4engine.play.players import Agent

__all__ = ["COMMANDS", "PLAY", "computer_player", "level_argument", "run_play"]


def _play_options(parser: argparse.ArgumentParser) -> None:
    add_board_options(parser)
    parser.add_argument(
        "--level",
        type=level_argument,
        default=DEFAULT_LEVEL,
        help=f"the computer's level, 1..{len(LEVELS)} or 'perfect' (default {DEFAULT_LEVEL})",
    )
    parser.add_argument("--first", choices=("you", "computer"), default="you", help="who moves first")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--two-players", action="store_true", help="two people at one keyboard")
    mode.add_argument("--watch", action="store_true", help="computer against computer")
    parser.add_argument(
        "--level2", type=level_argument, help="with --watch: the second computer's level (default: --level)"
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


def level_argument(text: str) -> int | str:
    """A ``--level`` value: a level number or ``perfect``.

    >>> level_argument("3"), level_argument(" Perfect ")
    (3, 'perfect')
    """
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


def computer_player(level: int | str, seed: int | None, weights: str | None = None) -> Agent:
    """The computer of ``c4 play``: a level, or ``perfect``; with ``weights``, a level's search
    with the windows weights of that file (:func:`~c4engine.play.players.engine_with_weights`)."""
    from c4engine.play.players import PERFECT, EnginePlayer, PerfectPlayer, engine_with_weights

    if level == PERFECT:
        if weights is not None:
            raise C4Error(f"--weights needs a level 1..{len(LEVELS)}: the perfect player does not evaluate")
        return PerfectPlayer(seed=seed)
    if weights is None:
        return EnginePlayer(level=int(level), seed=seed)
    return engine_with_weights(weights, level=int(level), seed=seed)


def _board(args: argparse.Namespace, moves: str = "") -> Board:
    width, height = parse_size(args.size)
    return Board.from_moves(moves, width, height, args.connect)


def run_play(args: argparse.Namespace) -> int:
    """Handler of ``c4 play``: the game's exit status; bad options raise :class:`C4Error`."""
    from c4engine.cli.terminal import TerminalGame
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
            computer_player(args.level, args.seed, args.weights),
            computer_player(second_level, seed2, args.weights),
        )
    else:
        computer = computer_player(args.level, args.seed, args.weights)
        players = (HumanPlayer("you"), computer) if args.first == "you" else (computer, HumanPlayer("you"))
    return TerminalGame(Game(players[0], players[1], board=board), color=color).run()


PLAY = Command(
    "play",
    summary="play in the terminal",
    description="Play Connect-N in the terminal: against the computer, two people, or watch two computers.",
    epilog=f"Levels: {', '.join(f'{entry.number} {entry.name}' for entry in LEVELS)}.",
    add_options=_play_options,
    run=run_play,
)
COMMANDS = (PLAY,)
