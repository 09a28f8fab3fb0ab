"""Puzzle files: JSONL both ways, a bad line named."""

from __future__ import annotations

from pathlib import Path

import pytest

from c4engine.errors import PuzzleError
from c4engine.search.coach.rules import RULES
from c4engine.search.puzzles.collection import read_puzzles, retheme, shipped_puzzles, write_puzzles
from c4engine.search.puzzles.puzzle import Puzzle
from c4engine.search.puzzles.themes import board_themes, coach_themes

PUZZLES = [
    Puzzle("64434", solution=(1,), goal="win", ends="forced win", score=18, themes=("double threat",)),
    Puzzle("54274", solution=(3,), goal="draw", ends="draw held", score=0, themes=("defence",)),
]


def test_written_puzzles_read_back_the_same(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    assert write_puzzles(PUZZLES, path) == 2
    assert len(path.read_text().splitlines()) == 2
    assert read_puzzles(path) == PUZZLES


def test_a_bad_line_is_named(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    write_puzzles(PUZZLES, path)
    path.write_text(path.read_text() + "\n{not json\n")
    with pytest.raises(PuzzleError, match=r"p\.jsonl, line 4: "):
        read_puzzles(path)
    with pytest.raises(PuzzleError, match="cannot read puzzles"):
        read_puzzles(tmp_path / "missing.jsonl")


def test_retheming_changes_the_themes_alone() -> None:
    coached = retheme(PUZZLES, lambda *_: ("claimeven",))
    assert [p.themes for p in coached] == [("claimeven",), ("claimeven",)]
    assert [p.to_json() | {"theme": None, "themes": []} for p in coached] == [
        p.to_json() | {"theme": None, "themes": []} for p in PUZZLES
    ]


def test_every_shipped_puzzles_themes_are_derived_again() -> None:
    """All 640, the coach's proofs found and checked again (about 5 CPU s): the board's themes first,
    then exactly the rules a checked proof of the solution's end gives."""
    shipped = shipped_puzzles()
    assert retheme(shipped, coach_themes) == shipped
    plain = retheme(shipped, board_themes)
    assert all(p.themes == q.themes[: len(p.themes)] for p, q in zip(plain, shipped, strict=True))
    assert all(set(q.themes[len(p.themes) :]) <= set(RULES) for p, q in zip(plain, shipped, strict=True))
