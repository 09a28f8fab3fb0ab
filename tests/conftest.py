"""Shared helpers for the tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from c4engine.cli.solve import BENCH_DIR

REPO = Path(__file__).resolve().parent.parent
PONS = BENCH_DIR
"""The published benchmark sets, read where the package ships them."""


def run_c4(
    *args: str, stdin: str = "", timeout: float = 120, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the ``c4`` command as a user would, in a fresh interpreter (in folder ``cwd``)."""
    env = dict(os.environ, NO_COLOR="1")
    return subprocess.run(
        [sys.executable, "-m", "c4engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=cwd,
    )


@pytest.fixture
def c4():  # type: ignore[no-untyped-def]
    return run_c4


@pytest.fixture
def dask_scheduler():  # type: ignore[no-untyped-def]
    """The address of a one-worker Dask cluster on loopback (threads, not processes: quick to start)."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=1,
        threads_per_worker=2,
        processes=False,
        protocol="tcp",
        scheduler_kwargs={"host": "127.0.0.1"},
        dashboard_address=None,
    ) as cluster:
        yield cluster.scheduler_address
