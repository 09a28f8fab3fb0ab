"""``c4 review MOVES --json`` on full 7x6 games between different levels: how long, and is every ply exact?

Generates ``--games`` games (30-42 plies) from seeded matches between pairs
of different levels (:func:`c4engine.experiments.match.play_game`, two
random opening plies), or reads them from ``--from FILE`` (one move string
a line; ``--save FILE`` writes the generated ones), then runs
``python -m c4engine review MOVES --json`` on each in a fresh process, as a
user would, and records the whole command's wall time, the plies, whether
every ply is exact and the verdicts.  The goal of issue 25: p50 <= 1.5 s,
max <= 5 s a game, every ply exact.

    python benchmarks/review_games.py --games 20 --save /tmp/games.txt
    python benchmarks/review_games.py --from benchmarks/review_games.txt   # the games of docs/benchmarks.md

The levels think within wall-clock budgets, so a loaded machine plays other
games from the same seeds: ``benchmarks/review_games.txt`` keeps the 20 games
measured in docs/benchmarks.md (seed 25).

``--against DIR`` compares this checkout with another one's ``src`` (say
main's, from ``git worktree add /tmp/main main``): each game is reviewed by
both, in turn (A B, then B A for the next game), so that the machine's load
hits both alike; it prints both sets of figures and the ratio of the
medians (this / other).  On a shared machine the ratio is the figure to
read, not the absolute times.

    python benchmarks/review_games.py --from benchmarks/review_games.txt --against /tmp/main/src

``--no-why`` leaves this checkout's reasons out (``c4 review --no-why``): against a commit from
before the coach's reasons, the same work on both sides.

``--threads N`` has every review search on N threads (``c4 review
--threads``; default: its own, every usable core); ``--against-threads M``
compares with M threads on the other side (with no ``--against``, this
checkout against itself):

    python benchmarks/review_games.py --from benchmarks/review_games.txt --threads 2 --against-threads 1
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from c4engine.experiments.match import MatchConfig, play_game

GOAL_P50_S = 1.5
GOAL_MAX_S = 5.0
PAIRS = (("2", "4"), ("3", "5"), ("4", "6"), ("2", "5"), ("3", "6"), ("4", "5"), ("2", "3"), ("5", "6"))
"""Level pairs, cycled: every game is between two different levels."""


def generate_games(count: int, seed: int) -> list[str]:
    """``count`` move strings of 30-42 plies from seeded matches between different levels."""
    games: list[str] = []
    attempt = 0
    while len(games) < count:
        a, b = PAIRS[attempt % len(PAIRS)]
        config = MatchConfig(a, b, games=2, seed=seed + attempt, random_plies=2)
        outcome = play_game(config, attempt % 2)
        attempt += 1
        if 30 <= len(outcome.moves) <= 42:
            games.append(outcome.move_string())
            print(f"game {len(games)}: levels {a} v {b}, {len(outcome.moves)} plies", file=sys.stderr)
        if attempt > 20 * count:
            raise SystemExit(f"found only {len(games)} games of 30-42 plies")
    return games


def review(
    moves: str,
    seconds: float,
    src: Path | None = None,
    threads: int | None = None,
    extra: tuple[str, ...] = (),
) -> tuple[float, float, dict[str, object]]:
    """The wall and CPU time of one ``c4 review MOVES --json`` in a fresh process, and its JSON.

    The CPU time (user + system of the process) is what a quiet machine's wall time comes near:
    on a machine shared with other work the wall time grows with the load.  ``src``: the c4engine
    of that ``src`` directory instead of the installed one; ``threads``: ``--threads``, if given.
    """
    env = dict(os.environ, NO_COLOR="1")
    if src is not None:
        env["PYTHONPATH"] = str(src)
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "c4engine", "review", moves, "--json", "--time", str(seconds)]
        + ([] if threads is None else ["--threads", str(threads)])
        + list(extra),
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return wall, cpu, data


WARM_UP = "2643444442122665"
"""A game the review cannot prove in a hundredth of a second a ply: its analyses load the solver and
the engine (compiling them, the first time for a checkout)."""


def warm_up(src: Path | None) -> None:
    """Compile and cache what a review loads, for the checkout of ``src`` (None: this one), as for any
    user's second command: the first command after an install compiles numba's kernels."""
    review(WARM_UP, 0.01, src)


@dataclass
class Figures:
    """What one checkout's reviews measured: wall and CPU seconds per game, and which were all exact."""

    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    exact: list[bool] = field(default_factory=list)

    def add(self, wall: float, cpu: float, data: dict[str, object]) -> None:
        self.walls.append(wall)
        self.cpus.append(cpu)
        # the JSON's format 1 (checkouts from before issue 35) called it "exact"
        self.exact.append(bool(data["proven"] if "proven" in data else data["exact"]))

    def summary(self) -> str:
        p50 = statistics.median(self.walls)
        return (
            f"{len(self.walls)} games: p50 {p50:.2f} s (goal {GOAL_P50_S}), "
            f"max {max(self.walls):.2f} s (goal {GOAL_MAX_S}), mean {statistics.fmean(self.walls):.2f} s; "
            f"CPU p50 {statistics.median(self.cpus):.2f} s, max {max(self.cpus):.2f} s; "
            f"every ply exact in {sum(self.exact)} of {len(self.exact)} games"
        )


def _verdicts(data: dict[str, object]) -> str:
    plies = data["plies"]
    assert isinstance(plies, list)
    verdicts = Counter(str(ply["verdict"]) for ply in plies)
    return ", ".join(f"{verdict} {n}" for verdict, n in sorted(verdicts.items()))


@dataclass(frozen=True)
class Side:
    """One side of a comparison: the c4engine of a ``src`` directory (None: this one), on ``threads``."""

    src: Path | None
    threads: int | None
    extra: tuple[str, ...] = ()
    """More options of ``c4 review`` (``--no-why``)."""

    def __str__(self) -> str:
        threads = "" if self.threads is None else f", --threads {self.threads}"
        return f"{self.src or 'this checkout'}{threads}{''.join(' ' + option for option in self.extra)}"


def compare(games: list[str], seconds: float, mine: Side, other: Side) -> None:
    """Each game reviewed by both sides, in alternating order."""
    warm_up(other.src)
    print(f"{'plies':>5} {'this s':>7} {'other s':>7} {'cpu':>5} {'cpu':>5} {'exact':>6}  moves")
    this, that = Figures(), Figures()
    for number, moves in enumerate(games):
        order = [(mine, this), (other, that)]
        for side, figures in order if number % 2 == 0 else reversed(order):
            figures.add(*review(moves, seconds, side.src, side.threads, side.extra))
        exact = "/".join("yes" if figures.exact[-1] else "NO" for figures in (this, that))
        print(
            f"{len(moves):>5} {this.walls[-1]:>7.2f} {that.walls[-1]:>7.2f} {this.cpus[-1]:>5.2f} "
            f"{that.cpus[-1]:>5.2f} {exact:>6}  {moves}",
            flush=True,
        )
    print(f"load after: {os.getloadavg()}")
    print(f"this:  {this.summary()} ({mine})")
    print(f"other: {that.summary()} ({other})")
    print(
        f"ratio this/other: wall p50 {statistics.median(this.walls) / statistics.median(that.walls):.2f}, "
        f"wall max {max(this.walls) / max(that.walls):.2f}, "
        f"CPU p50 {statistics.median(this.cpus) / statistics.median(that.cpus):.2f}, "
        f"total wall {sum(this.walls) / sum(that.walls):.2f}, total CPU {sum(this.cpus) / sum(that.cpus):.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--time", type=float, default=1.0, help="c4 review --time (default 1, its default)")
    parser.add_argument("--from", dest="source", type=Path, help="read the games from this file")
    parser.add_argument("--save", type=Path, help="write the generated games to this file")
    parser.add_argument("--against", type=Path, help="compare with the c4engine of this src directory")
    parser.add_argument("--threads", type=int, help="c4 review --threads (default: its own)")
    parser.add_argument("--against-threads", type=int, help="the other side's --threads")
    parser.add_argument(
        "--no-why",
        action="store_true",
        help="this checkout's reviews without the coach's reasons (c4 review --no-why)",
    )
    args = parser.parse_args()
    if args.source is not None:
        games = [line.split()[0] for line in args.source.read_text().splitlines() if line.strip()]
    else:
        games = generate_games(args.games, args.seed)
        if args.save is not None:
            args.save.write_text("".join(game + "\n" for game in games))
    warm_up(None)
    print(f"{platform.node()} {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs")
    print(f"load before: {os.getloadavg()}")
    extra = ("--no-why",) if args.no_why else ()
    if args.against is not None or args.against_threads is not None:
        mine = Side(None, args.threads, extra)
        compare(games, args.time, mine, Side(args.against, args.against_threads))
        return
    print(f"{'plies':>5} {'wall s':>7} {'cpu s':>6} {'exact':>5}  verdicts  moves")
    figures = Figures()
    for moves in games:
        wall, cpu, data = review(moves, args.time, threads=args.threads, extra=extra)
        figures.add(wall, cpu, data)
        exact = "yes" if figures.exact[-1] else "NO"
        print(f"{len(moves):>5} {wall:>7.2f} {cpu:>6.2f} {exact:>5}  {_verdicts(data)}  {moves}", flush=True)
    print(f"load after: {os.getloadavg()}")
    print(figures.summary())


if __name__ == "__main__":
    main()
