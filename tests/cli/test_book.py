"""``c4 book build|verify|info`` and the book behind ``c4 analyze`` / ``c4 move --level perfect``."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import ClassVar

import pytest
from tests.conftest import PONS, run_c4

from c4engine.board import Board
from c4engine.experiments.book_builder import ESTIMATE_SAMPLE
from c4engine.search.book.file import HEADER_SIZE, OpeningBook
from c4engine.search.solver.exact import Solver


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "b.c4b"
    result = run_c4("book", "build", "--depth", "5", "--size", "5x4", "-o", str(path), "--workers", "0")
    assert result.returncode == 0, result.stderr
    assert "positions: " in result.stdout and "solved now: " in result.stdout
    return path


def test_info_prints_the_header_and_counts(built: Path) -> None:
    result = run_c4("book", "info", str(built))
    assert result.returncode == 0, result.stderr
    assert "board: 5x4 connect 4" in result.stdout
    assert "depth: 5 plies  scores: strong" in result.stdout
    assert "per ply: 1 3 13 49 177 542" in result.stdout


def test_a_policy_build_reports_and_describes_its_part_beyond_the_depth(tmp_path: Path) -> None:
    path = tmp_path / "p.c4b"
    command = ["book", "build", "--depth", "3", "--size", "5x4", "-o", str(path), "--workers", "0"]
    result = run_c4(*command, "--policy", "2:6", "--policy", "1:5")
    assert result.returncode == 0, result.stderr
    assert "policy entries beyond depth 3: " in result.stdout
    info = run_c4("book", "info", str(path))
    assert "beyond it: selected positions (a policy) up to ply 7" in info.stdout
    assert "per ply: 1 3 13 49 " in info.stdout
    bad = run_c4(*command, "--policy", "6:2")
    assert bad.returncode == 2 and "START:END" in bad.stderr


def test_verify_passes_on_a_good_book(built: Path) -> None:
    result = run_c4("book", "verify", str(built), "--sample", "60", "--seed", "3", "--workers", "0")
    assert result.returncode == 0, result.stderr
    assert "verified 60 of 785 entries (seed 3): 0 mismatches" in result.stdout


def test_verify_reports_a_wrong_score(built: Path, tmp_path: Path) -> None:
    with OpeningBook.open(built) as book:
        count = len(book)
        scores = book.scores_array()
        index = int(next(i for i in range(count) if scores[i] != 0))
    data = bytearray(built.read_bytes())
    data[HEADER_SIZE + 8 * count + index] = 0  # one entry's score changed to a draw
    bad = tmp_path / "bad.c4b"
    bad.write_bytes(bytes(data))
    result = run_c4("book", "verify", str(bad), "--sample", str(count), "--workers", "0")
    assert result.returncode == 1
    assert result.stdout.count("mismatch ") == 1
    assert "1 mismatches" in result.stdout


def test_bad_input_is_one_line(tmp_path: Path) -> None:
    junk = tmp_path / "junk.c4b"
    junk.write_bytes(b"hello")
    for args in (("info", str(junk)), ("info", str(tmp_path / "none.c4b")), ("verify", "--size", "6x5")):
        result = run_c4("book", *args)
        assert result.returncode == 2
        assert result.stderr.count("\n") == 1 and result.stderr.startswith(f"c4 book {args[0]}: error:")
    assert run_c4("book", "build", "--depth", "-1", "-o", str(tmp_path / "x.c4b")).returncode == 2


def test_analyze_answers_the_empty_board_from_the_book() -> None:
    result = run_c4("analyze", "")
    assert result.returncode == 0, result.stderr
    assert "scores: -2 -1 0 1 0 -1 -2" in result.stdout
    assert "best moves: 4" in result.stdout
    assert "nodes: 0" in result.stdout  # nothing searched


def test_move_level_perfect_plays_the_book_move_on_the_empty_board() -> None:
    result = run_c4("move", "", "--level", "perfect")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "4\n"


def test_move_level_perfect_picks_best_moves_on_held_positions() -> None:
    path = PONS / "Test_L3_R1"
    cases = [line.split() for line in path.read_text().splitlines()[200:300]]
    result = run_c4("move", "--level", "perfect", stdin="".join(f"{moves}\n" for moves, _ in cases))
    assert result.returncode == 0, result.stderr
    judge = Solver(table_size_mb=8)
    lines = result.stdout.splitlines()
    assert len(lines) == len(cases)
    for (moves, published), line in zip(cases, lines, strict=True):
        position, column_text = line.split()
        assert position == moves
        board = Board.from_moves(moves)
        column = int(column_text) - 1
        if board.is_winning_move(column):
            got = (42 + 1 - board.move_count) // 2
        else:
            board.play(column)
            got = 0 if board.is_full else -(judge.solve(board, best_move=False).score or 0)
        assert got == int(published), moves


class _Shown:
    """Stands for the live line of ``c4 book build``: keeps what it was told to show."""

    updates: ClassVar[list[tuple[int, int, str, float | None]]] = []

    def __init__(self, *args: object, **options: object) -> None:
        _Shown.updates = []

    def __enter__(self) -> _Shown:
        return self

    def __exit__(self, *error: object) -> None:
        return None

    def update(self, done: int, total: int, note: str, *, left: float | None = None) -> None:
        self.updates.append((done, total, note, left))


def test_a_resumed_build_counts_its_kept_leaves_and_estimates_what_is_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import c4engine.cli.book
    from c4engine.cli.main import main

    command = [
        "book",
        "build",
        "--depth",
        "4",
        "--size",
        "5x4",
        "-o",
        str(tmp_path / "r.c4b"),
        "--workers",
        "0",
    ]
    assert main(command) == 0
    leaves = int(capsys.readouterr().out.split("leaves: ")[1].split()[0])
    with sqlite3.connect(tmp_path / "r.c4b.sqlite") as connection:  # as if stopped with 20 leaves to go
        connection.execute("DELETE FROM solved WHERE key IN (SELECT key FROM solved LIMIT 20)")
    monkeypatch.setattr(c4engine.cli.book, "ProgressLine", _Shown)
    monkeypatch.setattr(c4engine.cli.book, "LONG_BUILD", 0.0)  # this small build counts as long
    assert main(command) == 0
    first, *_, last = _Shown.updates
    assert first == (leaves - 20, leaves, f"{leaves - 20} kept", None)  # not 0/20
    assert last[:2] == (leaves, leaves) and last[3] == 0.0 and last[2].startswith(f"{leaves - 20} kept, ")
    # the time left, once the run has a pace
    assert all(left is not None and left >= 0 for *_, left in _Shown.updates[1:])
    estimate = capsys.readouterr().err.splitlines()
    assert len(estimate) == 1
    assert estimate[0].startswith("c4 book build: estimate: 20 leaves to solve, ")
    assert f"(the mean of the first {ESTIMATE_SAMPLE} solved)" in estimate[0]
    assert "with this process alone on a core each" in estimate[0]
    assert estimate[0].endswith("samples have come out up to 2.4 times low")


WIDE = ("--size", "10x6", "--connect", "3")
"""10 x 7 = 70 bits, connect 3: a book past 64 bits whose leaves solve in a test's time."""


def test_a_book_past_64_bits_is_built_described_verified_and_answers(tmp_path: Path) -> None:
    path = tmp_path / "wide.c4b"
    built = run_c4("book", "build", "--depth", "3", *WIDE, "-o", str(path), "--workers", "0", timeout=900)
    assert built.returncode == 0, built.stderr
    info = run_c4("book", "info", str(path))
    assert info.returncode == 0, info.stderr
    assert "format version: 2" in info.stdout and "board: 10x6 connect 3" in info.stdout
    assert "per ply: 1 5 50 320" in info.stdout
    sample = ("--sample", "6", "--seed", "1", "--workers", "0")
    verified = run_c4("book", "verify", str(path), *sample, timeout=900)
    assert verified.returncode == 0 and ": 0 mismatches" in verified.stdout, verified.stdout + verified.stderr
    assert path.read_bytes()[8:10] == b"\x02\x00"  # the version, little-endian
