"""The kernels' shared libraries: built from numba's kernels, they search exactly as numba's do."""

from __future__ import annotations

import hashlib
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from tests.conftest import PONS

import c4engine.kernels
from c4engine import Board
from c4engine.geometry import fits_64_bits
from c4engine.kernels import build, heuristic, layout, library
from c4engine.kernels.memory import CArray
from c4engine.kernels.solve import _generic_kernel, busy_slot, kernel_for, shared_key
from c4engine.kernels.transposition import TABLE_HEADER, Table
from c4engine.search.engine import compiled as compiled_engine
from c4engine.search.engine.evaluators import areas, windows

BITS = 20  # the smallest table: collisions and replacements happen, and must happen alike
NEAR_BITS = 18  # a near-end part too, for positions with at most 14 empty cells


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The libraries an install builds (:data:`build.SHIPPED_NAMES`), the standard board's and one
    specialised board's past 64 bits (10x6), in a folder of their own."""
    made = tmp_path_factory.mktemp("library")
    if library.compiler() is None:
        pytest.skip("no C compiler to link the library with")
    names = (*build.SHIPPED_NAMES, "7x6x4", "10x6x4")
    assert set(names) <= set(build.ALL_NAMES)
    # as setup.py builds them: in a process of its own (a compile deep in pytest's stack costs more)
    command = [sys.executable, "-m", "c4engine.kernels.build", *names, "--into", str(made)]
    told = subprocess.run(command, capture_output=True, text=True, check=True).stdout.splitlines()
    for name in names:
        assert library.named_path(name, made).is_file()
        assert any(line.startswith(f"built the {name} kernel library") for line in told)
    return made


def _solve_all(
    kernel: library.Kernel, lines: list[str], marked: bool = False
) -> tuple[int, np.ndarray, np.ndarray]:
    """Status, result rows and table after one batch call of ``kernel`` over the positions of ``lines``
    (``marked``: sharing its work, with the positions two plies below each root through an odd
    column marked busy, as if another thread were searching them)."""
    return _solve_boards(kernel, [Board.from_moves(line.split()[0]) for line in lines], marked)


def _solve_boards(
    kernel: library.Kernel, boards: list[Board], marked: bool = False
) -> tuple[int, np.ndarray, np.ndarray]:
    """:func:`_solve_all` of ``boards`` (all of one size)."""
    width, height = boards[0].width, boards[0].height
    cells = width * height
    wide = not fits_64_bits(width, height)  # 128-bit words: two uint64 a word and a table entry
    positions = layout.positions([(b.current_bits, b.mask_bits) for b in boards], wide)
    rows = layout.new_rows(len(boards))
    for p, board in enumerate(boards):
        stones = board.move_count
        rows[p, layout.R_STONES] = stones
        rows[p, layout.R_LOWER] = -((cells - stones) // 2)
        rows[p, layout.R_UPPER] = (cells + 1 - stones) // 2
    state = layout.new_state(rows[0, layout.R_LOWER], rows[0, layout.R_UPPER])
    table = Table.with_parts(BITS + wide, NEAR_BITS + wide)
    table.use_entry_words(2 if wide else 1)
    args = layout.new_args(width, height, table, cells - 8, layout.new_flag())
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
    return status, np.asarray(rows), np.asarray(table.array)


def _numba(width: int, height: int, connect: int) -> library.Kernel:
    """numba's kernel of the geometry, called as the solver calls it (:func:`library.numba_caller`)."""
    return library.numba_caller(kernel_for(width, height, connect))


def _mark(busy: CArray, board: Board) -> None:
    kbits = 7 * 7
    h = shared_key(np.uint64(board.current_bits), np.uint64(board.mask_bits), board.move_count, 7, 6, kbits)
    busy[busy_slot(h, kbits - layout.BUSY_BITS, busy.shape[0])] = int(h)


@pytest.mark.parametrize(
    ("name", "count"),
    # L1_R2's 16th takes 2.3 million nodes: both parts of the table grow
    [("Test_L3_R1", 200), ("Test_L2_R2", 60), ("Test_L1_R1", 40), ("Test_L1_R2", 16)],
)
def test_the_library_finds_numbas_scores_nodes_and_moves(folder: Path, name: str, count: int) -> None:
    lines = (PONS / name).read_text().splitlines()[:count]
    native = library.load(7, 6, 4, folder)
    assert native is not None
    status, rows, table = _solve_all(native, lines)
    assert status == layout.DONE
    assert rows[:, layout.R_SCORE].tolist() == [int(line.split()[1]) for line in lines]
    numba_status, numba_rows, numba_table = _solve_all(_numba(7, 6, 4), lines)
    assert numba_status == layout.DONE
    assert np.array_equal(rows, numba_rows)  # the same search, node for node
    assert np.array_equal(table, numba_table)  # and the same table, grown alike
    if name == "Test_L1_R2":
        assert table[-TABLE_HEADER:].tolist() == [20, 18, 0]  # both grew from 2**16; growth not held


def _random_boards(width: int, height: int, connect: int, stones: int, count: int) -> list[Board]:
    """``count`` positions of ``stones`` stones, by seeded random moves, none of them over."""
    chance = random.Random(f"{width}x{height}x{connect}")
    boards: list[Board] = []
    while len(boards) < count:
        board = Board(width, height, connect)
        for _ in range(stones):
            moves = [column for column in board.legal_moves() if not board.is_winning_move(column)]
            if not moves:
                break
            board.play(chance.choice(moves))
        else:
            boards.append(board)
    return boards


@pytest.mark.parametrize(
    ("width", "height", "connect", "stones"),
    [(5, 4, 4, 4), (6, 5, 4, 14), (4, 5, 3, 6), (10, 6, 4, 44), (9, 7, 5, 48), (11, 5, 4, 40)],
)
def test_the_library_for_every_size_searches_as_numbas_generic_kernel(
    folder: Path, width: int, height: int, connect: int, stones: int
) -> None:
    boards = _random_boards(width, height, connect, stones, 12)
    native = library.load_any_size(width, height, connect, folder)
    assert native is not None
    status, rows, table = _solve_boards(native, boards)
    assert status == layout.DONE

    def generic(args: layout.KernelArgs) -> int:  # numba's, even for a specialised geometry
        return int(_generic_kernel(args, width, height, connect))

    numba_status, numba_rows, numba_table = _solve_boards(library.numba_caller(generic), boards)
    assert numba_status == layout.DONE
    assert np.array_equal(rows, numba_rows)  # the same scores, nodes and moves
    assert np.array_equal(table, numba_table)
    assert len(set(rows[:, layout.R_SCORE].tolist())) > 1  # positions that differ


def test_a_board_past_64_bits_with_its_own_library_searches_as_the_one_for_every_size(folder: Path) -> None:
    """10x6's sizes compiled in (:data:`c4engine.kernels.SPECIALISED`): the same search, node for node."""
    assert (10, 6, 4) in c4engine.kernels.SPECIALISED
    boards = _random_boards(10, 6, 4, 44, 12)
    own, every_size = library.load(10, 6, 4, folder), library.load_any_size(10, 6, 4, folder)
    assert own is not None and every_size is not None
    status, rows, table = _solve_boards(own, boards)
    assert status == layout.DONE
    wide_status, wide_rows, wide_table = _solve_boards(every_size, boards)
    assert wide_status == layout.DONE
    assert np.array_equal(rows, wide_rows) and np.array_equal(table, wide_table)
    assert len(set(rows[:, layout.R_SCORE].tolist())) > 1


@pytest.mark.parametrize(("width", "height", "connect", "depth"), [(7, 6, 4, 6), (8, 7, 4, 5), (6, 7, 5, 5)])
def test_the_engine_library_finds_numbas_moves_scores_lines_and_nodes(
    folder: Path, monkeypatch: pytest.MonkeyPatch, width: int, height: int, connect: int, depth: int
) -> None:
    native = library.load_engine(folder)
    assert native is not None
    found: dict[str, list[object]] = {}
    for name, run in [("library", native), ("numba", heuristic.run)]:
        monkeypatch.setattr(compiled_engine, "_run", lambda run=run: run)
        search = compiled_engine.KernelSearch()  # one table across the positions: its moves order them
        answers: list[object] = []
        for board in _random_boards(width, height, connect, 6, 5):
            for evaluator in (areas, windows):
                weights = compiled_engine.kernel_weights(evaluator, connect)
                assert weights is not None
                spent: list[int] = []  # the nodes of each slice but the last: as many as the CPU allows
                answer, last = search.iterate(board, weights, depth, board.legal_moves(), _adder(spent))
                answers.append((answer, sum(spent) + last))
        found[name] = answers
    assert found["library"] == found["numba"]


def _adder(spent: list[int]) -> compiled_engine.SliceHook:
    return lambda nodes, best: spent.append(nodes)


def test_the_engine_library_refuses_arrays_of_the_wrong_shape(folder: Path) -> None:
    native = library.load_engine(folder)
    assert native is not None
    search = compiled_engine.KernelSearch()
    board = Board()
    search._prepare(Board(6, 5))  # stacks of another board
    weights = compiled_engine.kernel_weights(areas, 4)
    assert weights is not None
    own, opponent, center = weights
    ustack, fstack, istack, mstack, pv, pvlen = search._stacks
    evaluator = compiled_engine.engine_layout.Weights(
        search._masks, own, opponent, center, search._center, 1e6
    )
    with pytest.raises(ValueError, match="C-contiguous"):
        native(
            board.current_bits, board.mask_bits, 7, 6, 4, 2, np.arange(7, dtype=np.int64), evaluator,
            search._keys, search._lower, search._upper, search._gen, search._move, search._bits, 1,
            ustack, fstack, istack, mstack, pv, pvlen, np.zeros(4, dtype=np.int64), np.zeros(1), 100,
        )  # fmt: skip


def test_installed_libraries_answer_without_numba(folder: Path) -> None:
    """What an install ships serves the solver (its own library on 7x6, the one for every size
    on 5x4) and the engine, and the process never imports numba -- so it compiles nothing."""
    script = f"""
import sys
from pathlib import Path
from c4engine.kernels import library
library.SHIPPED = Path({str(folder)!r})
from c4engine import Board
from c4engine.geometry import fits_64_bits
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.limit import Limit
analyst = Analyst()
print(analyst.solve(Board.from_moves("4453")).score)
print(analyst.solve(Board(5, 4)).score)
from c4engine.search.engine.negamax import Engine
print(Engine(limit=Limit(depth=6)).search(Board.from_moves("44")).column)
print("numba" in sys.modules)
"""
    environment = {"NUMBA_CACHE_DIR": str(folder / "no-numba-cache")}
    shown = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, env=environment
    )
    assert shown.stdout.split()[-1] == "False", shown.stdout + shown.stderr


def test_libraries_are_looked_for_where_the_install_put_them_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped, cache = tmp_path / "shipped", tmp_path / "cache"
    monkeypatch.setattr(library, "SHIPPED", shipped)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(cache))
    assert library.find(library.ANY_SIZE) is None
    for place in (cache, shipped):
        place.mkdir()
        library.named_path(library.ANY_SIZE, place).write_bytes(b"")
        assert library.find(library.ANY_SIZE) == library.named_path(library.ANY_SIZE, place)
    assert library.has_library(8, 7, 5)  # the library for every size serves every size up to 64 bits
    assert not library.has_library(9, 7, 5)  # past 64 bits: the wide library's
    library.named_path(library.WIDE, shipped).write_bytes(b"")
    assert library.has_library(9, 7, 5)


def test_the_library_puts_off_busy_positions_as_numba_does(folder: Path) -> None:
    lines = (PONS / "Test_L1_R1").read_text().splitlines()[:40]
    native = library.load(7, 6, 4, folder)
    assert native is not None
    status, rows, _ = _solve_all(native, lines, marked=True)
    assert status == layout.DONE
    assert rows[:, layout.R_SCORE].tolist() == [int(line.split()[1]) for line in lines]
    _, numba_rows, _ = _solve_all(_numba(7, 6, 4), lines, marked=True)
    assert np.array_equal(rows, numba_rows)
    _, ranked_rows, _ = _solve_all(native, lines)
    assert not np.array_equal(rows[:, layout.R_NODES], ranked_rows[:, layout.R_NODES])  # another order


def test_cancel_from_another_thread_stops_the_library_kernel(folder: Path) -> None:
    native = library.load(7, 6, 4, folder)
    assert native is not None
    board = Board.from_moves("4")  # about a minute of search
    rows = layout.new_rows(1)
    rows[0, layout.R_STONES] = 1
    state = layout.new_state(-20, 21)
    cancel = layout.new_flag()
    positions = layout.positions([(board.current_bits, board.mask_bits)], wide=False)
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


def test_the_names_digests_are_hashlibs_sha256() -> None:
    """The kernels hash without importing hashlib (it loads OpenSSL), to the same digests: the
    libraries an install built keep their names."""
    sources = sorted(Path(c4engine.kernels.__file__).parent.glob("*.py"))
    expected = hashlib.sha256(b"".join(path.read_bytes() for path in sources)).hexdigest()
    assert expected == c4engine.kernels.SOURCE_DIGEST
    key = f"{expected}\n7x6x4\n{library.cpu_identity()}".encode()
    assert library.library_path(7, 6, 4).name == f"c4solve-7x6x4-{hashlib.sha256(key).hexdigest()[:16]}.so"


def test_a_broken_library_file_is_not_loaded(tmp_path: Path) -> None:
    library.library_path(7, 6, 4, tmp_path).write_bytes(b"not a shared library")
    assert library.load(7, 6, 4, tmp_path) is None


BUILDING = "compiling the solver into a library, once, about 30 s"
COMPILING = "compiling the solver, once, about 30 s"


@pytest.mark.parametrize(
    ("has_library", "numba_cached", "builds", "told"),
    [
        (True, False, True, []),  # the library loads in milliseconds: nothing compiles
        (False, False, True, [BUILDING, COMPILING]),  # the build failed: numba compiles
        (False, True, True, [BUILDING]),  # the build failed: numba's cache serves
        (False, False, False, [COMPILING]),  # no compiler: numba's compile only
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
    monkeypatch.setattr(library, "load_any_size", lambda *geometry: None)
    monkeypatch.setattr(solve, "is_compiled", lambda *geometry: numba_cached)
    monkeypatch.setattr(library, "numba_caller", lambda kernel: kernel)  # numba's kernel itself served
    monkeypatch.setattr(library, "can_build_named", lambda *name: builds)
    built: list[str] = []
    monkeypatch.setattr(library, "build_apart", lambda name: built.append(name) or False)  # it fails
    library.solver_kernel.cache_clear()
    try:
        for _ in range(2):
            assert library.solver_kernel(7, 6, 4) is numba_kernel
            library.solver_kernel.cache_clear()  # as in a process that loads it again
    finally:
        library.solver_kernel.cache_clear()
    assert heard == told  # and only once
    assert built == (["7x6x4", "7x6x4"] if builds and not has_library else [])


def test_with_no_library_the_one_needed_is_built_apart_and_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An install that built nothing: the first solve builds its library in a process of its own,
    which then serves (no numba kernel in this process)."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(library, "SHIPPED", tmp_path / "nothing shipped")
    made: list[str] = []

    def build_apart(name: str) -> bool:
        made.append(name)
        library.named_path(name).write_bytes(b"")  # stands for the library: load() is faked below
        return True

    served = kernel_for(5, 4, 4)
    monkeypatch.setattr(library, "build_apart", build_apart)
    monkeypatch.setattr(library, "can_build_named", lambda *name: True)
    monkeypatch.setattr(
        library, "load_any_size", lambda *g: served if library.find(library.ANY_SIZE) else None
    )
    monkeypatch.setattr(library, "load", lambda *g: None)
    library.solver_kernel.cache_clear()
    try:
        assert library.solver_kernel(5, 4, 4) is served
    finally:
        library.solver_kernel.cache_clear()
    assert made == [library.ANY_SIZE]


def test_a_standard_board_without_its_library_is_served_by_the_one_for_every_size_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its own library is then built in the background, for the processes after; nothing waits."""
    any_size = kernel_for(8, 7, 4)
    started: list[str] = []
    monkeypatch.setattr(library, "load", lambda *geometry: None)
    monkeypatch.setattr(library, "load_any_size", lambda *geometry: any_size)
    monkeypatch.setattr(library, "can_build", lambda *geometry: True)
    monkeypatch.setattr(library, "build_apart", lambda name: pytest.fail("built while the solver waits"))
    monkeypatch.setattr(library, "build_in_background", started.append)
    library.solver_kernel.cache_clear()
    try:
        assert library.solver_kernel(7, 6, 4) is any_size
        assert library.solver_kernel(8, 7, 4) is any_size
    finally:
        library.solver_kernel.cache_clear()
    assert started == ["7x6x4"]  # 8x7 has no kernel of its own: nothing to build


def test_a_background_build_is_started_once_while_under_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    launched: list[list[str]] = []
    monkeypatch.setattr(subprocess, "Popen", lambda command, **options: launched.append(command))
    library.build_in_background("7x6x4")
    library.build_in_background("7x6x4")
    assert launched == [[sys.executable, "-m", "c4engine.kernels.build", "7x6x4"]]
    assert library.library_path(7, 6, 4).with_suffix(".building").exists()
