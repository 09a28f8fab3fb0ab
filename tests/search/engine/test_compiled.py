"""The compiled heuristic search against the Python one: same values, same moves; slices, clock, poll hook."""

from __future__ import annotations

import itertools
import random
import time
from typing import Any

import pytest

from c4engine.board import Board
from c4engine.errors import BoardBusyError, WeightsError
from c4engine.search.engine import compiled as compiled_engine
from c4engine.search.engine.evaluators import WindowsEvaluator, areas, threat_distance, windows
from c4engine.search.engine.negamax import Engine
from c4engine.search.engine.weights import WindowWeights
from c4engine.search.limit import Limit
from c4engine.search.progress import Progress
from c4engine.search.scale import WIN_SCORE

SIZES = [(7, 6, 4), (6, 5, 4), (5, 4, 3), (8, 7, 5), (9, 6, 4), (4, 4, 2), (6, 7, 4)]


def random_positions(count: int, seed: int, size: tuple[int, int, int]) -> list[Board]:
    """``count`` random positions, game not over, anywhere from empty to one stone short of full."""
    rng = random.Random(seed)
    width, height, _ = size
    boards: list[Board] = []
    while len(boards) < count:
        board = Board(*size)
        for _ in range(rng.randint(0, width * height - 1)):
            if board.is_over:
                break
            board.play(rng.choice(board.legal_moves()))
        if not board.is_over:
            boards.append(board)
    return boards


def check_pv(board: Board, score: float, pv: tuple[int, ...], depth: int, evaluate: WindowsEvaluator) -> None:
    """The principal variation is legal and ends where the score says: a win, a draw or the leaf's value."""
    line = board.copy()
    for column in pv:
        line.play(column)
    sign = 1 if len(pv) % 2 == 0 else -1
    if line.winner is not None:
        assert score == -sign * (WIN_SCORE - len(pv))
    elif line.is_full:
        assert score == 0
    else:
        assert len(pv) == depth
        assert score == sign * evaluate(line)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: "{}x{}c{}".format(*size))
def test_kernel_agrees_with_python_search(size: tuple[int, int, int]) -> None:
    for index, board in enumerate(random_positions(40, seed=hash(size) & 0xFFFF, size=size)):
        depth = index % 5 + 1
        kernel = Engine(windows, Limit(depth=depth), center_first_move=False)
        python = Engine(windows, Limit(depth=depth), center_first_move=False, use_kernel=False)
        assert kernel.uses_kernel(board) and not python.uses_kernel(board)
        fast = kernel.search(board)
        slow = python.search(board)
        where = f"{board.move_string} depth {depth}"
        assert (fast.column, fast.score, fast.depth) == (slow.column, slow.score, slow.depth), where
        assert fast.line[0] == fast.column and not fast.stopped
        check_pv(board, fast.score.engine_value(), fast.line, fast.depth, WindowsEvaluator())


def test_kernel_agrees_with_minimax_with_tuned_weights_and_areas() -> None:
    rng = random.Random(5)
    for index, board in enumerate(random_positions(40, seed=11, size=(6, 5, 4))):
        weights = WindowWeights(
            own=tuple(rng.uniform(0, 50) for _ in range(3)),
            opponent=tuple(-rng.uniform(0, 60) for _ in range(3)),
            center=rng.choice([0.0, rng.uniform(0, 5)]),
        )
        evaluate = WindowsEvaluator(weights) if index % 2 else areas
        depth = index % 4 + 1
        fast = Engine(evaluate, Limit(depth=depth)).search(board)
        slow = Engine(evaluate, Limit(depth=depth), pruning=False).search(board)
        assert (fast.column, fast.score) == (slow.column, slow.score), board.move_string
        assert Engine(evaluate).uses_kernel(board)


def test_one_engine_many_searches_same_answers() -> None:
    """The table lives on between searches (and depths): it may reorder moves, never change values."""
    kernel = Engine(windows, Limit(depth=5))
    python = Engine(windows, Limit(depth=5), use_kernel=False)
    for board in random_positions(30, seed=3, size=(7, 6, 4)) * 2:
        fast, slow = kernel.search(board), python.search(board)
        assert (fast.column, fast.score) == (slow.column, slow.score)


def test_deep_compiled_search_finds_tactics() -> None:
    board = Board.from_moves("4455")  # an open three: X wins in 2 moves
    engine = Engine(limit=Limit(depth=10))
    assert engine.uses_kernel(board)  # how fast it is: benchmarks/, not here
    result = engine.search(board)
    assert result.describe() == "win in 2 moves" and result.column in (2, 5)
    assert result.depth == 10


def test_terminal_handling() -> None:
    engine = Engine(limit=Limit(depth=6))
    assert engine.search(Board.from_moves("112233")).column == 3  # win at once
    assert engine.search(Board.from_moves("12121")).column == 0  # block
    lost = engine.search(Board.from_moves("27374"))  # O: X threatens columns 1 and 5
    assert lost.score is not None and lost.score.outcome == "loss" and lost.score.moves == 1  # at ply 2
    nearly_full = random_positions(20, seed=9, size=(5, 4, 3))
    for board in nearly_full:
        fast = Engine(limit=Limit(depth=20)).search(board)  # capped by the empty cells
        slow = Engine(limit=Limit(depth=20), use_kernel=False).search(board)
        assert (fast.column, fast.score, fast.depth) == (slow.column, slow.score, slow.depth)


def test_time_limit_on_the_kernel_path() -> None:
    board = Board.from_moves("4453")
    engine = Engine(limit=Limit(time=0.3))
    assert engine.uses_kernel(board)
    result = engine.search(board)
    assert result.stopped and result.depth >= 4 and result.time < 3  # generous: loaded machines
    assert result.line[0] == result.column and board.can_play(result.column)


def test_poll_hook_on_the_kernel_path() -> None:
    board = Board.from_moves("44")
    seen: list[Progress] = []

    def hook(progress: Progress) -> bool:
        seen.append(progress)
        with pytest.raises(BoardBusyError):
            board.play(0)
        return len(seen) >= 6

    engine = Engine(limit=Limit(depth=40), poll=hook, poll_interval=0.02)
    result = engine.search(board)
    assert result.stopped and len(seen) == 6
    times = [progress.cpu_time for progress in seen]
    gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    assert all(0.02 <= gap < 0.02 + 0.05 for gap in gaps), gaps  # slices are a few ms of CPU
    assert seen[-1].best_move is not None and result.column is not None
    assert [progress.nodes for progress in seen] == sorted(progress.nodes for progress in seen)
    board.play(0)  # released


def test_fixed_depth_stopped_early_answers_the_last_completed_depth() -> None:
    board = Board.from_moves("44")
    calls = 0

    def hook(progress: Progress) -> bool:
        nonlocal calls
        calls += 1
        return progress.depth >= 9

    result = Engine(limit=Limit(depth=30), poll=hook, poll_interval=0.001).search(board)
    assert result.stopped and 1 <= result.depth < 30 and result.column is not None


def test_fallbacks() -> None:
    big = Board(9, 7)  # 9 * 8 bits: too big for one uint64
    assert not Engine().uses_kernel(big)
    assert Engine(limit=Limit(depth=2)).search(big).column == 4
    assert not Engine(threat_distance).uses_kernel(Board())
    assert not Engine(pruning=False).uses_kernel(Board())
    assert not Engine(use_kernel=False).uses_kernel(Board())
    with pytest.raises(ValueError, match="windows or areas"):
        Engine(threat_distance, use_kernel=True)
    with pytest.raises(ValueError, match="pruning"):
        Engine(pruning=False, use_kernel=True)
    with pytest.raises(TypeError):
        Engine(use_kernel=1)  # type: ignore[arg-type]

    class Doubled(WindowsEvaluator):
        def __call__(self, board: Board) -> float:
            return 2 * super().__call__(board)

    assert not Engine(Doubled()).uses_kernel(Board())
    five = WindowsEvaluator(WindowWeights.for_connect(5))
    assert not Engine(five).uses_kernel(Board())  # weights for connect 5 on a connect-4 board
    with pytest.raises(WeightsError):
        Engine(five, Limit(depth=2)).search(Board.from_moves("4"))


def test_the_engines_first_compile_is_announced_and_not_timed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel found not compiled (no library, no C compiler to build one) is announced before
    loading; a search's clock starts after."""
    import c4engine.kernels
    from c4engine.kernels import library

    heard: list[str] = []
    monkeypatch.setattr(c4engine.kernels, "_listeners", [heard.append])
    monkeypatch.setattr(c4engine.kernels, "_announced", set())
    monkeypatch.setattr(compiled_engine, "is_cached", lambda dispatcher: False)
    monkeypatch.setattr(library, "load_engine", lambda: None)
    monkeypatch.setattr(library, "can_build_named", lambda name: False)
    compiled_engine._run.cache_clear()
    real_iterate = compiled_engine.KernelSearch.iterate
    loading: list[float] = []

    def slow_first_iteration(self: compiled_engine.KernelSearch, *args: Any) -> Any:
        if not loading:  # the loading run: made to take as long as a compile might
            began, wall = time.process_time(), time.monotonic()
            while time.process_time() - began < 0.5:
                pass
            loading.append(time.monotonic() - wall)
        return real_iterate(self, *args)

    monkeypatch.setattr(compiled_engine.KernelSearch, "iterate", slow_first_iteration)
    compiled_engine.load_kernel.cache_clear()
    try:
        began = time.monotonic()
        result = Engine(limit=Limit(depth=2)).search(Board.from_moves("4453"))
        spent = time.monotonic() - began
    finally:
        compiled_engine.load_kernel.cache_clear()  # loaded for real by the next search
        compiled_engine._run.cache_clear()
    assert heard == ["compiling the engine, once, about 5 s"]
    assert loading and result.time <= spent - loading[0]  # wall seconds, one after the other


def test_without_its_library_the_engine_builds_one_apart_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """An install that built no engine library: its first search builds it in a process of its own
    (announced) and loads it; numba's kernel only where that fails."""
    import c4engine.kernels
    from c4engine.kernels import heuristic, library

    heard: list[str] = []
    built: list[str] = []
    monkeypatch.setattr(c4engine.kernels, "_listeners", [heard.append])
    monkeypatch.setattr(c4engine.kernels, "_announced", set())
    monkeypatch.setattr(library, "can_build_named", lambda name: True)
    monkeypatch.setattr(library, "load_engine", lambda: heuristic.run if built else None)  # once built
    monkeypatch.setattr(library, "build_apart", lambda name: built.append(name) or True)
    compiled_engine._run.cache_clear()
    try:
        assert compiled_engine._run() is heuristic.run
    finally:
        compiled_engine._run.cache_clear()
    assert built == [library.ENGINE]
    assert heard == ["compiling the engine into a library, once, about 10 s"]
