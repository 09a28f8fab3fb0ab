"""``c4 move``: the computer's chosen column for a position.

``c4 move POSITION`` prints the column (1-based) the chosen player would
play; ``--level`` takes any computer player spec (a level number,
``random`` or ``perfect``), ``--depth`` a fixed-depth search with the
``windows`` evaluator, ``--time`` the analysis service's best move in that
many seconds (the opening book, the exact solver, then the engine);
``--weights FILE`` gives the ``windows`` evaluator the weights of a file
written by ``c4 tune`` (searched at the file's depth unless one of the
others says otherwise).  Without
POSITION it reads positions from standard input, one a line, and writes
``POSITION COLUMN`` per line; an empty line is the empty board, and an
invalid line gives an error naming its line number on standard error, an
empty line on standard output, and the batch goes on (exit code 1).
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from c4engine.board import Board
from c4engine.cli.batch import answer_lines
from c4engine.cli.command import Command
from c4engine.cli.options import MAX_SECONDS, add_board_options, check_depth, limit_from_args, number
from c4engine.cli.progress import AgentProgress
from c4engine.errors import GameOverError, LevelError, PlayerSpecError
from c4engine.notation import parse_size
from c4engine.play.levels import LEVELS
from c4engine.play.perfect import PerfectPlayer, check_perfect_board
from c4engine.play.players import Agent, AnalystPlayer, EnginePlayer, engine_with_weights, parse_agent
from c4engine.search.limit import UNLIMITED, Limit

__all__ = ["COMMANDS", "DEFAULT_MOVE_LEVEL", "MOVE", "choose_player", "run_move"]


DEFAULT_MOVE_LEVEL = str(LEVELS[-1].number)


def _move_options(parser: argparse.ArgumentParser) -> None:
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--level", metavar="L", help="a level number, 'random' or 'perfect'")
    how.add_argument("--depth", type=int, metavar="D", help="search D plies (windows evaluator)")
    how.add_argument(
        "--time",
        type=number(0, MAX_SECONDS, above=True, unit=" seconds"),
        metavar="SECONDS",
        help="the best move found in SECONDS (book, solver, then engine)",
    )
    parser.add_argument(
        "--weights",
        metavar="FILE",
        help="windows weights (JSON, e.g. from c4 tune); searched at the file's depth unless "
        "--depth/--time/--level says otherwise",
    )
    parser.add_argument("--seed", type=int, help="seed for random choices (noise, random player)")
    add_board_options(parser)


def choose_player(
    level: str | None = None,
    limit: Limit = UNLIMITED,
    seed: int | None = None,
    weights: str | None = None,
) -> Agent:
    """The computer player ``c4 move`` asks: by level spec, or by ``limit`` -- a fixed depth (the
    engine) or a time budget (the analysis service).

    ``weights`` is a weights file (:func:`c4engine.play.players.engine_with_weights`):
    the ``windows`` evaluator with those weights, at the depth the file
    records unless ``limit`` or a level number says otherwise.

    >>> choose_player(limit=Limit(depth=4)).name
    'computer, depth 4'
    >>> choose_player("human")
    Traceback (most recent call last):
    ...
    c4engine.errors.PlayerSpecError: 'human' is not a computer player
    """
    if weights is not None:
        if level is not None and not level.strip().isdigit():
            raise PlayerSpecError(f"--weights needs a level number, not {level!r}")
        number = None if level is None else int(level)
        return engine_with_weights(weights, level=number, limit=None if limit.unbounded else limit, seed=seed)
    if limit.depth is not None:
        return EnginePlayer(limit=limit, seed=seed)
    if limit.time is not None:
        return AnalystPlayer(limit)
    try:
        player = parse_agent(DEFAULT_MOVE_LEVEL if level is None else level, seed=seed)
    except (PlayerSpecError, LevelError) as error:
        raise PlayerSpecError(f"--level: {error}") from None
    if player.is_human:
        raise PlayerSpecError(f"{level!r} is not a computer player")
    return player


def _move(player: Agent, position: str, width: int, height: int, connect: int) -> int:
    board = Board.from_moves(position, width, height, connect)
    if board.is_over:
        raise GameOverError(f"the game is over ({board.result}): there is no move to play")
    with AgentProgress(player, "choosing a move"):
        return player.choose_move(board) + 1


def _batch(player: Agent, width: int, height: int, connect: int, stdin: TextIO, out: TextIO) -> int:
    return answer_lines(lambda line: str(_move(player, line, width, height, connect)), stdin, out)


def run_move(args: argparse.Namespace) -> int:
    """Handler of ``c4 move``; bad options or a bad position raise :class:`C4Error`."""
    width, height = parse_size(args.size)
    Board(width, height, args.connect)  # a bad size or connect fails before any work
    # A deeper search cannot see more: no game lasts longer than the board's cells.
    check_depth(args.depth, "--depth", width, height)
    player = choose_player(args.level, limit_from_args(args), args.seed, args.weights)
    if isinstance(player, PerfectPlayer):
        check_perfect_board(width, height, "--level perfect")  # before any search: it could only guess
    if args.position is None:
        return _batch(player, width, height, args.connect, sys.stdin, sys.stdout)
    print(_move(player, args.position, width, height, args.connect))
    return 0


MOVE = Command(
    "move",
    summary="the computer's move in a position",
    description="Print the column (1-based) the computer plays in POSITION (e.g. 4453); "
    "without POSITION, write 'POSITION COLUMN' for each line of stdin.",
    epilog=f"Default player: level {DEFAULT_MOVE_LEVEL}.",
    add_options=_move_options,
    run=run_move,
    takes_position=True,
)
COMMANDS = (MOVE,)
