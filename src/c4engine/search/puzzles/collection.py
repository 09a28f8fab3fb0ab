"""Puzzle files: one JSON object a line (JSONL), and the set shipped with c4engine.

>>> puzzles = shipped_puzzles()
>>> len(puzzles) >= 500, {puzzle.size for puzzle in puzzles}
(True, {'7x6'})
>>> [p for p in puzzles if p.difficulty == "easy"][0].difficulty
'easy'
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Final

from c4engine.errors import PuzzleError
from c4engine.search.puzzles.puzzle import Puzzle
from c4engine.search.puzzles.themes import ThemeSource

__all__ = [
    "SHIPPED_7X6",
    "read_puzzles",
    "retheme",
    "select_puzzles",
    "shipped_path",
    "shipped_puzzles",
    "write_puzzles",
]

SHIPPED_7X6: Final = "puzzles-7x6.jsonl"
"""The shipped set's file in the package's data (docs/puzzles.md tells how it was made)."""


def shipped_path() -> Path:
    """Where the shipped 7x6 set is."""
    return Path(str(resources.files("c4engine") / "data" / SHIPPED_7X6))


def shipped_puzzles() -> list[Puzzle]:
    """The 7x6 puzzles shipped with c4engine, in their file's order."""
    return read_puzzles(shipped_path())


def read_puzzles(path: str | os.PathLike[str]) -> list[Puzzle]:
    """The puzzles of a JSONL file (blank lines skipped); a bad line raises :class:`PuzzleError` naming it."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise PuzzleError(f"cannot read puzzles from {os.fspath(path)}: {error}") from None
    puzzles = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            puzzles.append(Puzzle.from_json(json.loads(line)))
        except (json.JSONDecodeError, PuzzleError) as error:
            raise PuzzleError(f"{os.fspath(path)}, line {number}: {error}") from None
    return puzzles


def select_puzzles(
    puzzles: Iterable[Puzzle],
    *,
    difficulty: str | None = None,
    goal: str | None = None,
    theme: str | None = None,
) -> list[Puzzle]:
    """The puzzles of the ``difficulty``, ``goal`` and ``theme`` asked (None: any), in their order.

    >>> easy = select_puzzles(shipped_puzzles(), difficulty="easy", goal="draw")
    >>> {(puzzle.difficulty, puzzle.goal) for puzzle in easy}
    {('easy', 'draw')}
    """
    return [
        puzzle
        for puzzle in puzzles
        if (difficulty is None or puzzle.difficulty == difficulty)
        and (goal is None or puzzle.goal == goal)
        and (theme is None or theme in puzzle.themes)
    ]


def write_puzzles(puzzles: Iterable[Puzzle], path: str | os.PathLike[str]) -> int:
    """Write ``puzzles`` to ``path``, one JSON object a line; returns how many."""
    count = 0
    with Path(path).open("w", encoding="utf-8") as handle:
        for puzzle in puzzles:
            handle.write(json.dumps(puzzle.to_json()) + "\n")
            count += 1
    return count


def retheme(puzzles: Iterable[Puzzle], themes: ThemeSource) -> list[Puzzle]:
    """``puzzles`` with their themes named anew by ``themes``, all else as it was: their positions,
    solutions, ratings and so their ids are the same (the shipped set's new themes: docs/puzzles.md).

    >>> from c4engine.search.puzzles.themes import board_themes
    >>> puzzle = shipped_puzzles()[2]
    >>> puzzle.themes, retheme([puzzle], board_themes)[0].themes     # without the coach's rules
    (('defence', 'claimeven'), ('defence',))
    """
    return [
        replace(puzzle, themes=themes(puzzle.board(), puzzle.solution, puzzle.goal, puzzle.ends))
        for puzzle in puzzles
    ]
