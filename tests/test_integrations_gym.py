"""The Gymnasium environment: the checker, rewards, illegal moves, masks, seeding, rendering."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="needs the gym extra")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from c4engine.board import Board  # noqa: E402
from c4engine.errors import (  # noqa: E402
    ColumnFullError,
    ColumnOutOfRangeError,
    PlayerSpecError,
    UnsupportedBoardError,
)
from c4engine.integrations.gym import ENV_ID, ConnectFourEnv  # noqa: E402


class Rightmost:
    """An opponent that always plays the rightmost free column."""

    name = "rightmost"
    is_human = False

    def choose_move(self, board: Board) -> int:
        return max(board.legal_moves())


@pytest.mark.parametrize(
    "settings",
    [
        {"opponent": "random"},
        {"opponent": "2", "agent_player": "second", "render_mode": "ansi"},
        {"opponent": "perfect", "width": 5, "height": 4, "connect": 3, "render_mode": "rgb_array"},
        {"opponent": "1", "width": 9, "height": 7, "connect": 5, "render_mode": "human"},
    ],
)
def test_the_gymnasium_checker_passes(settings: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a checker warning fails the test too
        check_env(gymnasium.make(ENV_ID, **settings).unwrapped, skip_render_check=False)


def play_episode(env: ConnectFourEnv, seed: int, policy_seed: int) -> list[Any]:
    """The whole record of one episode with a seeded random (masked) policy."""
    rng = np.random.default_rng(policy_seed)
    observation, info = env.reset(seed=seed)
    record: list[Any] = [info["agent_player"], observation.tobytes()]
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        record += [action, info["opponent_move"], reward, observation.tobytes()]
        done = terminated or truncated
    return record


def test_seeded_episodes_repeat_opponent_noise_and_colour_included() -> None:
    # Level 2 plays a random move 30% of the time: the seed must fix those too.
    first = [play_episode(ConnectFourEnv(opponent="2"), seed, 0) for seed in range(6)]
    again = [play_episode(ConnectFourEnv(opponent="2"), seed, 0) for seed in range(6)]
    assert first == again
    assert len({record[0] for record in first}) == 2  # the colour is drawn per seed
    assert len({repr(record) for record in first}) == 6  # and the seeds give different games


def test_rewards_win_and_loss() -> None:
    env = ConnectFourEnv(opponent=Rightmost(), agent_player="first")
    env.reset(seed=0)
    for _ in range(3):
        assert env.step(0)[1:4] == (0.0, False, False)
    observation, reward, terminated, _, info = env.step(0)  # four in column 1
    assert (reward, terminated) == (1.0, True)
    assert observation[0, 2:, 0].tolist() == [1, 1, 1, 1]
    assert info["action_mask"].tolist() == [0] * 7
    assert not env.action_masks().any()

    env.reset(seed=0)
    for column in (0, 1, 2):
        assert env.step(column)[1] == 0.0
    _, reward, terminated, _, info = env.step(0)  # the opponent's fourth stone in column 7 wins
    assert (reward, terminated, info["opponent_move"]) == (-1.0, True, 6)


def test_an_illegal_move_loses_or_raises() -> None:
    env = ConnectFourEnv(width=4, height=2, connect=3, opponent=Rightmost(), agent_player="second")
    env.reset(seed=1)  # the opponent opens in column 4
    env.step(3)  # onto it: column 4 is full now; the opponent answers in column 3
    assert not env.action_masks()[3]
    before = env.board.move_string
    _, reward, terminated, _, info = env.step(3)
    assert (reward, terminated, info["illegal_move"]) == (-1.0, True, True)
    assert env.board.move_string == before
    assert not env.action_masks().any() and not info["action_mask"].any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)

    strict = ConnectFourEnv(
        width=4, height=2, connect=3, opponent=Rightmost(), agent_player="second", illegal_move="raise"
    )
    strict.reset(seed=1)
    strict.step(3)
    with pytest.raises(ColumnFullError, match="action 3: column 4 is full"):
        strict.step(3)
    with pytest.raises(ColumnOutOfRangeError):
        strict.step(4)


def test_masks_agree() -> None:
    env = ConnectFourEnv(width=3, height=2, connect=2, opponent=Rightmost(), agent_player="first")
    _, info = env.reset()
    _, _, _, _, info = env.step(2)  # the opponent fills column 3
    assert info["action_mask"].tolist() == [1, 1, 0]
    assert env.action_masks().tolist() == [True, True, False]


def test_rendering() -> None:
    env = ConnectFourEnv(opponent=Rightmost(), agent_player="first", render_mode="ansi")
    env.reset()
    env.step(3)
    text = env.render()
    assert isinstance(text, str)
    assert " . . . X . . O" in text and "X to move (the agent is X)" in text
    picture = ConnectFourEnv(width=5, height=4, connect=3, render_mode="rgb_array")
    picture.reset(seed=0)
    image = picture.render()
    assert isinstance(image, np.ndarray) and image.shape == (160, 200, 3) and image.dtype == np.uint8


def test_bad_settings_are_refused() -> None:
    with pytest.raises(PlayerSpecError):
        ConnectFourEnv(opponent="grandmaster")
    with pytest.raises(PlayerSpecError, match="cannot be one"):
        ConnectFourEnv(opponent="human")
    with pytest.raises(ValueError, match="agent_player"):
        ConnectFourEnv(agent_player="both")
    with pytest.raises(ValueError, match="render_mode"):
        ConnectFourEnv(render_mode="svg")
    with pytest.raises(ValueError, match="connect 9 cannot fit"):
        ConnectFourEnv(connect=9)
    # perfect play is refused where the solver cannot hold the board: it could only guess there
    with pytest.raises(UnsupportedBoardError, match="9x14 needs 135"):
        ConnectFourEnv(width=9, height=14, connect=5, opponent="perfect")
    ConnectFourEnv(width=10, height=6, opponent="perfect")  # 70 bits: the solver holds it


def test_the_perfect_opponent_answers_from_the_book(monkeypatch: pytest.MonkeyPatch) -> None:
    from c4engine.search.solver.exact import Solver

    def fail(*args: object, **kwargs: object) -> None:
        raise AssertionError("the solver was asked")

    for name in ("solve", "analyze", "is_at_least"):
        monkeypatch.setattr(Solver, name, fail)
    env = ConnectFourEnv(opponent="perfect", agent_player="second")
    observation, _info = env.reset(seed=0)
    assert observation[1, -1, 3] == 1  # the opponent (first) opened in the centre, from the book
    observation, *_ = env.step(3)
    assert observation[1, -3, 3] == 1  # and answered on top: the book's only winning move after 44
