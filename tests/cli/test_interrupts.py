"""Ctrl-C and kill -9 on long commands, in a pseudo-terminal as a person would.

One Ctrl-C stops ``c4 match``, ``c4 tune``, ``c4 analyze`` and ``c4 book
build`` with exit status 130, one line (what is kept, the command that
resumes it), no traceback and no process left behind; so does a Ctrl-C sent
to the main process only, and a second Ctrl-C while it stops.  After
``kill -9`` of the command its workers (and an external player's process)
end by themselves.

Robust on a loaded machine: each test waits for a sign that the work is
under way (the progress line, worker processes, a stored game) instead of
sleeping, and the limits are generous -- the times measured are printed
(``pytest -s``) for the record, the asserts only catch a hang.
"""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pexpect
import psutil
import pytest
from tests.conftest import stored_games

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
PROGRESS_LINE = re.compile(r"\d:\d\d:\d\d")
"""A line of the live progress line (it shows the time elapsed), not a message."""

STOP_LIMIT = 10.0
"""Seconds a command may take to exit after Ctrl-C (about 1 s on an idle machine): a hang fails."""

ORPHAN_LIMIT = 30.0
"""Seconds the processes of a killed command may take to end (about 1 s measured)."""

BADBOT = "import time\n\ndef choose(board):\n    time.sleep(1000)\n    return 0\n"


def _terminal_signals() -> None:
    """Give the command Ctrl-C as a shell would (a test worker may have SIGINT blocked or ignored)."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(args: list[str], cwd: Path) -> pexpect.spawn:
    env = dict(os.environ, TERM="xterm-256color", NO_COLOR="1")
    return pexpect.spawn(
        sys.executable,
        ["-m", "c4engine", *args],
        cwd=str(cwd),
        env=env,
        encoding="utf-8",
        timeout=180,
        preexec_fn=_terminal_signals,
    )


def descendants(pid: int) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def wait_for(condition: Callable[[], bool], limit: float = 180.0) -> None:
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, "the command never got under way"
        time.sleep(0.05)


def is_alive(process: psutil.Process) -> bool:
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:  # ended between the two questions
        return False


def command_line(process: psutil.Process) -> str:
    try:
        return " ".join(process.cmdline())
    except (psutil.NoSuchProcess, psutil.ZombieProcess, psutil.AccessDenied):
        return ""


def still_running(processes: list[psutil.Process], limit: float) -> list[psutil.Process]:
    """Those of ``processes`` that have not ended after up to ``limit`` seconds."""
    deadline = time.monotonic() + limit
    while True:
        alive = [p for p in processes if is_alive(p)]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.1)


def interrupted_lines(output: str) -> list[str]:
    """The lines of a command's terminal output other than its progress bar's redraws."""
    lines = []
    for raw in output.replace("\r\n", "\n").split("\n"):
        shown = ANSI.sub("", raw.split("\r")[-1]).strip()
        if shown and shown != "^C":
            lines.append(shown)
    return lines


def stop(child: pexpect.spawn, how: str) -> float:
    """Interrupt ``child`` (``tty``: Ctrl-C, ``twice``: two, ``main``: SIGINT to the main process only);
    the seconds until it exited."""
    started = time.monotonic()
    if how == "main":
        os.kill(child.pid, signal.SIGINT)
    else:
        child.sendintr()
        if how == "twice":
            time.sleep(0.1)
            child.sendintr()
    child.expect(pexpect.EOF, timeout=STOP_LIMIT + 50)
    elapsed = time.monotonic() - started
    child.close()
    return elapsed


def check_stopped(child: pexpect.spawn, elapsed: float, command: str, kept: str) -> None:
    output = child.before or ""
    print(f"c4 {command}: exited {elapsed:.2f} s after Ctrl-C")
    assert child.exitstatus == 130, (child.exitstatus, child.signalstatus, output[-500:])
    assert elapsed < STOP_LIMIT
    assert "Traceback" not in output and "Error" not in output, output[-2000:]
    lines = [line for line in interrupted_lines(output) if not PROGRESS_LINE.search(line)]
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"c4 {command}: interrupted; {kept}"), lines[0]  # c4 book build, whole


def _started_match(tmp_path: Path) -> pexpect.spawn:
    (tmp_path / "badbot.py").write_text(BADBOT)
    child = spawn(["match", "badbot:choose", "1", "--games", "4", "--workers", "2"], tmp_path)
    # under way: both workers wait for a player that sleeps
    wait_for(lambda: sum("c4engine.play.hosted" in command_line(p) for p in descendants(child.pid)) == 2)
    return child


@pytest.mark.parametrize("how", ["tty", "twice", "main"])
def test_ctrl_c_stops_a_match_whose_player_sleeps(tmp_path: Path, how: str) -> None:
    child = _started_match(tmp_path)
    processes = descendants(child.pid)
    elapsed = stop(child, how)
    check_stopped(child, elapsed, "match", "the finished games are kept in match-badbot_choose-vs-1-")
    assert "resume: c4 match badbot:choose 1 --games 4 --workers 2" in child.before
    assert still_running(processes, ORPHAN_LIMIT) == []


def test_ctrl_c_stops_tune_and_the_same_command_resumes(tmp_path: Path) -> None:
    args = ["tune", "--depth", "2", "--games-budget", "2000", "--workers", "2", "--validate", "0"]
    child = spawn(args, tmp_path)
    wait_for(lambda: any(stored_games(db) > 0 for db in tmp_path.glob("tune-*.sqlite")))
    processes = descendants(child.pid)
    elapsed = stop(child, "tty")
    (db,) = tmp_path.glob("tune-*.sqlite")
    check_stopped(child, elapsed, "tune", f"the finished games are kept in {db.name}")
    assert f"resume: c4 {' '.join(args)}" in child.before
    assert still_running(processes, ORPHAN_LIMIT) == []


def test_ctrl_c_stops_analyze(tmp_path: Path) -> None:
    child = spawn(["analyze", "--no-book", "4"], tmp_path)
    child.expect("analysing")  # the live line: the solver is at work
    elapsed = stop(child, "tty")
    check_stopped(child, elapsed, "analyze", "nothing is kept")


def test_ctrl_c_stops_a_book_build(tmp_path: Path) -> None:
    child = spawn(["book", "build", "--depth", "6", "--workers", "2"], tmp_path)
    child.expect("book depth 6")
    wait_for(lambda: len(descendants(child.pid)) >= 2)
    processes = descendants(child.pid)
    elapsed = stop(child, "tty")
    check_stopped(
        child, elapsed, "book build", "the positions solved so far are kept in book-7x6-d6.c4b.sqlite"
    )
    assert "resume: c4 book build --depth 6 --workers 2" in child.before
    assert still_running(processes, ORPHAN_LIMIT) == []


@pytest.mark.parametrize("command", ["match", "tune"])
def test_no_process_outlives_a_command_killed_with_sigkill(tmp_path: Path, command: str) -> None:
    if command == "match":
        child = _started_match(tmp_path)
    else:
        child = spawn(["tune", "--depth", "2", "--games-budget", "2000", "--workers", "2"], tmp_path)
        wait_for(lambda: any(stored_games(db) > 0 for db in tmp_path.glob("tune-*.sqlite")))
    processes = descendants(child.pid)
    assert processes
    started = time.monotonic()
    os.kill(child.pid, signal.SIGKILL)
    child.expect(pexpect.EOF)
    child.close()
    left = still_running(processes, ORPHAN_LIMIT)
    print(
        f"c4 {command}: its {len(processes)} processes ended {time.monotonic() - started:.2f} s after kill -9"
    )
    assert left == [], [command_line(p) for p in left]


@pytest.mark.parametrize("workers", ["0", "2"])
def test_a_player_that_sleeps_loses_each_game_on_time(tmp_path: Path, workers: str) -> None:
    (tmp_path / "badbot.py").write_text(BADBOT)
    child = spawn(
        ["match", "badbot:choose", "1", "--move-timeout", "2", "--games", "2", "--workers", workers], tmp_path
    )
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    assert "Traceback" not in child.before
    assert "A wins 0, draws 0, B wins 2" in child.before
    assert "lost on time (no move within 2 s): A 2, B 0" in child.before
    (db,) = tmp_path.glob("match-*.sqlite")
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT reason, score FROM games").fetchall() == [("time", 0.0)] * 2
    assert still_running(processes_in(tmp_path), ORPHAN_LIMIT) == []  # the players' processes too


def processes_in(folder: Path) -> list[psutil.Process]:
    """The processes working in ``folder`` (a test's own folder: those its command started)."""
    found = []
    for process in psutil.process_iter():
        try:
            if process.cwd() == str(folder):
                found.append(process)
        except (psutil.AccessDenied, psutil.NoSuchProcess, psutil.ZombieProcess):
            continue
    return found
