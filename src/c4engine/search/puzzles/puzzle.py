"""The puzzle: a position, the only-move line that solves it, and what it shows.

A :class:`Puzzle` starts on the board its ``position`` (a move string)
leads to; the side to move is the *solver's side*.  Its ``solution`` holds
the solver's moves with the opponent's replies between them (0-based here,
1-based in the JSON, as move strings are written).  ``goal`` says what the
solver's side keeps: a ``"win"`` or a ``"draw"``; ``ends`` how the line
ends (:data:`ENDINGS`).

>>> puzzle = Puzzle("4455", solution=(2,), goal="win", ends="forced win", score=17,
...                 themes=("double threat",), tempting=0, rating=0)
>>> puzzle.board().move_count, puzzle.solver_moves, puzzle.difficulty
(4, (2,), 'easy')
>>> data = puzzle.to_json()
>>> data["position"], data["solution"], data["size"], data["connect"], data["theme"]
('4455', [3], '7x6', 4, 'double threat')
>>> Puzzle.from_json(data) == puzzle
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal, get_args

from c4engine.board import Board
from c4engine.errors import C4Error, PuzzleError
from c4engine.notation import parse_size
from c4engine.search.puzzles.difficulty import Difficulty, difficulty_name

__all__ = ["ENDINGS", "GOALS", "Ending", "Goal", "Puzzle", "PuzzleSource"]

Goal = Literal["win", "draw"]
GOALS: Final[tuple[Goal, ...]] = get_args(Goal)
"""What the solver's side keeps with its only moves."""

Ending = Literal["win", "forced win", "draw held"]
ENDINGS: Final[tuple[Ending, ...]] = get_args(Ending)
"""How a solution ends, after the solver's last move: ``"win"`` -- that move wins the game;
``"forced win"`` -- every reply of the opponent leaves the solver an immediate win; ``"draw held"``
-- the board is full, or every reply of the opponent that keeps its draw leaves the solver two or
more moves keeping the draw (no only move left for the next turn)."""


@dataclass(frozen=True)
class PuzzleSource:
    """Where a puzzle comes from: the game (all its moves, a move string), the number of stones of the
    puzzle's position in it (the mistake was the move before), the mistake's verdict, and the game's
    name in what it was read from (``"games.txt:12"``, ``"match.sqlite game 7"``), if any."""

    game: str
    ply: int
    mistake: str
    label: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "ply": self.ply, "mistake": self.mistake, "label": self.label}

    @classmethod
    def from_json(cls, data: object) -> PuzzleSource:
        if not isinstance(data, dict):
            raise PuzzleError(f"a puzzle's source is an object, not {type(data).__name__}")
        try:
            label = data.get("label")
            return cls(
                str(data["game"]),
                int(data["ply"]),
                str(data["mistake"]),
                None if label is None else str(label),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise PuzzleError(f"a puzzle's source lacks or mangles {error}") from None


@dataclass(frozen=True)
class Puzzle:
    """One puzzle (see the module's notes); ``score`` is the position's exact score for the side to
    move (solver scale), ``tempting`` the wrong moves along the solution that do not lose at once and
    ``rating`` the difficulty they and the length give (:mod:`c4engine.search.puzzles.difficulty`)."""

    position: str
    solution: tuple[int, ...]
    goal: Goal
    ends: Ending
    score: int
    themes: tuple[str, ...] = ()
    tempting: int = 0
    rating: int = 0
    width: int = 7
    height: int = 6
    connect: int = 4
    source: PuzzleSource | None = None

    def __post_init__(self) -> None:
        if self.goal not in GOALS:
            raise PuzzleError(f"a puzzle's goal is {' or '.join(GOALS)}, not {self.goal!r}")
        if self.ends not in ENDINGS:
            raise PuzzleError(f"a puzzle ends in {', '.join(ENDINGS)}, not {self.ends!r}")
        if not self.solution or len(self.solution) % 2 == 0:
            raise PuzzleError("a solution is the solver's moves with the replies between: an odd number")
        board = self.board()
        try:
            for column in self.solution:
                board.play(column)
        except C4Error as error:
            raise PuzzleError(f"the solution {self.solution_string} does not play: {error}") from None

    def board(self) -> Board:
        """The puzzle's position (the solver's side to move)."""
        try:
            return Board.from_moves(self.position, self.width, self.height, self.connect)
        except C4Error as error:
            raise PuzzleError(f"the puzzle's position {self.position!r}: {error}") from None

    @property
    def solver_moves(self) -> tuple[int, ...]:
        """The solver's side's moves of the solution (0-based)."""
        return self.solution[::2]

    @property
    def length(self) -> int:
        """The number of the solver's moves."""
        return len(self.solver_moves)

    @property
    def difficulty(self) -> Difficulty:
        return difficulty_name(self.rating)

    @property
    def size(self) -> str:
        return f"{self.width}x{self.height}"

    @property
    def solution_string(self) -> str:
        """The solution in the usual notation: ``"3 4 3"`` (1-based columns)."""
        return " ".join(str(column + 1) for column in self.solution)

    @property
    def key(self) -> int:
        """The position's key up to mirror image (:meth:`Board.canonical_key`): one puzzle a key."""
        return self.board().canonical_key()

    @property
    def id(self) -> str:
        """A short name of the puzzle that stays the same: its board and its position's canonical key."""
        return f"{self.width}x{self.height}c{self.connect}-{self.key:x}"

    def to_json(self) -> dict[str, Any]:
        """The puzzle as one JSON object (docs/puzzles.md): columns counted from 1."""
        return {
            "id": self.id,
            "position": self.position,
            "solution": [column + 1 for column in self.solution],
            "size": self.size,
            "connect": self.connect,
            "goal": self.goal,
            "ends": self.ends,
            "score": self.score,
            "theme": self.themes[0] if self.themes else None,
            "themes": list(self.themes),
            "length": self.length,
            "tempting": self.tempting,
            "rating": self.rating,
            "difficulty": self.difficulty,
            "source": None if self.source is None else self.source.to_json(),
        }

    @classmethod
    def from_json(cls, data: object) -> Puzzle:
        """The puzzle :meth:`to_json` wrote; a malformed one raises :class:`PuzzleError`."""
        if not isinstance(data, dict):
            raise PuzzleError(f"a puzzle is a JSON object, not {type(data).__name__}")
        try:
            width, height = parse_size(str(data.get("size", "7x6")))
            solution = data["solution"]
            if not isinstance(solution, list) or not all(isinstance(c, int) for c in solution):
                raise PuzzleError("a puzzle's solution is a list of column numbers")
            source = data.get("source")
            return cls(
                position=str(data["position"]),
                solution=tuple(column - 1 for column in solution),
                goal=data.get("goal", "win"),
                ends=data.get("ends", "forced win"),
                score=int(data.get("score", 0)),
                themes=tuple(str(theme) for theme in data.get("themes", ())),
                tempting=int(data.get("tempting", 0)),
                rating=int(data.get("rating", 0)),
                width=width,
                height=height,
                connect=int(data.get("connect", 4)),
                source=None if source is None else PuzzleSource.from_json(source),
            )
        except KeyError as error:
            raise PuzzleError(f"a puzzle lacks {error}") from None
        except (TypeError, ValueError) as error:
            if isinstance(error, PuzzleError):
                raise
            raise PuzzleError(f"a malformed puzzle: {error}") from None
