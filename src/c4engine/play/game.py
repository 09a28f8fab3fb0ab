"""A game between two players, independent of any front-end.

:class:`Game` keeps the board, whose turn it is, the history with undo and
redo, and tells a user interface what happens through callbacks: a move was
made, a computer starts or stops thinking, the game is over.  The front-end
plays the humans' moves with :meth:`Game.play` and lets computers move with
:meth:`Game.step` (or :meth:`Game.run` to play on until a human is to move).

>>> from c4engine.play.players import RandomPlayer
>>> game = Game(RandomPlayer(seed=1), RandomPlayer(seed=2))
>>> moves = []
>>> game.on_move.append(lambda event: moves.append(event.column))
>>> game.run()
>>> game.is_over and len(moves) == game.board.move_count
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TypeVar

from c4engine.board import Board
from c4engine.errors import BoardBusyError, GameOverError, IllegalMoveError
from c4engine.play.players import Agent
from c4engine.play.record import GameRecord
from c4engine.player import Player

__all__ = ["Game", "GameOverEvent", "MoveEvent", "ThinkingEvent"]

_Event = TypeVar("_Event")


@dataclass(frozen=True)
class MoveEvent:
    """A stone was dropped (``undone`` is True when a move was taken back instead)."""

    player: Player
    column: int
    row: int
    agent: Agent
    undone: bool = False


@dataclass(frozen=True)
class ThinkingEvent:
    """A computer started (``started``) or finished thinking about its move."""

    player: Player
    agent: Agent
    started: bool


@dataclass(frozen=True)
class GameOverEvent:
    """The game ended: ``winner`` is None for a draw; ``cells`` is the winning line."""

    winner: Player | None
    result: str
    cells: list[tuple[int, int]]


@dataclass
class Game:
    """Two agents, a board and the history of the game.

    ``first`` plays X and moves first.  ``board`` may hold a position to
    start from (its moves count as history that cannot be undone).
    """

    first: Agent
    second: Agent
    board: Board = field(default_factory=Board)
    on_move: list[Callable[[MoveEvent], None]] = field(default_factory=list)
    on_thinking: list[Callable[[ThinkingEvent], None]] = field(default_factory=list)
    on_game_over: list[Callable[[GameOverEvent], None]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._start_ply = self.board.move_count
        self._redo: list[int] = []
        self.started = datetime.now(UTC).replace(microsecond=0)

    # --------------------------------------------------------------- state

    @property
    def turn(self) -> Player:
        return self.board.turn

    def agent(self, player: Player) -> Agent:
        return self.first if player is Player.FIRST else self.second

    @property
    def current_agent(self) -> Agent:
        return self.agent(self.board.turn)

    @property
    def is_over(self) -> bool:
        return self.board.is_over

    @property
    def winner(self) -> Player | None:
        return self.board.winner

    @property
    def result(self) -> str:
        return self.board.result

    @property
    def can_undo(self) -> bool:
        return self.board.move_count > self._start_ply

    @property
    def can_undo_turn(self) -> bool:
        """Whether :meth:`undo_turn` can go back to a position where a human was to move."""
        return self._moves_back_to_a_human() is not None

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    # --------------------------------------------------------------- moves

    def play(self, column: int) -> MoveEvent:
        """Play ``column`` (0-based) for the side to move -- normally a human's move.

        Raises the board's :class:`~c4engine.errors.IllegalMoveError`
        subclasses for a full column, a column off the board or a finished game.
        """
        self.board.play(column)
        self._redo.clear()
        return self._announce(column)

    def step(self) -> MoveEvent:
        """Let the computer whose turn it is choose and play its move."""
        self._check_idle()
        if self.board.is_over:
            raise GameOverError(f"the game is over ({self.board.result})")
        agent = self.current_agent
        if agent.is_human:
            raise IllegalMoveError(f"it is {agent.name}'s turn: a human move comes from the front-end")
        player = self.board.turn
        self._emit(self.on_thinking, ThinkingEvent(player, agent, started=True))
        try:
            with self.board.frozen():
                column = agent.choose_move(self.board.copy())
        finally:
            self._emit(self.on_thinking, ThinkingEvent(player, agent, started=False))
        return self.play(column)

    def run(self) -> None:
        """Let computers move until the game ends or a human is to move."""
        while not self.board.is_over and not self.current_agent.is_human:
            self.step()

    def undo(self) -> int:
        """Take back the last move (it can be redone); returns its column."""
        self._check_idle()
        if not self.can_undo:
            raise IllegalMoveError("no move to undo")
        column = self.board.undo()
        self._redo.append(column)
        player = self.board.turn
        row = self.board.column_height(column)
        self._emit(self.on_move, MoveEvent(player, column, row, self.agent(player), undone=True))
        return column

    def undo_turn(self) -> list[int]:
        """Undo back to the previous position where a human was to move (a move and its reply).

        With two humans this takes back one move.  Returns the columns undone, last first.
        Where no human has been to move since the game's start -- the computer opened and
        nobody has moved since -- it raises :class:`IllegalMoveError` and undoes nothing: a
        person is never handed the computer's move.

        >>> from c4engine.play.players import HumanPlayer, RandomPlayer
        >>> game = Game(RandomPlayer(seed=1), HumanPlayer())   # the computer plays first
        >>> _ = game.step()                                    # it opens
        >>> game.can_undo, game.can_undo_turn                  # its move, but none of the person's
        (True, False)
        >>> _ = game.play(3); _ = game.step()                  # the person plays 4, the computer replies
        >>> len(game.undo_turn()), game.board.move_count, game.current_agent.is_human
        (2, 1, True)
        """
        self._check_idle()
        moves = self._moves_back_to_a_human()
        if moves is None:
            raise IllegalMoveError("no move of a person to take back: the computer's moves stay")
        return [self.undo() for _ in range(moves)]

    def _moves_back_to_a_human(self) -> int | None:
        """How many moves back the last position with a human to move is (1 or more); None if
        no position since the game's start had one."""
        player = self.board.turn
        for moves in range(1, self.board.move_count - self._start_ply + 1):
            player = player.other
            if self.agent(player).is_human:
                return moves
        return None

    def redo(self) -> MoveEvent:
        """Replay the last undone move."""
        self._check_idle()
        if not self._redo:
            raise IllegalMoveError("no move to redo")
        column = self._redo.pop()
        self.board.play(column)
        return self._announce(column)

    def _check_idle(self) -> None:
        if self.board.is_frozen:
            raise BoardBusyError("the computer is thinking; wait for its move")

    def _announce(self, column: int) -> MoveEvent:
        player = self.board.turn.other
        row = self.board.column_height(column) - 1
        event = MoveEvent(player, column, row, self.agent(player))
        self._emit(self.on_move, event)
        if self.board.is_over:
            self._emit(
                self.on_game_over,
                GameOverEvent(self.board.winner, self.board.result, self.board.winning_cells()),
            )
        return event

    @staticmethod
    def _emit(listeners: list[Callable[[_Event], None]], event: _Event) -> None:
        for listener in listeners:
            listener(event)

    # -------------------------------------------------------------- record

    def record(self) -> GameRecord:
        """The game so far as a :class:`~c4engine.play.record.GameRecord` (JSON-ready)."""
        return GameRecord.from_board(
            self.board,
            players=(self.first.name, self.second.name),
            started=self.started,
        )
