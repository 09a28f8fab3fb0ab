"""The PettingZoo AEC environment: PettingZoo's own API and seed tests, rewards, illegal moves, rendering."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="needs the gym extra")

from pettingzoo.test import api_test, render_test, seed_test

from c4engine.errors import ColumnFullError
from c4engine.integrations.pettingzoo import env, raw_env

# PettingZoo's API test warns about dict observations, as it does for its own connect_four.
pytestmark = pytest.mark.filterwarnings("ignore:Observation")


@pytest.mark.parametrize(
    "size", [{}, {"width": 9, "height": 7, "connect": 5}, {"width": 4, "height": 3, "connect": 3}]
)
def test_pettingzoo_api_test_passes(size: dict[str, int]) -> None:
    api_test(env(**size), num_cycles=300)
    api_test(raw_env(**size), num_cycles=300)


def test_pettingzoo_seed_test_passes() -> None:
    seed_test(lambda: env(width=5, height=4, connect=3), num_cycles=50)


def test_pettingzoo_render_test_passes(capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda render_mode=None: env(width=5, height=4, connect=3, render_mode=render_mode))
    assert "1 2 3 4 5" in capsys.readouterr().out  # what "human" printed


def sampled_game(seed: int) -> list[Any]:
    game = env(width=6, height=5)
    game.reset(seed=seed)
    record: list[Any] = []
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _ = game.last()
        action = (
            None if terminated or truncated else game.action_space(agent).sample(observation["action_mask"])
        )
        record.append((agent, action, reward, observation["observation"].tobytes()))
        game.step(action)
    return record


def test_seeded_games_repeat() -> None:
    assert sampled_game(4) == sampled_game(4)
    assert sampled_game(4) != sampled_game(5)


def test_observations_are_from_each_players_side() -> None:
    game = env(width=5, height=4, connect=3)
    game.reset()
    game.step(2)
    mover, waiting = game.observe("player_1"), game.observe("player_0")
    assert mover["observation"][-1, :, 1].tolist() == [0, 0, 1, 0, 0]  # player_0's stone is the opponent's
    assert waiting["observation"][-1, :, 0].tolist() == [0, 0, 1, 0, 0]
    assert mover["action_mask"].tolist() == [1] * 5 and waiting["action_mask"].tolist() == [0] * 5
    assert mover["observation"].dtype == np.int8 and mover["observation"].shape == (4, 5, 2)


def test_win_draw_and_illegal_move_rewards() -> None:
    game = env(width=4, height=4, connect=3)
    game.reset()
    for column in (0, 1, 0, 1, 0):
        game.step(column)
    assert game.rewards == {"player_0": 1, "player_1": -1}
    assert all(game.terminations.values())

    draw = env(width=3, height=1, connect=3)  # X O X: the board is full, nobody has three
    draw.reset()
    for column in (0, 1, 2):
        draw.step(column)
    assert all(draw.terminations.values()) and draw.rewards == {"player_0": 0, "player_1": 0}

    illegal = env(width=3, height=2, connect=2)
    illegal.reset()
    illegal.step(0)
    illegal.step(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the wrapper warns about the illegal move it punishes
        illegal.step(0)  # player_0 into the full column
    assert illegal.rewards == {"player_0": -1, "player_1": 0}
    assert all(illegal.terminations.values())

    raw = raw_env(width=3, height=2, connect=2)
    raw.step(0)
    raw.step(0)
    with pytest.raises(ColumnFullError):
        raw.step(0)


def test_render() -> None:
    game = env(width=4, height=3, connect=3, render_mode="ansi")
    game.reset()
    game.step(1)
    assert game.render() == " . . . .\n . . . .\n . X . .\n 1 2 3 4\nO to move"
    picture = raw_env(width=4, height=3, connect=3, render_mode="rgb_array").render()
    assert isinstance(picture, np.ndarray) and picture.shape == (120, 160, 3)
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb")
