"""The run loop: a tuning run's games, its rounds, and :func:`tune`.

What a run is (:class:`~c4engine.experiments.tuning.config.TuneConfig`) lives
below, in :mod:`~c4engine.experiments.tuning.config`.

**Fitness** of a candidate is its score (win 1, draw 1/2) in games at a
fixed search depth against a fixed *reference pool*, each opening played
twice with the colours swapped (:func:`play_pair`).  **Budget** is in games,
and a hard bound: a round that would exceed it is cut to the candidates
that fit (a CMA-ES generation keeps at least half its population, what
``cma`` can learn from), or not started; a budget below one smallest round
is refused.
Games run by :class:`c4engine.jobs.JobRunner`, whose workers stay up for
the whole run.

A run is a function of its configuration: games are deterministic, a
fitness is a sum of exact halves (the order games finish in, or the number
of workers, changes nothing), and the optimiser is rebuilt from the stored
rounds when a run resumes, so a run stopped anywhere and resumed ends with
the games, weights and fitness values of an unbroken one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from c4engine.board import Board
from c4engine.errors import TuneError
from c4engine.experiments.tuning.config import TuneConfig
from c4engine.experiments.tuning.optimizers import Optimizer
from c4engine.experiments.tuning.parameters import ParameterSpace
from c4engine.experiments.tuning.store import CandidateResult, TuneStore
from c4engine.jobs import JobRunner
from c4engine.play.players import EnginePlayer
from c4engine.player import Player
from c4engine.search.limit import Limit

__all__ = ["PairJob", "TuneResult", "play_pair", "tune"]


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
    optimizer = config.make_optimizer(store.planned_budget())
    round_number, pending = _replay(optimizer, store)
    with JobRunner(workers, scheduler) as runner:
        while True:
            if pending is not None:
                candidates = pending
            else:
                affordable = (config.budget - store.games_played()) // config.games_per_candidate
                if affordable < config.smallest_round:
                    break
                candidates = optimizer.ask()[:affordable]
                store.save_asked(round_number, candidates, config.space)
            results = _play_round(config, store, round_number, candidates, runner, on_pair)
            optimizer.tell(candidates, [result.fitness for result in results])
            store.save_told(results)
            round_number += 1
            pending = None
    best = tuple(float(f"{value:.6g}") for value in config.space.from_unit(optimizer.best()))
    return TuneResult(config, best, tuple(store.results()), store.games_played(), round_number)


def _replay(optimizer: Optimizer, store: TuneStore) -> tuple[int, list[list[float]] | None]:
    """Bring a fresh ``optimizer`` to where the stored run left it: ask and tell every finished round.

    The optimiser is a function of its seed and the rounds it learnt, so this
    is the state an unbroken run had, whatever process or moment stopped the
    run.  Returns the number of finished rounds and the candidates of an
    unfinished last one (None if there is none).  Each round asked again
    must be the one stored: a checkpoint another version wrote is refused.
    """
    finished = 0
    for stored in store.rounds():
        asked = optimizer.ask()
        if stored.number != finished or stored.candidates != asked[: len(stored.candidates)]:
            raise TuneError(
                f"{store.path}: round {stored.number} is not the one this run asks again "
                f"(a checkpoint of another version of c4engine or cma?); {store.remedy}"
            )
        if stored.fitness is None:
            return finished, stored.candidates
        optimizer.tell(stored.candidates, stored.fitness)
        finished += 1
    return finished, None


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
