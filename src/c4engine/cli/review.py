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
(:meth:`c4engine.search.review.Review.to_json`, docs/review.md) and
``--svg FILE`` its evaluation graph.  ``--time`` bounds each ply's analysis:
what is not proven within it is "not proven", never a mistake.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
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
)
from c4engine.cli.progress import Progress
from c4engine.errors import C4Error, echo_path
from c4engine.notation import parse_size
from c4engine.search.analysis import DEFAULT_BOOK, Analyst
from c4engine.search.limit import Limit
from c4engine.search.review import DEFAULT_PLY_LIMIT, PlyReview, Review, ReviewProgress

__all__ = ["COMMANDS", "REVIEW", "render_review", "run_review"]

_RESET = "\x1b[0m"
_MARK_STYLE = {"?!": "\x1b[33m", "?": "\x1b[38;5;208m", "??": "\x1b[1;31m"}
_DIM = "\x1b[2m"


def _review_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", nargs="?", metavar="GAME", help="moves (e.g. 4453...) or a game.json file")
    parser.add_argument("--db", metavar="FILE", help="a c4 match database: review one of its games")
    parser.add_argument("--game", dest="game_number", type=int, metavar="N", help="with --db: game number N")
    add_board_options(parser)
    add_limit_options(
        parser,
        time_help=f"analysis time per ply (default {DEFAULT_PLY_LIMIT.time:g}); "
        "what it leaves open is not proven",
        time_default=DEFAULT_PLY_LIMIT.time,
    )
    parser.add_argument("--json", action="store_true", help="write the review as JSON (docs/review.md)")
    parser.add_argument("--svg", metavar="FILE", help="write the evaluation graph to FILE")
    add_table_option(parser)
    add_thread_option(parser)
    parser.add_argument("--no-book", action="store_true", help="search even where the opening book knows")
    color = parser.add_mutually_exclusive_group()
    color.add_argument("--color", dest="color", action="store_true", default=None, help="force colour")
    color.add_argument("--no-color", dest="color", action="store_false", help="no colour")
    add_progress_option(parser)


def run_review(args: argparse.Namespace, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    stdin = stdin if stdin is not None else sys.stdin
    out = out if out is not None else sys.stdout
    width, height = parse_size(args.size)
    Board(width, height, args.connect)  # a bad size or connect-N fails before any work
    check_depth(args.depth, "--depth", width, height)
    if args.game_number is not None and args.db is None:
        raise C4Error("--game needs --db (the match database it is a game of)")
    if args.db is not None and (args.game is not None or args.game_number is None):
        raise C4Error("--db takes --game N and no GAME")
    if args.svg is not None:  # checked before the review's work
        check_output_path(args.svg, "--svg")
    analyst = Analyst(
        book=None if args.no_book else DEFAULT_BOOK, table_size_mb=args.table_mb, threads=args.threads
    )
    limit = limit_from_args(args)
    if args.db is None and args.game is None:
        if args.svg is not None:
            raise C4Error("--svg needs one game (GAME or --db), not a batch")
        if stdin.isatty():  # a batch from a person's keyboard is not what anyone means
            raise C4Error("give GAME (moves or a game.json file), --db FILE --game N, or games on stdin")
        return _batch(analyst, limit, width, height, args.connect, stdin, out)
    board = _game_board(args, width, height)
    with Progress("reviewing", board.move_count, unit=" plies", enabled=args.progress) as bar:

        def progress(update: ReviewProgress) -> None:
            bar.advance(note=f"ply {update.ply.ply}: {update.ply.verdict}")

        review = analyst.review(board, limit, progress=progress, poll=bar.poll)
    if args.svg is not None:
        Path(args.svg).write_text(review._repr_svg_() + "\n")
    if args.json:
        out.write(json.dumps(review.to_json()) + "\n")
    else:
        from c4engine.cli.terminal import wants_color

        color = wants_color(out) if args.color is None else args.color
        out.write(render_review(review, color=color) + "\n")
    return 0


def render_review(review: Review, *, color: bool = False) -> str:
    """The review for a terminal: the table, the marks coloured, then each costly move's better line.

    >>> from c4engine.search.review import PlyReview
    >>> from c4engine.board import Player
    >>> ply = PlyReview(4, Player.FIRST, 4, 42, 2, 2, -1, -1, None, None, (3,), True, True, "blunder",
    ...                 False, (3, 3, 3), True)
    >>> print(_better_line(ply))
    ply 5, X played 5 (loss in 19): better 4 (win in 18), line 4 4 4
    """
    lines = [review.table(style=_styled if color else None)]
    costly = [ply for ply in review.plies if ply.mark and ply.pv]
    if costly:
        lines += ["", "Better moves:"] + ["  " + _better_line(ply) for ply in costly]
    unproven = sum(ply.verdict == "not proven" for ply in review.plies)
    if unproven:
        lines += ["", f"{unproven} plies not proven within the time: more --time may prove them."]
    return "\n".join(lines)


def _styled(mark: str, text: str) -> str:
    style = _MARK_STYLE.get(mark)
    if style is not None:
        return f"{style}{text}{_RESET}"
    return f"{_DIM}{text}{_RESET}" if text.startswith("not proven") else text


def _better_line(ply: PlyReview) -> str:
    line = " ".join(str(column + 1) for column in ply.pv)
    ending = "" if ply.pv_complete else " ..."
    return (
        f"ply {ply.ply}, {ply.player.symbol} played {ply.column + 1} ({ply.words_after()}): "
        f"better {ply.pv[0] + 1} ({ply.words_before()}), line {line}{ending}"
    )


def _batch(
    analyst: Analyst, limit: Limit, width: int, height: int, connect: int, stdin: TextIO, out: TextIO
) -> int:
    status = 0
    for line_number, raw in enumerate(stdin, start=1):
        moves = position_of(raw)
        try:
            answer = analyst.review(moves, limit, width=width, height=height, connect=connect).to_json()
        except C4Error as error:
            print(f"line {line_number}: {error}", file=sys.stderr)
            answer = {"moves": moves, "error": str(error)}
            status = 1
        out.write(json.dumps(answer) + "\n")
        out.flush()
    return status


def _game_board(args: argparse.Namespace, width: int, height: int) -> Board:
    """The game to review: from --db, a game record's file, or a move string."""
    if args.db is not None:
        return _match_game(check_input_file(args.db, "--db"), args.game_number)
    text: str = args.game
    if text.endswith(".json") or _is_file(text):
        from c4engine.play.record import GameRecord  # loaded only for a file

        return GameRecord.load(check_input_file(text, "GAME")).to_board()
    return Board.from_moves(text.strip(), width, height, args.connect)


def _is_file(text: str) -> bool:
    """Whether ``text`` names a file (a move string of any length is not one)."""
    try:
        return Path(text).is_file()
    except (OSError, ValueError):  # too long a name, a NUL byte
        return False


def _match_game(path: Path, number: int) -> Board:
    from c4engine.experiments.match import MatchStore  # a third of a second of imports: only for --db

    try:
        with MatchStore(path) as store:
            config = store.config()
            if config is None:
                raise C4Error(f"{path} holds no match")
            games = store.games()
    except sqlite3.DatabaseError as error:
        raise C4Error(f"cannot read {path} as a match database: {error}") from None
    if number not in games:
        held = f"{min(games)}..{max(games)}" if games else "none"
        raise C4Error(f"--game {number}: {echo_path(path)} has no such game (games held: {held})")
    return Board.from_moves(games[number].moves, config.width, config.height, config.connect)


REVIEW = Command(
    "review",
    summary="review a game: every move scored, mistakes marked",
    description="Score every move of a game exactly (book and solver; what is not proven within "
    "--time is said so), mark inaccuracies ?!, mistakes ? and blunders ??, and show the better "
    "move and its line.  GAME is a move string or a game record's JSON file; without GAME or "
    "--db, one game a line is read from standard input and one JSON line a game written.",
    add_options=_review_options,
    run=run_review,
)
COMMANDS = (REVIEW,)
