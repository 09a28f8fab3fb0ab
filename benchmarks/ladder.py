"""Measure the level ladder: matches between adjacent levels, an Elo table in Markdown.

    PYTHONPATH=src python benchmarks/ladder.py --games 100 --dir ladder-games > ladder.md

Plays ``random`` against level 1 and each level against the next one
(``c4engine.experiments.match``: paired random openings, colours swapped), keeps every
match in ``DIR/ladder-X-vs-Y.sqlite`` (so a stopped run resumes, and more
games can be added later with a larger ``--games``), and prints a Markdown
table: each level's recipe, its result against the level below, the Elo
difference with its 95 % interval, and the cumulative Elo with level 1 = 0.
The cumulative interval adds the pairs' variances (normal approximation in
Elo, each pair's half-width / 1.96 taken as its standard error).

``--games`` sets the games per pair; ``--pair-games X-Y=N`` overrides it for
one pair (e.g. ``6-7=300``).  A pair whose interval does not exclude 0 is
flagged: the levels are then not clearly ordered and need retuning.
"""

from __future__ import annotations

import argparse
import itertools
import math
import re
import sys
import time
from pathlib import Path

from c4engine.cli.progress import ProgressLine
from c4engine.experiments.match import MatchConfig, MatchStore, MatchSummary, play_match
from c4engine.play.levels import LEVELS, Level


def recipe_spec(entry: Level) -> str:
    """A level's recipe as a player spec (the match files are named after it, so a retuned level
    starts a new match instead of resuming the old one)."""
    limit = entry.limit
    spec = f"depth={limit.depth},evaluator={entry.evaluator},noise={entry.noise:g},time={limit.time:g}"
    return spec + (",exact=1" if entry.exact else "")


def _players(given: list[str]) -> list[str]:
    if given:
        return ["random", *given]
    return ["random", *(recipe_spec(entry) for entry in LEVELS)]


def _games_for(pair: str, default: int, overrides: dict[str, int]) -> int:
    return overrides.get(pair, default)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per adjacent pair (default 100)")
    parser.add_argument("--pair-games", action="append", default=[], metavar="X-Y=N", help="per-pair games")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--random-plies", type=int, default=4)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--dir", type=Path, default=Path("ladder-games"), help="where the match files go")
    parser.add_argument("--only", metavar="X-Y", action="append", default=[], help="play only these pairs")
    parser.add_argument(
        "--players", nargs="+", default=[], metavar="SPEC", help="candidate levels 1.. (default: levels.py)"
    )
    args = parser.parse_args()
    overrides = {}
    for item in args.pair_games:
        pair, _, count = item.partition("=")
        overrides[pair] = int(count)
    args.dir.mkdir(parents=True, exist_ok=True)
    players = _players(args.players)
    rows: list[tuple[int, str, str, MatchSummary, float]] = []
    for number, (lower, upper) in enumerate(itertools.pairwise(players), start=1):
        pair = f"{number - 1}-{number}"
        if args.only and pair not in args.only:
            continue
        # A = the higher level, so the Elo difference is its gain over the level below.
        config = MatchConfig(
            upper, lower, _games_for(pair, args.games, overrides), args.seed, args.random_plies
        )
        started = time.monotonic()
        with (
            MatchStore(args.dir / f"ladder-{_slug(lower)}-vs-{_slug(upper)}.sqlite") as store,
            ProgressLine(config.games, f"level {number} vs below", unit=" games") as bar,
        ):
            store.start(config)
            bar.done = sum(1 for index in store.games() if index < config.games)
            summary = play_match(config, store=store, workers=args.workers, on_game=lambda _: bar.advance())
        rows.append((number, lower, upper, summary, time.monotonic() - started))
        result = f"{summary.wins}-{summary.draws}-{summary.losses} {summary.elo()}"
        print(f"level {number} ({upper}) vs {lower}: {result}", file=sys.stderr, flush=True)
    print(_table(rows))
    return 0


def _slug(spec: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", spec)


def _table(rows: list[tuple[int, str, str, MatchSummary, float]]) -> str:
    lines = [
        "| level | player | vs level below: W-D-L (games) | Elo gain [95%] "
        "| Elo (level 1 = 0) [95%] | ms/move median / p95 / max |",
        "|---|---|---|---|---|---|",
    ]
    total, variance, open_ended = 0.0, 0.0, False
    unclear = []
    for number, _lower, upper, summary, _seconds in rows:
        estimate = summary.elo()
        times = summary.times(True)
        timing = f"{times.median * 1000:.1f} / {times.p95 * 1000:.0f} / {times.max * 1000:.0f}"
        if estimate.low <= 0 <= estimate.high:
            unclear.append(f"{number - 1}-{number}")
        if number == 1:
            cumulative = "0 (anchor)"
        else:
            if math.isinf(estimate.elo):
                total += estimate.low
                open_ended = True
            else:
                total += estimate.elo
                variance += ((estimate.high - estimate.low) / (2 * 1.959964)) ** 2
            spread = 1.959964 * math.sqrt(variance)
            mark = ">= " if open_ended else ""
            cumulative = f"{mark}{total:+.0f} [{total - spread:+.0f}, {total + spread:+.0f}]"
        lines.append(
            f"| {number} | {upper} "
            f"| {summary.wins}-{summary.draws}-{summary.losses} ({len(summary.games)}) "
            f"| {estimate} | {cumulative} | {timing} |"
        )
    if unclear:
        lines.append("")
        lines.append(f"NOT clearly ordered (interval contains 0): {', '.join(unclear)}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
