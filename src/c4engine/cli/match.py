"""``c4 match A B --games N``: play a match between two players and report W/D/L and Elo.

The games are stored in SQLite (by default ``match-A-vs-B-seedS-WxHcN.sqlite``
in the current directory), so running the same command again resumes a
stopped match (only the games that were being played are lost) or just
prints its summary.  An external player that takes more than
``--move-timeout`` seconds for a move loses that game on time.  See
:mod:`c4engine.experiments.match` for openings, seeds and the Elo interval.
"""

from __future__ import annotations

import argparse
import math
import re
from pathlib import Path

from c4engine.cli.command import Command
from c4engine.cli.options import add_worker_options, board_size, check_output_path
from c4engine.cli.progress import ProgressLine
from c4engine.errors import C4Error, echo
from c4engine.experiments.match import (
    GameOutcome,
    MatchConfig,
    MatchStore,
    MatchSummary,
    check_players,
    play_match,
)
from c4engine.notation import parse_size
from c4engine.play.hosted import DEFAULT_MOVE_TIMEOUT
from c4engine.play.players import COMPUTER_FORMS

__all__ = ["COMMANDS", "MATCH", "MAX_GAMES", "default_db", "run_match"]

MAX_GAMES = 10**9
"""The most games a match may ask for (a game's number is stored as an SQLite integer)."""


def _match_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("a", metavar="A", help="first player (e.g. 5, random, mymodule:agent)")
    parser.add_argument("b", metavar="B", help="second player")
    parser.add_argument("--games", type=int, default=100, metavar="N", help="games to play (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="seed of openings and players (default 0)")
    parser.add_argument(
        "--random-plies", type=int, default=4, metavar="K", help="random opening moves per pair (default 4)"
    )
    parser.add_argument(
        "--move-timeout",
        type=_seconds,
        default=DEFAULT_MOVE_TIMEOUT,
        metavar="SECONDS",
        help=f"an external player (module:NAME) that takes longer for a move loses that game on time "
        f"(default {DEFAULT_MOVE_TIMEOUT:g})",
    )
    add_worker_options(parser, "the games")
    store = parser.add_mutually_exclusive_group()
    store.add_argument("--db", metavar="FILE", help="SQLite file of the match (default: named after it)")
    store.add_argument("--no-db", action="store_true", help="keep the games in memory only")
    size = parser.add_mutually_exclusive_group()
    size.add_argument(
        "--size", type=board_size, default=None, metavar="WxH", help="board width x height (default 7x6)"
    )
    size.add_argument("--width", type=int, help="board width (default 7)")
    parser.add_argument("--height", type=int, help="board height (default 6)")
    parser.add_argument(
        "--connect", type=int, default=4, metavar="N", help="stones in a row to win (default 4)"
    )


def _seconds(text: str) -> float:
    """A ``--move-timeout``: a number of seconds above 0."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not 0 < seconds < math.inf:
        raise argparse.ArgumentTypeError(f"{echo(text)} is not a number of seconds above 0")
    return seconds


def _store_path(args: argparse.Namespace) -> Path | None:
    return None if args.no_db else Path(args.db) if args.db is not None else default_db(_config(args))


def _kept(args: argparse.Namespace) -> str | None:
    """What an interrupted match keeps (``c4`` prints it): its finished games, unless ``--no-db``."""
    path = _store_path(args)
    return None if path is None else f"the finished games are kept in {path}"


def _slug(spec: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", spec.strip()).strip("_") or "player"


def default_db(config: MatchConfig) -> Path:
    """Where a match is stored unless ``--db`` says otherwise.

    >>> str(default_db(MatchConfig("random", "mod:agent", games=2)))
    'match-random-vs-mod_agent-seed0-7x6c4.sqlite'
    """
    return Path(
        f"match-{_slug(config.a)}-vs-{_slug(config.b)}-seed{config.seed}-"
        f"{config.width}x{config.height}c{config.connect}.sqlite"
    )


def _config(args: argparse.Namespace) -> MatchConfig:
    width, height = parse_size(args.size) if args.size else (7, 6)
    if args.width is not None:
        width = args.width
    if args.height is not None:
        if args.size:
            raise C4Error("give the board as --size WxH or as --width/--height, not both")
        height = args.height
    if args.games > MAX_GAMES:  # fewer than 1: the match's own check says so
        raise C4Error(f"--games must be at most {MAX_GAMES}, not {args.games}")
    return MatchConfig(
        args.a,
        args.b,
        args.games,
        args.seed,
        args.random_plies,
        width,
        height,
        args.connect,
        move_timeout=args.move_timeout,
    )


def run_match(args: argparse.Namespace) -> int:
    config = _config(args)
    check_players(config)
    path = _store_path(args)
    if path is not None:  # checked before any game is played
        path = check_output_path(str(path), "--db", sqlite=True)
    store = MatchStore(path) if path is not None else None
    try:
        already = 0
        if store is not None:
            store.start(config)
            already = sum(1 for index in store.games() if index < config.games)
        hint = f"{config.a} against {config.b}, {config.games} games; --games N plays fewer"
        with ProgressLine("match", config.games, done=already, unit=" games", hint=hint) as bar:
            tally = [0, 0, 0]

            def advance(outcome: GameOutcome) -> None:
                tally[int(2 - 2 * outcome.score)] += 1
                bar.advance(note=f"A +{tally[0]} ={tally[1]} -{tally[2]}")

            summary: MatchSummary = play_match(
                config, store=store, workers=args.workers, scheduler=args.scheduler, on_game=advance
            )
    finally:
        if store is not None:
            store.close()
    print(summary.report())
    if path is not None:
        resumed = f" ({already} from an earlier run)" if already else ""
        print(f"games stored in {path}{resumed}")
    return 0


MATCH = Command(
    "match",
    summary="play a match between two players: W/D/L and Elo",
    description="Play GAMES games between players A and B: colours alternate, each seeded random "
    "opening is played twice with the colours swapped.  Prints wins, draws, losses, the Elo "
    "difference A - B with a 95% interval and the CPU time per move.  Games are stored in SQLite: "
    "run the same command again to resume a stopped match.",
    epilog=f"Players: {COMPUTER_FORMS}.",
    add_options=_match_options,
    run=run_match,
    defaults={"kept": _kept},
)
COMMANDS = (MATCH,)
