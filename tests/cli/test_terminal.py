"""The terminal game, driven as a person would drive it: through a pseudo-terminal."""

from __future__ import annotations

import io
import re
import signal
import sys
import time

import pexpect
import pytest

from c4engine.board import Board
from c4engine.cli.render import render_board
from c4engine.cli.terminal import TerminalGame
from c4engine.play.game import Game
from c4engine.play.players import HumanPlayer, RandomPlayer

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
PROMPT = r"u undo, h hint, q quit: "
END = [r"wins!", r"a draw\."]


def spawn(*args: str, color: bool = False) -> pexpect.spawn:
    env = {"TERM": "xterm-256color", "PATH": "/usr/bin:/bin"}
    if not color:
        env["NO_COLOR"] = "1"
    return pexpect.spawn(
        sys.executable,
        ["-m", "c4engine", "play", *args],
        env=env,
        encoding="utf-8",
        timeout=60,
        preexec_fn=_terminal_signals,
    )


def _terminal_signals() -> None:
    """Give the game Ctrl-C as a shell would: delivered, default action.

    A test worker may have SIGINT blocked or ignored (libraries loaded by
    other tests in the same process do that), and a child inherits both.
    """
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def computer_moves(text: str) -> list[int]:
    return [int(column) - 1 for column in re.findall(r"plays (\d+)\.", ANSI.sub("", text))]


def finish(child: pexpect.spawn) -> int:
    """Wait for the game to exit; its exit status.  What it printed last is in ``child.before``."""
    child.expect(pexpect.EOF)
    child.close()
    assert "Traceback" not in (child.before or "")
    return int(child.exitstatus if child.exitstatus is not None else -(child.signalstatus or 0))


@pytest.mark.parametrize("color", [False, True])
def test_full_game_against_level_1(color: bool) -> None:
    child = spawn("--level", "1", "--seed", "7", color=color)
    replica = Board()
    transcript = ""
    while True:
        index = child.expect([PROMPT, *END])
        transcript += child.before + child.after
        for column in computer_moves(child.before):
            replica.play(column)
        if index > 0:
            break
        # Our plan: take a win if there is one, else block, else the most central free column.
        column = (
            replica.winning_columns()
            or replica.winning_columns(replica.turn.other)
            or [next(c for c in replica.geometry.center_order if replica.can_play(c))]
        )[0]
        replica.play(column)
        child.sendline(str(column + 1))
    child.expect_exact("r review, t retry your mistakes, n new game, q quit: ")
    transcript += child.before
    child.sendline("q")
    assert finish(child) == 0
    transcript += child.before
    assert f"Moves: {replica.move_string}" in ANSI.sub("", transcript)
    assert replica.is_over
    if color:
        assert "\x1b[" in transcript
    else:
        # No colour codes; a bare reset ("\x1b[0m") at exit comes from numba's colorama, not the game.
        assert not re.search(r"\x1b\[(?!0?m)[0-9;]*m", transcript)
    if replica.winner is not None:
        assert "Winning line" in transcript
        assert "[X]" in ANSI.sub("", transcript) or "[O]" in ANSI.sub("", transcript)


def test_bad_inputs_reprompt_with_reason() -> None:
    child = spawn("--two-players")
    for text, reason in [
        ("abc", "'abc' is not a column"),
        ("0", "There is no column 0"),
        ("99", "There is no column 99"),
        ("", "Type a column number"),
    ]:
        child.expect(PROMPT)
        child.sendline(text)
        child.expect_exact(reason)
    for _ in range(6):
        child.expect(PROMPT)
        child.sendline("2")
    child.expect(PROMPT)
    child.sendline("2")
    child.expect_exact("Column 2 is full")
    child.expect(PROMPT)
    child.sendline("u")
    child.expect_exact("Took back 2.")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect_exact("Bye.")
    assert finish(child) == 0


def test_hint_and_undo_against_computer() -> None:
    child = spawn("--level", "2", "--seed", "1")
    child.expect(PROMPT)
    child.sendline("h")
    child.expect(r"Hint: column (\d) \(([^)]*)\)\.")
    # the empty board is in the opening book: the hint is exact
    assert child.match.group(1) == "4" and child.match.group(2) == "win in 21 moves"
    child.expect(PROMPT)
    child.sendline("4")
    child.expect(r"plays (\d)\.")
    child.expect(PROMPT)
    child.sendline("u")
    child.expect(r"Took back 4, \d\.")
    child.expect(PROMPT)
    child.sendline("u")
    child.expect_exact("There is no move to undo.")
    child.sendline("q")
    assert finish(child) == 0


def test_undo_never_hands_the_person_the_computers_move() -> None:
    """With the computer first, undo goes back to the person's last turn or refuses in one line."""
    from tests.conftest import run_c4

    # before the person has moved: refused; the 3 typed next is the person's move (O)
    result = run_c4("play", "--first", "computer", "--level", "1", "--seed", "1", stdin="u\n3\nq\n")
    assert result.returncode == 0, result.stderr
    prompts = re.findall(r"^(.*) -- column 1-7", result.stdout, re.MULTILINE)
    assert prompts and all(prompt.startswith("O (you)") for prompt in prompts), prompts
    assert result.stdout.count("You have not moved yet: the computer's opening move stays.") == 1
    assert "Took back" not in result.stdout
    opening, reply = computer_moves(result.stdout)
    board = Board.from_moves(f"{opening + 1}3{reply + 1}")
    assert render_board(board) in result.stdout

    # after a move and the reply: undo takes both back, to the person's turn; then refuses
    result = run_c4("play", "--first", "computer", "--level", "1", "--seed", "1", stdin="3\nu\nu\n5\nq\n")
    assert result.returncode == 0, result.stderr
    opening, reply, after_undo = computer_moves(result.stdout)
    assert f"Took back {reply + 1}, 3." in result.stdout
    assert result.stdout.count("You have not moved yet") == 1
    prompts = re.findall(r"^(.*) -- column 1-7", result.stdout, re.MULTILINE)
    assert all(prompt.startswith("O (you)") for prompt in prompts), prompts
    assert render_board(Board.from_moves(f"{opening + 1}5{after_undo + 1}")) in result.stdout


def test_end_of_input_exits_cleanly() -> None:
    child = spawn()
    child.expect(PROMPT)
    child.sendeof()
    assert finish(child) == 0


def test_ctrl_c_ends_cleanly() -> None:
    child = spawn()
    child.expect(PROMPT)
    time.sleep(0.3)  # as a person would: the prompt is printed just before input waits
    child.sendintr()
    child.expect_exact("Game abandoned.")
    assert finish(child) == 130


def test_piped_input_plays_a_scripted_game() -> None:
    from tests.conftest import run_c4

    result = run_c4("play", "--two-players", stdin="1\n2\n1\n2\n1\n2\n1\n")
    assert result.returncode == 0
    assert "X (player 1) wins!" in result.stdout
    assert "Winning line (column:row) 1:1 1:2 1:3 1:4" in result.stdout
    assert "Moves: 1212121\n" in result.stdout


def test_after_a_game_r_reviews_it_and_n_starts_a_new_one() -> None:
    from tests.conftest import run_c4

    # X stacks column 1 and O column 2 until X's fourth stone; then a review, a new game, a quit
    result = run_c4("play", "--two-players", stdin="1\n2\n1\n2\n1\n2\n1\nx\nr\nn\n4\nq\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "'x': type r to review the game, t to retry your mistakes, n for a new game or q to quit." in out
    review = out[out.index("ply  side  col") : out.index("New game.")]
    assert "  6  O     2" in review and "?? blunder" in review  # O's 2 lets X's fourth stone in
    assert "Better moves:" in review
    assert out.index("New game.") < out.rindex("Bye.")


def test_watch_two_computers_to_the_end() -> None:
    game = Game(RandomPlayer(seed=3), RandomPlayer(seed=4))
    out = io.StringIO()
    status = TerminalGame(game, out=out).run()
    assert status == 0
    assert game.is_over
    assert render_board(game.board) in out.getvalue()


def test_human_turn_reads_from_given_function() -> None:
    answers = iter(["9", "4", "q"])
    game = Game(HumanPlayer(), HumanPlayer())
    out = io.StringIO()
    status = TerminalGame(game, out=out, read_line=lambda prompt: next(answers)).run()
    assert status == 0
    assert game.board.moves == (3,)
    assert "There is no column 9" in out.getvalue()
