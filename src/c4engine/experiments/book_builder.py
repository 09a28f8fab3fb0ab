"""Building opening books: enumerate, solve the leaves in parallel, back the scores up.

:func:`build_book` enumerates every position reachable in at most
``depth`` plies that is not already over (one per mirror pair), solves the
positions at ply ``depth`` (the *leaves*) with the exact solver, batched
many to a job so each worker keeps one :class:`~c4engine.search.solver.exact.Solver` and
its transposition table, and scores every shallower position by negamax
over its children -- nothing above the leaves is solved.

Every finished leaf is recorded in a SQLite *checkpoint* (canonical key ->
score) as its batch comes back, so a killed build loses only the batches
in flight: run the same command again and it solves only what is missing,
ending with the same bytes as an uninterrupted run.  The checkpoint keeps
every solved position whatever the depth, so a book can be extended (build
``depth + 1`` with the same checkpoint) without solving anything twice.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> stats = build_book(folder / "b.c4b", 2, width=4, height=4, connect=3,
...                    checkpoint=folder / "b.sqlite", workers=0)
>>> stats.positions, stats.leaves, stats.solved
(11, 8, 8)
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, TypeVar

from c4engine.board import Board
from c4engine.errors import BookError
from c4engine.experiments.book_checkpoint import Checkpoint, default_checkpoint_path
from c4engine.experiments.book_positions import (
    Position,
    back_up,
    children,
    enumerate_positions,
    negamax,
    win_score_at,
)
from c4engine.geometry import Geometry
from c4engine.jobs import parallelism, run_jobs
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.book.file import require_book_size, write_book
from c4engine.search.results import DEFAULT_TABLE_MB

if TYPE_CHECKING:  # the solver (numba) is imported by the workers that solve: c4 book info needs none
    from c4engine.search.solver.exact import Solver

__all__ = [
    "BuildEstimate",
    "BuildProgress",
    "BuildStats",
    "Checkpoint",
    "LeafProgress",
    "PolicyProgress",
    "PolicySpan",
    "build_book",
    "default_checkpoint_path",
    "enumerate_positions",
    "solve_batch",
    "solve_policy_batch",
    "solve_positions",
    "walk_policy",
]

DEFAULT_BATCH = 32
DEFAULT_POLICY_BATCH = 1
"""Policy positions per job: each costs seconds, so one a job keeps an interruption's loss small."""
DEFAULT_WORKER_TABLE_MB = DEFAULT_TABLE_MB

ESTIMATE_SAMPLE = 4
"""Leaves solved first, spread over all, for the estimate of a build's length (at least one a worker)."""


@dataclass(frozen=True)
class LeafProgress:
    """How far the leaves of a build are (:func:`build_book`'s ``on_progress``).

    ``kept`` leaves had their score before this run (from the checkpoint,
    or backed up from deeper leaves it holds); ``solved`` were solved by this
    run so far, in ``cpu_seconds``.
    """

    leaves: int
    kept: int
    solved: int
    cpu_seconds: float

    @property
    def done(self) -> int:
        """Leaves with a score: the kept and the solved."""
        return self.kept + self.solved

    @property
    def to_solve(self) -> int:
        """Leaves this run solves, in all."""
        return self.leaves - self.kept


@dataclass(frozen=True)
class BuildEstimate:
    """An estimate of how long the leaves of a build take, from a sample of them solved first.

    ``sampled`` leaves, spread evenly over the ``to_solve`` this run solves,
    took ``cpu_per_leaf`` CPU seconds each on average; ``parallel`` jobs run
    at once.  Leaf costs are heavy-tailed (docs/benchmarks-log.md: real builds
    took up to 2.4 times what samples of the same leaves said), so this is a
    guide, not a promise.

    >>> estimate = BuildEstimate(to_solve=568, sampled=4, cpu_per_leaf=10.0, parallel=2)
    >>> estimate.cpu_seconds, estimate.wall_seconds
    (5680.0, 2840.0)
    """

    to_solve: int
    sampled: int
    cpu_per_leaf: float
    parallel: int

    @property
    def cpu_seconds(self) -> float:
        """CPU time of all the leaves to solve, the sample included."""
        return self.cpu_per_leaf * self.to_solve

    @property
    def wall_seconds(self) -> float:
        """The time they take with ``parallel`` jobs at once, each on a core of its own (a busy
        machine takes longer)."""
        return self.cpu_seconds / self.parallel


BuildProgress = Callable[[LeafProgress], None]
"""``on_progress(progress)`` of :func:`build_book`."""
BuildEstimated = Callable[[BuildEstimate], None]
"""``on_estimate(estimate)`` of :func:`build_book`, told once the sample is solved."""
PolicyProgress = Callable[[int, int, int, float], None]
"""``on_policy_progress(ply, solved, positions, cpu_seconds)`` of :func:`build_book`, per policy ply."""

Item = TypeVar("Item")


# ------------------------------------------------------------------- jobs

_local = threading.local()


def _worker_solver(table_mb: float, weak: bool) -> Solver:
    """One solver per worker process (per thread on an in-process Dask worker), kept across jobs."""
    from c4engine.search.solver.exact import Solver

    solver: Solver | None = getattr(_local, "solver", None)
    if solver is None or getattr(_local, "config", None) != (table_mb, weak):
        solver = Solver(table_size_mb=table_mb, weak=weak)
        _local.solver = solver
        _local.config = (table_mb, weak)
    return solver


def solve_batch(
    width: int, height: int, connect: int, weak: bool, table_mb: float, batch: Sequence[tuple[int, bytes]]
) -> list[tuple[int, int, float]]:
    """Solve (canonical key, moves) positions with this worker's solver: (key, score, CPU seconds) each.

    A module-level function with plain arguments, so process pools and Dask can ship it.

    >>> solve_batch(4, 4, 3, False, 8, [(0, b"")])[0][:2]
    (0, 4)
    """
    solver = _worker_solver(table_mb, weak)
    results = []
    for key, moves in batch:
        board = Board.from_moves(list(moves), width, height, connect)
        start = time.process_time()
        result = solver.solve(board, best_move=False)
        if result.score is None:  # pragma: no cover - no limit is set
            raise BookError(f"position {board.move_string}: the solver stopped without a score")
        results.append((key, result.score, time.process_time() - start))
    return results


PolicyJob = tuple[int, bytes, int | None, int | None]
"""(position key, moves, the position's score when known, a score proved for it or None)."""


def solve_policy_batch(
    width: int, height: int, connect: int, table_mb: float, batch: Sequence[PolicyJob]
) -> list[tuple[int, int, int, float]]:
    """The perfect player's move in each position: (key, score, column, CPU seconds) each.

    The perfect player's own question, asked of an analyst on this worker's solver: the most
    central move keeping the known score (:meth:`~c4engine.search.analysis.analyst.Analyst.move_reaching`),
    else the score found from the floor as the player finds it -- one null-window search when the
    floor is the score -- and the move keeping it
    (:meth:`~c4engine.search.analysis.analyst.Analyst.keeping_move`).

    >>> solve_policy_batch(4, 4, 3, 8, [(0, b"", None, None)])[0][:3]
    (0, 4, 1)
    """
    analyst = Analyst(None, solver=_worker_solver(table_mb, False))
    results = []
    for key, moves, known, floor in batch:
        board = Board.from_moves(list(moves), width, height, connect)
        start = time.process_time()
        score: int | None = known
        column: int | None = None
        if known is not None:
            column = analyst.move_reaching(board, known)
        else:
            kept = analyst.keeping_move(board, floor=floor)
            score, column = kept.lower, kept.column if kept.proven else None
        if score is None or column is None:  # pragma: no cover - no limit is set
            raise BookError(f"position {board.move_string}: the search stopped without a move")
        results.append((key, score, column, time.process_time() - start))
    return results


def _batches(items: Sequence[Item], size: int) -> list[list[Item]]:
    return [list(items[start : start + size]) for start in range(0, len(items), size)]


def solve_positions(
    geometry: Geometry,
    weak: bool,
    positions: Sequence[tuple[int, bytes]],
    *,
    table_mb: float,
    batch_size: int,
    workers: int | None,
    scheduler: str | None,
) -> Iterator[list[tuple[int, int, float]]]:
    """Solve (canonical key, moves) ``positions`` in batches: each batch's results as it returns.

    The batches run by :func:`c4engine.jobs.run_jobs` (``workers=0``: in
    this process, one after the other), in order as far as the workers
    allow, so siblings travel together.
    """
    batches = _batches(positions, batch_size)
    for _index, results in _solve_batches(geometry, weak, batches, table_mb, workers, scheduler):
        yield results


def _solve_batches(
    geometry: Geometry,
    weak: bool,
    batches: Sequence[Sequence[tuple[int, bytes]]],
    table_mb: float,
    workers: int | None,
    scheduler: str | None,
) -> Iterator[tuple[int, list[tuple[int, int, float]]]]:
    """``(index, results)`` of each batch of (canonical key, moves) positions, as it returns."""
    solve = partial(solve_batch, geometry.width, geometry.height, geometry.connect, weak, table_mb)
    yield from run_jobs(solve, batches, workers, scheduler)


@dataclass(frozen=True)
class PolicySpan:
    """The perfect player's own moves to store, for a policy book.

    From every position of ply ``start`` (every opening of that length), as
    the side to move there, the walk stores the player's move at each of its
    turns up to ply ``end``, against every reply of the opponent.
    Written ``START:END``: ``2:8`` (first player, from the 49 two-ply
    openings), ``1:9`` (second player, from every first move).
    """

    start: int
    end: int

    @classmethod
    def parse(cls, text: str) -> PolicySpan:
        """``"2:8"`` -> ``PolicySpan(2, 8)``; anything else is a :class:`BookError`.

        >>> PolicySpan.parse("1:9")
        PolicySpan(start=1, end=9)
        """
        first, colon, last = text.partition(":")
        if not (colon and first.isdigit() and last.isdigit()) or int(last) < int(first):
            raise BookError(f"a policy span is START:END plies with START <= END, like 2:8, not {text!r}")
        return cls(int(first), int(last))


@dataclass(frozen=True)
class BuildStats:
    """What a build did: entries written, leaves (reused + solved now) and the solving time.

    ``policy`` counts the entries the policy added beyond the full book
    (the player's positions and its moves' results), ``policy_solved`` the
    positions searched now (the others came from the checkpoint).
    """

    depth: int
    positions: int
    leaves: int
    solved: int
    reused: int
    cpu_seconds: float
    wall_seconds: float
    per_ply: tuple[int, ...]
    policy: int = 0
    policy_solved: int = 0


def build_book(
    output: str | os.PathLike[str],
    depth: int,
    *,
    width: int = 7,
    height: int = 6,
    connect: int = 4,
    weak: bool = False,
    checkpoint: str | os.PathLike[str] | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    batch_size: int | None = None,
    table_mb: float = DEFAULT_WORKER_TABLE_MB,
    on_progress: BuildProgress | None = None,
    on_estimate: BuildEstimated | None = None,
    policy: Sequence[PolicySpan] = (),
    on_policy_progress: PolicyProgress | None = None,
) -> BuildStats:
    """Build the book of every position up to ``depth`` plies and write it to ``output``.

    ``checkpoint`` (default ``output + ".sqlite"``) records solved leaves;
    positions already there are not solved again.  The leaves are solved
    by :func:`c4engine.jobs.run_jobs`: ``workers=0`` in this process, ``N``
    on N local processes (default one per CPU), ``scheduler`` on that Dask
    cluster.  ``on_progress`` is told, once the leaves are known and after
    each batch, how far they are (:class:`LeafProgress`: the kept ones
    count; ``c4 book build`` draws its bar from it).  With ``on_estimate``,
    a few leaves spread over all (:data:`ESTIMATE_SAMPLE`, at least one a
    worker) are solved first and the :class:`BuildEstimate` made from them
    is told as soon as they are in, while the others are solved.
    ``policy`` adds, beyond ``depth``, the perfect player's moves over
    those spans (:class:`PolicySpan`, :func:`walk_policy`; a strong book
    only), and ``on_policy_progress`` follows each ply of it the same way.
    """
    require_book_size(width, height)
    _check_policy(policy, weak, depth)
    geometry = Geometry.of(width, height, connect)
    started = time.perf_counter()
    levels = enumerate_positions(width, height, connect, depth)
    store = Checkpoint(checkpoint or default_checkpoint_path(output), width, height, connect, weak)
    try:
        known = store.scores()
        leaves = levels[-1]
        _back_up_from_deeper(leaves, known, geometry, weak, depth)
        todo = [(key, moves) for key, (_c, _m, moves) in leaves.items() if key not in known]
        reused = len(leaves) - len(todo)
        size = batch_size or _default_batch(len(todo), workers, scheduler)
        if size < 1:
            raise BookError(f"batch size must be at least 1, not {size}")
        run = _LeafRun(geometry, weak, table_mb, workers, scheduler, on_progress, on_estimate)
        cpu = run.solve(todo, known, store, len(leaves), reused, size)
        scores = back_up(levels, known, geometry, weak)
        sparse_depth = policy_solved = 0
        extra: dict[int, int] = {}
        if policy:
            job = partial(solve_policy_batch, width, height, connect, table_mb)
            batches = batch_size or DEFAULT_POLICY_BATCH
            policy_run = _PolicyRun(job, batches, workers, scheduler, on_policy_progress, cpu)
            extra, sparse_depth = walk_policy(levels, scores, policy, geometry, store, policy_run)
            cpu, policy_solved = policy_run.cpu, policy_run.solved
        write_book(
            output,
            scores | extra,
            width=width,
            height=height,
            connect=connect,
            depth=depth,
            weak=weak,
            sparse_depth=sparse_depth,
        )
    finally:
        store.close()
    return BuildStats(
        depth,
        len(scores) + len(extra),
        len(leaves),
        len(todo),
        reused,
        cpu,
        time.perf_counter() - started,
        tuple(len(level) for level in levels),
        len(extra),
        policy_solved,
    )


PolicyResults = list[tuple[int, int, int, float]]
Frontier = dict[int, tuple[int, int, bytes, int | None]]
"""position key -> (current, mask, moves, a score the perfect player's last move kept, or None)."""


def _check_policy(policy: Sequence[PolicySpan], weak: bool, depth: int) -> None:
    """Refuse a policy a build cannot follow: on a weak book, or starting deeper than the book."""
    if policy and weak:
        raise BookError("a policy needs exact scores: build a strong book")
    for span in policy:
        if span.start > depth:
            raise BookError(f"a policy span starts at ply {span.start}, deeper than the book's depth {depth}")


@dataclass(frozen=True)
class _LeafRun:
    """How a build solves its leaves: on which workers, with what table, telling whom how far it is."""

    geometry: Geometry
    weak: bool
    table_mb: float
    workers: int | None
    scheduler: str | None
    on_progress: BuildProgress | None
    on_estimate: BuildEstimated | None

    def solve(
        self,
        todo: list[tuple[int, bytes]],
        known: dict[int, int],
        store: Checkpoint,
        leaves: int,
        reused: int,
        size: int,
    ) -> float:
        """Solve the leaves ``todo`` (canonical key, moves) in batches of ``size``, the estimate's sample
        first, each batch recorded in ``store`` and ``known`` as it returns: the CPU seconds spent.
        ``leaves`` and ``reused`` count all the leaves and those already known, for the progress."""
        on_progress, on_estimate = self.on_progress, self.on_estimate
        cpu = 0.0
        solved = 0
        if on_progress is not None:
            on_progress(LeafProgress(leaves, reused, solved, cpu))
        parallel = parallelism(self.workers, self.scheduler)
        sample = _spread(todo, max(ESTIMATE_SAMPLE, parallel)) if on_estimate is not None else []
        sampled, sample_cpu = 0, 0.0
        chosen = set(sample)
        batches = [[leaf] for leaf in sample] + _batches([leaf for leaf in todo if leaf not in chosen], size)
        found = _solve_batches(self.geometry, self.weak, batches, self.table_mb, self.workers, self.scheduler)
        for index, results in found:
            store.add((key, score) for key, score, _seconds in results)
            for key, score, seconds in results:
                known[key] = score
                cpu += seconds
            solved += len(results)
            if index < len(sample):
                sampled += 1
                sample_cpu += results[0][2]
                if sampled == len(sample) and on_estimate is not None:
                    on_estimate(BuildEstimate(len(todo), sampled, sample_cpu / sampled, parallel))
            if on_progress is not None:
                on_progress(LeafProgress(leaves, reused, solved, cpu))
        return cpu


@dataclass
class _PolicyRun:
    """How a build solves its policy's positions (:func:`walk_policy`'s ``solve``): ``job`` over
    batches of ``batch_size`` on the workers, counting the CPU seconds (from ``cpu``, the leaves')
    and the positions ``solved``, telling ``on_policy_progress`` how far each ply is."""

    job: Callable[[Sequence[PolicyJob]], PolicyResults]
    batch_size: int
    workers: int | None
    scheduler: str | None
    on_policy_progress: PolicyProgress | None
    cpu: float
    solved: int = 0

    def __call__(self, jobs: list[PolicyJob], on_done: Callable[[PolicyResults], None]) -> None:
        ply, done = len(jobs[0][1]), 0
        if self.on_policy_progress is not None:
            self.on_policy_progress(ply, done, len(jobs), self.cpu)
        batches = _batches(jobs, self.batch_size)
        for _index, results in run_jobs(self.job, batches, self.workers, self.scheduler):
            on_done(results)
            self.cpu += sum(result[3] for result in results)
            done += len(results)
            self.solved += len(results)
            if self.on_policy_progress is not None:
                self.on_policy_progress(ply, done, len(jobs), self.cpu)


def walk_policy(
    levels: Sequence[dict[int, Position]],
    scores: Mapping[int, int],
    spans: Sequence[PolicySpan],
    geometry: Geometry,
    store: Checkpoint,
    solve: Callable[[list[PolicyJob], Callable[[PolicyResults], None]], None],
) -> tuple[dict[int, int], int]:
    """The policy entries beyond the full book (canonical key -> score) and their deepest ply.

    Ply by ply, over each span: at the perfect player's turn, its move (from
    the book's scores while the book scores every child, else from the
    checkpoint or, for what is missing, from ``solve``, which runs
    :func:`solve_policy_batch` jobs and calls back with their results);
    at the opponent's, every reply.  The entries are the score of each of
    the player's positions beyond the book and of the position its move
    leaves: exactly what :meth:`OpeningBook.keeping_move` needs.  The
    opponent's replies after a move that kept ``s`` leave at least ``s``:
    the next solve starts from it, as the player's does.

    Positions are walked in both orientations (a position and its mirror
    image apart): the centre-first choice among equal moves is not
    symmetric, and the walk must make the player's own choices.  Then at
    each walked position the player's move is the most central that keeps
    the score, the book holds its result, and any other child the book
    holds that keeps the score is less central: the book's move
    (:meth:`OpeningBook.keeping_move`) is the one the player would search for.
    """
    depth = len(levels) - 1
    choices = store.policy()
    frontiers: list[Frontier] = [{} for _ in spans]
    entries: dict[int, int] = {}
    deepest = 0
    for ply in range(min(span.start for span in spans), max(span.end for span in spans) + 1):
        turns: Frontier = {}
        for index, span in enumerate(spans):
            if ply == span.start:
                frontiers[index] = _both_orientations(levels[ply], geometry)
            if span.start <= ply <= span.end and (ply - span.start) % 2 == 0:
                _merge(turns, frontiers[index])
        win = win_score_at(geometry, False, ply)
        todo: list[PolicyJob] = []
        for key, (current, mask, moves, floor) in turns.items():
            if key in choices:
                continue
            if ply < depth:
                choices[key] = _best_child(current, mask, geometry, win, scores)
            else:
                todo.append((key, moves, scores.get(key), floor))
        if todo:

            def record(results: PolicyResults) -> None:
                store.add_policy((key, score, column) for key, score, column, _seconds in results)
                choices.update((key, (score, column)) for key, score, column, _seconds in results)

            solve(todo, record)
        for index, span in enumerate(spans):
            if not span.start <= ply <= span.end:
                frontiers[index] = {}
                continue
            ours = (ply - span.start) % 2 == 0
            following: Frontier = {}
            for key, (current, mask, moves, floor) in frontiers[index].items():
                if ours:
                    score, column = choices[key]
                    child = _child(current, mask, column, geometry)
                    if ply >= depth:
                        entries[_canonical((current, mask), geometry)] = score
                        deepest = max(deepest, ply)
                        if child is not None:
                            entries[_canonical(child, geometry)] = -score
                            deepest = max(deepest, ply + 1)
                    if child is not None:
                        kept: tuple[int, int, bytes, int | None] = (*child, moves + bytes((column,)), score)
                        _merge(following, {sum(child): kept})
                else:
                    for column, child_current, child_mask in children(current, mask, geometry):
                        if child_current >= 0:
                            child = (child_current, child_mask)
                            item = (*child, moves + bytes((column,)), floor)
                            _merge(following, {sum(child): item})
            frontiers[index] = following
    return {key: score for key, score in entries.items() if key not in scores}, deepest


def _both_orientations(level: dict[int, Position], geometry: Geometry) -> Frontier:
    """The positions of an enumerated ply (one per mirror pair) and their mirror images, by key."""
    frontier: Frontier = {}
    for current, mask, moves in level.values():
        mirrored = bytes(geometry.width - 1 - column for column in moves)
        frontier[current + mask] = (current, mask, moves, None)
        frontier.setdefault(
            geometry.mirror(current + mask), (geometry.mirror(current), geometry.mirror(mask), mirrored, None)
        )
    return frontier


def _merge(into: Frontier, positions: Frontier) -> None:
    """Add ``positions``; a position reached twice keeps the higher floor (both are proved)."""
    for key, (current, mask, moves, floor) in positions.items():
        known = into.get(key)
        if known is None:
            into[key] = (current, mask, moves, floor)
        elif floor is not None and (known[3] is None or floor > known[3]):
            into[key] = (known[0], known[1], known[2], floor)


def _canonical(position: tuple[int, int], geometry: Geometry) -> int:
    key = position[0] + position[1]
    return min(key, geometry.mirror(key))


def _child(current: int, mask: int, column: int, geometry: Geometry) -> tuple[int, int] | None:
    """(current, mask) after ``column``, or None when that move ends the game."""
    for played, child_current, child_mask in children(current, mask, geometry):
        if played == column:
            return None if child_current < 0 else (child_current, child_mask)
    raise BookError(f"column {column} is full")


def _best_child(
    current: int, mask: int, geometry: Geometry, win: int, scores: Mapping[int, int]
) -> tuple[int, int]:
    """(score, column) of the best move by the children's scores, centre-first among equals."""
    values: dict[int, int] = {}
    for column, child_current, child_mask in children(current, mask, geometry):
        if child_current == -1:
            values[column] = win
        elif child_current == -2:
            values[column] = 0
        else:
            values[column] = -scores[_canonical((child_current, child_mask), geometry)]
    best = max(values.values())
    best_column = geometry.most_central([c for c, value in values.items() if value == best])
    assert best_column is not None  # values is not empty
    return best, best_column


def _back_up_from_deeper(
    leaves: dict[int, Position], known: dict[int, int], geometry: Geometry, weak: bool, ply: int
) -> None:
    """Score, without solving, each leaf whose children a deeper build already solved."""
    win = win_score_at(geometry, weak, ply)
    for key, (current, mask, _moves) in leaves.items():
        if key not in known:
            score = negamax(current, mask, geometry, win, known)
            if score is not None:
                known[key] = score


def _spread(items: Sequence[Item], count: int) -> list[Item]:
    """``count`` of ``items`` spread evenly over them (all when there are no more).

    >>> _spread(list(range(10)), 3)
    [1, 5, 8]
    """
    if count >= len(items):
        return list(items)
    step = len(items) / count
    return [items[int((index + 0.5) * step)] for index in range(count)]


def _default_batch(leaves: int, workers: int | None, scheduler: str | None) -> int:
    """Enough batches to keep every worker busy to the end, never more than DEFAULT_BATCH leaves each."""
    parallel = parallelism(workers, scheduler)
    return max(1, min(DEFAULT_BATCH, math.ceil(leaves / (parallel * 8))))
