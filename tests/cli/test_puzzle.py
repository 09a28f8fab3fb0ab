"""``c4 puzzle``, driven as a person would: through a pseudo-terminal.  A wrong answer is refused with
its refutation, a right one advances, the last one says solved."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pexpect
from tests.cli.test_terminal import _terminal_signals
from tests.conftest import run_c4

from c4engine.search.puzzles.puzzle import Puzzle

PROMPT = r"h hint, s skip, q quit: "
TWO_MOVES = Puzzle(
    "531455454475516624", (1, 2, 1, 1, 0), "win", "forced win", 9, ("threat above threat",), rating=5
)
ONE_MOVE = Puzzle("64434", (1,), "win", "forced win", 18, ("double threat",), tempting=6, rating=6)


def _file(tmp_path: Path) -> Path:
    path = tmp_path / "p.jsonl"
    path.write_text("".join(json.dumps(p.to_json()) + "\n" for p in (ONE_MOVE, TWO_MOVES)))
    return path


def spawn(*args: str) -> pexpect.spawn:
    env = {"TERM": "xterm-256color", "PATH": "/usr/bin:/bin", "NO_COLOR": "1"}
    return pexpect.spawn(
        sys.executable,
        ["-m", "c4engine", "puzzle", *args],
        env=env,
        encoding="utf-8",
        timeout=60,
        preexec_fn=_terminal_signals,
    )


def test_wrong_refused_with_its_refutation_right_advances_last_says_solved(tmp_path: Path) -> None:
    child = spawn(str(_file(tmp_path)))
    child.expect(r"Puzzle 1 of 2 \(easy, .*\): X to move and win\.")  # the easier one first (rating 5)
    child.expect(PROMPT)
    child.sendline("4")
    child.expect(r"Not 4: O plays (\d): O (wins in \d+ moves?|draws)\.  Try again\.")
    child.expect(PROMPT)
    child.sendline("h")
    child.expect(r"Hint: X to move: the position is won for X, and only one move keeps the win\.")
    child.expect(PROMPT)
    child.sendline("9")
    child.expect(r"There is no column 9: choose 1-7\.")
    child.expect(PROMPT)
    child.sendline("2")
    child.expect(r"Right\.  O replies 3\.")
    child.expect(PROMPT)
    child.sendline("2")
    child.expect(r"Right\.  O replies 2\.")
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(r"Solved!  1 is right: the win is forced \(threat above threat\)\.")
    child.expect(r"Puzzle 2 of 2 \(medium, .*\): O to move and win\.")
    child.expect(PROMPT)
    child.sendline("2")
    child.expect(r"Solved!  2 is right")
    child.expect(r"That was the last puzzle: 2 of 2 solved\.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_skip_quit_and_the_filters(tmp_path: Path) -> None:
    path = _file(tmp_path)
    result = run_c4("puzzle", str(path), stdin="s\nq\n")
    assert result.returncode == 0, result.stderr
    assert "Skipped.  The solution: 2 3 2 2 1 (threat above threat)." in result.stdout
    assert result.stdout.rstrip().endswith("Bye: 0 of 2 solved.")
    none = run_c4("puzzle", str(path), "--difficulty", "hard")
    assert none.returncode == 2 and "no puzzle of the 2 is as asked" in none.stderr
    assert re.search(
        r"Puzzle 1 of 1 .*O to move", run_c4("puzzle", str(path), "--theme", "double threat").stdout
    )
