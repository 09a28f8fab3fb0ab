"""Game: turns, history, undo/redo, events for a user interface, records."""

from __future__ import annotations

import pytest

from c4engine.board import Board
from c4engine.errors import BoardBusyError, ColumnFullError, GameOverError, IllegalMoveError
from c4engine.play.game import Game, GameOverEvent, MoveEvent, ThinkingEvent
from c4engine.play.players import EnginePlayer, HumanPlayer, RandomPlayer
from c4engine.player import Player
from c4engine.search.limit import Limit


def test_two_humans_alternate_and_win_event() -> None:
    game = Game(HumanPlayer("a"), HumanPlayer("b"))
    moves: list[MoveEvent] = []
    ends: list[GameOverEvent] = []
    game.on_move.append(moves.append)
    game.on_game_over.append(ends.append)
    for column in [0, 1, 0, 1, 0, 1, 0]:
        game.play(column)
    assert [(event.player, event.column, event.row) for event in moves[:3]] == [
        (Player.FIRST, 0, 0),
        (Player.SECOND, 1, 0),
        (Player.FIRST, 0, 1),
    ]
    assert moves[0].agent is game.first
    assert ends == [GameOverEvent(Player.FIRST, "1-0", [(0, 0), (0, 1), (0, 2), (0, 3)])]
    assert game.is_over and game.winner is Player.FIRST and game.result == "1-0"
    with pytest.raises(GameOverError):
        game.play(2)
    with pytest.raises(GameOverError):
        game.step()


def test_illegal_moves_leave_the_game_unchanged() -> None:
    game = Game(HumanPlayer(), HumanPlayer(), board=Board(3, 3, 3))
    for _ in range(3):
        game.play(1)
    with pytest.raises(ColumnFullError):
        game.play(1)
    assert game.board.moves == (1, 1, 1)


def test_undo_redo() -> None:
    game = Game(HumanPlayer(), HumanPlayer())
    events: list[MoveEvent] = []
    game.on_move.append(events.append)
    game.play(3)
    game.play(4)
    assert game.undo() == 4
    assert events[-1].undone and events[-1].column == 4 and events[-1].row == 0
    assert game.can_redo
    game.redo()
    assert game.board.moves == (3, 4)
    game.undo()
    game.play(2)  # a new move forgets the redo list
    assert not game.can_redo
    with pytest.raises(IllegalMoveError):
        game.redo()


def test_undo_stops_at_the_starting_position() -> None:
    game = Game(HumanPlayer(), HumanPlayer(), board=Board.from_moves("44"))
    assert not game.can_undo
    with pytest.raises(IllegalMoveError):
        game.undo()
    game.play(0)
    game.undo()
    assert game.board.move_string == "44"


def test_step_plays_the_computer_and_reports_thinking() -> None:
    game = Game(HumanPlayer(), EnginePlayer(limit=Limit(depth=2)))
    thinking: list[ThinkingEvent] = []
    game.on_thinking.append(thinking.append)
    with pytest.raises(IllegalMoveError, match="human"):
        game.step()
    game.play(3)
    event = game.step()
    assert event.player is Player.SECOND and event.agent is game.second
    assert [item.started for item in thinking] == [True, False]
    assert game.turn is Player.FIRST


def test_undo_turn_takes_back_the_reply_too() -> None:
    game = Game(HumanPlayer(), RandomPlayer(seed=1))
    game.play(3)
    game.run()
    assert game.board.move_count == 2
    assert len(game.undo_turn()) == 2
    assert game.board.move_count == 0


def test_undo_turn_never_hands_a_person_the_computers_move() -> None:
    game = Game(RandomPlayer(seed=1), HumanPlayer())  # the computer plays first
    game.step()
    assert game.can_undo and not game.can_undo_turn
    with pytest.raises(IllegalMoveError, match="computer's moves stay"):
        game.undo_turn()
    assert game.board.move_count == 1 and game.current_agent.is_human  # nothing was undone
    game.play(2)
    game.step()
    assert game.can_undo_turn
    assert game.undo_turn()[1] == 2  # the reply, then the person's move
    assert game.board.move_count == 1 and game.current_agent.is_human
    assert not game.can_undo_turn


def test_board_is_frozen_while_the_computer_thinks() -> None:
    game: Game

    class Meddler:
        name = "meddler"
        is_human = False

        def choose_move(self, board: Board) -> int:
            with pytest.raises(BoardBusyError):
                game.board.play(0)
            with pytest.raises(BoardBusyError):
                game.undo()
            return 6

    game = Game(Meddler(), HumanPlayer())
    game.step()
    assert game.board.moves == (6,)


def test_run_plays_computers_to_the_end_and_records() -> None:
    game = Game(RandomPlayer(seed=5), RandomPlayer(seed=6), board=Board(5, 4, 3))
    game.run()
    assert game.is_over
    record = game.record()
    assert record.moves == list(game.board.moves)
    assert record.result == game.result
    assert record.to_board() == game.board
