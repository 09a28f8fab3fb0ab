"""Where parallel work runs: this process, a local process pool, or an existing Dask cluster.

Book building, matches, tuning and datasets hand out many independent jobs.
They all run them with :func:`run_jobs` (or, to keep one pool across
several batches, a :class:`JobRunner`), so each runs unchanged here, on the
local machine or on a Dask cluster given by its scheduler's address
(``tcp://HOST:PORT``).  Job functions must be importable module-level
functions (or :func:`functools.partial` of one) with picklable arguments,
as both kinds of workers need.

One convention for every caller, the ``c4`` commands' ``--workers`` included:

* ``workers=0``: no worker processes -- the jobs run one after the other in
  this process (small jobs, tests, debugging);
* ``workers=N`` (N >= 1): N local worker processes;
* ``workers=None``: one local worker process per CPU;
* ``scheduler="tcp://HOST:PORT"``: the Dask cluster there (``workers`` is ignored).

Results come back as ``(index of the job, result)`` pairs, in the order the
jobs finish:

>>> sorted(run_jobs(abs, [-2, 1, -3], workers=0))
[(0, 2), (1, 1), (2, 3)]
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from contextlib import ExitStack, contextmanager, suppress
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as connection_wait
from multiprocessing.context import SpawnContext
from typing import Any, TypeVar

from c4engine.closing import Closing
from c4engine.errors import SchedulerError
from c4engine.processes import die_with_parent, sigint_ignored, starts_pdeathsig

__all__ = ["JobRunner", "WorkerDiedError", "default_workers", "executor", "parallelism", "run_jobs"]

Job = TypeVar("Job")
Result = TypeVar("Result")

DASK_PARALLELISM = 64
"""How many jobs a Dask cluster is taken to run at once: this process does not know its size."""


class WorkerDiedError(SchedulerError):
    """A local worker process died while it ran a job (``index``: the job's place in the jobs given).

    A job that exits the process or crashes the interpreter does this; an
    exception raised by a job is raised as itself instead.
    """

    def __init__(self, index: int) -> None:
        super().__init__(f"the worker process running job {index} died")
        self.index = index


def default_workers() -> int:
    """The number of CPUs this process may use (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def parallelism(workers: int | None, scheduler: str | None = None) -> int:
    """About how many jobs run at once with these settings (a guess for a Dask cluster).

    >>> parallelism(0), parallelism(3), parallelism(None) == default_workers()
    (1, 3, True)
    """
    if scheduler is not None:
        return DASK_PARALLELISM
    if workers is None:
        return default_workers()
    return max(1, workers)


def _check_workers(workers: int | None) -> None:
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 0):
        raise SchedulerError(f"workers must be 0 (this process) or more, not {workers!r}")


@contextmanager
def executor(
    scheduler: str | None = None, workers: int | None = None, connect_timeout: float = 10.0
) -> Iterator[Executor]:
    """An executor for independent jobs, shut down on leaving the block.

    With ``scheduler`` (a Dask scheduler address) the jobs run on that
    cluster and ``workers`` is ignored; otherwise on ``workers`` local
    processes (default: one per CPU; an executor always has at least one
    process -- :func:`run_jobs` is the one that reads ``workers=0`` as "in
    this process").  A scheduler that does not answer within
    ``connect_timeout`` seconds is a :class:`SchedulerError`.  Local workers
    are *spawned*, not forked, so they start clean whatever threads the
    parent runs.
    """
    if scheduler is None:
        _check_workers(workers)
        if workers == 0:
            raise SchedulerError("an executor needs at least 1 worker process, not 0")
        pool = ProcessPoolExecutor(
            max_workers=workers or default_workers(), mp_context=multiprocessing.get_context("spawn")
        )
        try:
            yield pool
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        return
    try:
        from distributed import Client
    except ImportError as error:  # pragma: no cover - depends on the install
        raise SchedulerError(
            "a Dask scheduler needs the 'distributed' package: pip install 'c4engine[dask]'"
        ) from error
    try:
        client = Client(scheduler, timeout=connect_timeout)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as error:
        raise SchedulerError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from error
    try:
        yield client.get_executor()  # type: ignore[no-untyped-call]
    finally:
        client.close()  # type: ignore[no-untyped-call]


class _LocalWorker:
    """One worker process and the pipe it takes jobs from; ``job`` is the index it runs, if any."""

    def __init__(self, context: SpawnContext) -> None:
        self.connection, theirs = context.Pipe()
        # Daemonic: should this process exit while a worker is busy (a batch left unfinished
        # and not closed yet), multiprocessing's exit handler terminates it instead of waiting.
        self.process = context.Process(
            target=_serve, args=(theirs, os.getpid(), starts_pdeathsig()), name="c4engine worker", daemon=True
        )
        with sigint_ignored():  # Ctrl-C is the parent's: it stops the workers itself
            self.process.start()
        theirs.close()
        self.job: int | None = None

    def stop(self, grace: float) -> None:
        """End the process: asked to when idle, killed when busy or when it does not end in ``grace`` s."""
        if self.job is None and self.process.is_alive():
            with suppress(OSError):
                self.connection.send(None)
            self.process.join(grace)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.connection.close()


def _serve(connection: Connection, parent_pid: int, pdeathsig: bool) -> None:
    """A worker process: runs the jobs that come down the pipe until it closes or says stop."""
    die_with_parent(parent_pid, pdeathsig)
    while True:
        try:
            message = connection.recv()
        except EOFError:
            return
        if message is None:
            return
        fn, job = message
        try:
            reply: tuple[bool, object] = (True, fn(job))
        except Exception as error:  # raised again in the parent, as itself
            reply = (False, error)
        try:
            connection.send(reply)
        except Exception as error:  # a result or an exception that does not pickle
            connection.send((False, SchedulerError(f"a job's result cannot be sent back: {error}")))


class _LocalPool:
    """Up to ``size`` worker processes, each running one job at a time.

    Unlike :class:`~concurrent.futures.ProcessPoolExecutor` it can stop a
    busy worker: leaving :meth:`run` early (an error, Ctrl-C) kills the
    workers still running its jobs, so a job that never ends (a player that
    hangs) cannot hold the caller.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._context = multiprocessing.get_context("spawn")
        self._workers: list[_LocalWorker] = []

    def run(self, fn: Callable[[Job], Result], jobs: Iterable[Job]) -> Iterator[tuple[int, Result]]:
        queue = enumerate(jobs)
        running: dict[int, _LocalWorker] = {}  # job index -> its worker
        try:
            while True:
                while len(running) < self.size:
                    upcoming = next(queue, None)
                    if upcoming is None:
                        break
                    worker = self._idle_worker()
                    worker.job = upcoming[0]
                    running[upcoming[0]] = worker
                    try:
                        worker.connection.send((fn, upcoming[1]))
                    except (BrokenPipeError, ConnectionResetError):  # it died while idle
                        raise WorkerDiedError(upcoming[0]) from None
                if not running:
                    return
                yield from self._finished(running)
        finally:
            for worker in running.values():  # jobs nobody waits for any more
                worker.stop(grace=0)
                self._workers.remove(worker)

    def _idle_worker(self) -> _LocalWorker:
        """An idle worker: one that is up, or a new one."""
        for worker in self._workers:
            if worker.job is None and worker.process.is_alive():
                return worker
        worker = _LocalWorker(self._context)
        self._workers.append(worker)
        return worker

    def _finished(self, running: dict[int, _LocalWorker]) -> list[tuple[int, Any]]:
        """Wait for some running jobs to end: their results, in job order (an error is raised)."""
        by_connection = {worker.connection: index for index, worker in running.items()}
        sentinels = {worker.process.sentinel: index for index, worker in running.items()}
        ready = connection_wait([*by_connection, *sentinels])
        answered = {by_connection[item] for item in ready if item in by_connection}
        died = sorted(
            sentinels[item] for item in ready if item in sentinels and sentinels[item] not in answered
        )
        results = []
        for index in sorted(answered):
            worker = running[index]
            try:
                ok, value = worker.connection.recv()
            except (EOFError, OSError):
                died.append(index)
                continue
            del running[index]
            worker.job = None
            if not ok:
                assert isinstance(value, BaseException)  # as _serve sends it
                raise value
            results.append((index, value))
        if died:
            raise WorkerDiedError(min(died))
        return results

    def close(self) -> None:
        for worker in self._workers:
            worker.stop(grace=2.0)
        self._workers.clear()


class JobRunner(Closing):
    """Runs batches of jobs on workers that stay up between the batches (see the module's conventions).

    The pool (or the Dask client) starts with the first batch that has a
    job, and stops on leaving the ``with`` block -- so a run that resumes
    with nothing left to do starts no process.  Local workers ignore Ctrl-C
    (the caller gets it, and leaving the block stops them, busy or not) and
    end by themselves when this process dies (:mod:`c4engine.processes`).

    >>> with JobRunner(workers=0) as runner:
    ...     [result for _index, result in runner.run(len, ["ab", "c"])]
    [2, 1]
    """

    def __init__(self, workers: int | None = None, scheduler: str | None = None) -> None:
        _check_workers(workers)
        self.workers = workers
        self.scheduler = scheduler
        self._stack = ExitStack()
        self._pool: Executor | None = None
        self._local: _LocalPool | None = None

    @property
    def in_process(self) -> bool:
        """Whether the jobs run here, one after the other (``workers=0`` and no scheduler)."""
        return self.workers == 0 and self.scheduler is None

    @property
    def parallelism(self) -> int:
        """About how many jobs run at once: see :func:`parallelism`."""
        return parallelism(self.workers, self.scheduler)

    def run(self, fn: Callable[[Job], Result], jobs: Iterable[Job]) -> Iterator[tuple[int, Result]]:
        """``(index, fn(job))`` for every job, as each finishes.

        Jobs are taken from ``jobs`` in order as workers come free (on a
        Dask cluster, a few per worker are queued), so finished work comes
        back close to the order of ``jobs`` and an interruption leaves little
        in flight.  An error in a job is raised here (a worker process that
        dies, as :class:`WorkerDiedError`), and the jobs still running are
        abandoned: local workers running them are stopped.
        """
        if self.in_process:
            for index, job in enumerate(jobs):
                yield index, fn(job)
            return
        if self.scheduler is None:
            if self._local is None:
                self._local = _LocalPool(self.workers or default_workers())
                self._stack.callback(self._local.close)
            yield from self._local.run(fn, jobs)
            return
        yield from self._run_on_cluster(fn, jobs)

    def _run_on_cluster(
        self, fn: Callable[[Job], Result], jobs: Iterable[Job]
    ) -> Iterator[tuple[int, Result]]:
        queue = enumerate(jobs)
        first = next(queue, None)
        if first is None:
            return
        if self._pool is None:
            self._pool = self._stack.enter_context(executor(self.scheduler, self.workers))
        # Enough queued to keep every worker busy while results travel back, and no more.
        limit = 4 * self.parallelism
        index_of: dict[Future[Result], int] = {self._pool.submit(fn, first[1]): first[0]}
        try:
            for index, job in queue:
                index_of[self._pool.submit(fn, job)] = index
                if len(index_of) >= limit:
                    break
            pending = set(index_of)
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in sorted(done, key=index_of.__getitem__):  # in job order when several finish
                    yield index_of.pop(future), future.result()
                    upcoming = next(queue, None)
                    if upcoming is not None:
                        submitted = self._pool.submit(fn, upcoming[1])
                        index_of[submitted] = upcoming[0]
                        pending.add(submitted)
        finally:
            for future in index_of:
                future.cancel()

    def close(self) -> None:
        """Stop the workers (idle ones asked to, busy ones killed)."""
        self._stack.close()
        self._pool = None
        self._local = None


def run_jobs(
    fn: Callable[[Job], Result],
    jobs: Iterable[Job],
    workers: int | None = None,
    scheduler: str | None = None,
) -> Iterator[tuple[int, Result]]:
    """``(index, fn(job))`` for every job, as each finishes, on workers started for these jobs only.

    ``workers=0`` runs them in this process, ``N`` on N local processes,
    ``None`` on one per CPU, and ``scheduler`` on that Dask cluster (see
    :class:`JobRunner`, which keeps its workers across several batches).

    >>> from functools import partial
    >>> [result for _index, result in run_jobs(partial(pow, 2), [3, 4], workers=0)]
    [8, 16]
    """
    with JobRunner(workers, scheduler) as runner:
        yield from runner.run(fn, jobs)
