"""The book builder: enumeration, back-up, checkpoint, resume after SIGKILL, extension, Dask."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from c4engine.board import Board
from c4engine.errors import BookError
from c4engine.search.book import OpeningBook
from c4engine.search.book_builder import Checkpoint, build_book, enumerate_positions

W, H, C = 5, 4, 4
DEPTH = 6


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An uninterrupted build, in this process."""
    path = tmp_path_factory.mktemp("ref") / "ref.c4b"
    build_book(path, DEPTH, width=W, height=H, connect=C, workers=0)
    return path


def _brute_force(width: int, height: int, connect: int, depth: int) -> list[set[int]]:
    """Canonical keys per ply, by playing every move sequence on Board objects."""
    levels = [{Board(width, height, connect).canonical_key()}]
    frontier = [Board(width, height, connect)]
    for _ in range(depth):
        seen: dict[int, Board] = {}
        for board in frontier:
            for column in board.legal_moves():
                child = board.copy()
                child.play(column)
                if not child.is_over:
                    seen.setdefault(child.canonical_key(), child)
        levels.append(set(seen))
        frontier = list(seen.values())
    return levels


def test_enumeration_matches_brute_force() -> None:
    for width, height, connect, depth in ((5, 4, 4, 6), (4, 4, 3, 5), (7, 6, 4, 4)):
        levels = enumerate_positions(width, height, connect, depth)
        assert [set(level) for level in levels] == _brute_force(width, height, connect, depth)
        for level in levels:
            for key, (current, mask, moves) in level.items():
                board = Board.from_moves(list(moves), width, height, connect)
                assert (board.current_bits, board.mask_bits) == (current, mask)
                assert board.canonical_key() == key


def test_enumeration_refuses_bad_depths() -> None:
    with pytest.raises(BookError, match="0 or more"):
        enumerate_positions(7, 6, 4, -1)
    with pytest.raises(BookError, match="more than the 20 cells"):
        enumerate_positions(5, 4, 4, 21)


def test_extension_reuses_the_checkpoint(tmp_path: Path) -> None:
    checkpoint = tmp_path / "c.sqlite"
    first = build_book(tmp_path / "d4.c4b", 4, width=W, height=H, connect=C, checkpoint=checkpoint, workers=0)
    assert first.solved == first.leaves and first.reused == 0
    deeper = build_book(
        tmp_path / "d5.c4b", 5, width=W, height=H, connect=C, checkpoint=checkpoint, workers=0
    )
    assert deeper.solved == deeper.leaves  # new leaves, nothing shallower solved again
    again = build_book(
        tmp_path / "d4b.c4b",
        4,
        width=W,
        height=H,
        connect=C,
        checkpoint=checkpoint,
        workers=0,
    )
    assert again.solved == 0 and again.reused == again.leaves
    assert (tmp_path / "d4.c4b").read_bytes() == (tmp_path / "d4b.c4b").read_bytes()
    # a fresh depth-4 build backs its leaves up from solved depth-5 positions alone
    fresh = tmp_path / "only5.sqlite"
    with Checkpoint(checkpoint, W, H, C, False) as store, Checkpoint(fresh, W, H, C, False) as only5:
        level5 = enumerate_positions(W, H, C, 5)[5]
        scores = store.scores()
        only5.add((key, scores[key]) for key in level5)
    backed = build_book(tmp_path / "d4c.c4b", 4, width=W, height=H, connect=C, checkpoint=fresh, workers=0)
    assert backed.solved == 0
    assert (tmp_path / "d4c.c4b").read_bytes() == (tmp_path / "d4.c4b").read_bytes()


def test_a_checkpoint_of_another_game_is_refused(tmp_path: Path) -> None:
    Checkpoint(tmp_path / "c.sqlite", 5, 4, 4, False).close()
    with pytest.raises(BookError, match=r"holds another book build: width 5 \(asked 6\)"):
        Checkpoint(tmp_path / "c.sqlite", 6, 4, 4, False)
    (tmp_path / "junk.sqlite").write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(BookError, match="checkpoint"):
        Checkpoint(tmp_path / "junk.sqlite", 5, 4, 4, False)


def _rows(path: Path) -> int:
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(path, timeout=5) as db:
            return int(db.execute("SELECT count(*) FROM solved").fetchone()[0])
    except sqlite3.OperationalError:  # table not made yet
        return 0


def test_sigkill_then_resume_gives_the_identical_book(reference: Path, tmp_path: Path) -> None:
    output, checkpoint = tmp_path / "book.c4b", tmp_path / "book.sqlite"
    command = [
        sys.executable, "-m", "c4engine", "book", "build", "--depth", str(DEPTH), "--size", f"{W}x{H}",
        "-o", str(output), "--checkpoint", str(checkpoint), "--workers", "1", "--batch", "1",
    ]  # fmt: skip
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )
    deadline = time.monotonic() + 120
    while _rows(checkpoint) < 20 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    os.killpg(process.pid, signal.SIGKILL)  # the builder and its pool worker, mid-run
    process.wait()
    assert process.returncode == -signal.SIGKILL
    done = _rows(checkpoint)
    leaves = len(enumerate_positions(W, H, C, DEPTH)[DEPTH])
    assert 20 <= done < leaves, "the kill came mid-build"
    assert not output.exists()
    resumed = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert f"from the checkpoint: {done}" in resumed.stdout
    assert output.read_bytes() == reference.read_bytes()


def test_the_dask_path_builds_the_same_book(reference: Path, tmp_path: Path, dask_scheduler: str) -> None:
    stats = build_book(
        tmp_path / "dask.c4b",
        DEPTH,
        width=W,
        height=H,
        connect=C,
        scheduler=dask_scheduler,
        batch_size=64,
        table_mb=8,
    )
    assert stats.solved == stats.leaves
    assert (tmp_path / "dask.c4b").read_bytes() == reference.read_bytes()


def test_the_local_pool_builds_the_same_book(reference: Path, tmp_path: Path) -> None:
    build_book(tmp_path / "pool.c4b", DEPTH, width=W, height=H, connect=C, workers=2, table_mb=8)
    with OpeningBook.open(tmp_path / "pool.c4b") as book:
        assert book.depth == DEPTH
    assert (tmp_path / "pool.c4b").read_bytes() == reference.read_bytes()


def test_boards_too_large_are_refused(tmp_path: Path) -> None:
    with pytest.raises(BookError, match="64 bits"):
        build_book(tmp_path / "x.c4b", 1, width=9, height=7, connect=4, workers=0)


def test_progress_is_reported_by_callback(tmp_path: Path) -> None:
    reports: list[tuple[int, int, float]] = []
    stats = build_book(
        tmp_path / "p.c4b",
        3,
        width=W,
        height=H,
        connect=C,
        workers=0,
        batch_size=4,
        on_progress=lambda *r: reports.append(r),
    )
    solved = [report[0] for report in reports]
    assert solved[0] == 0 and solved == sorted(solved) and solved[-1] == stats.solved
    assert {report[1] for report in reports} == {stats.solved}
    assert reports[-1][2] == pytest.approx(stats.cpu_seconds)
