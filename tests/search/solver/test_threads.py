"""The solver on two threads: the same answers as on one, limits, cancelling, and the race's parts.

The helpers join a search once it has taken ``race_from_nodes`` nodes; the
tests lower that to a few hundred so that even the sets' short positions are
raced (the counts per thread show that they were).
"""

from __future__ import annotations

import re
import threading
import time
from typing import Any

import numpy as np
import pytest
from tests.conftest import PONS
from tests.races import count_races

from c4engine import Board
from c4engine.cli import main
from c4engine.errors import ThreadCountError
from c4engine.kernels import layout
from c4engine.kernels.memory import INT64, CArray
from c4engine.kernels.transposition import TABLE_HEADER
from c4engine.search.limit import Limit
from c4engine.search.progress import Progress
from c4engine.search.solver import threads as parallel
from c4engine.search.solver.exact import Solver
from c4engine.search.solver.threads import RACE_FROM_NODES, probe_value

SETS = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3")


def _cases(name: str, step: int, count: int) -> list[tuple[str, int]]:
    lines = (PONS / name).read_text().splitlines()[::step][:count]
    return [(moves, int(score)) for moves, score in (line.split() for line in lines)]


def _raced(table_mb: float = 24, race_from: int = 300) -> Solver:
    solver = Solver(table_size_mb=table_mb, threads=2)
    solver.race_from_nodes = race_from
    return solver


def _helped(nodes_per_thread: tuple[int, ...]) -> bool:
    return len(nodes_per_thread) == 2 and nodes_per_thread[1] > 0


@pytest.mark.slow
@pytest.mark.parametrize("name", SETS)
def test_two_threads_score_every_set_as_published(name: str) -> None:
    # Test_L1_R3: two of its positions that take a few million nodes, not tens of millions
    cases = _cases(name, 37, 12) if name != "Test_L1_R3" else _cases(name, 1, 6)[2::3]
    solver = _raced()
    helped = 0
    for moves, score in cases:
        result = solver.solve(Board.from_moves(moves))
        assert result.proven and result.score == score, moves
        assert result.lower == result.upper == score
        assert sum(result.nodes_per_thread) == result.nodes
        helped += _helped(result.nodes_per_thread)
        if result.best_move is not None:  # a proven best move keeps the score
            child = Board.from_moves(moves)
            if child.is_winning_move(result.best_move):
                continue
            child.play(result.best_move)
            if child.is_full:
                continue
            assert -Solver(table_size_mb=8).solve(child).score == score  # type: ignore[operator]
    if name in ("Test_L1_R2", "Test_L1_R3"):  # searches long enough for a helper to be scheduled
        assert helped > 0


def _whole_table_bytes(solver: Solver) -> int:
    """The bytes of ``solver``'s table in use once it is whole: all but its header."""
    return solver.table_bytes - TABLE_HEADER * np.asarray(solver.table.array).itemsize


def test_searches_shorter_than_the_threshold_never_start_a_helper(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the default threshold, Test_L2_R2 (up to 370 000 nodes each) runs alone: no race, no
    helper node, and the table grows as on one thread."""
    races = count_races(monkeypatch)
    solver, one = Solver(threads=2), Solver(threads=1)
    longest = 0
    for moves, score in _cases("Test_L2_R2", 1, 1000):
        result = solver.solve(Board.from_moves(moves), best_move=False)
        assert result.proven and result.score == score, moves
        assert result.nodes_per_thread == (result.nodes, 0), moves
        one.solve(Board.from_moves(moves), best_move=False)
        longest = max(longest, result.nodes)
    assert races == []
    assert 300_000 < longest < RACE_FROM_NODES  # the set has searches a lower threshold would race
    assert solver.table_bytes_in_use == one.table_bytes_in_use < _whole_table_bytes(solver)


@pytest.mark.parametrize(("name", "count"), [("Test_L1_R1", 300), ("Test_L2_R2", 200)])
def test_before_the_helpers_join_two_threads_search_as_one(
    name: str, count: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Short searches on two threads are one thread's, node for node: one by one and in a batch,
    the same nodes for every position, the table grown alike, and no helper's stack made."""
    races = count_races(monkeypatch)
    made: list[int] = []
    new_searchers = parallel.new_searchers

    def counted(count: int, *rest: Any) -> list[parallel.Searcher]:
        made.append(count)
        return new_searchers(count, *rest)

    monkeypatch.setattr(parallel, "new_searchers", counted)
    boards = [Board.from_moves(moves) for moves, _ in _cases(name, 1, count)]
    one, two = Solver(threads=1), Solver(threads=2)
    for board in boards:
        alone, paired = one.solve(board, best_move=False), two.solve(board, best_move=False)
        assert (paired.score, paired.nodes) == (alone.score, alone.nodes), board.moves
        assert paired.nodes_per_thread == (alone.nodes, 0), board.moves
    assert two.table_bytes_in_use == one.table_bytes_in_use
    batch_one, batch_two = Solver(threads=1).solve_many(boards), Solver(threads=2).solve_many(boards)
    assert batch_two.nodes == batch_one.nodes and batch_two.scores == batch_one.scores
    assert races == [] and made == []


def test_a_race_starts_with_nothing_put_off() -> None:
    """The first thread's frames, paused on one thread, enter a race with no move put off, whatever
    an earlier race left on the stack; deeper frames set theirs when they reach their second move."""
    stack = CArray((parallel.SHARED_PLIES + 3, layout.I_SIZE), INT64)
    for depth in range(len(stack)):
        stack[depth, layout.I_DEFERRED] = 5
        stack[depth, layout.I_NEXT] = 3
    parallel.share_frames(stack)
    assert [stack[depth, layout.I_DEFERRED] for depth in range(len(stack))] == [0] * parallel.SHARED_PLIES + [
        5
    ] * 3
    assert all(stack[depth, layout.I_NEXT] == 3 for depth in range(len(stack)))


def test_a_search_past_the_threshold_starts_the_helpers(monkeypatch: pytest.MonkeyPatch) -> None:
    """The weak empty board, stopped at three times the threshold: raced once, its first thread
    alone up to the threshold; the race grew the table as one thread's search of its nodes would
    have, and lets later searches grow it again."""
    races = count_races(monkeypatch)
    solver = Solver(threads=2)
    limit = 3 * RACE_FROM_NODES
    result = solver.solve(Board(), Limit(nodes=limit), weak=True)
    assert races == [1]
    assert not result.proven and result.stopped == "node limit"
    assert result.nodes_per_thread[0] >= RACE_FROM_NODES and sum(result.nodes_per_thread) == result.nodes
    assert result.nodes <= limit
    at_the_start = Solver(threads=1)
    at_the_start.solve(Board(), Limit(nodes=RACE_FROM_NODES), weak=True)
    assert at_the_start.table_bytes_in_use < solver.table_bytes_in_use < _whole_table_bytes(solver)
    args = solver._args
    assert args is not None and not solver.table.growth_due(args.bits, args.near_bits, result.nodes)
    assert solver.table.array[solver.table.entries - 1] == 0  # growth no longer held


def test_one_solver_races_on_one_size_after_another(monkeypatch: pytest.MonkeyPatch) -> None:
    """The searchers are the board size's: a solver raced on 7x6, then 6x5, then 7x6 again makes each
    size's searchers at its first race there, and scores as one thread does.  (Whether the helper gets
    a core before a short race ends is the scheduler's: the races are counted, not its nodes.)"""
    races = count_races(monkeypatch)
    two = _raced(table_mb=8)
    boards = [Board.from_moves(moves) for moves, _ in _cases("Test_L1_R2", 1, 2)]
    boards.insert(1, Board.from_moves("33", 6, 5))
    for raced, board in enumerate(boards, start=1):
        expected = Solver(table_size_mb=8).solve(board, best_move=False)
        found = two.solve(board, best_move=False)
        assert found.proven and found.score == expected.score, board.moves
        assert len(races) == raced, board.moves


@pytest.mark.slow
def test_many_short_solves_agree_with_one_thread() -> None:
    """Stress: many searches raced from their first few hundred nodes, strong and weak, one table."""
    cases = [case for name in SETS[:5] for case in _cases(name, 11, 25)]
    one, two = Solver(table_size_mb=24), _raced(race_from=100)
    for weak in (False, True):
        for moves, _ in cases:
            board = Board.from_moves(moves)
            expected = one.solve(board, weak=weak, best_move=False)
            found = two.solve(board, weak=weak, best_move=False)
            assert (found.proven, found.score) == (expected.proven, expected.score), (moves, weak)


@pytest.mark.parametrize(
    ("width", "height", "connect", "plies"), [(6, 5, 4, (2, 8)), (5, 6, 4, (2, 8)), (6, 6, 5, (12, 18))]
)
def test_other_boards_raced_score_as_one_thread(
    monkeypatch: pytest.MonkeyPatch, width: int, height: int, connect: int, plies: tuple[int, int]
) -> None:
    """The generic kernel's busy marks, on other sizes and connect-N: raced from a few hundred nodes."""
    races = count_races(monkeypatch)
    rng = np.random.default_rng(width * 100 + height * 10 + connect)
    one, two = Solver(table_size_mb=8), _raced(table_mb=8)
    for _ in range(6):
        board = Board(width, height, connect)
        for _ in range(int(rng.integers(*plies))):
            moves = [column for column in board.legal_moves() if not board.is_winning_move(column)]
            if not moves:
                break
            board.play(int(rng.choice(moves)))
        expected = one.solve(board, best_move=False)
        found = two.solve(board, best_move=False)
        assert found.proven and found.score == expected.score, board.moves
    assert races  # counted, not the helper's nodes: whether it gets a core in a short race is the scheduler's


def test_weak_and_threshold_questions_with_two_threads() -> None:
    solver = _raced()
    for moves, score in _cases("Test_L2_R2", 41, 8):
        board = Board.from_moves(moves)
        assert solver.solve(board, weak=True).score == (score > 0) - (score < 0), moves
        assert solver.is_at_least(board, score) is True, moves
        assert solver.is_at_least(board, score + 1) is False, moves


def test_analysis_with_two_threads_matches_one() -> None:
    one, two = Solver(table_size_mb=24), _raced()
    for moves, _ in _cases("Test_L2_R1", 97, 4):
        board = Board.from_moves(moves)
        expected, found = one.analyze(board, pv=False), two.analyze(board, pv=False)
        assert found.proven and found.scores == expected.scores, moves
        assert sum(found.nodes_per_thread) == found.nodes


def test_time_and_node_limits_with_two_threads() -> None:
    solver = _raced(table_mb=8, race_from=1000)
    empty = Board()
    timed = solver.solve(empty, Limit(time=0.3))
    assert not timed.proven and timed.stopped == "time limit"
    assert timed.lower <= 1 <= timed.upper  # the empty board scores 1
    counted = solver.solve(empty, Limit(nodes=200_000))
    assert not counted.proven and counted.stopped == "node limit"
    assert counted.nodes <= 200_000 and sum(counted.nodes_per_thread) == counted.nodes
    assert counted.lower <= 1 <= counted.upper
    assert solver.solve(Board.from_moves("2252576253462244111563365343671351441")).score == -1


def test_cancel_during_a_raced_search_stops_every_thread() -> None:
    solver = _raced(table_mb=8, race_from=1000)
    raced = threading.Event()
    results = []

    def poll(progress: Progress) -> None:
        if any(thread.name.startswith("c4-solver") for thread in threading.enumerate()):
            raced.set()  # the helpers have joined

    def search() -> None:
        results.append(solver.solve(Board(), poll=poll, poll_interval=0.01))

    worker = threading.Thread(target=search)
    worker.start()
    assert raced.wait(120)
    solver.cancel()
    worker.join(120)
    assert not worker.is_alive()
    assert [thread.name for thread in threading.enumerate() if thread.name.startswith("c4-solver")] == []
    (result,) = results
    assert not result.proven and result.stopped == "cancelled"
    assert result.lower <= 1 <= result.upper
    assert len(result.nodes_per_thread) == 2 and sum(result.nodes_per_thread) == result.nodes
    # the solver is usable again, its table too
    for moves, score in _cases("Test_L2_R1", 89, 5):
        assert solver.solve(Board.from_moves(moves)).score == score, moves


def test_poll_stops_a_raced_search() -> None:
    solver = _raced(table_mb=8, race_from=1000)
    result = solver.solve(Board(), poll=lambda progress: progress.nodes > 50_000, poll_interval=0.01)
    assert not result.proven and result.stopped == "stopped by poll"


def test_thread_count_is_checked() -> None:
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ThreadCountError, match="whole number of at least 1"):
            Solver(table_size_mb=8, threads=bad)  # type: ignore[arg-type]
    one = Solver(table_size_mb=8).solve(Board.from_moves("2252576253462244111563365343671351441"))
    assert one.nodes_per_thread == (one.nodes,)


def test_test_value_is_the_kernels_next_question() -> None:
    """The first thread asks what the kernel alone would: compare with the kernel's own choice."""
    board = Board.from_moves("2252576253462244111")
    solver = Solver(table_size_mb=8)
    solver.solve(board, Limit(nodes=1))  # loads the kernel and sizes the stacks
    for lower, upper in [(-1, 1), (-12, 12), (-12, 0), (0, 12), (3, 4), (-5, -4), (2, 9), (-9, -2)]:
        state = layout.new_state(lower, upper)
        positions = layout.positions([(board.current_bits, board.mask_bits)], wide=False)
        rows = layout.new_rows(1)
        rows[0, layout.R_STONES] = board.move_count
        state[layout.S_ROOT_MOVE] = 0  # not a fresh solve: skip the immediate-win check
        solver._call_kernel(board, positions, rows, state, 1)
        assert state[layout.S_MED] == probe_value(lower, upper), (lower, upper)


def _race_asking(
    lower: int,
    upper: int,
    asking: dict[int, int],
    other_values: bool = True,
    nodes: int = parallel.NEIGHBOUR_FROM_NODES,
    stones: int = 0,
) -> parallel.Race:
    """A race (never run) of a position of ``stones`` whose window is ``[lower, upper]``, whose searchers
    ask ``asking`` and which has searched ``nodes``."""
    race = parallel.Race(
        [],
        lambda *_: layout.DONE,
        parallel.Root(0, 0, stones),
        next_slice=lambda _: None,
        count=lambda _: None,
        poll=lambda *_: False,
        cancelled=lambda: False,
        remaining_nodes=lambda: None,
        growth_due=lambda _: False,
        grow=lambda _: None,
        other_values=other_values,
    )
    race._lower, race._upper, race._asking, race._nodes = lower, upper, dict(asking), nodes
    return race


@pytest.mark.parametrize(
    ("lower", "upper", "asking", "expected"),
    [
        (-21, 21, {0: 0}, 1),  # the sign first: the helper asks "more than 1?"
        (-21, 21, {0: -10}, -9),  # below 0 the first thread likely hears "yes": the question above
        (-21, 21, {0: 10}, 9),  # above 0 likely "no": the question below
        (-4, 1, {0: 0}, 0),  # "more than 1?" answered: the helper shares the first thread's question
        (2, 5, {0: 0}, 2),  # the first thread's question just settled: beside the one it asks next (3)
        (-21, 21, {0: 0, 1: 1}, 0),  # the neighbour taken by another helper: the first thread's
    ],
)
def test_a_helper_asks_beside_the_first_thread(
    lower: int, upper: int, asking: dict[int, int], expected: int
) -> None:
    race = _race_asking(lower, upper, asking)
    assert race._choose(2) == expected


def test_a_weak_solves_helper_shares_the_first_threads_question() -> None:
    assert _race_asking(-1, 1, {0: 0}, other_values=False)._choose(1) == 0


def test_the_helpers_share_the_sign_until_the_race_is_long() -> None:
    early = parallel.NEIGHBOUR_FROM_NODES - 1
    assert _race_asking(-21, 21, {0: 0}, nodes=early)._choose(1) == 0
    assert _race_asking(-21, 21, {0: 0, 1: 0}, nodes=early)._free_neighbour(0, 1) is None
    # once it is, a helper sharing the first thread's question turns to the neighbour
    assert _race_asking(-21, 21, {0: 0, 1: 0})._free_neighbour(0, 1) == 1
    assert _race_asking(-21, 21, {0: 0, 1: 0, 2: 1})._free_neighbour(0, 1) is None  # asked already


def test_a_position_that_does_not_ask_the_sign_first_asks_beside_it_at_once() -> None:
    race = _race_asking(-15, 15, {0: -7}, nodes=0, stones=parallel.SIGN_FIRST_STONES)
    assert race._choose(1) == -6


def test_the_sign_first_stones_are_the_kernels() -> None:
    from c4engine.kernels.solve import NEAR_SCORE_STONES

    assert parallel.SIGN_FIRST_STONES == NEAR_SCORE_STONES


def test_threads_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["solve", "--threads", "0", "4"])
    assert exited.value.code == 2
    assert "c4 solve: error: argument --threads: must be at least 1, not 0" in capsys.readouterr().err
    moves = "2252576253462244111563365343671351441"
    assert main(["solve", "--no-book", "--threads", "64", moves]) == 0
    out = capsys.readouterr()
    assert "--threads 64 is more than the" in out.err
    assert "score: -1" in out.out
    assert main(["analyze", "--no-book", "--threads", "2", "4453"]) == 0  # about 2 s on one thread
    printed = capsys.readouterr().out
    assert "best moves: 3 6 7 (loss in 18 moves)" in printed
    nodes = re.search(r"nodes: (\d+) \(per thread: (\d+) \+ (\d+)\)", printed)
    assert nodes is not None and int(nodes[1]) == int(nodes[2]) + int(nodes[3])


def test_the_table_grows_with_every_helper_held_outside_the_kernel() -> None:
    """A race grows the table only while no helper is in a kernel call, and each helper, held
    meanwhile, goes on with the same question on the same paused state."""
    from c4engine.kernels.transposition import Table

    table = Table.with_parts(20)
    searchers = parallel.new_searchers(2, 7, 6, table, 30, layout.new_busy(False))
    helper = searchers[1]
    inside = threading.Event()
    helper_states: list[tuple[int, int]] = []  # (the state's id, the flag it stopped on)
    grown_at: list[int] = []
    first_calls = 0

    def run(searcher: parallel.Searcher, positions: CArray, rows: CArray, state: CArray, stop: int) -> int:
        nonlocal first_calls
        if searcher is helper:
            inside.set()
            try:
                for _ in range(2000):  # a kernel call checks its flag every few thousand nodes
                    if searcher.cancel[0]:
                        break
                    time.sleep(0.0005)
                    state[layout.S_NODES] += 100
                helper_states.append((id(state), int(searcher.cancel[0])))
                return layout.CANCELLED if searcher.cancel[0] else layout.PAUSED
            finally:
                inside.clear()
        inside.wait(1.0)  # the first thread's calls overlap the helper's
        first_calls += 1
        state[layout.S_NODES] = stop
        if first_calls < 12:
            return layout.PAUSED
        state[layout.S_MIN] = state[layout.S_MAX] = 1  # "more than 0?": yes, 1, closing [-1, 1]
        return layout.DONE

    def grow(nodes: int) -> None:
        assert not inside.is_set(), "the table grew under a helper's feet"
        grown_at.append(nodes)

    thresholds = [4_000, 8_000]
    race = parallel.Race(
        searchers,
        run,
        parallel.Root(0, 0, 0),
        next_slice=lambda _: 1000,
        count=lambda _: None,
        poll=lambda *_: False,
        cancelled=lambda: False,
        remaining_nodes=lambda: None,
        growth_due=lambda nodes: any(nodes >= at for at in thresholds[len(grown_at) :]),
        grow=grow,
    )
    state = layout.new_state(-1, 1)
    assert race.run(state) == layout.DONE
    assert (state[layout.S_MIN], state[layout.S_MAX]) == (1, 1)
    assert len(grown_at) == 2
    held = [index for index, (_, flag) in enumerate(helper_states) if flag == parallel.HOLD]
    assert held, "no helper was held while the table grew"
    for index in held:  # the same question on the same state after the hold
        if index + 1 < len(helper_states):
            assert helper_states[index + 1][0] == helper_states[index][0]
