import os
import signal
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import psutil
import pytest

from c4engine.errors import SchedulerError
from c4engine.jobs import JobRunner, WorkerDiedError, default_workers, executor, parallelism, run_jobs


def _pid_of(_job: int) -> int:
    return os.getpid()


def _fail_on_three(job: int) -> int:
    if job == 3:
        raise ValueError("job 3 failed")
    return job


def test_local_pool_runs_jobs() -> None:
    with executor(workers=2) as pool:
        assert list(pool.map(pow, [2, 3], [3, 2])) == [8, 9]


def test_an_executor_needs_a_process() -> None:
    with pytest.raises(SchedulerError, match="at least 1"), executor(workers=0):
        pass


def test_default_workers_is_positive() -> None:
    assert default_workers() >= 1
    assert parallelism(None) == default_workers() and parallelism(0) == 1


def test_workers_0_runs_in_this_process_in_order() -> None:
    results = list(run_jobs(_pid_of, range(3), workers=0))
    assert results == [(0, os.getpid()), (1, os.getpid()), (2, os.getpid())]


def test_workers_n_runs_on_other_processes() -> None:
    results = dict(run_jobs(_pid_of, range(8), workers=2))
    assert sorted(results) == list(range(8)) and os.getpid() not in results.values()


def test_results_are_indexed_by_job_however_many_are_queued() -> None:
    jobs = list(range(-20, 0))  # more jobs than run_jobs queues at once for 1 worker
    assert dict(run_jobs(abs, jobs, workers=1)) == {index: abs(job) for index, job in enumerate(jobs)}


def test_a_failing_job_raises_and_nothing_runs_after_it() -> None:
    with pytest.raises(ValueError, match="job 3 failed"):
        list(run_jobs(_fail_on_three, range(10), workers=0))
    with pytest.raises(ValueError, match="job 3 failed"):
        list(run_jobs(_fail_on_three, range(10), workers=1))


@pytest.mark.parametrize("workers", [-1, True, 1.5])
def test_bad_worker_counts_are_refused(workers: object) -> None:
    with pytest.raises(SchedulerError, match=r"0 \(this process\) or more"):
        JobRunner(workers)  # type: ignore[arg-type]


def test_a_runner_keeps_its_workers_across_batches_and_starts_none_for_nothing() -> None:
    with JobRunner(workers=1) as runner:
        assert list(runner.run(_pid_of, [])) == [] and runner._pool is None
        first = dict(runner.run(_pid_of, [0]))
        second = dict(runner.run(partial(_pid_of), [0]))
        assert first == second and first[0] != os.getpid()


def test_dask_cluster_runs_jobs(dask_scheduler: str) -> None:
    with executor(dask_scheduler) as pool:
        assert list(pool.map(abs, [-1, -2])) == [1, 2]
    assert dict(run_jobs(abs, [-1, -2], scheduler=dask_scheduler)) == {0: 1, 1: 2}


def test_unreachable_scheduler_is_a_clear_error() -> None:
    with (
        pytest.raises(SchedulerError, match="cannot reach"),
        executor("tcp://127.0.0.1:1", connect_timeout=1),
    ):
        pass


def _exit_on_two(job: int) -> int:
    if job == 2:
        os._exit(1)
    return job


def test_a_worker_that_dies_is_named_by_its_job() -> None:
    with pytest.raises(WorkerDiedError, match="job 2 died") as died:
        list(run_jobs(_exit_on_two, range(4), workers=1))
    assert died.value.index == 2


def _sleep_or_return(job: int) -> int:
    if job < 0:
        time.sleep(1000)
    return job


def test_leaving_a_batch_early_stops_the_worker_of_a_job_that_never_ends() -> None:
    with JobRunner(workers=2) as runner:
        results = runner.run(_sleep_or_return, [-1, 5])
        assert next(results) == (1, 5)
        sleeper = [worker.process for worker in runner._local._workers if worker.job == 0]  # type: ignore[union-attr]
        started = time.monotonic()
        results.close()  # the caller stops waiting (an error, Ctrl-C): the sleeping job's worker is killed
        sleeper[0].join(30)
        assert not sleeper[0].is_alive() and time.monotonic() - started < 30
        assert dict(runner.run(abs, [-3])) == {0: 3}  # the runner goes on with the workers left


def _signal_mask(_job: int) -> int:
    return int(Path("/proc/self/status").read_text().split("SigIgn:")[1].split()[0], 16)


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_workers_leave_ctrl_c_to_their_parent() -> None:
    ((_index, ignored),) = run_jobs(_signal_mask, [0], workers=1)
    assert ignored & (1 << (signal.SIGINT - 1))


RUNNER = """
import sys, time
from c4engine.jobs import JobRunner

def nap(job):
    time.sleep(1000)

if __name__ == "__main__":
    with JobRunner(workers=2) as runner:
        for _ in runner.run(nap, [1, 2]):
            pass
"""


def test_workers_end_when_their_parent_is_killed(tmp_path: Path) -> None:
    (tmp_path / "runner.py").write_text(RUNNER)
    parent = subprocess.Popen([sys.executable, str(tmp_path / "runner.py")], cwd=tmp_path)
    deadline = time.monotonic() + 120
    while (
        len(
            workers := [
                p for p in psutil.Process(parent.pid).children() if "spawn_main" in " ".join(p.cmdline())
            ]
        )
        < 2
    ):
        assert time.monotonic() < deadline, "the workers never started"
        time.sleep(0.05)
    parent.kill()
    parent.wait()
    _gone, alive = psutil.wait_procs(workers, timeout=30)  # about 0.5 s (the watcher's period) measured
    assert alive == []
