"""The ConnectX agent: positions rebuilt from Kaggle's flat board, legal and sensible moves, a real game."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.positions import random_positions

from c4engine.board import Board
from c4engine.errors import C4Error
from c4engine.integrations.kaggle import ConnectXAgent, agent, board_from_observation
from c4engine.search.solver.exact import Solver


def observation_of(board: Board) -> tuple[dict[str, Any], dict[str, Any]]:
    """What Kaggle hands an agent for ``board``: the cells row by row from the top, and the marks."""
    cells = [0 if owner is None else int(owner) for row in board.rows() for owner in row]
    configuration = {"rows": board.height, "columns": board.width, "inarow": board.connect, "actTimeout": 2}
    return {"board": cells, "mark": int(board.turn)}, configuration


@pytest.mark.parametrize("size", [(7, 6, 4), (9, 7, 5), (5, 4, 3)])
def test_observations_rebuild_the_position(size: tuple[int, int, int]) -> None:
    for board in random_positions(20, seed=11, size=size, stones=(0, size[0] * size[1] - 4)):
        observation, configuration = observation_of(board)
        rebuilt = board_from_observation(observation, configuration)
        assert rebuilt == board
        assert int(rebuilt.turn) == observation["mark"]


def test_a_board_of_the_wrong_length_is_refused() -> None:
    with pytest.raises(C4Error, match="41 cells, not rows \\* columns = 42"):
        board_from_observation({"board": [0] * 41, "mark": 1}, {"rows": 6, "columns": 7, "inarow": 4})


def test_the_budget_follows_act_timeout() -> None:
    quick = ConnectXAgent(think_fraction=0.5, use_solver=False)
    assert quick.budget({"actTimeout": 3}) == 1.5
    assert quick.budget({"timeout": 1}) == 0.5  # the obsolete name, when actTimeout is missing
    assert quick.budget({}) == 1.0  # Kaggle's default 2 s
    assert ConnectXAgent(max_think=0.1).budget({"actTimeout": 2}) == 0.1


def test_solvable_positions_are_played_perfectly() -> None:
    # time enough to solve each (milliseconds) on a loaded machine too: a time-out would be an estimate
    player = ConnectXAgent(max_think=10, table_size_mb=16)
    solver = Solver(table_size_mb=16)
    for board in random_positions(8, seed=5, size=(7, 6, 4), stones=(26, 36)):
        column = player(*observation_of(board))
        assert player.last is not None and player.last.source in ("solver", "rules")
        analysis = solver.analyze(board, pv=False)
        assert column in analysis.best_columns, (board.move_string, column, analysis.scores)


def test_book_positions_are_answered_from_the_book(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: object, **kwargs: object) -> None:
        raise AssertionError("the solver was asked")

    for name in ("solve", "analyze", "is_at_least"):
        monkeypatch.setattr(Solver, name, fail)
    player = ConnectXAgent(max_think=0.5, table_size_mb=16)
    assert player(*observation_of(Board.from_moves("44"))) == 3
    assert player.last is not None and player.last.source == "book"


def test_wins_and_blocks_on_odd_boards() -> None:
    # 9x14 connect-5 (135 bits) is too big for the compiled paths: the pure-Python engine answers in time.
    player = ConnectXAgent(max_think=0.3)
    win = Board.from_moves([4, 4, 5, 5, 6, 6, 3, 3], 9, 14, 5)  # X: four in the bottom row, both ends open
    assert player(*observation_of(win)) in (2, 7)
    block = Board.from_moves([0, 4, 0, 5, 1, 6, 8, 3], 9, 14, 5)  # O threatens the same; X must block
    assert player(*observation_of(block)) in (2, 7)
    assert player.last is not None and player.last.source == "engine"


def test_the_default_agent_answers_legal_columns_on_random_boards() -> None:
    rng = random.Random(3)
    for board in random_positions(6, seed=9, size=(6, 5, 4), stones=(0, 20)):
        observation, configuration = observation_of(board)
        configuration["actTimeout"] = rng.choice([0.2, 0.4])
        assert board.can_play(agent(observation, configuration))


def test_boards_beyond_the_engine_still_get_a_legal_column() -> None:
    assert agent({"board": [0] * 12, "mark": 1}, {"rows": 3, "columns": 4, "inarow": 1}) == 1  # connect-1
    assert agent({"board": [0] * 12, "mark": 1}, {"rows": 3, "columns": 4, "inarow": 5}) == 1  # never won
    wide = [0] * 80  # 40 columns x 2 rows, over MAX_SIZE; column 20 (0-based 19), the centre-left, is full
    wide[19], wide[40 + 19] = 2, 1
    assert agent({"board": wide, "mark": 1}, {"rows": 2, "columns": 40, "inarow": 4}) == 20


def test_a_real_kaggle_game_against_negamax() -> None:
    kaggle_environments = pytest.importorskip("kaggle_environments", reason="needs kaggle-environments")
    env = kaggle_environments.make("connectx", configuration={"rows": 5, "columns": 6, "inarow": 4})
    quick = ConnectXAgent(max_think=1.0)  # Kaggle's 2 s move limit halved: the most it takes
    steps = env.run([quick, "negamax"])
    final = steps[-1]
    assert [state.status for state in final] == ["DONE", "DONE"]
    assert final[0].reward == 1, env.render(mode="ansi")
