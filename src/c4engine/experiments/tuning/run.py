"""The run loop: a tuning run's configuration, its games, its rounds, and :func:`tune`.

**Fitness** of a candidate is its score (win 1, draw 1/2) in games at a
fixed search depth against a fixed *reference pool*, each opening played
twice with the colours swapped (:func:`play_pair`).  **Budget** is in games,
and a hard bound: a round that would exceed it is cut to the candidates
that fit (a CMA-ES generation keeps at least half its population, what
``cma`` can learn from), or not started; a budget below one smallest round
is refused.
Games run by :class:`c4engine.jobs.JobRunner`, whose workers stay up for
the whole run.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from c4engine.board import Board, Player
from c4engine.errors import BudgetTooSmallError, TuneError
from c4engine.experiments.match import MatchConfig, opening
from c4engine.experiments.tuning.optimizers import Annealing, CmaEs, Optimizer
from c4engine.experiments.tuning.parameters import ParameterSpace
from c4engine.experiments.tuning.store import CandidateResult, TuneStore
from c4engine.jobs import JobRunner
from c4engine.play.players import EnginePlayer
from c4engine.search.limit import Limit

__all__ = ["METHODS", "PairJob", "TuneConfig", "TuneResult", "play_pair", "tune"]

METHODS = ("cma", "anneal")


@dataclass(frozen=True)
class PairJob:
    """Two games (both colours) of a candidate against one reference from one opening."""

    space: ParameterSpace
    candidate: tuple[float, ...]
    reference: tuple[float, ...]
    opening: tuple[int, ...]
    depth: int
    width: int
    height: int
    connect: int


def play_pair(job: PairJob) -> tuple[tuple[float, str], tuple[float, str]]:
    """The candidate's score (1, 1/2, 0) and the moves of each game: candidate first, then second.

    A module-level function: it runs on workers.
    """
    results = []
    for candidate_first in (True, False):
        candidate = EnginePlayer(limit=Limit(depth=job.depth), evaluator=job.space.evaluator(job.candidate))
        reference = EnginePlayer(limit=Limit(depth=job.depth), evaluator=job.space.evaluator(job.reference))
        first, second = (candidate, reference) if candidate_first else (reference, candidate)
        board = Board.from_moves(job.opening, job.width, job.height, job.connect)
        while not board.is_over:
            board.play((first if board.turn is Player.FIRST else second).choose_move(board))
        mine = Player.FIRST if candidate_first else Player.SECOND
        score = 0.5 if board.winner is None else 1.0 if board.winner is mine else 0.0
        results.append((score, board.move_string))
    return results[0], results[1]


@dataclass(frozen=True)
class TuneConfig:
    """A tuning run: what is tuned, from where, against whom, how, and how many games.

    ``start`` and every ``pool`` entry are value vectors of ``space`` (the
    pool entries with names, for reports).  ``openings`` is the number of
    opening pairs a candidate plays against each reference, so a candidate
    costs ``2 * openings * len(pool)`` games.
    """

    space: ParameterSpace
    start: tuple[float, ...]
    pool: tuple[tuple[str, tuple[float, ...]], ...]
    method: str = "cma"
    budget: int = 4000
    depth: int = 3
    openings: int = 8
    random_plies: int = 4
    seed: int = 0
    sigma: float = 0.15
    popsize: int | None = None
    width: int = 7
    height: int = 6
    connect: int = 4

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise TuneError(f"unknown method {self.method!r}: choose {' or '.join(METHODS)}")
        board = Board(self.width, self.height, self.connect)  # checks the size
        for name, minimum, value in (
            ("budget", 1, self.budget),
            ("depth", 1, self.depth),
            ("openings", 1, self.openings),
            ("random plies", 0, self.random_plies),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
                raise TuneError(f"the {name} must be a whole number of at least {minimum}, not {value!r}")
        if self.random_plies >= board.width * board.height - 1:
            raise TuneError(f"{self.random_plies} random plies leave no game on a {board.size} board")
        if not 0.0 < self.sigma <= 1.0:
            raise TuneError(f"sigma is a step in the unit cube, 0 < sigma <= 1, not {self.sigma}")
        if self.popsize is not None and self.popsize < 2:
            raise TuneError(f"the population needs at least 2 candidates, not {self.popsize}")
        if not self.pool:
            raise TuneError("the reference pool is empty")
        if self.budget < self.smallest_round * self.games_per_candidate:
            least = self.smallest_round * self.games_per_candidate
            raise BudgetTooSmallError(
                f"a games budget of {self.budget} is less than one round: {self.method} needs at least "
                f"{least} games ({self.smallest_round} x {self.games_per_candidate}); "
                "fewer openings or references make a round smaller"
            )
        object.__setattr__(self, "start", self.space.check(self.start))
        object.__setattr__(
            self, "pool", tuple((name, self.space.check(values)) for name, values in self.pool)
        )
        if self.space.kind == "windows" and (len(self.start) - 1) // 2 != self.connect - 1:
            raise TuneError(
                f"weights for connect {(len(self.start) + 1) // 2} cannot tune connect {self.connect}"
            )

    @property
    def games_per_candidate(self) -> int:
        return 2 * self.openings * len(self.pool)

    @property
    def smallest_round(self) -> int:
        """The fewest candidates a round may have (one for annealing)."""
        return CmaEs.smallest_round(len(self.start), self.popsize) if self.method == "cma" else 1

    def parameters(self) -> dict[str, Any]:
        """What identifies the run in its database (all but the budget, which may grow)."""
        values = asdict(self)
        del values["space"], values["budget"]
        values["space"] = {"kind": self.space.kind, "parameters": [asdict(p) for p in self.space.parameters]}
        plain: dict[str, Any] = json.loads(json.dumps(values))  # tuples as lists, as JSON gives them back
        return plain

    def make_optimizer(self) -> Optimizer:
        start = self.space.to_unit(self.start)
        if self.method == "cma":
            return CmaEs(start, self.sigma, self.seed, self.popsize)
        return Annealing(
            start, self.sigma, self.seed, steps=max(1, self.budget // self.games_per_candidate - 1)
        )

    def round_openings(self, round_number: int) -> list[tuple[int, ...]]:
        """The openings every candidate of round ``round_number`` plays (each twice, both colours)."""
        match = MatchConfig(
            "random", "random", 2, self.seed, self.random_plies, self.width, self.height, self.connect
        )
        first = round_number * self.openings
        return [opening(match, pair) for pair in range(first, first + self.openings)]


@dataclass(frozen=True)
class TuneResult:
    """What a run found: the best values (by the method's rule), every candidate, the games used."""

    config: TuneConfig
    best: tuple[float, ...]
    candidates: tuple[CandidateResult, ...] = field(default=())
    games: int = 0
    rounds: int = 0

    def curve(self) -> list[tuple[int, float, float]]:
        """Per round: games used by the end of it, mean and best fitness of its candidates."""
        points: list[tuple[int, float, float]] = []
        used = 0
        by_round: dict[int, list[CandidateResult]] = {}
        for candidate in self.candidates:
            by_round.setdefault(candidate.round, []).append(candidate)
        for round_number in sorted(by_round):
            entries = by_round[round_number]
            used += sum(entry.games for entry in entries)
            fitness = [entry.fitness for entry in entries]
            points.append((used, sum(fitness) / len(fitness), max(fitness)))
        return points


def tune(
    config: TuneConfig,
    *,
    store: TuneStore | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    on_pair: Callable[[int], None] | None = None,
) -> TuneResult:
    """Run (or resume, from ``store``) the tuning ``config`` describes until its game budget is spent.

    ``on_pair(games)`` is called after each finished pair of games (a
    progress bar).  Games run by :class:`c4engine.jobs.JobRunner`: ``workers=0``
    plays them in this process, ``N`` on N local processes (default one per
    CPU), ``scheduler`` on that Dask cluster.

    >>> from c4engine.experiments.tuning.parameters import reference_weights, window_space
    >>> space = window_space(3)
    >>> config = TuneConfig(space, space.values(reference_weights("bad", 3)),
    ...                     (("hand", space.values(reference_weights("hand", 3))),),
    ...                     method="anneal", budget=8, depth=1, openings=2, width=4, height=4, connect=3)
    >>> result = tune(config, workers=0)
    >>> result.games, result.rounds, len(result.best)
    (8, 2, 5)
    """
    store = store if store is not None else TuneStore(":memory:")
    store.start(config)
    state = store.state()
    if state is None:
        round_number, pending, optimizer = 0, False, config.make_optimizer()
    else:
        round_number, pending, optimizer = state
    with JobRunner(workers, scheduler) as runner:
        while True:
            if pending:
                candidates = store.asked(round_number)
            else:
                affordable = (config.budget - store.games_played()) // config.games_per_candidate
                if affordable < config.smallest_round:
                    break
                candidates = optimizer.ask()[:affordable]
                store.save_asked(round_number, optimizer, candidates, config.space)
            results = _play_round(config, store, round_number, candidates, runner, on_pair)
            optimizer.tell(candidates, [result.fitness for result in results])
            store.save_told(round_number, optimizer, results)
            round_number += 1
            pending = False
    best = tuple(float(f"{value:.6g}") for value in config.space.from_unit(optimizer.best()))
    return TuneResult(config, best, tuple(store.results()), store.games_played(), round_number)


def _play_round(
    config: TuneConfig,
    store: TuneStore,
    round_number: int,
    candidates: list[list[float]],
    runner: JobRunner,
    on_pair: Callable[[int], None] | None,
) -> list[CandidateResult]:
    """Play the round's missing pairs on ``runner`` and score its candidates."""
    openings = config.round_openings(round_number if config.method == "cma" else 0)
    values = [config.space.from_unit(unit) for unit in candidates]
    done = store.pairs(round_number)
    jobs: dict[tuple[int, int, int, int], PairJob] = {}
    for index, candidate in enumerate(values):
        for reference, (_name, reference_values) in enumerate(config.pool):
            for pair, moves in enumerate(openings):
                key = (round_number, index, reference, pair)
                if key not in done:
                    jobs[key] = PairJob(
                        config.space,
                        candidate,
                        reference_values,
                        moves,
                        config.depth,
                        config.width,
                        config.height,
                        config.connect,
                    )

    def finish(key: tuple[int, int, int, int], games: tuple[tuple[float, str], tuple[float, str]]) -> None:
        store.add_pair(key, games)
        done[key] = (games[0][0], games[1][0])
        if on_pair is not None:
            on_pair(2)

    keys = list(jobs)
    for index, games in runner.run(play_pair, jobs.values()):
        finish(keys[index], games)
    results = []
    for index, candidate in enumerate(values):
        scores = [score for key, both in done.items() if key[1] == index for score in both]
        wins, draws = scores.count(1.0), scores.count(0.5)
        results.append(
            CandidateResult(
                round_number,
                index,
                candidate,
                sum(scores) / len(scores),
                len(scores),
                wins,
                draws,
                len(scores) - wins - draws,
            )
        )
    return results
