"""Players: whoever chooses the moves of one side.

An :class:`Agent` is anything with a ``name``, an ``is_human`` flag and a
``choose_move(board) -> column`` method.  Humans' moves come from the
front-end (it calls :meth:`c4engine.game.Game.play`), so a
:class:`HumanPlayer` is only a name; computers choose their own.

>>> from c4engine.board import Board
>>> RandomPlayer(seed=1).choose_move(Board()) in range(7)
True
>>> EnginePlayer(level=4).name
'computer, level 4 club'
>>> parse_agent("human").is_human
True
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from c4engine import levels
from c4engine.board import Board
from c4engine.engine import Engine, PollHook
from c4engine.errors import GameOverError, PlayerSpecError
from c4engine.evaluation import Evaluator, evaluator_by_name
from c4engine.levels import DEFAULT_LEVEL, Level
from c4engine.perfect import PerfectPlayer

__all__ = ["PERFECT", "Agent", "EnginePlayer", "HumanPlayer", "PerfectPlayer", "RandomPlayer", "parse_agent"]

PERFECT = "perfect"
"""The perfect player's name wherever a level is asked for (``parse_agent``, ``--level perfect``)."""


@runtime_checkable
class Agent(Protocol):
    """What :class:`c4engine.game.Game` needs of a player."""

    name: str
    is_human: bool

    def choose_move(self, board: Board) -> int:
        """The 0-based column to play in ``board`` (which is not over)."""
        ...


class HumanPlayer:
    """A person: the front-end supplies the moves."""

    is_human = True

    def __init__(self, name: str = "human") -> None:
        self.name = name

    def choose_move(self, board: Board) -> int:
        raise NotImplementedError("a human's moves come from the front-end (Game.play)")

    def __repr__(self) -> str:
        return f"HumanPlayer({self.name!r})"


class RandomPlayer:
    """Plays a uniformly random legal move; ``seed`` makes it repeatable."""

    is_human = False

    def __init__(self, seed: int | None = None, name: str = "random") -> None:
        self.name = name
        self.seed = seed
        self._random = random.Random(seed)

    def choose_move(self, board: Board) -> int:
        moves = board.legal_moves()
        if not moves:
            raise GameOverError("the game is over: there is no move to choose")
        return self._random.choice(moves)

    def __repr__(self) -> str:
        return f"RandomPlayer(seed={self.seed!r})"


class EnginePlayer:
    """The computer: a skill level, or an explicit depth, evaluator and time limit.

    ``level`` picks depth, evaluator and noise from :mod:`c4engine.levels`;
    ``depth``, ``evaluator`` and ``time_limit`` override them (a time limit
    without a depth searches as deep as the time allows).  With noise,
    the player sometimes plays a random move instead -- but never when it
    can win at once or must block (weak players still see those).
    """

    is_human = False

    def __init__(
        self,
        level: int | None = None,
        *,
        depth: int | None = None,
        evaluator: Evaluator | str | None = None,
        time_limit: float | None = None,
        noise: float | None = None,
        seed: int | None = None,
        poll: PollHook | None = None,
        poll_interval: float = 0.05,
        name: str | None = None,
    ) -> None:
        recipe: Level | None = None
        if level is not None or depth is None:
            recipe = levels.level(DEFAULT_LEVEL if level is None else level)
        self.level = recipe
        chosen_evaluator = evaluator if evaluator is not None else (recipe.evaluator if recipe else "windows")
        if isinstance(chosen_evaluator, str):
            chosen_evaluator = evaluator_by_name(chosen_evaluator)
        self.noise = noise if noise is not None else (recipe.noise if recipe else 0.0)
        self._random = random.Random(seed)
        self.engine = Engine(
            chosen_evaluator,
            depth if depth is not None or time_limit is not None else (recipe.depth if recipe else None),
            time_limit=time_limit,
            poll=poll,
            poll_interval=poll_interval,
        )
        self.name = name or self._default_name(recipe, depth, time_limit)

    @staticmethod
    def _default_name(recipe: Level | None, depth: int | None, time_limit: float | None) -> str:
        if recipe is not None and depth is None and time_limit is None:
            return f"computer, level {recipe.number} {recipe.name}"
        parts = [f"depth {depth}"] if depth is not None else []
        if time_limit is not None:
            parts.append(f"{time_limit:g} s")
        return ", ".join(["computer", *parts])

    def choose_move(self, board: Board) -> int:
        moves = board.legal_moves()
        if not moves:
            raise GameOverError("the game is over: there is no move to choose")
        if self.noise and self._random.random() < self.noise and not self._forced(board):
            return self._random.choice(moves)
        return self.engine.best_move(board)

    @staticmethod
    def _forced(board: Board) -> bool:
        """Whether a win can be taken or a loss must be blocked right now."""
        return bool(board.winning_columns() or board.winning_columns(board.turn.other))

    def __repr__(self) -> str:
        return f"EnginePlayer(name={self.name!r})"


def parse_agent(spec: str, *, seed: int | None = None) -> Agent:
    """A player from a short description: ``human``, ``random``, a level number or ``perfect``.

    >>> parse_agent("5").name
    'computer, level 5 strong'
    >>> parse_agent("perfect").name
    'perfect'
    """
    text = spec.strip().lower()
    if text in {"human", "you", "person"}:
        return HumanPlayer()
    if text == "random":
        return RandomPlayer(seed=seed)
    if text.isdigit():
        return EnginePlayer(level=int(text), seed=seed)
    if text == PERFECT:
        return PerfectPlayer(seed=seed)
    raise PlayerSpecError(f"unknown player {spec!r}: use 'human', 'random', a level number or 'perfect'")
