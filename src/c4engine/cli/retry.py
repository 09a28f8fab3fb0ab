"""Retry your mistakes in the terminal: each mistake of a reviewed game posed again before its answer.

For every move of the side asked that the review proves a mistake or a
blunder (:mod:`c4engine.search.review`), the board before it is shown and a
column is read: one that keeps the position's best outcome is right
(:func:`c4engine.search.puzzles.retry.retry_move`), a wrong one is refused
with its refutation and may be tried again; ``s`` shows the answer, ``n``
goes on to the next mistake, ``q`` (or the end of input) stops.  After a
right try or ``s`` the answer is shown: the best columns and their line.
``c4 review GAME --retry`` and the terminal game's ``t`` (after a game) use it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TextIO

from c4engine.board import Board
from c4engine.cli.render import render_board
from c4engine.errors import IllegalMoveError, echo
from c4engine.player import Player
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.review.answers import PlyReview, Review

__all__ = ["RetryTerminal", "mistakes_of"]


def mistakes_of(review: Review, sides: Sequence[Player]) -> list[PlyReview]:
    """The plies of ``sides`` that the review proves a mistake or a blunder, in the game's order."""
    return [ply for ply in review.plies if ply.changed_result and ply.player in sides]


class RetryTerminal:
    """Poses each of ``mistakes`` (plies of ``review``) again on a text stream; :meth:`run` returns
    how many were found again."""

    def __init__(
        self,
        review: Review,
        mistakes: Sequence[PlyReview],
        analyst: Analyst,
        *,
        out: TextIO,
        read_line: Callable[[str], str] = input,
        color: bool = False,
    ) -> None:
        self.review = review
        self.mistakes = list(mistakes)
        self.analyst = analyst
        self.out = out
        self.read_line = read_line
        self.color = color

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def run(self) -> int:
        if not self.mistakes:
            self.say("No mistake to retry: the review proves none.")
            return 0
        found = 0
        for number, ply in enumerate(self.mistakes, start=1):
            outcome = self._retry(ply, number)
            if outcome is None:
                break
            found += outcome
        self.say(f"Retried {len(self.mistakes)} mistake(s): {found} found again.")
        return found

    def _retry(self, ply: PlyReview, number: int) -> bool | None:
        """One mistake: True when found again, False when shown or passed, None when the user quits."""
        from c4engine.search.puzzles.retry import retry_move

        board = _replay(self.review, ply.index)
        side = ply.player.symbol
        self.say(
            f"Mistake {number} of {len(self.mistakes)}, ply {ply.ply}: {side} played {ply.column + 1} "
            f"({ply.verdict}: {ply.words_before()} -> {ply.words_after()}).  Find a better move for {side}."
        )
        self.say()
        self.say(render_board(board, color=self.color))
        self.say()
        while True:
            try:
                line = self.read_line(
                    f"{side} -- column 1-{board.width}, s show the answer, n next, q quit: "
                )
            except EOFError:
                self.say()
                return None
            command = line.strip().lower()
            if command in {"q", "quit", "exit"}:
                return None
            if command in {"n", "next"}:
                return False
            if command in {"s", "show"}:
                self._answer(ply)
                return False
            if not command.isdigit() or not command.isascii() or not 1 <= int(command) <= board.width:
                self.say(f"{echo(command)} is not a column: type a number 1-{board.width}, or s, n or q.")
                continue
            column = int(command) - 1
            if column == ply.column:
                self.say(f"{column + 1} is the move played in the game: try another.")
                continue
            try:
                tried = retry_move(self.analyst, board, column)
            except IllegalMoveError as error:
                self.say(f"{str(error).capitalize()}: choose another column.")
                continue
            if tried.right:
                self.say(tried.words)
                self._answer(ply)
                return True
            self.say(f"{tried.words}  Try again{', or s' if tried.right is None else ''}.")

    def _answer(self, ply: PlyReview) -> None:
        best = " or ".join(str(column + 1) for column in ply.best)
        line = " ".join(str(column + 1) for column in ply.pv[:12])
        more = " ..." if len(ply.pv) > 12 or not ply.pv_complete else "."
        shown = f", line {line}{more}" if ply.pv else "."
        self.say(f"The answer: {best} ({ply.words_before()}){shown}")


def _replay(review: Review, stones: int) -> Board:
    """The board after the game's first ``stones`` moves."""
    board = Board(review.width, review.height, review.connect)
    for column in review.moves[:stones]:
        board.play(column)
    return board
