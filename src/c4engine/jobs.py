"""Where parallel work runs: a local process pool, or an existing Dask cluster.

Book building, matches and tuning hand out many independent jobs.  They all
get their workers here, as a :class:`concurrent.futures.Executor`, so each
of them runs unchanged on the local machine (a process pool, the default)
or on a Dask cluster given by its scheduler's address
(``tcp://HOST:PORT``).  Job functions must be importable module-level
functions with picklable arguments, as both kinds of workers need.

>>> with executor(workers=1) as pool:
...     sorted(pool.map(abs, [-2, 1, -3]))
[1, 2, 3]
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager

from c4engine.errors import SchedulerError

__all__ = ["default_workers", "executor"]


def default_workers() -> int:
    """The number of CPUs this process may use (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


@contextmanager
def executor(
    scheduler: str | None = None, workers: int | None = None, connect_timeout: float = 10.0
) -> Iterator[Executor]:
    """An executor for independent jobs, shut down on leaving the block.

    With ``scheduler`` (a Dask scheduler address) the jobs run on that
    cluster and ``workers`` is ignored; otherwise on ``workers`` local
    processes (default: one per CPU).  A scheduler that does not answer
    within ``connect_timeout`` seconds is a :class:`SchedulerError`.  Local workers are *spawned*, not
    forked, so they start clean whatever threads the parent runs.
    """
    if scheduler is None:
        if workers is not None and workers < 1:
            raise SchedulerError(f"workers must be at least 1, not {workers}")
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
