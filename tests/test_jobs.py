import pytest

from c4engine.errors import SchedulerError
from c4engine.jobs import default_workers, executor


def test_local_pool_runs_jobs() -> None:
    with executor(workers=2) as pool:
        assert list(pool.map(pow, [2, 3], [3, 2])) == [8, 9]


def test_bad_worker_count_is_refused() -> None:
    with pytest.raises(SchedulerError, match="at least 1"), executor(workers=0):
        pass


def test_default_workers_is_positive() -> None:
    assert default_workers() >= 1


def test_dask_cluster_runs_jobs(dask_scheduler: str) -> None:
    with executor(dask_scheduler) as pool:
        assert list(pool.map(abs, [-1, -2])) == [1, 2]


def test_unreachable_scheduler_is_a_clear_error() -> None:
    with (
        pytest.raises(SchedulerError, match="cannot reach"),
        executor("tcp://127.0.0.1:1", connect_timeout=1),
    ):
        pass
