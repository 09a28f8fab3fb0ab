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


def review(moves: str, seconds: float) -> tuple[float, float, dict[str, object]]:
    """The wall and CPU time of one ``c4 review MOVES --json`` in a fresh process, and its JSON.

    The CPU time (user + system of the process) is what a quiet machine's wall time comes near:
    on a machine shared with other work the wall time grows with the load.
    """
    env = dict(os.environ, NO_COLOR="1")
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "c4engine", "review", moves, "--json", "--time", str(seconds)],
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--time", type=float, default=1.0, help="c4 review --time (default 1, its default)")
    parser.add_argument("--from", dest="source", type=Path, help="read the games from this file")
    parser.add_argument("--save", type=Path, help="write the generated games to this file")
    args = parser.parse_args()
    if args.source is not None:
        games = [line.split()[0] for line in args.source.read_text().splitlines() if line.strip()]
    else:
        games = generate_games(args.games, args.seed)
        if args.save is not None:
            args.save.write_text("".join(game + "\n" for game in games))
    review("44", args.time)  # numba's cache and the book warm on disk, as for any user's second command
    print(f"{platform.node()} {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs")
    print(f"load before: {os.getloadavg()}")
    print(f"{'plies':>5} {'wall s':>7} {'cpu s':>6} {'exact':>5}  verdicts  moves")
    walls = []
    cpus = []
    all_exact = True
    for moves in games:
        wall, cpu, data = review(moves, args.time)
        walls.append(wall)
        cpus.append(cpu)
        plies = data["plies"]
        assert isinstance(plies, list)
        exact = bool(data["exact"])
        all_exact &= exact
        verdicts = Counter(str(ply["verdict"]) for ply in plies)
        counts = ", ".join(f"{verdict} {n}" for verdict, n in sorted(verdicts.items()))
        print(
            f"{len(plies):>5} {wall:>7.2f} {cpu:>6.2f} {'yes' if exact else 'NO':>5}  {counts}  {moves}",
            flush=True,
        )
    p50 = statistics.median(walls)
    print(f"load after: {os.getloadavg()}")
    print(
        f"{len(walls)} games: p50 {p50:.2f} s (goal {GOAL_P50_S}), "
        f"max {max(walls):.2f} s (goal {GOAL_MAX_S}), mean {statistics.fmean(walls):.2f} s; "
        f"CPU p50 {statistics.median(cpus):.2f} s, max {max(cpus):.2f} s; "
        f"every ply exact: {'yes' if all_exact else 'no'}"
    )


if __name__ == "__main__":
    main()
