"""Skill levels: the table is consistent and a strong level beats a weak one."""

from __future__ import annotations

import pytest

from c4engine.errors import LevelError
from c4engine.play.levels import DEFAULT_LEVEL, LEVELS, level
from c4engine.search.engine.evaluators import EVALUATORS


def test_table_is_ordered_and_names_real_evaluators() -> None:
    assert [entry.number for entry in LEVELS] == list(range(1, len(LEVELS) + 1))
    depths = [entry.limit.depth for entry in LEVELS]
    noises = [entry.noise for entry in LEVELS]
    assert depths == sorted(depths) and noises == sorted(noises, reverse=True)
    assert all(entry.evaluator in EVALUATORS for entry in LEVELS)
    assert level(DEFAULT_LEVEL).number == DEFAULT_LEVEL


@pytest.mark.parametrize("bad", [0, len(LEVELS) + 1, -1, True, "3"])
def test_unknown_level(bad: object) -> None:
    with pytest.raises(LevelError):
        level(bad)  # type: ignore[arg-type]


def test_a_strong_level_beats_the_beginner() -> None:
    """Level 5 against level 1, both colours, varied by seed: the ladder means something."""
    from c4engine.play.game import Game
    from c4engine.play.players import EnginePlayer

    strong_points = 0.0
    games = 4
    for seed in range(games):
        strong, weak = EnginePlayer(level=5, seed=seed), EnginePlayer(level=1, seed=100 + seed)
        first, second = (strong, weak) if seed % 2 == 0 else (weak, strong)
        game = Game(first, second)
        game.run()
        if game.winner is None:
            strong_points += 0.5
        elif game.agent(game.winner) is strong:
            strong_points += 1
    assert strong_points >= games - 0.5


def test_every_level_carries_a_time_budget() -> None:
    """Budgets are positive and never shrink up the ladder; only the top level asks the book and solver."""
    budgets = [entry.limit.time for entry in LEVELS]
    assert all(budget > 0 for budget in budgets) and budgets == sorted(budgets)
    assert [entry.exact for entry in LEVELS] == [False] * (len(LEVELS) - 1) + [True]
    from c4engine.play.players import EnginePlayer

    for entry in LEVELS:
        player = EnginePlayer(level=entry.number)
        assert player.limit == entry.limit
        assert player.exact == entry.exact


def test_a_level_on_a_big_board_stops_at_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """9x7 connect 5 does not fit the compiled kernel: the pure-Python search stops when the budget is spent.

    The search's wall clock (its budget's) is replaced by one that jumps a quarter of a second at every
    reading, so the budget runs out after a few readings whatever the machine's speed.
    """
    import itertools

    from c4engine.board import Board
    from c4engine.play.players import EnginePlayer
    from c4engine.search import limit

    ticks = itertools.count()
    monkeypatch.setattr(limit, "perf_counter", lambda: next(ticks) * 0.25)
    top = LEVELS[-2]  # the strongest level the engine alone plays (level 7 asks the analysis service)
    player = EnginePlayer(level=top.number, seed=0)
    board = Board.from_moves("5564", 9, 7, 5)
    column = player.choose_move(board)
    search = player.last
    assert search is not None and search.stopped and search.column == column and board.can_play(column)
    assert top.limit.depth is not None and top.limit.time is not None
    assert search.depth is not None and search.depth < top.limit.depth and search.time >= top.limit.time
