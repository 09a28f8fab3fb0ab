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

Standard output holds the bare column, for scripts; whether the move is
proven goes to standard error when it is not: ``--level perfect`` tries
to prove each move for :data:`~c4engine.play.perfect.PROOF_SECONDS`
seconds, and where the proof runs out (early on a board bigger than 7x6)
it plays the engine's move and says so (``c4: column 4 not proven: best
estimate ...``).  ``--json`` writes the move as one JSON object instead
(:meth:`~c4engine.search.results.PlayResult.to_json`: ``proven``, ``label``,
``source``, ``stopped`` ...), one a line in batch mode.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from c4engine.board import Board
from c4engine.cli.batch import answer_json_lines, answer_lines
from c4engine.cli.command import Command
from c4engine.cli.options import MAX_SECONDS, add_board_options, check_depth, limit_from_args, number
from c4engine.cli.progress import AgentProgressLine
from c4engine.errors import GameOverError, LevelError, PlayerSpecError
from c4engine.notation import parse_size
from c4engine.play.levels import LEVELS
from c4engine.play.perfect import (
    DEFAULT_PERFECT_LIMIT,
    ESTIMATE_LIMIT,
    PROOF_SECONDS,
    PerfectPlayer,
    check_perfect_board,
)
from c4engine.play.players import Agent, AnalystPlayer, EnginePlayer, engine_with_weights, parse_agent
from c4engine.search.limit import UNLIMITED, Limit
from c4engine.search.results import PlayResult

__all__ = [
    "COMMANDS",
    "DEFAULT_MOVE_LEVEL",
    "MOVE",
    "choose_player",
    "move_json",
    "run_move",
    "unproven_note",
]


DEFAULT_MOVE_LEVEL = str(LEVELS[-1].number)


def _move_options(parser: argparse.ArgumentParser) -> None:
    how = parser.add_mutually_exclusive_group()
    how.add_argument(
        "--level",
        metavar="L",
        help="a level number, 'random' or 'perfect' (perfect: early on a big board it tries "
        f"{PROOF_SECONDS:g} s to prove the move, then plays the engine's in {ESTIMATE_LIMIT.time:g} s "
        "and says on stderr it is not proven)",
    )
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
    parser.add_argument(
        "--json",
        action="store_true",
        help="the move as JSON: column, proven, label, source, why a search stopped (batch: one a line)",
    )
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


def _move(player: Agent, position: str, width: int, height: int, connect: int) -> tuple[Board, int]:
    board = Board.from_moves(position, width, height, connect)
    if board.is_over:
        raise GameOverError(f"the game is over ({board.result}): there is no move to play")
    with AgentProgressLine(player, "choosing a move"):
        return board, player.choose_move(board)


def move_json(player: Agent, board: Board, column: int) -> dict[str, Any]:
    """``c4 move --json``'s object: the position, and the move as its player's last answer tells it
    (:meth:`~c4engine.search.results.PlayResult.to_json`; a player without one, as the random
    player: ``proven`` false, ``source`` its name)."""
    last: PlayResult | None = getattr(player, "last", None)
    named = {"position": board.move_string, "size": board.size, "connect": board.connect}
    if last is None or last.column != column:
        return {**named, "column": column + 1, "proven": False, "label": player.name, "source": player.name}
    return {**named, **last.to_json()}


def unproven_note(player: Agent, board: Board, column: int) -> str | None:
    """The words a perfect move not proven gets on standard error (None for a proven one, or another
    player): what the move is and why it is not proven.

    >>> from c4engine.search.results import PlayResult, Score
    >>> player = PerfectPlayer(book=None)
    >>> player.proof_limit = Limit(time=3)                    # as on an early position of 8x8
    >>> player.last = PlayResult(column=3, score=Score.estimate(-6, cells=64, stones=4),
    ...                          source="engine", proven=False, stopped="time limit")
    >>> print(unproven_note(player, Board.from_moves("4453", 8, 8), 3))
    column 4 not proven: best estimate (the engine's move; the perfect level's 3 s proof budget ran out: \
exact play this early on 8x8 needs an opening book, docs/book.md)
    """
    last = getattr(player, "last", None)
    if not isinstance(player, PerfectPlayer) or last is None or last.proven or last.column != column:
        return None
    what = "the engine's move" if last.source == "engine" else "the solver's best so far"
    if last.lower is not None and last.lower >= 0:
        what = "proven at least a draw, not proven best"
    if last.stopped in ("time limit", "node limit"):
        seconds = player.proof_limit.time
        budget = f"{seconds:g} s proof budget" if seconds is not None else "proof budget"
        why = f"the perfect level's {budget} ran out"
    else:
        why = f"the search ended early: {last.stopped or 'stopped'}"
    where = f"{board.width}x{board.height}" + (f" connect {board.connect}" if board.connect != 4 else "")
    return (
        f"column {column + 1} not proven: best estimate ({what}; {why}: exact play this early on "
        f"{where} needs an opening book, docs/book.md)"
    )


def _answer(player: Agent, line: str, width: int, height: int, connect: int) -> str:
    board, column = _move(player, line, width, height, connect)
    note = unproven_note(player, board, column)
    if note is not None:
        print(f"c4: {line or '(empty)'}: {note}", file=sys.stderr, flush=True)
    return str(column + 1)


def _batch(
    player: Agent, args: argparse.Namespace, width: int, height: int, stdin: TextIO, out: TextIO
) -> int:
    connect = args.connect
    if args.json:

        def answer_json(line: str) -> dict[str, Any]:
            return move_json(player, *_move(player, line, width, height, connect))

        return answer_json_lines(answer_json, stdin, out)
    return answer_lines(lambda line: _answer(player, line, width, height, connect), stdin, out)


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
        return _batch(player, args, width, height, sys.stdin, sys.stdout)
    board, column = _move(player, args.position, width, height, args.connect)
    if args.json:
        import json  # here: plain answers never load it

        print(json.dumps(move_json(player, board, column), ensure_ascii=False))
        return 0
    note = unproven_note(player, board, column)
    if note is not None:
        print(f"c4: {note}", file=sys.stderr, flush=True)
    print(column + 1)
    return 0


MOVE = Command(
    "move",
    summary="the computer's move in a position",
    description="Print the column (1-based) the computer plays in POSITION (e.g. 4453); "
    "without POSITION, write 'POSITION COLUMN' for each line of stdin.",
    epilog=f"Default player: level {DEFAULT_MOVE_LEVEL}.  --level perfect plays a proven move where the "
    f"book or the solver proves one: up to {DEFAULT_PERFECT_LIMIT.time:g} s a move, but only "
    f"{PROOF_SECONDS:g} s early on a board bigger than 7x6 (before the stones from which exact answers "
    "come within 10 s, docs/levels.md), where none comes that soon: then it plays the engine's move, "
    "labelled 'not proven' on stderr.",
    add_options=_move_options,
    run=run_move,
    takes_position=True,
)
COMMANDS = (MOVE,)
