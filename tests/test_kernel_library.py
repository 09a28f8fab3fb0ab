"""The search kernel's shared library: built from numba's kernel, it solves exactly as numba's does."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import numpy as np
import pytest
from tests.conftest import PONS

from c4engine import Board
from c4engine.kernels import layout, library
from c4engine.kernels.solve import busy_slot, kernel_for, shared_key
from c4engine.kernels.transposition import TABLE_HEADER, Table

BITS = 20  # the smallest table: collisions and replacements happen, and must happen alike
NEAR_BITS = 18  # a near-end part too, for positions with at most 14 empty cells


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    made = tmp_path_factory.mktemp("library")
    if library.compiler() is None:
        pytest.skip("no C compiler to link the library with")
    assert library.build(7, 6, 4, made) is not None
    return made


def _solve_all(
    kernel: library.Kernel, lines: list[str], marked: bool = False
) -> tuple[int, np.ndarray, np.ndarray]:
    """Status, result rows and table after one batch call of ``kernel`` over the positions of ``lines``
    (``marked``: sharing its work, with the positions two plies below each root through an odd
    column marked busy, as if another thread were searching them)."""
    boards = [Board.from_moves(line.split()[0]) for line in lines]
    positions = np.array([[b.current_bits, b.mask_bits] for b in boards], dtype=np.uint64)
    rows = np.zeros((len(boards), layout.R_SIZE), dtype=np.int64)
    stones = np.array([b.move_count for b in boards], dtype=np.int64)
    rows[:, layout.R_STONES] = stones
    rows[:, layout.R_LOWER] = -((42 - stones) // 2)
    rows[:, layout.R_UPPER] = (43 - stones) // 2
    state = layout.new_state(int(rows[0, layout.R_LOWER]), int(rows[0, layout.R_UPPER]))
    table = Table.with_parts(BITS, NEAR_BITS)
    args = layout.new_args(7, 6, table, 42 - 8, np.zeros(1, dtype=np.uint8))
    if marked:
        args = args._replace(shared_until=8)
        for board in boards:
            for column in board.legal_moves():
                child = board.copy()
                child.play(column)
                for grandchild_column in child.legal_moves():
                    if grandchild_column % 2:
                        grandchild = child.copy()
                        grandchild.play(grandchild_column)
                        _mark(args.busy, grandchild)
    status = kernel(args._replace(boards=positions, rows=rows, state=state, node_stop=layout.NO_NODE_STOP))
    return status, rows, table.array


def _mark(busy: np.ndarray, board: Board) -> None:
    kbits = 7 * 7
    h = shared_key(np.uint64(board.current_bits), np.uint64(board.mask_bits), board.move_count, 7, 6, kbits)
    busy[busy_slot(h, kbits - layout.BUSY_BITS, busy.shape[0])] = h


@pytest.mark.parametrize(
    ("name", "count"),
    # L1_R2's first three take 0.1-1 million nodes each: both parts of the table grow
    [("Test_L3_R1", 200), ("Test_L2_R2", 60), ("Test_L1_R1", 40), ("Test_L1_R2", 3)],
)
def test_the_library_finds_numbas_scores_nodes_and_moves(folder: Path, name: str, count: int) -> None:
    lines = (PONS / name).read_text().splitlines()[:count]
    native = library.load(7, 6, 4, folder)
    assert native is not None
    status, rows, table = _solve_all(native, lines)
    assert status == layout.DONE
    assert rows[:, layout.R_SCORE].tolist() == [int(line.split()[1]) for line in lines]
    numba_status, numba_rows, numba_table = _solve_all(kernel_for(7, 6, 4), lines)
    assert numba_status == layout.DONE
    assert np.array_equal(rows, numba_rows)  # the same search, node for node
    assert np.array_equal(table, numba_table)  # and the same table, grown alike
    if name == "Test_L1_R2":
        assert sum(1 << int(live) for live in table[-TABLE_HEADER:]) == (1 << 18) + (
            1 << NEAR_BITS
        )  # both grew


def test_the_library_puts_off_busy_positions_as_numba_does(folder: Path) -> None:
    lines = (PONS / "Test_L1_R1").read_text().splitlines()[:40]
    native = library.load(7, 6, 4, folder)
    assert native is not None
    status, rows, _ = _solve_all(native, lines, marked=True)
    assert status == layout.DONE
    assert rows[:, layout.R_SCORE].tolist() == [int(line.split()[1]) for line in lines]
    _, numba_rows, _ = _solve_all(kernel_for(7, 6, 4), lines, marked=True)
    assert np.array_equal(rows, numba_rows)
    _, ranked_rows, _ = _solve_all(native, lines)
    assert not np.array_equal(rows[:, layout.R_NODES], ranked_rows[:, layout.R_NODES])  # another order


def test_cancel_from_another_thread_stops_the_library_kernel(folder: Path) -> None:
    native = library.load(7, 6, 4, folder)
    assert native is not None
    board = Board.from_moves("4")  # about a minute of search
    rows = np.zeros((1, layout.R_SIZE), dtype=np.int64)
    rows[0, layout.R_STONES] = 1
    state = layout.new_state(-20, 21)
    cancel = np.zeros(1, dtype=np.uint8)
    positions = np.array([[board.current_bits, board.mask_bits]], dtype=np.uint64)
    args = layout.new_args(7, 6, Table.with_parts(BITS), 42 - 8, cancel)  # first: the call follows the timer
    args = args._replace(boards=positions, rows=rows, state=state, node_stop=layout.NO_NODE_STOP)
    threading.Timer(0.3, lambda: cancel.__setitem__(0, 1)).start()
    start = time.perf_counter()
    status = native(args)
    assert status == layout.CANCELLED
    assert time.perf_counter() - start < 30  # it stopped long before the search would end
    assert state[layout.S_NODES] > 0


def test_a_library_is_named_for_its_geometry_sources_and_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    standard = library.library_path(7, 6, 4)
    assert standard != library.library_path(8, 7, 4) != library.library_path(7, 6, 5)
    monkeypatch.setattr(library, "SOURCE_DIGEST", "edited")
    assert library.library_path(7, 6, 4) != standard
    monkeypatch.undo()
    monkeypatch.setattr(library, "cpu_identity", lambda: "another machine")
    assert library.library_path(7, 6, 4) != standard


def test_without_a_compiler_there_is_no_library_and_nothing_to_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CC", str(tmp_path / "no-such-compiler"))
    assert library.compiler() is None
    assert library.build(7, 6, 4, tmp_path) is None
    assert library.load(7, 6, 4, tmp_path) is None
    assert list(tmp_path.iterdir()) == []


def test_a_broken_library_file_is_not_loaded(tmp_path: Path) -> None:
    library.library_path(7, 6, 4, tmp_path).write_bytes(b"not a shared library")
    assert library.load(7, 6, 4, tmp_path) is None


def test_a_failed_build_is_not_tried_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    compiler = tmp_path / "cc"
    compiler.write_text("#!/bin/sh\nexit 1\n")  # found, but links nothing
    compiler.chmod(0o755)
    monkeypatch.setenv("CC", str(compiler))
    folder = tmp_path / "cache"
    assert library.build(7, 6, 4, folder) is None
    assert library.library_path(7, 6, 4, folder).with_suffix(".failed").exists()
    monkeypatch.setattr(library, "_object_code", lambda *geometry: pytest.fail("built again"))
    assert library.build(7, 6, 4, folder) is None


def test_the_search_is_marked_for_inlining_at_its_definition_only() -> None:
    code = (
        "define i32 @entry(ptr %a) {\n  %r = call i32 @search(ptr %a)\n  ret i32 %r\n}\n"
        "define linkonce_odr i32 @search(ptr %a) local_unnamed_addr {\n  ret i32 0\n}\n"
    )
    marked = library._inlined(code, "search")
    assert "@search(ptr %a) local_unnamed_addr alwaysinline {" in marked
    assert marked.count("alwaysinline") == 1 and "call i32 @search(ptr %a)" in marked
    assert library._inlined(code, "elsewhere") == code  # no such definition: left as it is
    never = code.replace("local_unnamed_addr {", "noinline {")
    assert library._inlined(never, "search") == never


@pytest.mark.parametrize(
    ("has_library", "numba_cached", "builds", "told"),
    [
        (True, False, True, []),  # the library loads in milliseconds: nothing compiles
        (False, False, True, ["compiling the solver, once, about 30 s"]),
        (False, True, True, ["compiling the solver, once, about 5 s"]),  # the library's build only
        (False, False, False, ["compiling the solver, once, about 30 s"]),  # numba's compile only
        (False, True, False, []),  # numba's cache, no compiler: nothing compiles
    ],
)
def test_the_solvers_first_compile_is_announced_once(
    monkeypatch: pytest.MonkeyPatch, has_library: bool, numba_cached: bool, builds: bool, told: list[str]
) -> None:
    import c4engine.kernels
    from c4engine.kernels import solve

    heard: list[str] = []
    monkeypatch.setattr(c4engine.kernels, "_listeners", [heard.append])
    monkeypatch.setattr(c4engine.kernels, "_announced", set())
    numba_kernel = kernel_for(7, 6, 4)
    monkeypatch.setattr(library, "load", lambda *geometry: numba_kernel if has_library else None)
    monkeypatch.setattr(solve, "is_compiled", lambda *geometry: numba_cached)
    monkeypatch.setattr(library, "can_build", lambda *geometry: builds)
    monkeypatch.setattr(library, "build", lambda *geometry: None)  # what would be built is not
    library.solver_kernel.cache_clear()
    try:
        for _ in range(2):
            assert library.solver_kernel(7, 6, 4) is numba_kernel
            library.solver_kernel.cache_clear()  # as in a process that loads it again
    finally:
        library.solver_kernel.cache_clear()
    assert heard == told  # and only once
