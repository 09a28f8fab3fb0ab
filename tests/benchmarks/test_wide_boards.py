"""benchmarks/wide_boards.py and the data it reads: tests/data/wide_*.txt and wide_board_outcomes.csv.

The files' scores come from an independent solver (tests/data/README.md); here they are checked for what
can be checked without one: legal positions of the stated stage, scores the position allows, and, for
the positions at most a few stones from the end, the score itself by a plain negamax over c4engine's board.
"""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

import pytest
from tests.benchmark_scripts import load_benchmark

from c4engine.board import Board
from c4engine.notation import parse_moves, parse_size
from c4engine.search.scale import win_score

SHORT_END = 8
"""Positions with at most this many empty cells are re-solved here by brute force."""


wide = load_benchmark("wide_boards")


@cache
def _cases(size: str, stage: str) -> list[tuple[Board, int]]:
    width, height = parse_size(size)
    cases = []
    for line in wide.set_file(size, stage).read_text().splitlines():
        moves, score = line.split()
        cases.append((Board.from_moves(parse_moves(moves, width), width, height), int(score)))
    return cases


def _negamax(board: Board) -> int:
    """The exact score on the published scale by full search (only for a handful of empty cells)."""
    cells = board.width * board.height
    if board.winning_columns():
        return win_score(cells, board.move_count)
    if board.move_count == cells:
        return 0
    best = -cells
    for column in board.legal_moves():
        board.push(column)
        best = max(best, -_negamax(board))
        board.pop()
    return best


STAGE_STONES = {
    "end": (lambda cells: (cells - 20, cells - 6)),
    "mid": (lambda cells: (16, 20)),
    "deep": (lambda cells: (12, 16)),
}
PRESENT = [
    (size, stage) for size in wide.SIZES for stage in wide.STAGES if wide.set_file(size, stage).exists()
]


def test_every_board_has_its_end_game_file() -> None:
    assert {size for size, stage in PRESENT if stage == "end"} == set(wide.SIZES)


@pytest.mark.parametrize(("size", "stage"), PRESENT)
def test_positions_are_legal_games_of_their_stage(size: str, stage: str) -> None:
    cases = _cases(size, stage)
    assert len(cases) >= (10 if stage == "deep" else 20)  # a deep position takes the reference seconds
    assert len({board.key() for board, _ in cases}) == len(cases)  # no position twice
    for board, score in cases:
        cells = board.width * board.height
        assert board.width * (board.height + 1) > 64
        lowest, highest = STAGE_STONES[stage](cells)
        assert lowest <= board.move_count <= highest
        # as in the published sets: the game goes on and the side to move cannot win at once
        assert not board.is_over and not board.winning_columns()
        assert -win_score(cells, board.move_count + 1) <= score <= win_score(cells, board.move_count + 2)


@pytest.mark.parametrize("size", wide.SIZES)
def test_scores_near_the_end_agree_with_a_full_search(size: str) -> None:
    near = [
        (board, score)
        for board, score in _cases(size, "end")
        if board.width * board.height - board.move_count <= SHORT_END
    ]
    assert near, "no end-game position short enough to search in full"
    for board, score in near:
        assert _negamax(board.copy()) == score, board.move_string()


def test_published_outcomes_are_consistent() -> None:
    outcomes = wide.read_outcomes()
    assert {"10x6", "9x7", "8x8", "11x5", "6x10", "5x12"} <= {outcome.size for outcome in outcomes}
    for outcome in outcomes:
        width, height = parse_size(outcome.size)
        assert 64 < width * (height + 1) <= 128
        sign = {"first": 1, "draw": 0, "second": -1}[outcome.outcome]
        assert (outcome.score > 0) - (outcome.score < 0) == sign
        assert abs(outcome.score) <= win_score(width * height, 0)


def test_comparison_arguments_and_references() -> None:
    assert wide.references_by_size(["10x6=/st/st_10x6"]) == {"10x6": "/st/st_10x6"}
    with pytest.raises(SystemExit, match="SIZE=COMMAND"):
        wide.references_by_size(["/st/st_10x6"])
    with pytest.raises(SystemExit, match="not among --sizes 10x6"):
        wide.main(["--sizes", "10x6", "--reference", "8x8=/st/st_8x8"])
    with pytest.raises(SystemExit, match="no published outcome for 4x16"):
        wide.main(["--outcomes", "4x16"])
    arguments = wide.compare_arguments("8x8", ["end", "mid"], "/st/st_8x8", 2, None, 4)
    assert arguments[:4] == ["--size", "8x8", "--pairs", "2"]
    assert "steininger-8x8=/st/st_8x8" in arguments
    assert [Path(spec).name for spec in arguments[arguments.index("--sets") + 1 :]] == [
        "wide_8x8_end.txt:4",
        "wide_8x8_mid.txt:4",
    ]


def test_a_board_c4engine_cannot_solve_stops_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    refusing = [
        sys.executable,
        "-c",
        "import sys; print('line 1: no such board', file=sys.stderr); sys.exit(1)",
    ]
    monkeypatch.setattr(wide.compare_reference, "c4engine_command", lambda *_: refusing)
    outcome = wide.Outcome("10x6", "first", 1, "test")
    with pytest.raises(SystemExit) as stopped:
        wide.solve_empty(outcome, weak=False, threads=None, timeout=60)
    assert str(stopped.value) == "c4engine cannot solve the empty 10x6 board: line 1: no such board"


def test_a_wrong_empty_board_score_is_reported(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    answering = [sys.executable, "-c", "print(' -1')"]
    monkeypatch.setattr(wide.compare_reference, "c4engine_command", lambda *_: answering)
    assert (
        wide.solve_empty(wide.Outcome("10x6", "first", 1, "test"), weak=False, threads=None, timeout=60) == 1
    )
    assert "**WRONG**" in capsys.readouterr().out
    assert (
        wide.solve_empty(wide.Outcome("8x8", "second", -2, "test"), weak=True, threads=None, timeout=60) == 0
    )
