"""The puzzle answer type: its JSON both ways, and the malformed ones refused."""

from __future__ import annotations

import pytest

from c4engine.errors import PuzzleError
from c4engine.search.puzzles.puzzle import Puzzle, PuzzleSource

PUZZLE = Puzzle(
    "6443433",
    solution=(1,),
    goal="win",
    ends="forced win",
    score=17,
    themes=("double threat",),
    tempting=5,
    rating=5,
    source=PuzzleSource("6443433251", 7, "blunder", "games.txt:3"),
)


def test_json_counts_columns_from_one_and_comes_back_equal() -> None:
    data = PUZZLE.to_json()
    assert data["solution"] == [2] and data["position"] == "6443433"
    assert (data["size"], data["connect"], data["goal"], data["ends"]) == ("7x6", 4, "win", "forced win")
    assert data["difficulty"] == "easy" and data["length"] == 1
    assert data["source"] == {"game": "6443433251", "ply": 7, "mistake": "blunder", "label": "games.txt:3"}
    assert Puzzle.from_json(data) == PUZZLE


def test_the_id_is_the_same_for_a_mirror_image() -> None:
    mirrored = Puzzle("2445455", solution=(5,), goal="win", ends="forced win", score=17)
    assert mirrored.id == PUZZLE.id and mirrored.key == PUZZLE.key


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"goal": "lose"}, "goal"),
        ({"ends": "never"}, "ends in"),
        ({"solution": [2, 3]}, "odd number"),
        ({"solution": [9]}, "does not play"),
        ({"position": "44444444"}, "position"),
        ({"solution": "2"}, "list of column numbers"),
        ({"size": "7by6"}, "malformed"),
        ({"source": {"game": "44"}}, "source"),
    ],
)
def test_a_malformed_puzzle_is_refused_with_the_reason(change: dict[str, object], message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        Puzzle.from_json({**PUZZLE.to_json(), **change})


def test_a_puzzle_without_a_position_is_refused() -> None:
    data = PUZZLE.to_json()
    del data["position"]
    with pytest.raises(PuzzleError, match="lacks 'position'"):
        Puzzle.from_json(data)
    with pytest.raises(PuzzleError, match="JSON object"):
        Puzzle.from_json([1, 2])
