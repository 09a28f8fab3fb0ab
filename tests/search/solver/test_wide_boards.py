"""The exact solver on boards past 64 bits (its 128-bit words): scores against a plain negamax and
against the positions another solver scored (tests/data).

The negamax below shares nothing with the solver but the rules of the
``Board`` class: it plays every move on the board itself, scores a win by
the benchmark convention and memoizes positions by their move-free key.
Positions are late ones (few empty cells), so that it stays quick.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from tests.races import count_races

from c4engine import Board
from c4engine.errors import TableSizeError, UnsupportedBoardError
from c4engine.search.limit import Limit
from c4engine.search.progress import Progress
from c4engine.search.solver.exact import Solver

# width, height, connect: 70, 72, 72, 72, 66, 68 and 65 bits
WIDE = [(10, 6, 4), (9, 7, 4), (8, 8, 4), (9, 7, 5), (11, 5, 4), (4, 16, 4), (5, 12, 4)]


def negamax(width: int, height: int, connect: int) -> Callable[[Board], int]:
    """The exact score of a position for the side to move, by trying every move on the ``Board``."""
    cells = width * height
    known: dict[tuple[int, int], int] = {}

    def score(board: Board) -> int:
        key = (board.current_bits, board.mask_bits)
        if key in known:
            return known[key]
        best = -cells
        for column in board.legal_moves():
            if board.is_winning_move(column):
                best = (cells + 1 - board.move_count) // 2
                break
            board.play(column)
            best = max(best, 0 if board.is_full else -score(board))
            board.undo()
        known[key] = best
        return best

    return lambda board: score(board.copy())


def late_positions(size: tuple[int, int, int], empty: int, count: int, seed: int) -> list[Board]:
    """``count`` random positions of ``size`` with ``empty`` empty cells whose game is not over."""
    rng = random.Random(seed)
    width, height, connect = size
    found: list[Board] = []
    while len(found) < count:
        board = Board(width, height, connect)
        while not board.is_over and width * height - board.move_count > empty:
            board.play(rng.choice(board.legal_moves()))
        if not board.is_over:
            found.append(board)
    return found


@pytest.mark.parametrize("size", WIDE, ids=lambda s: "x".join(map(str, s)))
def test_wide_boards_score_as_a_plain_negamax(size: tuple[int, int, int]) -> None:
    boards = late_positions(size, 6, 4, seed=sum(size))
    score = negamax(*size)
    solver = Solver(table_size_mb=16)
    for board in boards:
        want = score(board)
        result = solver.solve(board)
        assert result.proven and result.score == want, board.move_string
        assert solver.solve(board, weak=True).score == (want > 0) - (want < 0)
        assert result.best_move is not None
        child = board.copy()
        won = child.is_winning_move(result.best_move)
        child.play(result.best_move)
        assert want == (result.score if won or child.is_full else -score(child))
    batch = Solver(table_size_mb=16).solve_many(boards)
    assert batch.complete and list(batch.scores) == [score(board) for board in boards]


def test_analysis_of_a_wide_board() -> None:
    (board,) = late_positions((8, 8, 4), 7, 1, seed=3)
    score = negamax(8, 8, 4)
    analysis = Solver(table_size_mb=16).analyze(board)
    assert analysis.proven
    for column in range(8):
        if not board.can_play(column):
            assert analysis.scores[column] is None
            continue
        child = board.copy()
        if child.is_winning_move(column):
            continue
        child.play(column)
        assert analysis.scores[column] == (0 if child.is_full else -score(child)), column


def test_two_threads_agree_with_one_on_wide_boards(monkeypatch: pytest.MonkeyPatch) -> None:
    races = count_races(monkeypatch)
    one = Solver(table_size_mb=16)
    # positions that take one thread thousands of nodes, not millions (most random ones are
    # settled at once)
    candidates = [
        board
        for width, height, connect in WIDE[:3]
        for stones in (16, 20, 24)
        for board in late_positions((width, height, connect), width * height - stones, 6, seed=5)
    ]
    tried = [(board, one.solve(board, Limit(nodes=300_000))) for board in candidates]
    boards = [board for board, result in tried if result.proven and result.nodes > 3000][:6]
    assert len(boards) >= 2
    two = Solver(table_size_mb=16, threads=2)
    two.race_from_nodes = 300  # raced from a few hundred nodes on
    one.reset()
    for board in boards:
        alone, shared = one.solve(board), two.solve(board)
        assert (shared.score, shared.proven) == (alone.score, True), board.move_string
    assert races  # counted, not the helper's nodes: whether it gets a core in a short race is the scheduler's


def test_limits_and_cancel_on_a_wide_board() -> None:
    board = Board(10, 6)  # far from solved in these limits
    solver = Solver(table_size_mb=16)
    stopped = solver.solve(board, Limit(nodes=20_000))
    assert not stopped.proven and stopped.stopped == "node limit" and stopped.nodes <= 20_000
    assert stopped.lower <= stopped.upper
    polled = solver.solve(board, poll=lambda progress: progress.nodes > 10_000, poll_interval=0.001)
    assert not polled.proven and polled.stopped == "stopped by poll"
    results = []
    started = threading.Event()

    def poll(progress: Progress) -> None:
        started.set()

    worker = threading.Thread(
        target=lambda: results.append(solver.solve(board, poll=poll, poll_interval=0.01))
    )
    worker.start()
    assert started.wait(120)
    solver.cancel()
    worker.join(120)
    (cancelled,) = results
    assert not cancelled.proven and cancelled.stopped == "cancelled"
    # still right afterwards, on this board and back on the standard one (the table relaid out)
    (late,) = late_positions((10, 6, 4), 7, 1, seed=11)
    assert solver.solve(late).score == negamax(10, 6, 4)(late)
    assert solver.solve(Board.from_moves("2252576253462244111563365343671351441")).score == -1


def test_boards_past_128_bits_are_refused() -> None:
    with pytest.raises(UnsupportedBoardError, match="<= 128"):
        Solver(table_size_mb=8).solve(Board(12, 10))


def test_a_128_bit_board_needs_a_large_enough_table() -> None:
    # 128 bits: the key leaves no room in a part of 2**19 two-word entries
    board = Board.from_moves([0] * 6 + [1] * 7 + [2] * 7 + [3] * 7, 16, 7)
    with pytest.raises(TableSizeError, match="at least 16 MB"):
        Solver(table_size_mb=8).solve(board)
    assert Solver(table_size_mb=16).solve(board).proven


DATA = Path(__file__).resolve().parents[3] / "tests" / "data"


@pytest.mark.parametrize("name", ["wide_10x6_end", "wide_8x8_end", "wide_9x7_end", "wide_10x6_mid"])
def test_positions_scored_by_an_independent_solver(name: str) -> None:
    """Every fourth position of the files of tests/data (scored by another solver: its README)."""
    width, height = (int(size) for size in name.split("_")[1].split("x"))
    lines = [line.split() for line in (DATA / f"{name}.txt").read_text().splitlines() if line.strip()][::4]
    boards = [Board.from_moves(moves, width, height) for moves, _ in lines]
    batch = Solver(table_size_mb=16).solve_many(boards)
    assert batch.complete
    assert list(batch.scores) == [int(score) for _, score in lines]
