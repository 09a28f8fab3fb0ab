"""A two-player PettingZoo AEC environment of Connect-N on any board (``pip install 'c4engine[gym]'``).

It follows PettingZoo's classic ``connect_four`` -- agents ``"player_0"``
(moves first) and ``"player_1"``, observations ``{"observation": planes,
"action_mask": mask}`` -- on any ``width``, ``height`` and ``connect``:

>>> from c4engine.integrations.pettingzoo import env as make_env
>>> game = make_env(width=5, height=4, connect=3, render_mode="ansi")
>>> game.reset(seed=1)
>>> for column in (2, 2, 1, 1, 3):
...     game.step(column)
>>> observation, reward, terminated, truncated, info = game.last()
>>> terminated, game.rewards
(True, {'player_0': 1, 'player_1': -1})
>>> print(game.render())
 . . . . .
 . . . . .
 . O O . .
 . X X X .
 1 2 3 4 5
game over: 1-0

* ``observation``: ``(height, width, 2)`` int8 (PettingZoo's layout): the
  observing agent's stones, then the opponent's; row 0 is the top row.
* ``action_mask``: int8 per column, 1 = playable; all 0 for the agent not
  to move and once the game is over.
* Rewards: +1 to the winner and -1 to the loser at the end; 0 otherwise.
* :func:`env` wraps :class:`raw_env` as PettingZoo's classic games are: an
  illegal move (a full column) ends the game with -1 for whoever made it;
  ``raw_env`` itself raises :class:`~c4engine.errors.ColumnFullError`.
* ``reset(seed=...)`` seeds the environment's generator and the action
  spaces, so sampled play repeats; the game itself has no randomness.
* Render modes: ``"ansi"`` (text, returned), ``"human"`` (printed) and ``"rgb_array"``.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector, wrappers

from c4engine.board import Board
from c4engine.errors import ColumnFullError, ColumnOutOfRangeError
from c4engine.integrations.arrays import action_mask, board_planes, render
from c4engine.player import Player

__all__ = ["AGENTS", "env", "raw_env"]

AGENTS = ("player_0", "player_1")

_ObsType = dict[str, np.ndarray]


def env(**kwargs: Any) -> AECEnv[str, _ObsType, int]:
    """:class:`raw_env` in PettingZoo's usual wrappers (illegal move = loss, order enforced)."""
    game: AECEnv[str, _ObsType, int] = raw_env(**kwargs)
    game = wrappers.TerminateIllegalWrapper(game, illegal_reward=-1)
    game = wrappers.AssertOutOfBoundsWrapper(game)
    return wrappers.OrderEnforcingWrapper(game)


class raw_env(AECEnv[str, _ObsType, int]):  # type: ignore[misc]  # PettingZoo's name for the unwrapped class
    """Two players, Connect-``connect`` on ``width`` x ``height`` (see the module notes)."""

    metadata = {  # noqa: RUF012
        "render_modes": ["ansi", "rgb_array", "human"],
        "name": "c4engine_connect_four_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self, width: int = 7, height: int = 6, connect: int = 4, render_mode: str | None = None
    ) -> None:
        super().__init__()
        self.board = Board(width, height, connect)
        modes = list(self.metadata["render_modes"])  # type: ignore[call-overload]
        if render_mode is not None and render_mode not in modes:
            raise ValueError(f"render_mode must be one of {modes}, not {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.action_spaces = {agent: spaces.Discrete(width) for agent in AGENTS}
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0, 1, shape=(height, width, 2), dtype=np.int8),
                    "action_mask": spaces.Box(0, 1, shape=(width,), dtype=np.int8),
                }
            )
            for agent in AGENTS
        }
        self._selector = AgentSelector(self.agents)
        self.np_random, _ = gymnasium.utils.seeding.np_random(None)
        self.reset()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> _ObsType:
        player = Player.FIRST if agent == AGENTS[0] else Player.SECOND
        planes = board_planes(self.board, player, channels_last=True).astype(np.int8)
        mask = action_mask(self.board)
        if agent != self.agent_selection or any(self.terminations.values()):
            mask[:] = 0
        return {"observation": planes, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.np_random, _ = gymnasium.utils.seeding.np_random(seed)
            for offset, agent in enumerate(AGENTS):
                self.action_spaces[agent].seed(seed + offset)
        self.board = Board(self.board.width, self.board.height, self.board.connect)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._selector = AgentSelector(self.agents)
        self.agent_selection = self._selector.reset()

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        column = int(action)
        if not 0 <= column < self.board.width:
            raise ColumnOutOfRangeError(f"action {column} is not a column: use 0..{self.board.width - 1}")
        if not self.board.can_play(column):
            raise ColumnFullError(f"action {column}: column {column + 1} is full (see the action mask)")
        self._cumulative_rewards[agent] = 0
        self.board.play(column)
        following = self._selector.next()
        self.rewards = dict.fromkeys(self.agents, 0)
        if self.board.winner is not None:
            self.rewards[agent] = 1
            self.rewards[following] = -1
        if self.board.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = following
        self._accumulate_rewards()

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
        return render(self.board, self.render_mode)

    def close(self) -> None:
        pass
