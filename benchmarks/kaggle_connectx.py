"""c4engine's ConnectX agent in real kaggle-environments games against the built-in ``negamax``.

Needs the ConnectX part of kaggle-environments only::

    pip install --no-deps kaggle-environments && pip install jsonschema requests numpy
    python benchmarks/kaggle_connectx.py --games 50          # 50 games with each colour

It plays ``--games`` episodes with c4engine moving first and as many moving
second (standard 7x6 connect-4, Kaggle's default ``actTimeout`` of 2 s),
then ``--odd-games`` episodes of each colour on a non-standard
configuration (default 7 rows, 9 columns, 5 in a row) to completion, and
prints a Markdown summary: wins/draws/losses per colour, how the moves were
chosen (solver or engine), the slowest move against the limit, and any
episode that ended in an error, an invalid move or a time-out.
"""

from __future__ import annotations

import argparse
import platform
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from c4engine.cli.progress import ProgressLine


@dataclass
class Tally:
    results: Counter[str] = field(default_factory=Counter)
    statuses: Counter[str] = field(default_factory=Counter)
    sources: Counter[str] = field(default_factory=Counter)
    max_move: float = 0.0
    moves: int = 0
    plies: list[int] = field(default_factory=list)
    limit: float = 0.0
    max_by_source: dict[str, float] = field(default_factory=dict)


class _Tracked:
    """The default agent, noting how each of its moves was chosen."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.sources: list[str] = []

    def __call__(self, observation: Any, configuration: Any) -> int:
        from c4engine.integrations import kaggle

        column: int = self.agent(observation, configuration)
        assert kaggle._DEFAULT.last is not None
        self.sources.append(kaggle._DEFAULT.last.source)
        return column


def play(
    env_config: dict[str, Any], games: int, tally: dict[str, Tally], label: str, bar: ProgressLine
) -> None:
    import kaggle_environments

    from c4engine.integrations import kaggle

    for game in range(2 * games):
        ours = game % 2  # alternate colours
        env = kaggle_environments.make("connectx", configuration=env_config)
        tracked = _Tracked(kaggle.agent)
        agents: list[Any] = ["negamax", "negamax"]
        agents[ours] = tracked
        steps = env.run(agents)
        final = steps[-1]
        reward = final[ours].reward
        key = f"{label}, c4engine {'first' if ours == 0 else 'second'}"
        entry = tally.setdefault(key, Tally(limit=float(env.configuration.actTimeout)))
        entry.results["win" if reward == 1 else "loss" if reward == -1 else "draw"] += 1
        entry.statuses[f"{final[ours].status}/{final[1 - ours].status}"] += 1
        entry.sources.update(tracked.sources)
        entry.plies.append(len(steps) - 1)
        durations = [
            float(log[ours]["duration"])
            for log in env.logs
            if len(log) > ours and isinstance(log[ours], dict) and "duration" in log[ours]
        ]
        entry.moves += len(durations)
        entry.max_move = max([entry.max_move, *durations])
        for source, duration in zip(tracked.sources, durations, strict=False):
            entry.max_by_source[source] = max(entry.max_by_source.get(source, 0.0), duration)
        bar.advance(note=f"{key}: {dict(entry.results)}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=50, help="episodes per colour on 7x6 (default 50)")
    parser.add_argument("--odd-games", type=int, default=2, help="episodes per colour on the odd board")
    parser.add_argument("--odd", default="7,9,5", help="rows,columns,inarow of the odd board (7,9,5)")
    args = parser.parse_args()
    rows, columns, inarow = (int(part) for part in args.odd.split(","))
    commit = subprocess.run(  # now: the code this run imports
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=Path(__file__).parent
    ).stdout.strip()
    start = time.perf_counter()
    import_start = time.perf_counter()
    from c4engine.integrations import kaggle

    import_seconds = time.perf_counter() - import_start
    tally: dict[str, Tally] = {}
    total = 2 * (args.games + args.odd_games)
    with ProgressLine(total, "connectx", unit=" games") as bar:
        play({}, args.games, tally, "7x6 connect-4", bar)
        odd = {"rows": rows, "columns": columns, "inarow": inarow}
        play(odd, args.odd_games, tally, f"{columns}x{rows} connect-{inarow}", bar)
    elapsed = time.perf_counter() - start
    print(f"machine: {platform.processor() or platform.machine()}, python {sys.version.split()[0]}")
    print(f"date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, commit {commit}")
    print(
        f"import + warm-up of c4engine.integrations.kaggle: {import_seconds:.2f} s "
        f"(kernels {kaggle.WARM_UP_SECONDS:.2f} s); whole run {elapsed / 60:.1f} min"
    )
    print()
    print(
        "| games | won | drawn | lost | moves by solver / engine | slowest move / limit "
        "| slowest solver / engine move | end states |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for key, entry in tally.items():
        games = sum(entry.results.values())
        sources = f"{entry.sources['solver']} / {entry.sources['engine']}"
        states = ", ".join(f"{state} x{count}" for state, count in entry.statuses.items())
        print(
            f"| {key}: {games} | {entry.results['win']} | {entry.results['draw']} | {entry.results['loss']} "
            f"| {sources} | {entry.max_move:.3f} s / {entry.limit:g} s "
            f"| {entry.max_by_source.get('solver', 0):.3f} s / {entry.max_by_source.get('engine', 0):.3f} s "
            f"| {states} |"
        )
    standard = [entry for key, entry in tally.items() if key.startswith("7x6")]
    won = sum(entry.results["win"] for entry in standard)
    played = sum(sum(entry.results.values()) for entry in standard)
    print()
    print(f"7x6 against negamax: {won}/{played} won ({100 * won / max(1, played):.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
