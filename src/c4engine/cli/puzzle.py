"""``c4 puzzle``: solve puzzles in the terminal, one at a time.

::

    c4 puzzle                          # the shipped 7x6 set, easiest first
    c4 puzzle --difficulty hard --goal draw
    c4 puzzle mine.jsonl --shuffle --seed 3

At the prompt: a column number tries a move -- a wrong one is refused with
its refutation (the opponent's best reply and what it leads to), a right one
is answered by the opponent's reply from the solution, and the last one says
solved --; ``h`` gives the next hint (the goal, the theme, the move), ``s``
skips the puzzle, ``q`` (or the end of input) quits.  It reads plain lines,
so it can be scripted: ``printf '3\\nq\\n' | c4 puzzle``.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from c4engine.board import Board
from c4engine.cli.command import Command
from c4engine.cli.options import check_input_file
from c4engine.cli.render import render_board, wants_color
from c4engine.errors import IllegalMoveError, PuzzleError, echo
from c4engine.search.puzzles.difficulty import DIFFICULTIES
from c4engine.search.puzzles.puzzle import GOALS, Puzzle

__all__ = ["COMMANDS", "PUZZLE", "PuzzleTerminal", "run_puzzle"]


class PuzzleTerminal:
    """Poses ``puzzles`` one after the other on a text stream; :meth:`run` returns the exit status."""

    def __init__(
        self,
        puzzles: Sequence[Puzzle],
        *,
        out: TextIO | None = None,
        read_line: Callable[[str], str] = input,
        color: bool = False,
    ) -> None:
        from c4engine.search.analysis.analyst import shared_analyst

        self.puzzles = list(puzzles)
        self.out = out if out is not None else sys.stdout
        self.read_line = read_line
        self.color = color
        self.analyst = shared_analyst()
        self.solved = 0

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def run(self) -> int:
        """Pose every puzzle until the user quits; 0, or 130 on Ctrl-C."""
        try:
            for number, puzzle in enumerate(self.puzzles, start=1):
                if not self._pose(puzzle, number):
                    break
            else:
                self.say(f"That was the last puzzle: {self.solved} of {len(self.puzzles)} solved.")
                return 0
            self.say(f"Bye: {self.solved} of {len(self.puzzles)} solved.")
            return 0
        except KeyboardInterrupt:
            self.say("\nStopped.")
            return 130

    def _pose(self, puzzle: Puzzle, number: int) -> bool:
        """One puzzle to its end: True to go on to the next, False when the user quits."""
        from c4engine.search.puzzles.attempt import PuzzleSession

        session = PuzzleSession(puzzle, self.analyst)
        side = session.board.turn.symbol
        aim = "win" if puzzle.goal == "win" else "hold the draw"
        themes = ", ".join(puzzle.themes) if puzzle.themes else "no theme"
        self.say(
            f"Puzzle {number} of {len(self.puzzles)} ({puzzle.difficulty}, {puzzle.id}): "
            f"{side} to move and {aim}."
        )
        hints_given = 0
        self._show(session.board)
        while not session.solved:
            prompt = f"{side} -- column 1-{puzzle.width}, h hint, s skip, q quit: "
            try:
                line = self.read_line(prompt)
            except EOFError:
                self.say()
                return False
            command = line.strip().lower()
            if command in {"q", "quit", "exit"}:
                return False
            if command in {"s", "skip"}:
                self.say(f"Skipped.  The solution: {puzzle.solution_string} ({themes}).")
                return True
            if command in {"h", "hint"}:
                hints = session.hints()
                self.say(f"Hint: {hints[min(hints_given, len(hints) - 1)]}.")
                hints_given += 1
                continue
            reason = self._column(command, puzzle.width)
            if isinstance(reason, str):
                self.say(reason)
                continue
            try:
                attempt = session.play(reason)
            except IllegalMoveError as error:
                self.say(f"{str(error).capitalize()}: choose another column.")
                continue
            if not attempt.right:
                self.say(f"Not {reason + 1}: {attempt.words}.  Try again.")
                continue
            hints_given = 0
            if attempt.solved:
                self._show(session.board)
                self.solved += 1
                ending = {
                    "win": "the game is won",
                    "forced win": "the win is forced",
                    "draw held": "the draw holds",
                }
                self.say(f"Solved!  {reason + 1} is right: {ending[puzzle.ends]} ({themes}).")
                return True
            assert attempt.reply is not None  # a right move short of the end has its reply
            self.say(f"Right.  {session.board.turn.other.symbol} replies {attempt.reply + 1}.")
            self._show(session.board)
        return True

    def _column(self, command: str, width: int) -> int | str:
        """The 0-based column ``command`` names, or why it names none."""
        if not command.isdigit() or not command.isascii():
            return f"{echo(command)} is not a column: type a number 1-{width}, or h, s or q."
        column = int(command)
        if not 1 <= column <= width:
            return f"There is no column {column}: choose 1-{width}."
        return column - 1

    def _show(self, board: Board) -> None:
        self.say()
        self.say(render_board(board, color=self.color))
        self.say()


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file", nargs="?", metavar="FILE", help="a puzzles JSONL file (default: the shipped 7x6 set)"
    )
    parser.add_argument("--difficulty", choices=DIFFICULTIES, help="only puzzles of this difficulty")
    parser.add_argument("--goal", choices=GOALS, help="only puzzles to win, or only to hold a draw")
    parser.add_argument(
        "--theme", metavar="THEME", help="only puzzles with this theme (e.g. 'double threat')"
    )
    parser.add_argument("--shuffle", action="store_true", help="in random order (default: easiest first)")
    parser.add_argument("--seed", type=int, help="with --shuffle: the order's seed")
    color = parser.add_mutually_exclusive_group()
    color.add_argument("--color", dest="color", action="store_true", default=None, help="force colour")
    color.add_argument("--no-color", dest="color", action="store_false", help="no colour")


def run_puzzle(args: argparse.Namespace) -> int:
    from c4engine.search.puzzles.collection import read_puzzles, select_puzzles, shipped_puzzles

    puzzles = (
        read_puzzles(check_input_file(args.file, "FILE")) if args.file is not None else shipped_puzzles()
    )
    chosen = select_puzzles(puzzles, difficulty=args.difficulty, goal=args.goal, theme=args.theme)
    if args.shuffle:
        random.Random(args.seed).shuffle(chosen)
    else:
        chosen.sort(key=lambda puzzle: puzzle.rating)  # easiest first, then as in the file
    if not chosen:
        raise PuzzleError(f"no puzzle of the {len(puzzles)} is as asked (--difficulty, --goal, --theme)")
    color = wants_color(sys.stdout) if args.color is None else args.color
    return PuzzleTerminal(chosen, color=color).run()


PUZZLE = Command(
    "puzzle",
    summary="solve puzzles in the terminal",
    description="Pose puzzles one at a time (the shipped 7x6 set, or FILE): find the only move that keeps "
    "the win or the draw at each turn.  A wrong move is refused with its refutation; h gives hints, "
    "s skips, q quits.",
    add_options=_options,
    run=run_puzzle,
)
COMMANDS = (PUZZLE,)
