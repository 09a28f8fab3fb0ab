"""``c4 tune``: tune the ``windows`` weights by self-play, then measure the gain in a validation match.

``c4 tune --start bad --games-budget 12000`` runs CMA-ES (or ``--method
anneal``) from the given weights against the reference pool, checkpointing
everything in ``--db`` (default named after the run's settings,
``tune-cma-7x6c4-d3-1a2b3c4d.sqlite``: the same command resumes a killed
run, another command starts its own), writes the weights to ``--out`` (JSON with metadata: board,
depth, method, budget, date, validation), the starting weights next to it
(``NAME-start.json``), the fitness curve as SVG (``NAME-curve.svg``), and
plays a validation match of ``--validate`` games (its own seed and
openings) between the tuned and the starting weights, printing the Elo
gain with its 95 % interval and a verdict (:func:`verdict_line`: unless
the tuned weights are measurably better, keep the start, and where it is).
A resumed run says so ("resumed from N games") and ends with the games,
weights and Elo of an unbroken one.  See :mod:`c4engine.experiments.tuning`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from c4engine.board import Board
from c4engine.cli.chart import line_chart_svg
from c4engine.cli.command import Command
from c4engine.cli.match import MAX_GAMES
from c4engine.cli.options import (
    add_board_options,
    add_worker_options,
    check_depth,
    check_output_path,
)
from c4engine.cli.progress import ProgressLine
from c4engine.errors import BudgetTooSmallError, C4Error, TuneError
from c4engine.experiments.elo import EloEstimate
from c4engine.experiments.match import MatchConfig, MatchStore, MatchSummary, play_match
from c4engine.experiments.tuning import (
    METHODS,
    TuneConfig,
    TuneResult,
    TuneStore,
    reference_weights,
    tune,
    window_space,
)
from c4engine.notation import parse_size
from c4engine.search.engine.weights import WindowWeights, load_weights

__all__ = ["COMMANDS", "TUNE", "curve_svg", "run_tune", "verdict", "verdict_line", "weights_argument"]


DEFAULT_POOL = "start,default,hand,areas"
MAX_OPENINGS = 100_000
"""The most opening pairs a candidate may play against each reference (already 200,000 games)."""
MAX_POPSIZE = 10_000
"""The largest CMA-ES population (cma builds its matrices for it at once)."""
VALIDATION_SEED_OFFSET = 1_000_003


def _tune_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--method", choices=METHODS, default="cma", help="optimiser (default cma)")
    parser.add_argument(
        "--start",
        default="default",
        metavar="WEIGHTS",
        help="starting weights: named (default, classic, areas, hand, flat, bad) or a FILE.json "
        "(if omitted: default)",
    )
    parser.add_argument(
        "--pool", default=DEFAULT_POOL, metavar="W1,W2,..", help=f"reference pool (default {DEFAULT_POOL})"
    )
    parser.add_argument(
        "--games-budget", type=int, default=4000, metavar="N", help="games to spend tuning (default 4000)"
    )
    parser.add_argument(
        "--depth", type=int, default=3, metavar="D", help="search depth of all games (default 3)"
    )
    parser.add_argument(
        "--openings",
        type=int,
        default=8,
        metavar="K",
        help="opening pairs per candidate and reference (default 8)",
    )
    parser.add_argument(
        "--random-plies", type=int, default=4, metavar="K", help="random opening moves (default 4)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of openings and optimiser (default 0)")
    parser.add_argument(
        "--sigma", type=float, default=0.15, help="initial step, unit-cube scale (default 0.15)"
    )
    parser.add_argument("--popsize", type=int, metavar="N", help="CMA-ES population (default: cma's)")
    add_board_options(parser)
    add_worker_options(parser, "the games")
    parser.add_argument(
        "--db",
        metavar="FILE",
        help="checkpoint (default: named after the run, tune-METHOD-WxHcN-dD-HASH.sqlite)",
    )
    parser.add_argument(
        "--out", default="tuned.json", metavar="FILE", help="weights file (default tuned.json)"
    )
    parser.add_argument(
        "--validate", type=int, default=200, metavar="N", help="validation games, 0 for none (default 200)"
    )
    parser.add_argument(
        "--validation-depth", type=int, metavar="D", help="search depth of the validation (default --depth)"
    )


def default_db(config: TuneConfig) -> Path:
    """The checkpoint of a run unless ``--db`` names one: its method, board, depth and a hash of the rest.

    Each run has its own, so two different ``c4 tune`` commands never meet in
    one file, and the same command finds its checkpoint again.
    """
    digest = hashlib.sha256(json.dumps(config.parameters(), sort_keys=True).encode()).hexdigest()[:8]
    return Path(
        f"tune-{config.method}-{config.width}x{config.height}c{config.connect}-d{config.depth}-{digest}.sqlite"
    )


def _db(args: argparse.Namespace, config: TuneConfig) -> Path:
    return Path(args.db) if args.db is not None else default_db(config)


def _kept(args: argparse.Namespace) -> str:
    """What an interrupted run keeps (``c4`` prints it): every finished game, in its checkpoint."""
    db = _db(args, _config(args))
    validation = f" (the validation's in {_sibling(db, '-validation-*.sqlite')})" if args.validate else ""
    return f"the finished games are kept in {db}{validation}"


def weights_argument(text: str, connect: int, start: WindowWeights | None = None) -> WindowWeights:
    """Weights named on the command line: ``start``, a file, or
    :func:`~c4engine.experiments.tuning.reference_weights`.

    >>> weights_argument("hand", 3)
    WindowWeights(own=(1.0, 10.0), opponent=(-1.0, -10.0), center=0.0)
    >>> weights_argument("nonsense", 4)
    Traceback (most recent call last):
    ...
    c4engine.errors.TuneError: unknown weights 'nonsense': use default, classic, areas, ...
    """
    name = text.strip()
    if name == "start":
        if start is None:
            raise TuneError("'start' names the starting weights, which cannot start themselves")
        weights = start
    elif name.lower().endswith(".json"):
        weights = load_weights(name)[0]
    else:
        weights = reference_weights(name, connect)
    weights.check_connect(connect)
    return weights


def _config(args: argparse.Namespace) -> TuneConfig:
    width, height = parse_size(args.size)
    Board(width, height, args.connect)  # a bad size or connect-N is named before the weights are built
    if not 1 <= args.games_budget <= MAX_GAMES:
        raise C4Error(f"--games-budget must be 1..{MAX_GAMES} games, not {args.games_budget}")
    if args.validate < 0:
        raise C4Error(f"--validate must be 0 or more, not {args.validate}")
    if args.validate > MAX_GAMES:
        raise C4Error(f"--validate must be at most {MAX_GAMES} games, not {args.validate}")
    check_depth(args.depth, "--depth", width, height)
    check_depth(args.validation_depth, "--validation-depth", width, height)
    if args.popsize is not None and not 2 <= args.popsize <= MAX_POPSIZE:
        raise C4Error(f"--popsize must be 2..{MAX_POPSIZE} candidates, not {args.popsize}")
    if args.openings > MAX_OPENINGS:  # fewer than 1: the run's own check says so
        raise C4Error(f"--openings must be at most {MAX_OPENINGS} pairs, not {args.openings}")
    space = window_space(args.connect) if args.connect >= 2 else window_space(2)
    try:
        start = weights_argument(args.start, args.connect)
    except C4Error as error:
        raise C4Error(f"--start: {error}") from None
    pool: list[tuple[str, tuple[float, ...]]] = []
    for name in (part.strip() for part in args.pool.split(",")):
        if not name:
            continue
        try:
            values = space.values(weights_argument(name, args.connect, start))
        except C4Error as error:
            raise C4Error(f"--pool: {error}") from None
        if all(values != existing for _other, existing in pool):
            pool.append((name, values))
    try:
        return TuneConfig(
            space,
            space.values(start),
            tuple(pool),
            method=args.method,
            budget=args.games_budget,
            depth=args.depth,
            openings=args.openings,
            random_plies=args.random_plies,
            seed=args.seed,
            sigma=args.sigma,
            popsize=args.popsize,
            width=width,
            height=height,
            connect=args.connect,
        )
    except BudgetTooSmallError as error:
        raise C4Error(f"--games-budget: {error}") from None


def curve_svg(result: TuneResult) -> str:
    """The fitness curve: mean and best score of each round against the pool, by games spent."""
    curve = result.curve()
    config = result.config
    return line_chart_svg(
        [
            ("best candidate of the round", [(games, best) for games, _mean, best in curve]),
            ("mean of the round", [(games, mean) for games, mean, _best in curve]),
        ],
        title=f"c4 tune {config.method}: {config.width}x{config.height} connect {config.connect}, "
        f"depth {config.depth}, pool {', '.join(name for name, _values in config.pool)}",
        x_label="games played",
        y_label="score against the pool",
        y_range=(0.0, 1.0),
    )


def _metadata(result: TuneResult, validation: MatchSummary | None) -> dict[str, Any]:
    config = result.config
    data: dict[str, Any] = {
        "board": f"{config.width}x{config.height}",
        "connect": config.connect,
        "depth": config.depth,
        "method": config.method,
        "budget": config.budget,
        "games": result.games,
        "rounds": result.rounds,
        "seed": config.seed,
        "openings": config.openings,
        "random_plies": config.random_plies,
        "start": config.space.weights(config.start).to_dict(),
        "pool": [name for name, _values in config.pool],
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    if validation is not None:
        elo = validation.elo()
        data["validation"] = {
            "opponent": "start",
            "depth": _validation_depth(validation.config.a),
            "games": len(validation.games),
            "seed": validation.config.seed,
            "wins": validation.wins,
            "draws": validation.draws,
            "losses": validation.losses,
            "elo": elo.elo,
            "low": elo.low,
            "high": elo.high,
            "verdict": verdict(elo),
        }
    return data


def verdict(elo: EloEstimate) -> str:
    """The validation's finding, tuned against start: better or worse only when the whole 95 %
    interval is on that side of 0.

    >>> from c4engine.experiments.elo import elo_difference
    >>> verdict(elo_difference(18, 0, 2)), verdict(elo_difference(2, 0, 18)), verdict(elo_difference(5, 0, 5))
    ('better', 'worse', 'no measurable difference')
    """
    if elo.low > 0:
        return "better"
    if elo.high < 0:
        return "worse"
    return "no measurable difference"


def verdict_line(elo: EloEstimate, out: Path, start_path: Path) -> str:
    """What the validation says of the tuned weights, plainly, and which file to use.

    >>> from c4engine.experiments.elo import elo_difference
    >>> print(verdict_line(elo_difference(2, 0, 18), Path("t.json"), Path("t-start.json")))
    ... # doctest: +NORMALIZE_WHITESPACE
    the tuned weights are WORSE than the start: keep the start,
    saved in t-start.json (--weights t-start.json), not t.json
    """
    found = verdict(elo)
    if found == "better":
        return f"the tuned weights are better than the start: use {out} (--weights {out})"
    keep = f"keep the start, saved in {start_path} (--weights {start_path}), not {out}"
    if found == "worse":
        return f"the tuned weights are WORSE than the start: {keep}"
    return f"the tuned weights are not measurably better than the start (the interval includes 0): {keep}"


def _validation_depth(spec: str) -> int:
    return int(spec.rpartition("@")[2])


def _sibling(path: Path, suffix: str) -> Path:
    return path.with_name(f"{path.stem}{suffix}")


def run_tune(args: argparse.Namespace) -> int:
    config = _config(args)
    out = check_output_path(args.out, "--out")
    db = check_output_path(str(_db(args, config)), "--db", sqlite=True)
    # every file the run writes, checked before the first game
    check_output_path(str(_sibling(out, "-start.json")), "--out's starting weights")
    check_output_path(str(_sibling(out, "-curve.svg")), "--out's curve")
    with TuneStore(db) as store:
        store.start(config)
        already = store.games_played()
        if already:
            print(f"resumed from {already} games stored in {db}", flush=True)
        with ProgressLine("tune", config.budget, done=already, unit=" games") as bar:
            result = tune(
                config,
                store=store,
                workers=args.workers,
                scheduler=args.scheduler,
                on_pair=lambda games: bar.advance(games),
            )
    weights = config.space.weights(result.best)
    start_path = _sibling(out, "-start.json")
    config.space.weights(config.start).save(start_path, {"depth": config.depth, "role": "start of c4 tune"})
    weights.save(out, _metadata(result, None))
    curve_path = _sibling(out, "-curve.svg")
    curve_path.write_text(curve_svg(result), encoding="utf-8")
    curve = result.curve()
    print(f"{config.method}: {result.games} games in {result.rounds} rounds (budget {config.budget})")
    if curve:
        print(
            f"score against the pool: first round best {curve[0][2]:.3f}, last round best {curve[-1][2]:.3f}"
        )
    print(f"tuned weights: {weights}")
    validation = None
    if args.validate:
        depth = args.validation_depth or config.depth
        match = MatchConfig(
            f"weights:{out}@{depth}",
            f"weights:{start_path}@{depth}",
            args.validate,
            config.seed + VALIDATION_SEED_OFFSET,
            config.random_plies,
            config.width,
            config.height,
            config.connect,
        )
        tag = hashlib.sha256(json.dumps(weights.to_dict()).encode()).hexdigest()[:8]
        validation_db = _sibling(db, f"-validation-{tag}.sqlite")
        with (
            MatchStore(validation_db) as match_store,
            ProgressLine("validation", args.validate, unit=" games") as bar,
        ):
            try:
                validation = play_match(
                    match,
                    store=match_store,
                    workers=args.workers,
                    scheduler=args.scheduler,
                    on_game=lambda _game: bar.advance(),
                )
            except C4Error as error:
                raise TuneError(
                    f"validation: {error} (remove {match_store.path} to start it afresh)"
                ) from error
        weights.save(out, _metadata(result, validation))
        print(
            f"validation, tuned against start at depth {depth}: +{validation.wins} ={validation.draws} "
            f"-{validation.losses}, Elo {validation.elo()}"
        )
        print(verdict_line(validation.elo(), out, start_path))
    else:
        print("not validated (--validate 0): nothing shows the tuned weights better than the start")
    print(f"weights in {out}, start in {start_path}, curve in {curve_path}, checkpoint in {db}")
    return 0


TUNE = Command(
    "tune",
    summary="tune the windows evaluator's weights by self-play",
    description="Tune the windows weights with CMA-ES or simulated annealing: each candidate plays "
    "paired games (both colours, common seeded openings) at a fixed depth against a reference pool. "
    "Checkpointed in SQLite: run the same command again to resume; it ends as an unbroken run would.  "
    "Ends with a validation match, tuned against starting weights, the Elo gain with a 95% interval "
    "and a verdict: unless the tuned weights are measurably better, keep the start (NAME-start.json).",
    epilog="Weights (--start, --pool): default, classic (the hand-made defaults before tuning), "
    "hand (1/10/100), areas (2^k), flat (all 1), bad (flat, centre sign-flipped), "
    "start (the starting weights), or a weights JSON file.",
    add_options=_tune_options,
    run=run_tune,
    defaults={"kept": _kept},
)
COMMANDS = (TUNE,)
