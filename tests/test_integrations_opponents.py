"""Opponents by name for the integrations, the solver's perfect player included."""

from __future__ import annotations

import pytest
from tests.positions import random_positions

from c4engine.board import Board
from c4engine.errors import GameOverError, PlayerSpecError
from c4engine.integrations.opponents import make_opponent
from c4engine.play import levels
from c4engine.play.players import EnginePlayer, RandomPlayer
from c4engine.search.solver.exact import Solver


def test_perfect_plays_a_best_move_centre_first() -> None:
    player = make_opponent("perfect")
    solver = Solver(table_size_mb=8)
    for board in random_positions(12, seed=2, size=(5, 4, 4), stones=(0, 14)):
        analysis = solver.analyze(board, pv=False)
        column = player.choose_move(board)
        assert column in analysis.best_columns
        centre_rank = board.geometry.center_order.index
        assert all(centre_rank(column) <= centre_rank(other) for other in analysis.best_columns)


def test_perfect_answers_from_the_book_without_searching(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: object, **kwargs: object) -> None:
        raise AssertionError("the solver was asked")

    for name in ("solve", "analyze", "is_at_least"):
        monkeypatch.setattr(Solver, name, fail)
    player = make_opponent("perfect")
    assert player.choose_move(Board()) == 3
    assert player.choose_move(Board.from_moves("44")) == 3


def test_names_give_players() -> None:
    assert isinstance(make_opponent("random", seed=1), RandomPlayer)
    level = make_opponent("3", seed=1)
    assert isinstance(level, EnginePlayer) and level.noise == levels.level(3).noise
    assert make_opponent(" Perfect ").name == "perfect"


def test_bad_names_and_finished_games() -> None:
    with pytest.raises(PlayerSpecError, match="unknown player"):
        make_opponent("grandmaster")
    with pytest.raises(PlayerSpecError, match="cannot be one"):
        make_opponent("human")
    with pytest.raises(GameOverError):
        make_opponent("perfect").choose_move(Board.from_moves("1212121"))
