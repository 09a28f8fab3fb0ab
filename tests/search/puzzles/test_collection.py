"""Puzzle files: JSONL both ways, a bad line named."""

from __future__ import annotations

from pathlib import Path

import pytest

from c4engine.errors import PuzzleError
from c4engine.search.puzzles.collection import read_puzzles, write_puzzles
from c4engine.search.puzzles.puzzle import Puzzle

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
