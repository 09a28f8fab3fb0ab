"""The book builder: enumeration, back-up, checkpoint, resume after SIGKILL, extension, Dask."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from tests.positions import score_of_move

from c4engine.board import Board
from c4engine.errors import BookError
from c4engine.experiments.book_builder import (
    ESTIMATE_SAMPLE,
    BuildEstimate,
    BuildStats,
    Checkpoint,
    LeafProgress,
    PolicySpan,
    build_book,
    enumerate_positions,
)
from c4engine.play.perfect import PerfectPlayer
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.book.file import OpeningBook
from c4engine.search.limit import UNLIMITED
from c4engine.search.solver.exact import Solver

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


def test_a_checkpoint_keeps_keys_past_64_bits(tmp_path: Path) -> None:
    """SQLite's integers hold 64 bits: a board past them keeps its keys (up to 128 bits) as blobs,
    a 7x6 checkpoint its integers (the repository's own checkpoint still reads)."""
    path = tmp_path / "wide.sqlite"
    keys = [0, 5, (1 << 63) + 1, (1 << 64) + 7, (1 << 127) + 3, (1 << 128) - 1]
    with Checkpoint(path, 16, 7, 4, False) as store:
        store.add((key, index - 3) for index, key in enumerate(keys))
        store.add_policy([(keys[-2], 2, 5)])
    with Checkpoint(path, 16, 7, 4, False) as store:
        assert store.scores() == {key: index - 3 for index, key in enumerate(keys)}
        assert store.policy() == {keys[-2]: (2, 5)} and len(store) == len(keys)
    with sqlite3.connect(path) as db:
        assert {kind for (kind,) in db.execute("SELECT typeof(key) FROM solved")} == {"blob"}
    narrow = tmp_path / "narrow.sqlite"
    with Checkpoint(narrow, 7, 6, 4, False) as store:
        store.add([((1 << 63) + 1, 2)])
        assert store.scores() == {(1 << 63) + 1: 2}
    with sqlite3.connect(narrow) as db:
        assert {kind for (kind,) in db.execute("SELECT typeof(key) FROM solved")} == {"integer"}
    shipped = Path(__file__).resolve().parents[2] / "books" / "book-7x6.sqlite"
    copy = tmp_path / "shipped.sqlite"
    copy.write_bytes(shipped.read_bytes())
    with Checkpoint(copy, 7, 6, 4, False) as store:
        assert len(store) > 20_000 and all(0 <= key < 1 << 49 for key in store.scores())


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
    leaves = len(enumerate_positions(W, H, C, DEPTH)[DEPTH])
    # A loaded machine can deschedule this poll until the build (a few seconds) is over: a kill
    # that did not land mid-build is tried again from scratch.
    for _ in range(5):
        for stale in [output, *tmp_path.glob(checkpoint.name + "*")]:  # its journal files too
            stale.unlink(missing_ok=True)
        process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        deadline = time.monotonic() + 120
        while _rows(checkpoint) < 20 and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        with contextlib.suppress(ProcessLookupError):  # the build may have ended meanwhile
            os.killpg(process.pid, signal.SIGKILL)  # the builder and its pool worker, mid-run
        process.wait()
        done = _rows(checkpoint)
        if process.returncode == -signal.SIGKILL and 20 <= done < leaves:
            break
    assert process.returncode == -signal.SIGKILL
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
    with pytest.raises(BookError, match=r"128 bits.*9x14 needs 135"):
        build_book(tmp_path / "x.c4b", 1, width=9, height=14, connect=4, workers=0)


def test_progress_is_reported_by_callback(tmp_path: Path) -> None:
    reports: list[LeafProgress] = []
    stats = build_book(
        tmp_path / "p.c4b",
        3,
        width=W,
        height=H,
        connect=C,
        workers=0,
        batch_size=4,
        on_progress=reports.append,
    )
    solved = [report.solved for report in reports]
    assert solved[0] == 0 and solved == sorted(solved) and solved[-1] == stats.solved
    assert {(report.leaves, report.kept) for report in reports} == {(stats.leaves, 0)}
    assert reports[-1].cpu_seconds == pytest.approx(stats.cpu_seconds)


def test_a_resumed_build_counts_the_leaves_it_kept_from_the_start(tmp_path: Path) -> None:
    checkpoint = tmp_path / "r.sqlite"
    whole = build_book(tmp_path / "r.c4b", 4, width=W, height=H, connect=C, workers=0, checkpoint=checkpoint)
    with sqlite3.connect(checkpoint) as connection:  # as if stopped with 20 leaves to go
        connection.execute("DELETE FROM solved WHERE key IN (SELECT key FROM solved LIMIT 20)")
    reports: list[LeafProgress] = []
    resumed = build_book(
        tmp_path / "r.c4b",
        4,
        width=W,
        height=H,
        connect=C,
        workers=0,
        checkpoint=checkpoint,
        on_progress=reports.append,
    )
    assert (resumed.solved, resumed.reused) == (20, whole.leaves - 20)
    first, last = reports[0], reports[-1]
    assert (first.done, first.leaves, first.to_solve) == (whole.leaves - 20, whole.leaves, 20)
    assert (last.done, last.solved) == (whole.leaves, 20)


def test_a_build_estimates_its_length_from_a_sample_solved_first(tmp_path: Path) -> None:
    events: list[LeafProgress | BuildEstimate] = []
    stats = build_book(
        tmp_path / "e.c4b",
        4,
        width=W,
        height=H,
        connect=C,
        workers=0,
        batch_size=8,
        on_progress=events.append,
        on_estimate=events.append,
    )
    (estimate,) = [event for event in events if isinstance(event, BuildEstimate)]
    assert (estimate.to_solve, estimate.sampled, estimate.parallel) == (stats.leaves, ESTIMATE_SAMPLE, 1)
    assert estimate.cpu_seconds == pytest.approx(estimate.cpu_per_leaf * stats.leaves)
    assert estimate.wall_seconds == estimate.cpu_seconds  # one job at a time
    with_it = events[events.index(estimate) + 1]  # the progress told with the sample's last leaf
    assert isinstance(with_it, LeafProgress)
    assert with_it.solved == ESTIMATE_SAMPLE < stats.leaves  # once the sample is in: before the rest
    reference = build_book(tmp_path / "plain.c4b", 4, width=W, height=H, connect=C, workers=0)
    assert reference.leaves == stats.leaves
    assert (tmp_path / "e.c4b").read_bytes() == (tmp_path / "plain.c4b").read_bytes()


POLICY = (PolicySpan(2, 9), PolicySpan(1, 8))  # first player from every 2-ply opening; second player
POLICY_DEPTH = 3


def _policy_build(path: Path, policy: Sequence[PolicySpan] = POLICY, **options: Any) -> BuildStats:
    return build_book(path, POLICY_DEPTH, width=W, height=H, connect=C, policy=policy, **options)


@pytest.fixture(scope="module")
def policy_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("policy") / "policy.c4b"
    _policy_build(path, workers=0)
    return path


def test_policy_entries_beyond_the_depth_are_exact(policy_book: Path) -> None:
    solver = Solver(table_size_mb=8)
    with OpeningBook.open(policy_book) as book:
        assert (book.depth, book.sparse_depth) == (POLICY_DEPTH, 9)
        deeper = [(key, score) for key, score in book.items() if book.board(key).move_count > POLICY_DEPTH]
        assert len(deeper) > 500
        for key, score in random.Random(3).sample(deeper, 300):
            assert solver.solve(book.board(key), best_move=False).score == score


def test_with_the_policy_the_player_moves_from_the_book_within_the_spans(policy_book: Path) -> None:
    """Within the spans every move comes from the book, and it is the move a search finds."""
    rng = random.Random(7)
    judge = Solver(table_size_mb=8)
    with OpeningBook.open(policy_book) as book:
        player = PerfectPlayer(book=book, limit=UNLIMITED, table_size_mb=8)
        bare = PerfectPlayer(book=None, limit=UNLIMITED, table_size_mb=8)
        for game in range(80):
            span = POLICY[game % 2]
            board = Board(W, H, C)
            for _ in range(span.start):
                board.play(rng.choice(board.legal_moves()))
            ours = board.turn
            while not board.is_over:
                if board.turn is ours:
                    column = player.choose_move(board.copy())
                    assert player.last is not None and player.last.lower is not None
                    if board.move_count <= span.end:
                        assert player.last.source in ("book", "rules"), board.move_string
                    assert score_of_move(board, column, judge) == judge.solve(board, best_move=False).score
                    assert bare.choose_move(board.copy()) == column  # the move it searches for without a book
                else:
                    column = rng.choice(board.legal_moves())
                board.play(column)


def test_an_interrupted_policy_build_resumes_to_the_same_book(policy_book: Path, tmp_path: Path) -> None:
    checkpoint = tmp_path / "c.sqlite"
    _policy_build(tmp_path / "short.c4b", [PolicySpan(2, 6)], workers=0, checkpoint=checkpoint)
    with sqlite3.connect(checkpoint) as db:  # as if killed mid-wave: half a ply's moves lost
        db.execute("DELETE FROM policy WHERE key % 2 = 0")
    stats = _policy_build(tmp_path / "full.c4b", workers=0, checkpoint=checkpoint)
    assert stats.policy_solved > 0
    assert (tmp_path / "full.c4b").read_bytes() == policy_book.read_bytes()
    again = _policy_build(tmp_path / "again.c4b", workers=0, checkpoint=checkpoint)
    assert again.policy_solved == 0 and again.solved == 0


def test_the_dask_path_builds_the_same_policy(policy_book: Path, tmp_path: Path, dask_scheduler: str) -> None:
    _policy_build(tmp_path / "dask.c4b", scheduler=dask_scheduler, table_mb=8)
    assert (tmp_path / "dask.c4b").read_bytes() == policy_book.read_bytes()


def test_bad_policy_spans_are_refused(tmp_path: Path) -> None:
    for text in ("8", "5:2", "a:b", ":3"):
        with pytest.raises(BookError, match="START:END"):
            PolicySpan.parse(text)
    with pytest.raises(BookError, match="deeper than the book's depth"):
        build_book(tmp_path / "x.c4b", 2, width=W, height=H, connect=C, workers=0, policy=[PolicySpan(3, 5)])
    with pytest.raises(BookError, match="exact scores"):
        build_book(tmp_path / "x.c4b", 2, width=W, height=H, connect=C, weak=True, policy=[PolicySpan(1, 5)])


def test_a_book_past_64_bits_is_built_and_its_lookups_are_the_solver_s(tmp_path: Path) -> None:
    """10x6 connect 3 (70 bits): every position of up to 3 stones, written as version 2 (16-byte keys,
    some past 64 bits); each entry is the solver's score, and the analysis service answers from it."""
    path = tmp_path / "wide.c4b"
    stats = build_book(path, 3, width=10, height=6, connect=3, workers=0, table_mb=8)
    assert stats.per_ply[:2] == (1, 5) and stats.solved == stats.leaves
    judge = Solver(table_size_mb=8)
    with OpeningBook.open(path) as book:
        assert book.header.version == 2 and len(book) == stats.positions
        assert max(key for key, _score in book.items()) >= 1 << 64
        for key, score in book.items():
            board = book.board(key)
            assert judge.solve(board, best_move=False).score == score, board.move_string
            assert book.score(board.mirror()) == score
        empty = Board(10, 6, 3)
        analysis = Analyst(book).analyze(empty, pv=False)
        assert analysis.source == "book" and analysis.proven_values() == tuple(book.move_scores(empty))
