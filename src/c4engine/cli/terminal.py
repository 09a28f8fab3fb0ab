"""The terminal game: ``c4 play``.

A text front-end on :class:`c4engine.play.game.Game`.  It reads one command per
line, so it works the same typed by a person or piped from a script:

* a column number ``1``..``W`` plays there;
* ``u`` takes back your last move and the computer's reply;
* ``h`` asks the computer for a hint;
* ``q`` (or the end of input) quits.

When the game ends it prints the game's moves and, where a person played,
offers ``r`` (review every move: :mod:`c4engine.search.review.game`), ``t``
(retry each of the person's mistakes before its answer is shown:
:mod:`c4engine.cli.retry`) and ``n`` (a new game from the same start).

Anything else is refused with the reason and the prompt comes back.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO

from c4engine.cli.progress import AgentProgressLine, ProgressLine
from c4engine.cli.render import player_symbol, render_board, render_review, wants_color
from c4engine.errors import IllegalMoveError, echo
from c4engine.play.game import Game, MoveEvent, ThinkingEvent
from c4engine.play.perfect import PerfectPlayer
from c4engine.player import Player
from c4engine.search.analysis.analyst import shared_analyst
from c4engine.search.limit import Limit
from c4engine.search.review.answers import Review
from c4engine.search.review.game import review_game

__all__ = ["TerminalGame"]

HINT_SECONDS = 2.0
"""What ``h`` may think: the analysis service's best move (book, solver, then engine) in that time."""

REVIEW_SECONDS_PER_PLY = 1.0
"""What ``r`` may think about each move of the finished game (as ``c4 review``'s default)."""


class TerminalGame:
    """Runs a :class:`Game` on a text stream; :meth:`run` returns the exit status."""

    def __init__(
        self,
        game: Game,
        *,
        out: TextIO | None = None,
        read_line: Callable[[str], str] = input,
        color: bool | None = None,
        live: bool | None = None,
    ) -> None:
        self.game = game
        self.out = out if out is not None else sys.stdout
        self.read_line = read_line
        self.color = wants_color(self.out) if color is None else color
        # On a terminal a computer's thinking is a live line on standard error (time, depth, best
        # move so far), cleared when it plays; elsewhere one plain line says it thinks.
        self.live = sys.stderr.isatty() if live is None else live
        self._thinking_line: AgentProgressLine | None = None
        self._start = game.board.copy()  # where a new game (n) starts
        self._follow(game)

    def _follow(self, game: Game) -> None:
        game.on_thinking.append(self._thinking)
        game.on_move.append(self._moved)

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def _label(self, player: Player) -> str:
        return f"{player_symbol(player, color=self.color)} ({self.game.agent(player).name})"

    def _thinking(self, event: ThinkingEvent) -> None:
        if not self.live:
            if event.started:
                self.say(f"{self._label(event.player)} is thinking...")
        elif event.started:
            label = f"{event.player.symbol} is thinking"
            self._thinking_line = AgentProgressLine(event.agent, label, enabled=True)
        elif self._thinking_line is not None:
            self._thinking_line.close()
            self._thinking_line = None

    def _moved(self, event: MoveEvent) -> None:
        if not event.agent.is_human and not event.undone:
            self.say(f"{self._label(event.player)} plays {event.column + 1}{_unproven(event.agent)}.")

    def show(self) -> None:
        self.say()
        self.say(render_board(self.game.board, color=self.color))
        self.say()

    def run(self) -> int:
        """Play until the game ends or the user quits; 0 on a normal end, 130 on Ctrl-C."""
        board = self.game.board
        self.say(
            f"Connect {board.connect} on {board.size}.  "
            f"{self._label(Player.FIRST)} against {self._label(Player.SECOND)}."
        )
        try:
            return self._loop()
        except KeyboardInterrupt:
            self.say("\nGame abandoned.")
            return 130

    def _loop(self) -> int:
        while True:
            self.show()
            while not self.game.is_over:
                if self.game.current_agent.is_human:
                    if not self._human_turn():
                        self.say("Bye.")
                        return 0
                else:
                    self.game.step()
                    self.show()
            self._announce_result()
            self.say(f"Moves: {self.game.board.move_string}")
            people = self.game.first.is_human or self.game.second.is_human
            if not people or not self._after_game():
                return 0
            self.game = Game(self.game.first, self.game.second, board=self._start.copy())
            self._follow(self.game)
            self.say("New game.")

    def _after_game(self) -> bool:
        """Offer a review of the game, a retry of its mistakes and a new game: True for a new game,
        False to quit."""
        review: Review | None = None
        while True:
            command = self._read_command("r review, t retry your mistakes, n new game, q quit: ")
            if command is None:
                return False
            if command in {"n", "new"}:
                return True
            if command in {"r", "review", "t", "retry"}:
                review = review or self._review()
                if command in {"r", "review"}:
                    self.say(render_review(review, color=self.color))
                else:
                    self._retry(review)
            else:
                self.say(
                    f"{echo(command)}: type r to review the game, t to retry your mistakes, "
                    "n for a new game or q to quit."
                )

    def _review(self) -> Review:
        board = self.game.board
        with ProgressLine("reviewing the game", board.move_count, unit=" plies", enabled=self.live) as line:
            return review_game(
                shared_analyst(),
                board,
                Limit(time=REVIEW_SECONDS_PER_PLY),
                progress=lambda update: line.advance(),
                poll=line.poll,
            )

    def _retry(self, review: Review) -> None:
        """Each mistake of the people's sides posed again (:class:`~c4engine.cli.retry.RetryTerminal`)."""
        from c4engine.cli.retry import RetryTerminal, mistakes_of

        people = [side for side in (Player.FIRST, Player.SECOND) if self.game.agent(side).is_human]
        mistakes = mistakes_of(review, people)
        RetryTerminal(
            review, mistakes, shared_analyst(), out=self.out, read_line=self.read_line, color=self.color
        ).run()

    def _read_command(self, prompt: str) -> str | None:
        """The person's next command, trimmed and in lower case; None when they quit or input ends."""
        try:
            line = self.read_line(prompt)
        except EOFError:
            self.say()
            return None
        command = line.strip().lower()
        return None if command in {"q", "quit", "exit"} else command

    def _prompt(self) -> str:
        board = self.game.board
        return f"{self._label(board.turn)} -- column 1-{board.width}, u undo, h hint, q quit: "

    def _human_turn(self) -> bool:
        """Read commands until a move is made; False when the user quits."""
        while True:
            command = self._read_command(self._prompt())
            if command is None:
                return False
            if command in {"u", "undo"}:
                self._undo()
                continue
            if command in {"h", "hint"}:
                self._hint()
                continue
            reason = self._try_move(command)
            if reason is None:
                self.show()
                return True
            self.say(reason)

    def _try_move(self, command: str) -> str | None:
        """Play ``command`` as a column; the reason it is refused, or None."""
        width = self.game.board.width
        if not command:
            return f"Type a column number 1-{width}, or u, h or q."
        if not command.isdigit() or not command.isascii():
            return f"{echo(command)} is not a column: type a number 1-{width}, or u, h or q."
        column = int(command)
        if not 1 <= column <= width:
            return f"There is no column {column}: choose 1-{width}."
        try:
            self.game.play(column - 1)
        except IllegalMoveError as error:
            return f"{str(error).capitalize()}: choose another column."
        return None

    def _undo(self) -> None:
        if not self.game.can_undo:
            self.say("There is no move to undo.")
            return
        if not self.game.can_undo_turn:  # the computer opened: taking it back would hand its move to you
            self.say("You have not moved yet: the computer's opening move stays.")
            return
        undone = self.game.undo_turn()
        moves = ", ".join(str(column + 1) for column in reversed(undone))
        self.say(f"Took back {moves}.")
        self.show()

    def _hint(self) -> None:
        with ProgressLine("looking for a hint", enabled=self.live) as line:
            hint = shared_analyst().solve(self.game.board.copy(), Limit(time=HINT_SECONDS), poll=line.poll)
        assert hint.column is not None  # the game is not over while the prompt is up
        why = hint.describe() if hint.proven else "not proven"
        self.say(f"Hint: column {hint.column + 1} ({why}).")

    def _announce_result(self) -> None:
        winner = self.game.winner
        if winner is None:
            self.say("The board is full: a draw.")
            return
        cells = " ".join(f"{column + 1}:{row + 1}" for column, row in self.game.board.winning_cells())
        self.say(f"{self._label(winner)} wins!  Winning line (column:row) {cells}.")


def _unproven(agent: object) -> str:
    """`` (not proven: best estimate ...)`` after the move of a perfect player that could not prove it
    within its proof budget; nothing after any other move."""
    if not isinstance(agent, PerfectPlayer) or agent.last is None or agent.last.proven:
        return ""
    seconds = agent.proof_limit.time
    budget = f"the {seconds:g} s proof budget ran out" if seconds is not None else "not proven in time"
    return f" (not proven: best estimate; {budget})"
