"""Labelled datasets: sampling, labels checked against the solver, files, the parallel path, the command."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import pytest
from tests.conftest import run_c4

from c4engine.board import Board
from c4engine.cli import main
from c4engine.errors import DatasetError
from c4engine.experiments.dataset import (
    LabelledPosition,
    build_dataset,
    label,
    read_dataset,
    sample_positions,
    write_dataset,
)
from c4engine.search.solver.exact import Solver


def test_sampling_is_seeded_distinct_and_by_ply() -> None:
    boards = sample_positions(range(4, 9), per_ply=5, width=5, height=4, seed=3)
    assert [board.move_count for board in boards] == [ply for ply in range(4, 9) for _ in range(5)]
    assert len({board.canonical_key() for board in boards}) == len(boards)
    assert not any(board.is_over for board in boards)
    again = sample_positions(range(4, 9), per_ply=5, width=5, height=4, seed=3)
    assert [board.move_string for board in again] == [board.move_string for board in boards]
    other = sample_positions(range(4, 9), per_ply=5, width=5, height=4, seed=4)
    assert [board.move_string for board in other] != [board.move_string for board in boards]


def test_count_spreads_over_the_plies_and_small_plies_run_out() -> None:
    boards = sample_positions([6, 7, 8], count=12, width=5, height=4, seed=1)
    assert len(boards) == 12 and {board.move_count for board in boards} <= {6, 7, 8}
    # Ply 1 of a 3-wide board has 2 positions up to mirror image (edge, centre).
    assert len(sample_positions([1], per_ply=5, width=3, height=3, connect=3, seed=0)) == 2


def test_bias_prefers_the_centre() -> None:
    def central_share(bias: float) -> float:
        boards = sample_positions([10], per_ply=40, width=7, height=6, seed=2, bias=bias)
        moves = [column for board in boards for column in board.moves]
        return sum(column in (2, 3, 4) for column in moves) / len(moves)

    assert central_share(4.0) > central_share(0.0) + 0.1


def test_labels_agree_with_the_solver() -> None:
    solver = Solver(table_size_mb=16)
    boards = sample_positions(range(6, 16), per_ply=2, width=6, height=5, seed=7)
    for row, board in zip(build_dataset(boards, table_size_mb=16), boards, strict=True):
        assert (row.moves, row.ply) == (board.move_string, board.move_count)
        assert row.score == solver.solve(board).score
        for column in range(board.width):
            if not board.can_play(column):
                assert row.move_scores[column] is None
                continue
            child = board.copy()
            child.play(column)
            if child.winner is not None:
                expected = (board.width * board.height + 1 - board.move_count) // 2
            elif child.is_full:
                expected = 0
            else:
                result = solver.solve(child)
                assert result.score is not None
                expected = -result.score
            assert row.move_scores[column] == expected
        assert row.best_moves == tuple(c + 1 for c in range(board.width) if row.move_scores[c] == row.score)


def test_parallel_workers_give_the_same_rows() -> None:
    boards = sample_positions(range(8, 12), per_ply=3, width=5, height=4, seed=5)
    assert build_dataset(boards, workers=2, table_size_mb=8) == build_dataset(boards, table_size_mb=8)


ROWS = [
    LabelledPosition("3344", 4, 7, (-1, 7, -1, -1, -1), (2,)),
    LabelledPosition("33333", 5, 0, (0, 0, None, 0, 0), (1, 2, 4, 5)),
]


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_files_round_trip(tmp_path: Path, suffix: str) -> None:
    if suffix == ".parquet":
        pytest.importorskip("pyarrow", reason="Parquet needs the parquet extra")
    path = tmp_path / f"rows{suffix}"
    assert write_dataset(ROWS, path, width=5) == suffix[1:]
    assert read_dataset(path) == ROWS


def test_csv_columns(tmp_path: Path) -> None:
    path = tmp_path / "rows.csv"
    write_dataset(ROWS, path, width=5)
    with path.open() as handle:
        lines = list(csv.reader(handle))
    assert lines[0] == [
        "moves",
        "ply",
        "score",
        "score_1",
        "score_2",
        "score_3",
        "score_4",
        "score_5",
        "best_moves",
    ]
    assert lines[2] == ["33333", "5", "0", "0", "0", "", "0", "0", "1 2 4 5"]


def test_parquet_without_pyarrow_says_how_to_get_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(DatasetError, match=r"pip install 'c4engine\[parquet\]'"):
        write_dataset(ROWS, tmp_path / "rows.parquet", width=5)


def test_bad_settings_raise_dataset_errors() -> None:
    with pytest.raises(DatasetError, match=r"within 0\.\.19"):
        sample_positions([20], per_ply=1, width=5, height=4)
    with pytest.raises(DatasetError, match="either per_ply or count"):
        sample_positions([3], per_ply=1, count=2, width=5, height=4)
    with pytest.raises(DatasetError, match="width \\* \\(height \\+ 1\\) <= 128"):
        build_dataset([Board(9, 14, 5)])
    with pytest.raises(DatasetError, match="unknown format"):
        write_dataset(ROWS, "rows.txt", width=5, format="xlsx")
    assert label(Board.from_moves("3344", 5, 4)) == ROWS[0]


def test_the_command_writes_a_dataset(tmp_path: Path) -> None:
    path = tmp_path / "small.csv"
    done = run_c4(
        "dataset", "-o", str(path), "--size", "5x4", "--plies", "6-7", "--per-ply", "2", "--workers", "0"
    )
    assert done.returncode == 0, done.stderr
    assert "wrote 4 positions (plies 6-7)" in done.stdout
    rows = read_dataset(path)
    assert [row.ply for row in rows] == [6, 6, 7, 7]
    assert rows[0] == label(Board.from_moves(rows[0].moves, 5, 4))


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--plies", "x"], "plies 'x': write a ply"),
        (["--plies", "9-3"], "the range runs backwards"),
        (["--plies", "40"], "--plies '40': a board of 20 cells has plies 0..19"),
        (["--per-ply", "0"], "--per-ply must be 1..10000000, not 0"),
        (["--per-ply", "2", "--count", "3"], "not allowed with argument"),
        (["--size", "9x14", "--connect", "5"], "width * (height + 1) <= 128"),
        (["--format", "xlsx"], "invalid choice"),
        (["--workers", "-1"], "argument --workers: must be 0 (work in this process) or more, not -1"),
        (["--connect", "9"], "connect 9 cannot fit"),
    ],
)
def test_bad_arguments_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str], message: str
) -> None:
    base = ["dataset", "-o", str(tmp_path / "out.csv"), "--size", "5x4"]
    try:
        status = main([*base, *arguments])
    except SystemExit as exit:  # argparse's own errors
        status = exit.code  # type: ignore[assignment]
    stderr = capsys.readouterr().err
    assert status == 2
    assert message in stderr
    assert len(stderr.strip().splitlines()) == 1, stderr
    assert not (tmp_path / "out.csv").exists()


def test_labels_of_book_positions_come_from_the_book(monkeypatch: pytest.MonkeyPatch) -> None:
    from c4engine.search.solver.exact import Solver

    def fail(*args: object, **kwargs: object) -> None:
        raise AssertionError("the solver was asked")

    for name in ("solve", "analyze", "is_at_least"):
        monkeypatch.setattr(Solver, name, fail)
    rows = build_dataset(sample_positions([0, 2, 4], per_ply=3, seed=4), workers=0)
    assert rows[0].move_scores == (-2, -1, 0, 1, 0, -1, -2) and rows[0].best_moves == (4,)
    assert [row.ply for row in rows] == [0, 2, 2, 2, 4, 4, 4]
