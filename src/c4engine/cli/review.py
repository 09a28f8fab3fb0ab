"""``c4 review``: every move of a game scored, the mistakes marked, the better lines shown.

The game is a move string (``c4 review 4453...``), a game record's JSON file
(``c4 review game.json``), a game of a ``c4 match`` database (``c4 review
--db match.sqlite --game N``), or, with none of these, one game a line on
standard input: one JSON object a line comes out (a line that cannot be
reviewed gives ``{"moves": ..., "error": ...}``, an error naming its line on
standard error, and the batch goes on; the exit status is then 1).

On a terminal it prints a table -- each ply's score before and after the
move, in words, with the marks ``?!`` (inaccuracy), ``?`` (mistake) and
``??`` (blunder) -- then, for each costly move, the better move and its line
to the end.  ``--json`` writes the review's JSON
(:meth:`c4engine.search.review.game.Review.to_json`, docs/review.md) and
``--svg FILE`` its evaluation graph (and says where it wrote it, on
standard error).  ``--time`` bounds each ply's analysis: what is not proven
within it is "not proven", never a mistake.  With ``--nodes`` or ``--depth``
and no ``--time`` nothing is timed, and the review (on one solver thread)
gives the same answer every run.  A game of a match database has its random
opening marked "not chosen"; a game record or a match game has its own
board, so ``--size`` and ``--connect`` are refused with them.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from c4engine.board import Board
from c4engine.cli.batch import position_of
from c4engine.cli.command import Command
from c4engine.cli.options import (
    add_board_options,
    add_limit_options,
    add_progress_option,
    add_table_option,
    add_thread_option,
    check_depth,
    check_input_file,
    check_output_path,
    limit_from_args,
    usable_cores,
)
from c4engine.cli.progress import ProgressLine
from c4engine.cli.render import render_review, wants_color
from c4engine.errors import C4Error, echo, echo_path
from c4engine.notation import parse_size
from c4engine.player import Player
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.analysis.books import DEFAULT_BOOK
from c4engine.search.limit import Limit
from c4engine.search.progress import Progress
from c4engine.search.review.game import DEFAULT_PLY_LIMIT, review_game

__all__ = ["COMMANDS", "REVIEW", "run_review"]


def _review_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", nargs="?", metavar="GAME", help="moves (e.g. 4453...) or a game.json file")
    parser.add_argument("--db", metavar="FILE", help="a c4 match database: review one of its games")
    parser.add_argument("--game", dest="game_number", type=int, metavar="N", help="with --db: game number N")
    add_board_options(parser)
    add_limit_options(
        parser,
        time_help=f"analysis time per ply (default {DEFAULT_PLY_LIMIT.time:g}, none with --nodes or "
        "--depth alone: the review is then the same every run); what it leaves open is not proven",
    )
    parser.add_argument("--json", action="store_true", help="write the review as JSON (docs/review.md)")
    parser.add_argument("--svg", metavar="FILE", help="write the evaluation graph to FILE")
    parser.add_argument(
        "--retry",
        nargs="?",
        const="both",
        choices=("X", "O", "both"),
        metavar="SIDE",
        help="then retry each mistake of SIDE (X, O; default both) before its answer is shown",
    )
    add_table_option(parser)
    add_thread_option(parser)
    # None: not given -- a game with its own board refuses --size and --connect, a review
    # without a time limit runs on one thread
    parser.set_defaults(size=None, connect=None, threads=None)
    parser.add_argument("--no-book", action="store_true", help="search even where the opening book knows")
    parser.add_argument(
        "--no-why",
        dest="why",
        action="store_false",
        help="skip the coach's reasons of each mistake and blunder (faster, for many games)",
    )
    color = parser.add_mutually_exclusive_group()
    color.add_argument("--color", dest="color", action="store_true", default=None, help="force colour")
    color.add_argument("--no-color", dest="color", action="store_false", help="no colour")
    add_progress_option(parser)


def run_review(args: argparse.Namespace, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    stdin = stdin if stdin is not None else sys.stdin
    out = out if out is not None else sys.stdout
    if args.game_number is not None and args.db is None:
        raise C4Error("--game needs --db (the match database it is a game of)")
    if args.db is not None and (args.game is not None or args.game_number is None):
        raise C4Error("--db takes --game N and no GAME")
    _refuse_board_options(args)
    width, height = parse_size(args.size or "7x6")
    connect = 4 if args.connect is None else args.connect
    Board(width, height, connect)  # a bad size or connect-N fails before any work
    if args.svg is not None:  # checked before the review's work
        check_output_path(args.svg, "--svg")
    limit = _ply_limit(args)
    analyst = Analyst(
        book=None if args.no_book else DEFAULT_BOOK,
        table_size_mb=args.table_mb,
        threads=_threads(args, limit),
    )
    if args.retry is not None and args.json:
        raise C4Error("--retry asks for moves at the prompt: it does not go with --json")
    if args.db is None and args.game is None:
        if args.retry is not None:
            raise C4Error("--retry needs one game (GAME or --db), not a batch")
        if args.svg is not None:
            raise C4Error("--svg needs one game (GAME or --db), not a batch")
        if stdin.isatty():  # a batch from a person's keyboard is not what anyone means
            raise C4Error("give GAME (moves or a game.json file), --db FILE --game N, or games on stdin")
        check_depth(args.depth, "--depth", width, height)
        return _batch(analyst, limit, width, height, connect, args.why, stdin, out)
    game = _game(args, width, height, connect)
    check_depth(args.depth, "--depth", game.board.width, game.board.height)
    with ProgressLine("reviewing", game.board.move_count, unit=" plies", enabled=args.progress) as bar:

        def progress(update: Progress) -> None:
            ply = update.ply
            bar.advance(note=None if ply is None else f"ply {ply.ply}: {ply.verdict}")

        review = review_game(
            analyst,
            game.board,
            limit,
            progress=progress,
            poll=bar.poll,
            opening_plies=game.opening_plies,
            result=game.result,
            reasons=args.why,
        )
    if args.json:
        out.write(json.dumps(review.to_json()) + "\n")
    else:
        color = wants_color(out) if args.color is None else args.color
        out.write(render_review(review, color=color) + "\n")
    if args.retry is not None:
        from c4engine.cli.retry import RetryTerminal, mistakes_of

        sides = (
            [Player.FIRST, Player.SECOND]
            if args.retry == "both"
            else [Player.FIRST if args.retry == "X" else Player.SECOND]
        )
        color = wants_color(out) if args.color is None else args.color
        RetryTerminal(review, mistakes_of(review, sides), analyst, out=out, color=color).run()
    if args.svg is not None:
        Path(args.svg).write_text(review._repr_svg_() + "\n")
        out.flush()  # the review first; the note on standard error, as standard output may be JSON
        print(
            f"wrote the evaluation graph ({len(review.plies)} plies) to {echo_path(args.svg)}",
            file=sys.stderr,
        )
    return 0


def _batch(
    analyst: Analyst,
    limit: Limit,
    width: int,
    height: int,
    connect: int,
    why: bool,
    stdin: TextIO,
    out: TextIO,
) -> int:
    status = 0
    for line_number, raw in enumerate(stdin, start=1):
        moves = position_of(raw)
        try:
            review = review_game(
                analyst, moves, limit, width=width, height=height, connect=connect, reasons=why
            )
            answer = review.to_json()
        except C4Error as error:
            print(f"line {line_number}: {error}", file=sys.stderr)
            answer = {"moves": moves, "error": str(error)}
            status = 1
        out.write(json.dumps(answer) + "\n")
        out.flush()
    return status


def _ply_limit(args: argparse.Namespace) -> Limit:
    """Each ply's limit: the options', with the default time unless --nodes or --depth bound it alone."""
    limit = limit_from_args(args)
    if limit.unbounded:
        return DEFAULT_PLY_LIMIT
    return limit


def _threads(args: argparse.Namespace, limit: Limit) -> int:
    """The solver's threads: every usable core unless asked, one where a node budget bounds the review
    without a time limit (threads share a budget differently each run; one thread gives one answer)."""
    deterministic = limit.time is None and limit.nodes is not None
    if not deterministic:
        return usable_cores() if args.threads is None else int(args.threads)
    if args.threads is not None and args.threads > 1:
        raise C4Error(
            "--threads: a review bounded by --nodes alone runs on one thread, so that every run gives "
            "the same answer; add --time to use more"
        )
    return 1


def _refuse_board_options(args: argparse.Namespace) -> None:
    """--size and --connect say the board of a move string: a game record or a match game has its own."""
    given = [
        option for option, value in (("--size", args.size), ("--connect", args.connect)) if value is not None
    ]
    if not given:
        return
    if args.db is not None:
        raise C4Error(f"{given[0]}: a game of a match database has the match's board; leave {given[0]} out")
    if args.game is not None and _is_record(args.game):
        raise C4Error(
            f"{given[0]}: a game record ({echo_path(args.game)}) has its own board; leave {given[0]} out"
        )


@dataclass(frozen=True)
class _Game:
    """The game to review: its final board, the plies of its random opening, its result where the
    board does not tell it (a match game lost on time) with how it ended."""

    board: Board
    opening_plies: int = 0
    result: tuple[str, str | None] | None = None


def _game(args: argparse.Namespace, width: int, height: int, connect: int) -> _Game:
    """The game to review: from --db, a game record's file, or a move string."""
    if args.db is not None:
        return _match_game(check_input_file(args.db, "--db"), args.game_number)
    text: str = args.game
    if _is_folder(text):
        raise C4Error(f"GAME {echo_path(text)} is a folder: give a move string or a game record's JSON file")
    if _is_record(text):
        from c4engine.play.record import GameRecord  # loaded only for a file

        return _Game(GameRecord.load(check_input_file(text, "GAME")).to_board())
    board = Board.from_moves(text.strip(), width, height, connect)
    if not board.moves:  # as the web's review refuses it: there is nothing to score
        raise C4Error(
            f"GAME {echo(text)} has no moves to review: give a move string (e.g. 4453) or a game record"
        )
    return _Game(board)


def _is_folder(text: str) -> bool:
    """Whether ``text`` names a folder (which the move string ``/`` or ``.`` would otherwise be read as)."""
    try:
        return bool(text.strip()) and Path(text).is_dir()
    except (OSError, ValueError):  # too long a name, a NUL byte
        return False


def _is_record(text: str) -> bool:
    """Whether GAME names a game record's file rather than moves."""
    return text.endswith(".json") or _is_file(text)


def _is_file(text: str) -> bool:
    """Whether ``text`` names a file (a move string of any length is not one)."""
    try:
        return Path(text).is_file()
    except (OSError, ValueError):  # too long a name, a NUL byte
        return False


def _match_game(path: Path, number: int) -> _Game:
    from c4engine.experiments.match import read_match  # a third of a second of imports: only for --db

    config, games = read_match(path)
    if number not in games:
        held = f"{min(games)}..{max(games)}" if games else "none"
        raise C4Error(f"--game {number}: {echo_path(path)} has no such game (games held: {held})")
    game = games[number]
    board = Board.from_moves(game.moves, config.width, config.height, config.connect)
    result = None
    if game.reason is not None:  # ended off the board: the match's score says who won
        first_score = game.score if game.a_first else 1 - game.score
        result = ({1.0: "1-0", 0.0: "0-1"}.get(first_score, "1/2-1/2"), game.reason)
    return _Game(board, min(game.opening_plies, board.move_count), result)


REVIEW = Command(
    "review",
    summary="review a game: every move scored, mistakes marked",
    description="Score every move of a game exactly (book and solver; what is not proven within "
    "--time is said so), mark inaccuracies ?!, mistakes ? and blunders ??, and show the better "
    "move and its line; the game's result first, a match game's random opening marked not chosen "
    "and in no count.  GAME is a move string (--size and --connect give its board) or a game "
    "record's JSON file (it has its own board, as a --db game has); without GAME or "
    "--db, one game a line is read from standard input and one JSON line a game written.",
    add_options=_review_options,
    run=run_review,
)
COMMANDS = (REVIEW,)
