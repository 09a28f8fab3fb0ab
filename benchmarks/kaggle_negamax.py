"""Our strongest heuristic level against the ``negamax`` agent of Kaggle's ConnectX environment.

    pip install --no-deps kaggle-environments jsonschema referencing rpds-py \\
        jsonschema-specifications attrs requests
    PYTHONPATH=src python benchmarks/kaggle_negamax.py --games 100 --db kaggle-negamax.sqlite

(kaggle-environments' own dependency list pulls about 1.8 GB -- jax, transformers,
open_spiel ... -- none of which ConnectX needs, hence ``--no-deps``.)

The games are a ``c4engine.experiments.match`` match (colours alternate; ``--random-plies``
0 by default, so every game starts from the empty board as on Kaggle) between
a level (default: the strongest, ``c4engine.play.levels.LEVELS[-1]``: fixed depth,
no solver) and :class:`KaggleNegamax`, a thin adapter that hands Kaggle's
``negamax_agent`` the observation it expects (a row-major board, top row
first, 1 = first player, 2 = second; ``mark`` of the side to move).  Kaggle's
negamax breaks ties with ``random.choice``; the adapter makes that choice
with its own generator, seeded by the match for each game, so the games
differ and a match is reproducible.  Prints W/D/L, the share of games won,
the Elo difference and how many distinct games were played.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

from c4engine.board import Board
from c4engine.cli.progress import ProgressLine
from c4engine.experiments.match import MatchConfig, MatchStore, play_match
from c4engine.play.levels import LEVELS
from c4engine.player import Player


class KaggleNegamax:
    """Kaggle ConnectX's ``negamax_agent`` as a c4engine player."""

    is_human = False
    name = "kaggle negamax"

    def __init__(self, seed: int | None = None) -> None:
        from kaggle_environments.envs.connectx import connectx  # type: ignore[import-untyped]
        from kaggle_environments.utils import Struct  # type: ignore[import-untyped]

        self._module: Any = connectx
        self._struct: Any = Struct
        self._random = random.Random(seed)

    def choose_move(self, board: Board) -> int:
        columns, rows = board.width, board.height
        cells = [0] * (columns * rows)
        for column in range(columns):
            for row in range(rows):  # our row 0 is the bottom, Kaggle's the top
                owner = board.cell(column, row)
                if owner is not None:
                    cells[(rows - 1 - row) * columns + column] = 1 if owner is Player.FIRST else 2
        observation = self._struct(board=cells, mark=1 if board.turn is Player.FIRST else 2)
        configuration = self._struct(columns=columns, rows=rows, inarow=board.connect)
        self._module.choice = self._random.choice  # negamax_agent's tie-breaks, seeded per game
        return int(self._module.negamax_agent(observation, configuration))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--level", default=str(LEVELS[-1].number), help="our player (default: top level)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--random-plies", type=int, default=0)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--db", type=Path, default=Path("kaggle-negamax.sqlite"))
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))  # workers import this module by name
    config = MatchConfig(args.level, "kaggle_negamax:KaggleNegamax", args.games, args.seed, args.random_plies)
    with MatchStore(args.db) as store, ProgressLine(config.games, "vs negamax", unit=" games") as bar:
        store.start(config)
        bar.done = sum(1 for index in store.games() if index < config.games)
        summary = play_match(config, store=store, workers=args.workers, on_game=lambda _: bar.advance())
    print(summary.report())
    as_first = [game for game in summary.games if game.a_first]
    as_second = [game for game in summary.games if not game.a_first]
    for label, games in (("as first player", as_first), ("as second player", as_second)):
        wins = sum(game.score == 1.0 for game in games)
        draws = sum(game.score == 0.5 for game in games)
        print(f"level {args.level} {label}: {wins} wins, {draws} draws, {len(games) - wins - draws} losses")
    share = summary.wins / len(summary.games)
    print(f"won {summary.wins} of {len(summary.games)} games ({share:.1%})")
    print(f"distinct games: {len({game.moves for game in summary.games})}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
