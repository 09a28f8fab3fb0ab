"""Retry your mistakes in the terminal, through a pseudo-terminal: ``c4 review GAME --retry`` and the
terminal game's ``t`` after a game.  A wrong try is refused with its refutation, a right one shows
the answer."""

from __future__ import annotations

import sys

import pexpect
from tests.cli.test_terminal import _terminal_signals
from tests.conftest import run_c4

PROMPT = r"s show the answer, n next, q quit: "


def spawn(*args: str) -> pexpect.spawn:
    env = {"TERM": "xterm-256color", "PATH": "/usr/bin:/bin", "NO_COLOR": "1"}
    return pexpect.spawn(
        sys.executable,
        ["-m", "c4engine", *args],
        env=env,
        encoding="utf-8",
        timeout=90,
        preexec_fn=_terminal_signals,
    )


def test_review_retry_refuses_a_wrong_try_and_shows_the_answer_after_a_right_one() -> None:
    child = spawn("review", "44556", "--retry", "X")
    child.expect(r"Mistake 1 of 1, ply 3: X played 5 \(blunder: win in 20 -> loss in 19\)\.")
    child.expect(PROMPT)
    child.sendline("5")
    child.expect(r"5 is the move played in the game: try another\.")
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(r"Not 1: O plays 4: O wins in \d+ moves\.  Try again\.")
    child.expect(PROMPT)
    child.sendline("4")
    child.expect(r"Right: 4 keeps the win \(win in 20\)\.")
    child.expect(r"The answer: 4 \(win in 20\), line 4 4 4 4 ")
    child.expect(r"Retried 1 mistake\(s\): 1 found again\.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_the_game_offers_a_retry_of_the_players_mistakes() -> None:
    child = spawn("play", "--two-players")
    for column in "4455667":  # X wins on the bottom row; O's 5 and 6 let it
        child.expect(r"q quit: ")
        child.sendline(column)
    child.expect(r"r review, t retry your mistakes, n new game, q quit: ")
    child.sendline("t")
    child.expect(r"Mistake 1 of (\d+), ply (\d+): ([XO]) played")
    child.expect(PROMPT)
    child.sendline("s")
    child.expect(r"The answer: ")
    child.expect(r"(Mistake 2 of|Retried)")
    child.sendcontrol("d")
    child.expect(r"(Retried \d+ mistake\(s\): 0 found again\.|r review)")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()


def test_retry_is_refused_with_json_and_a_batch() -> None:
    assert "--retry" in run_c4("review", "44556", "--retry", "--json").stderr
    refused = run_c4("review", "--retry", stdin="44556\n")
    assert refused.returncode == 2 and "--retry needs one game" in refused.stderr
