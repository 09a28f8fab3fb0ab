"""Long work shows that it is working: a live line on a terminal's standard error, plain lines in a pipe."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from collections.abc import Callable

import pexpect
import pytest

from c4engine.board import Board
from c4engine.cli import progress
from c4engine.cli.progress import AgentProgressLine, ProgressLine
from c4engine.cli.terminal import TerminalGame
from c4engine.play.game import Game
from c4engine.play.players import Agent, AnalystPlayer, EnginePlayer, HumanPlayer, PerfectPlayer
from c4engine.search.limit import Limit

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
# An 80-column terminal (pexpect's size; a COLUMNS left by the test runner would override it).
TERMINAL = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")}

# Searches of several seconds on any machine, fixed work rather than a time limit (a time limit
# on a starved process can end before the line is drawn): the Python engine 11 plies deep on 9x7,
# the solver on an opening the book does not hold (40 million nodes).
SEARCHES = [
    (["move", "4", "--depth", "11", "--size", "9x7", "--connect", "5"], r"depth \d+, [\d,]+ nodes"),
    (["solve", "4453", "--no-book"], r"[\d,]+ nodes, score between -?\d+ and -?\d+"),
]


@pytest.mark.parametrize(("args", "note"), SEARCHES)
def test_a_long_search_draws_a_live_line_on_a_terminal_and_plain_lines_in_a_pipe(
    args: list[str], note: str
) -> None:
    child = pexpect.spawn(
        sys.executable, ["-m", "c4engine", *args], encoding="utf-8", timeout=180, env=TERMINAL
    )
    screen = child.read()
    child.close()
    assert child.exitstatus == 0, screen
    # every redraw starts by erasing the line: the notes seen are the line's successive states
    states = [ANSI.sub("", part) for part in screen.split("\x1b[2K")]
    notes = [found.group() for state in states if (found := re.search(note, state))]
    assert len(set(notes)) >= 2, states  # it appeared, and it moved on
    assert re.search(r"\d:\d\d:\d\d", "".join(states))  # with the time elapsed
    # ... and it was cleared: after the last erase only the answer is left
    assert note not in states[-1] and states[-1].strip()

    piped = subprocess.run(
        [sys.executable, "-m", "c4engine", *args], capture_output=True, text=True, timeout=180
    )
    assert piped.returncode == 0
    # in a pipe: lines of their own, never redrawn (no escapes, no carriage returns), each "c4: ..."
    said = piped.stderr.splitlines()
    assert said and all(line.startswith("c4: ") for line in said), piped.stderr
    assert "\x1b" not in piped.stderr and "\r" not in piped.stderr
    assert "\x1b" not in piped.stdout and re.sub(r"\s+", " ", states[-1]).strip().split()[0] in piped.stdout


def test_a_quick_command_on_a_terminal_draws_nothing() -> None:
    # The random player: quick on any machine.  A search, even level 1's, loads numba's compiled
    # code inside the live line's window, which a loaded machine can stretch past SHOW_AFTER.
    command = ["-m", "c4engine", "move", "4453", "--level", "random", "--seed", "1"]
    child = pexpect.spawn(sys.executable, command, encoding="utf-8")
    screen = ANSI.sub("", child.read())
    child.close()
    assert child.exitstatus == 0
    assert screen.split() == [screen.split()[0]] and screen.split()[0].isdigit()


def test_the_terminal_game_shows_the_computer_thinking(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(progress, "SHOW_AFTER", 0.0)  # at once: the line's last state is drawn as it ends
    thinker = EnginePlayer(limit=Limit(depth=8))
    game = Game(HumanPlayer(), thinker, board=Board.from_moves("5", 9, 7, 5))  # O to think
    answers = iter(["q"])
    TerminalGame(game, out=io.StringIO(), read_line=lambda prompt: next(answers), live=True).run()
    line = ANSI.sub("", capsys.readouterr().err)
    assert "O is thinking" in line and re.search(r"depth \d+, [\d,]+ nodes", line)
    assert thinker.engine.poll is None  # the poll hook was given back


def test_without_a_terminal_the_game_says_it_thinks_in_one_plain_line() -> None:
    game = Game(EnginePlayer(level=1), HumanPlayer())
    out = io.StringIO()
    answers = iter(["q"])
    TerminalGame(game, out=out, read_line=lambda prompt: next(answers), live=False).run()
    assert "X (computer, level 1 beginner) is thinking..." in out.getvalue()


def test_progress_counts_and_clears_and_a_late_total() -> None:
    stream = io.StringIO()
    with ProgressLine("book depth 3", unit=" leaves", stream=stream, enabled=True, show_after=0) as bar:
        bar.update(0, 8, "")
        bar.update(8, 8, "0.01 CPU s/leaf")
    text = ANSI.sub("", stream.getvalue())
    assert "8/8 leaves" in text and "0.01 CPU s/leaf" in text
    quiet = io.StringIO()
    with AgentProgressLine(EnginePlayer(level=1), "thinking", stream=quiet) as line:
        line.note("never drawn: not a terminal")
    assert quiet.getvalue() == ""


@pytest.mark.parametrize(
    "make",
    [lambda: EnginePlayer(level=3), lambda: PerfectPlayer(book=None), lambda: AnalystPlayer(Limit(time=1.0))],
)
def test_a_player_lends_its_poll_hook_to_the_line_and_gets_it_back(make: Callable[[], Agent]) -> None:
    player = make()
    searcher = player.engine if isinstance(player, EnginePlayer) else player
    with AgentProgressLine(player, "thinking", stream=io.StringIO(), enabled=True) as line:
        assert searcher.poll == line.poll
    assert searcher.poll is None


def test_a_time_left_reckoned_by_the_work_is_shown_as_an_estimate() -> None:
    stream = io.StringIO()
    with ProgressLine("book depth 4", unit=" positions", stream=stream, enabled=True, show_after=0) as bar:
        bar.update(256, 312, "256 kept", left=3725.0)  # 1 h 2 min 5 s
    text = ANSI.sub("", stream.getvalue())
    assert "256/312 positions" in text
    assert re.search(r"~1:0[0-2]:\d\d", text), text  # counting down from 1:02:05, never rich's -:--:--


def test_on_a_long_line_the_note_gives_way_never_the_label_or_the_time() -> None:
    stream = io.StringIO()
    note = "depth 38, 12,345,678 nodes, 9,876,543 a second, table 61 % full, window -3..+2, " * 2
    with ProgressLine("solving 4453", unit=" nodes", stream=stream, enabled=True, show_after=0) as bar:
        bar.advance(12_345_678, note)
    last = [draw for draw in ANSI.sub("", stream.getvalue()).split("\r") if draw.strip()][-1]
    assert "solving 4453" in last and "12,345,678 nodes" in last, last
    assert re.search(r"\d:\d\d:\d\d", last), last  # the elapsed time, whole, however long the note


def test_plain_lines_come_when_due_from_one_thread_and_stop_with_their_work() -> None:
    import threading
    import time

    from c4engine.cli.line_task import LineTask

    threads = threading.active_count()
    quick = [io.StringIO() for _ in range(50)]
    for stream in quick:  # a batch's positions, each ended before its first line was due
        with ProgressLine("solving", stream=stream, show_after=60):
            pass
    waiting = [progress.PlainLine(LineTask("solving", None, 0, "", stream, 60)) for stream in quick[:5]]
    assert threading.active_count() <= threads + 1  # the one ticker, however many lines
    for line in waiting:
        line.stop()
    log = io.StringIO()
    line = progress.PlainLine(LineTask("solving", 3, 0, "", log, 0.05), hint="bound it", every=0.05)
    line.advance(1, "so far")
    deadline = time.monotonic() + 30  # a loaded machine wakes the ticker late, but it wakes
    while log.getvalue().count("\n") < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    line.stop()
    written = log.getvalue()
    time.sleep(0.2)
    assert log.getvalue() == written  # nothing once stopped
    assert written.startswith("c4: solving (bound it)\n")
    assert "\nc4: solving: " in written and "1/3, so far" in written
    assert all(stream.getvalue() == "" for stream in quick)
