"""A Gymnasium environment: the agent plays Connect-N against a c4engine opponent.

Importing this module registers it as ``c4engine/ConnectFour-v0``
(needs ``pip install 'c4engine[gym]'``):

>>> import gymnasium
>>> import c4engine.integrations.gym
>>> env = gymnasium.make("c4engine/ConnectFour-v0", opponent="random", agent_player="first")
>>> observation, info = env.reset(seed=7)
>>> observation.shape, info["action_mask"].tolist()
((2, 6, 7), [1, 1, 1, 1, 1, 1, 1])
>>> observation, reward, terminated, truncated, info = env.step(3)
>>> int(observation[0].sum()), int(observation[1].sum())      # our stone, the opponent's reply
(1, 1)

* **Actions**: ``Discrete(width)``, the 0-based column.  The legal ones are
  ``info["action_mask"]`` (int8, 1 = playable) and :meth:`ConnectFourEnv.action_masks`
  (bool, what sb3-contrib's ``MaskablePPO`` reads).
* **Observations**: ``Box(0, 1, (2, height, width), uint8)``: the agent's
  stones, then the opponent's; row 0 is the top row.
* **Rewards**: +1 when the agent wins, -1 when it loses, 0 for a draw and
  every move before the end.
* **An illegal action** (a full column): with ``illegal_move="lose"``
  (default) the episode ends at once with reward -1 and
  ``info["illegal_move"] = True``, the board unchanged; with ``"raise"``
  it raises :class:`~c4engine.errors.ColumnFullError`.  An action outside
  ``0..width-1`` always raises.
* **Opponent**: any name :func:`c4engine.play.players.parse_agent` reads --
  ``"random"``, a level ``"1"``..``"7"``, ``"perfect"`` (see
  :mod:`c4engine.integrations.opponents`) -- or an agent object.  A new
  opponent is made at every reset, seeded from the environment's generator,
  as is the colour when ``agent_player="random"``: ``reset(seed=...)``
  makes episodes repeatable, opponent noise included.
* **Render modes**: ``"ansi"`` (the board as text), ``"human"`` (that text printed) and ``"rgb_array"``.
"""

from __future__ import annotations

from typing import Any, SupportsFloat, SupportsInt

import gymnasium
import numpy as np
from gymnasium import spaces

from c4engine.board import Board
from c4engine.errors import ColumnFullError, ColumnOutOfRangeError
from c4engine.integrations.arrays import action_mask, board_planes, render
from c4engine.integrations.opponents import make_opponent
from c4engine.play.players import Agent
from c4engine.player import Player

__all__ = ["ENV_ID", "ConnectFourEnv"]

ENV_ID = "c4engine/ConnectFour-v0"

_PLAYERS = {"first": Player.FIRST, "second": Player.SECOND}


class ConnectFourEnv(gymnasium.Env[np.ndarray, np.int64]):
    """Connect-``connect`` on a ``width`` x ``height`` board against ``opponent`` (see the module notes).

    ``agent_player`` is ``"first"``, ``"second"`` or ``"random"`` (drawn at
    each reset).
    """

    metadata = {"render_modes": ["ansi", "rgb_array", "human"], "render_fps": 2}  # noqa: RUF012

    def __init__(
        self,
        width: int = 7,
        height: int = 6,
        connect: int = 4,
        opponent: str | Agent = "4",
        agent_player: str = "random",
        illegal_move: str = "lose",
        render_mode: str | None = None,
    ) -> None:
        Board(width, height, connect)  # validates the size
        if agent_player not in (*_PLAYERS, "random"):
            raise ValueError(f"agent_player must be 'first', 'second' or 'random', not {agent_player!r}")
        if illegal_move not in ("lose", "raise"):
            raise ValueError(f"illegal_move must be 'lose' or 'raise', not {illegal_move!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            modes = self.metadata["render_modes"]
            raise ValueError(f"render_mode must be one of {modes}, not {render_mode!r}")
        if isinstance(opponent, str):
            make_opponent(opponent, size=(width, height))  # a bad name or board fails now, not at reset
        self.width, self.height, self.connect = width, height, connect
        self.opponent_spec = opponent
        self.agent_player_choice = agent_player
        self.illegal_move = illegal_move
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(width)
        self.observation_space = spaces.Box(0, 1, shape=(2, height, width), dtype=np.uint8)
        self.board = Board(width, height, connect)
        self.agent_player = Player.FIRST
        self.opponent: Agent | None = None
        self._last_opponent_move: int | None = None
        self._over = True

    # ------------------------------------------------------------ the API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        if self.agent_player_choice == "random":
            self.agent_player = Player.FIRST if rng.integers(2) == 0 else Player.SECOND
        else:
            self.agent_player = _PLAYERS[self.agent_player_choice]
        opponent_seed = int(rng.integers(2**31))
        if isinstance(self.opponent_spec, str):
            self.opponent = make_opponent(self.opponent_spec, seed=opponent_seed)
        else:
            self.opponent = self.opponent_spec
        self.board = Board(self.width, self.height, self.connect)
        self._last_opponent_move = None
        self._over = False
        if self.agent_player is Player.SECOND:
            self._opponent_moves()
        return self._observation(), self._info()

    def step(self, action: SupportsInt) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        if self._over:
            raise RuntimeError("the episode is over: call reset() first")
        column = int(action)
        if not 0 <= column < self.width:
            raise ColumnOutOfRangeError(f"action {column} is not a column: use 0..{self.width - 1}")
        if not self.board.can_play(column):
            if self.illegal_move == "raise":
                raise ColumnFullError(f"action {column}: column {column + 1} is full (see the action mask)")
            self._over = True
            return self._observation(), -1.0, True, False, self._info(illegal_move=True)
        self._last_opponent_move = None
        self.board.play(column)
        if not self.board.is_over:
            self._opponent_moves()
        reward = 0.0
        if self.board.winner is not None:
            reward = 1.0 if self.board.winner is self.agent_player else -1.0
        self._over = self.board.is_over
        return self._observation(), reward, self._over, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal columns as booleans (for sb3-contrib's ``ActionMasker``/``MaskablePPO``)."""
        mask: np.ndarray = action_mask(self.board).astype(bool)
        if self._over:  # an illegal move ended the episode on a board that is not over
            mask[:] = False
        return mask

    def render(self) -> str | np.ndarray | None:
        return render(self.board, self.render_mode, f" (the agent is {self.agent_player.symbol})\n")

    # ------------------------------------------------------------ helpers

    def _opponent_moves(self) -> None:
        assert self.opponent is not None
        column = self.opponent.choose_move(self.board)
        self.board.play(column)
        self._last_opponent_move = column

    def _observation(self) -> np.ndarray:
        return board_planes(self.board, self.agent_player)

    def _info(self, *, illegal_move: bool = False) -> dict[str, Any]:
        info: dict[str, Any] = {
            "action_mask": action_mask(self.board) if not self._over else np.zeros(self.width, np.int8),
            "agent_player": int(self.agent_player),
            "opponent_move": self._last_opponent_move,
            "moves": self.board.move_string,
        }
        if illegal_move:
            info["illegal_move"] = True
        return info


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="c4engine.integrations.gym:ConnectFourEnv")
