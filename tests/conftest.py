"""Shared helpers for the tests."""

from __future__ import annotations

import argparse
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from c4engine.cli.solve import BENCH_DIR

REPO = Path(__file__).resolve().parent.parent
PONS = BENCH_DIR
"""The published benchmark sets, read where the package ships them."""


class FakeClock:
    """A clock that moves only when told: the budget's tests need no sleeps."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


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


def c4_commands() -> dict[tuple[str, ...], argparse.ArgumentParser]:
    """Every runnable sub-command of ``c4`` (``("book", "build")`` for nested ones) and its parser."""
    from c4engine.cli.main import build_parser

    found: dict[tuple[str, ...], argparse.ArgumentParser] = {}

    def walk(parser: argparse.ArgumentParser, path: tuple[str, ...]) -> None:
        nested = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
        if not nested and path:
            found[path] = parser
        for action in nested:
            for name, sub in action.choices.items():
                walk(sub, (*path, name))

    walk(build_parser(), ())
    return found


def stored_games(db: Path) -> int:
    """Rows of the ``games`` table of a match or tuning database; 0 before it exists."""
    try:
        with sqlite3.connect(db) as connection:
            return int(connection.execute("SELECT count(*) FROM games").fetchone()[0])
    except sqlite3.Error:  # not created yet
        return 0


def stored_game_rows(db: Path) -> list[tuple[object, ...]]:
    """Every row of the ``games`` table of a tuning database, in the order of its key."""
    with sqlite3.connect(db) as connection:
        return connection.execute(
            "SELECT * FROM games ORDER BY round, candidate, reference, pair, candidate_first"
        ).fetchall()


def kill_mid_run(command: list[str], db: Path, at_least: int, total: int, attempts: int = 5) -> int:
    """SIGKILL ``c4 ARGS`` (``command``) once ``db`` holds ``at_least`` of its ``total`` games; the
    games it holds then.

    A loaded machine can deschedule this poll for the rest of the run (a game takes a
    millisecond or so): a kill that came after the last game is tried again from scratch.
    Files named after ``db`` (the database, its journal, the run's output) are removed first.
    """
    env = dict(os.environ, NO_COLOR="1")
    played = 0
    for _ in range(attempts):
        for stale in db.parent.glob(db.stem + "*"):
            stale.unlink()
        process = subprocess.Popen(
            [sys.executable, "-m", "c4engine", *command],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while stored_games(db) < at_least and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        played = stored_games(db)
        if process.returncode == -signal.SIGKILL and played < total:
            return played
    return played


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
