"""The perfect player's games on 7x6: results, a solver check of every move, and move latency.

Two parts, one perfect player (one solver and table, kept across all the
games, as a long-running program would):

* **First player** (``--first``, opponents: ``random,1,2,...,7``): one game
  from each two-ply opening (all 49; ``--openings N`` takes N of them,
  seeded, for a smaller run) against each opponent.  The opening's first
  move is the perfect player's, forced, so some openings are lost for it.
* **Second player** (``--second``, ``OPPONENT:GAMES,...``): from the empty
  board; a level is deterministic, so its first ``--opening-plies`` moves
  are random (seeded) and the games differ.

Every move of the perfect player is checked by an independent judge -- a
separate solver with its own table, or the *full* part of the book for
positions it holds (checked against the solver by ``c4 book verify``; a
policy book's deeper entries are the player's own and are not used): the
move must keep the position's exact score.  So the player never turns a
won position into a draw or a loss, nor a drawn one into a loss.

Reported per opponent: games (distinct), the perfect player's W/D/L, moves
timed, the median, p95, p99 and maximum wall time a move, how many moves
were unproven (a time limit stopped the solver), how many moves took over
1 s at each ply (stones on the board), where the moves came from, and the
moves checked and how many kept the score; then over all moves the median,
p99 and maximum, and the ten slowest positions.  The exit status is 1 if a
checked move lost score.

    python benchmarks/perfect_games.py --first random,1,2,3,4,5,6,7 --second random:40,7:40
    python benchmarks/perfect_games.py --first random,7 --openings 10 --second 7:2 --json out.json
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from c4engine.board import Board
from c4engine.cli.progress import ProgressLine
from c4engine.play.perfect import PerfectPlayer
from c4engine.play.players import Agent, EnginePlayer, RandomPlayer
from c4engine.player import Player
from c4engine.search.book.file import OpeningBook, default_book_path
from c4engine.search.limit import Limit
from c4engine.search.solver.exact import Solver

SLOW_MOVE_S = 1.0  # the p99 goal: moves slower than this are counted by ply, to show where they are


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


class Judge:
    """Exact scores from the full part of the book when it holds the position, else from its own solver."""

    def __init__(self, book: OpeningBook | None, table_mb: float) -> None:
        self.book = book
        self.solver = Solver(table_size_mb=table_mb)

    def score(self, board: Board) -> int:
        if self.book is not None and board.move_count <= self.book.depth:
            known = self.book.score(board)
            if known is not None:
                return known
        result = self.solver.solve(board, best_move=False)
        assert result.score is not None
        return result.score

    def move_keeps_score(self, board: Board, column: int) -> tuple[int, bool]:
        """(the position's score, whether ``column`` reaches it)."""
        before = self.score(board)
        if board.is_winning_move(column):
            return before, before == (board.width * board.height + 1 - board.move_count) // 2
        child = board.copy()
        child.play(column)
        after = 0 if child.is_full else -self.score(child)
        return before, after == before


@dataclass
class Tally:
    opponent: str
    side: Player
    wins: int = 0
    draws: int = 0
    losses: int = 0
    times: list[float] = field(default_factory=list)
    sources: Counter[str] = field(default_factory=Counter)
    unproven: int = 0
    slow_by_ply: Counter[int] = field(default_factory=Counter)
    distinct: set[str] = field(default_factory=set)
    checked: int = 0
    kept: int = 0
    not_lost_faced: int = 0
    lost_games_from_not_lost: int = 0
    positions: list[tuple[float, str, str]] = field(default_factory=list)
    """(seconds, position, source) of every move."""

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def row(self) -> dict[str, object]:
        return {
            "opponent": self.opponent,
            "perfect_plays": "first" if self.side is Player.FIRST else "second",
            "games": self.games,
            "distinct_games": len(self.distinct),
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "moves": len(self.times),
            "median_ms": 1000 * statistics.median(self.times),
            "p95_ms": 1000 * _percentile(self.times, 0.95),
            "p99_ms": 1000 * _percentile(self.times, 0.99),
            "max_ms": 1000 * max(self.times),
            "unproven": self.unproven,
            "slow_moves_by_ply": dict(sorted(self.slow_by_ply.items())),
            "sources": dict(self.sources),
            "moves_checked": self.checked,
            "moves_keeping_score": self.kept,
            "games_from_a_position_not_lost": self.not_lost_faced,
            "of_them_lost": self.lost_games_from_not_lost,
        }


def _opponent(name: str, seed: int) -> Agent:
    return RandomPlayer(seed=seed) if name == "random" else EnginePlayer(level=int(name), seed=seed)


def play_games(
    tally: Tally,
    starts: list[tuple[str, int]],
    perfect: PerfectPlayer,
    judge: Judge,
    opening: int,
) -> None:
    """A game from each (opening moves, seed); the opponent's first ``opening`` moves are random."""
    with ProgressLine(len(starts), f"{tally.opponent} ({tally.side.name.lower()})", unit=" games") as bar:
        for moves, seed in starts:
            rng = random.Random(seed)
            opponent = _opponent(tally.opponent, seed)
            board = Board.from_moves(moves)
            faced_not_lost = False
            opponent_moves = 0
            while not board.is_over:
                if board.turn is tally.side:
                    start = time.perf_counter()
                    unproven = perfect.unproven
                    column = perfect.choose_move(board.copy())
                    elapsed = time.perf_counter() - start
                    tally.times.append(elapsed)
                    assert perfect.last is not None
                    tally.positions.append((elapsed, board.move_string, perfect.last.source))
                    if elapsed > SLOW_MOVE_S:
                        tally.slow_by_ply[board.move_count] += 1
                    tally.sources[perfect.last.source] += 1
                    tally.unproven += perfect.unproven - unproven
                    before, kept = judge.move_keeps_score(board, column)
                    tally.checked += 1
                    tally.kept += kept
                    faced_not_lost |= before >= 0
                elif opponent_moves < opening:
                    column = rng.choice(board.legal_moves())
                    opponent_moves += 1
                else:
                    column = opponent.choose_move(board.copy())
                    opponent_moves += 1
                board.play(column)
            tally.distinct.add(board.move_string)
            tally.wins += board.winner is tally.side
            tally.draws += board.winner is None
            lost = board.winner is tally.side.other
            tally.losses += lost
            tally.not_lost_faced += faced_not_lost
            tally.lost_games_from_not_lost += faced_not_lost and lost
            bar.advance(note=f"W{tally.wins} D{tally.draws} L{tally.losses}")


def _two_ply_openings(count: int | None, seed: int) -> list[str]:
    """The 49 two-ply openings ("11" ... "77"), or ``count`` of them drawn with ``seed``."""
    openings = [f"{first}{second}" for first in range(1, 8) for second in range(1, 8)]
    return openings if count is None else sorted(random.Random(seed).sample(openings, count))


def _by_ply(counts: Counter[int]) -> str:
    return " ".join(f"{ply}:{n}" for ply, n in sorted(counts.items())) or "-"


def _plan(text: str) -> list[tuple[str, int]]:
    plan = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, _, games = item.partition(":")
        plan.append((name, int(games or 10)))
    return plan


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--first",
        default="random,1,2,3,4,5,6,7",
        help="OPPONENT,... each played from every two-ply opening with perfect first",
    )
    parser.add_argument("--openings", type=int, default=None, help="N of the 49 openings (default all)")
    parser.add_argument("--second", default="random:40,7:40", help="OPPONENT:GAMES,... with perfect second")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds a move (default 60)")
    parser.add_argument("--table-mb", type=float, default=256, help="perfect's table (default 256)")
    parser.add_argument("--book", default=None, help="book file (default: the shipped book)")
    parser.add_argument(
        "--opening-plies", type=int, default=3, help="random first moves of a level opponent as first player"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", default=None, help="write the results here too")
    args = parser.parse_args(argv)
    book_path = Path(args.book) if args.book else default_book_path()
    book = OpeningBook.open(book_path) if book_path else None
    perfect = PerfectPlayer(book=book, limit=Limit(time=args.time_limit), table_size_mb=args.table_mb)
    judge = Judge(book, args.table_mb)
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=Path(__file__).parent
    ).stdout.strip()
    tallies = []
    openings = _two_ply_openings(args.openings, args.seed)
    for name in filter(None, (part.strip() for part in args.first.split(","))):
        tally = Tally(name, Player.FIRST)
        starts = [(moves, args.seed * 100_000 + index) for index, moves in enumerate(openings)]
        play_games(tally, starts, perfect, judge, 0)
        tallies.append(tally)
    for name, games in _plan(args.second):
        tally = Tally(name, Player.SECOND)
        starts = [("", args.seed * 100_000 + game) for game in range(games)]
        play_games(tally, starts, perfect, judge, 0 if name == "random" else args.opening_plies)
        tallies.append(tally)
    rows = [tally.row() for tally in tallies]
    print(f"machine: {platform.machine()} {platform.processor() or ''}  python {sys.version.split()[0]}")
    print(f"commit: {commit}  book: {book!r}  time limit: {args.time_limit}")
    print(
        "| perfect | opponent | games (distinct) | W/D/L | moves | median | p95 | p99 | max | unproven "
        "| moves > 1 s by ply | sources | moves checked: kept score |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for tally, row in zip(tallies, rows, strict=True):
        print(
            f"| {row['perfect_plays']} | {row['opponent']} | {row['games']} ({row['distinct_games']}) | "
            f"{row['wins']}/{row['draws']}/{row['losses']} | {row['moves']} | {row['median_ms']:.1f} ms | "
            f"{row['p95_ms']:.0f} ms | {row['p99_ms']:.0f} ms | {row['max_ms']:.0f} ms | {row['unproven']} | "
            f"{_by_ply(tally.slow_by_ply)} | {row['sources']} | "
            f"{row['moves_keeping_score']}/{row['moves_checked']} |"
        )
    everything = [entry for tally in tallies for entry in tally.positions]
    seconds = [entry[0] for entry in everything]
    games = sum(tally.games for tally in tallies)
    print(
        f"all: {games} games, {len(seconds)} moves: median {1000 * statistics.median(seconds):.1f} ms, "
        f"p99 {1000 * _percentile(seconds, 0.99):.0f} ms, max {1000 * max(seconds):.0f} ms"
    )
    slowest = sorted(everything, reverse=True)[:10]
    print(
        "slowest: " + ", ".join(f"{moves} {1000 * sec:.0f} ms ({source})" for sec, moves, source in slowest)
    )
    if args.json:
        summary = {"games": games, "slowest": slowest}
        Path(args.json).write_text(json.dumps({"commit": commit, "rows": rows, "all": summary}, indent=2))
    ok = all(t.kept == t.checked and t.lost_games_from_not_lost == 0 for t in tallies)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
