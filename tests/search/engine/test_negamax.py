"""The classic engine: alpha-beta against minimax, against a brute-force solver, the poll hook, tactics."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from functools import cache

import pytest
from tests.positions import random_positions

from c4engine.board import Board
from c4engine.errors import BoardBusyError, GameOverError
from c4engine.search.engine.evaluators import EVALUATORS, areas, threat_distance, windows
from c4engine.search.engine.negamax import Engine
from c4engine.search.limit import Limit
from c4engine.search.progress import Progress
from c4engine.search.results import PlayResult, Score
from c4engine.search.scale import WIN_SCORE


def snapshot(board: Board) -> tuple[object, ...]:
    return board.moves, board.current_bits, board.mask_bits, board.winner


# ------------------------------------------------------------------------
# An independent brute-force solver: plain grid lists (a column is a list of
# 0 = X / 1 = O from the bottom), a naive scan for a line through the stone
# just dropped, memoized negamax over every position.  A value is for the side to move:
# BIG - d for a win d plies ahead, -(BIG - d) for a loss, 0 for a draw.

BIG = 10_000


class BruteForce:
    def __init__(self, width: int, height: int, connect: int) -> None:
        self.width, self.height, self.connect = width, height, connect
        self.memo: dict[tuple[tuple[int, ...], ...], int] = {}

    def has_won(self, columns: list[list[int]], column: int) -> bool:
        """Whether the top stone of ``column`` is in a line: walk both ways along each direction."""
        row = len(columns[column]) - 1
        player = columns[column][row]

        def owns(c: int, r: int) -> bool:
            return 0 <= c < self.width and 0 <= r < len(columns[c]) and columns[c][r] == player

        for d_column, d_row in ((1, 0), (0, 1), (1, 1), (1, -1)):
            count = 1
            for sign in (1, -1):
                c, r = column + sign * d_column, row + sign * d_row
                while owns(c, r):
                    count += 1
                    c, r = c + sign * d_column, r + sign * d_row
            if count >= self.connect:
                return True
        return False

    def value(self, columns: list[list[int]]) -> int:
        key = tuple(tuple(column) for column in columns)
        found = self.memo.get(key)
        if found is not None:
            return found
        stones = sum(len(column) for column in columns)
        player = stones % 2
        best = None
        for column in range(self.width):
            if len(columns[column]) == self.height:
                continue
            columns[column].append(player)
            if self.has_won(columns, column):
                value = BIG - 1
            elif stones + 1 == self.width * self.height:
                value = 0
            else:
                child = self.value(columns)
                value = -child + (1 if child > 0 else -1 if child < 0 else 0)
            columns[column].pop()
            if best is None or value > best:
                best = value
        assert best is not None
        self.memo[key] = best
        return best

    def grid(self, moves: tuple[int, ...]) -> list[list[int]]:
        columns: list[list[int]] = [[] for _ in range(self.width)]
        for index, column in enumerate(moves):
            columns[column].append(index % 2)
        return columns

    def position_value(self, moves: tuple[int, ...]) -> int:
        return self.value(self.grid(moves))

    def move_values(self, moves: tuple[int, ...]) -> dict[int, int]:
        """The value of each legal move, for the side to move."""
        values = {}
        columns = self.grid(moves)
        stones = len(moves)
        for column in range(self.width):
            if len(columns[column]) == self.height:
                continue
            columns[column].append(stones % 2)
            if self.has_won(columns, column):
                values[column] = BIG - 1
            elif stones + 1 == self.width * self.height:
                values[column] = 0
            else:
                child = self.value(columns)
                values[column] = -child + (1 if child > 0 else -1 if child < 0 else 0)
            columns[column].pop()
        return values


@cache
def brute_force(width: int, height: int, connect: int) -> BruteForce:
    return BruteForce(width, height, connect)


def engine_value(score: float) -> int:
    """The engine's score in the solver's scale (exact at full depth: every leaf is a finished game)."""
    if score >= WIN_SCORE - 1000:
        return BIG - int(WIN_SCORE - score)
    if score <= -(WIN_SCORE - 1000):
        return -(BIG - int(WIN_SCORE + score))
    assert score == 0, f"a full-depth search ended on a non-final score {score}"
    return 0


def value_of(result: PlayResult) -> float:
    """The engine's answer on its own scale (a win at ply ``p``: ``WIN_SCORE - p``)."""
    assert result.score is not None
    return result.score.engine_value()


def plies_to_end(result: PlayResult) -> int | None:
    """Plies from the root to the end of the game the engine saw (the winning stone included)."""
    assert result.score is not None
    return int(WIN_SCORE - abs(value_of(result))) if result.score.proven else None


def outcome(result: PlayResult) -> str:
    assert result.score is not None
    return result.score.outcome


def check_against_solver(board: Board, *, pruning: bool = True) -> PlayResult:
    solver = brute_force(board.width, board.height, board.connect)
    empty = board.width * board.height - board.move_count
    result = Engine(windows, Limit(depth=empty), pruning=pruning, center_first_move=False).search(board)
    values = solver.move_values(board.moves)
    best = max(values.values())
    assert engine_value(value_of(result)) == best, (board.move_string, result, values)
    assert result.column is not None and values[result.column] == best, (board.move_string, result, values)
    assert not result.stopped
    return result


# ------------------------------------------------- minimax vs alpha-beta


def test_alphabeta_agrees_with_minimax_on_200_positions() -> None:
    positions = random_positions(200, seed=2024)
    minimax = Engine(windows, Limit(depth=4), pruning=False, center_first_move=False)
    # The Python alpha-beta: the compiled one (tests/test_heuristic_kernel.py) may pick another PV on ties.
    alphabeta = Engine(windows, Limit(depth=4), pruning=True, center_first_move=False, use_kernel=False)
    nodes_minimax = nodes_alphabeta = searched = 0
    for board in positions:
        plain = minimax.search(board)
        pruned = alphabeta.search(board)
        assert (pruned.column, pruned.score) == (plain.column, plain.score), board.move_string
        assert pruned.line == plain.line, board.move_string
        assert pruned.depth == plain.depth
        searched += plain.depth == 4
        nodes_minimax += plain.nodes
        nodes_alphabeta += pruned.nodes
    assert searched >= 150  # most are real searches, not a win in one taken at once
    assert nodes_alphabeta < nodes_minimax
    # not a close call: alpha-beta should cut most of the tree
    assert nodes_alphabeta * 3 < nodes_minimax


@pytest.mark.parametrize("evaluate", [areas, threat_distance])
def test_alphabeta_agrees_with_minimax_other_evaluators(evaluate: Callable[[Board], float]) -> None:
    for board in random_positions(25, seed=7, size=(6, 5, 4)):
        plain = Engine(evaluate, Limit(depth=3), pruning=False).search(board)
        pruned = Engine(evaluate, Limit(depth=3)).search(board)
        assert (pruned.column, pruned.score) == (plain.column, plain.score)
        assert pruned.nodes <= plain.nodes


# ------------------------------------------------ game-theoretic values


@pytest.mark.parametrize(
    ("size", "expected"),
    [
        ((3, 3, 3), 0),  # a draw
        ((4, 4, 3), BIG - 9),  # X wins with its 5th stone
        ((4, 5, 3), BIG - 11),  # X wins with its 6th stone
        ((4, 4, 4), 0),
    ],
)
def test_empty_tiny_boards_solved(size: tuple[int, int, int], expected: int) -> None:
    board = Board(*size)
    assert brute_force(*size).position_value(()) == expected
    result = check_against_solver(board)
    assert engine_value(value_of(result)) == expected
    assert result.depth == size[0] * size[1]


def test_empty_3x3_minimax_agrees() -> None:
    check_against_solver(Board(3, 3, 3), pruning=False)


@pytest.mark.parametrize(
    ("size", "count", "stones"),
    [
        ((3, 3, 3), 40, (0, 6)),
        ((4, 4, 3), 60, (1, 10)),
        ((4, 5, 3), 40, (1, 12)),
        ((4, 4, 4), 40, (4, 12)),
        ((5, 4, 4), 40, (8, 16)),
    ],
)
def test_random_tiny_positions_solved(
    size: tuple[int, int, int], count: int, stones: tuple[int, int]
) -> None:
    outcomes = set()
    for board in random_positions(count, seed=sum(size), size=size, stones=stones):
        result = check_against_solver(board)
        outcomes.add(outcome(result))  # a draw: "unknown", the engine proves no draw
    assert len(outcomes) >= 2  # the sample is not all one kind


def test_quickest_win_and_slowest_loss_preferred() -> None:
    """Positions where the root moves win (or lose) at different distances: the engine takes the best."""
    solver = brute_force(4, 4, 3)
    seen_wins = seen_losses = 0
    for board in random_positions(300, seed=99, size=(4, 4, 3), stones=(0, 6)):
        values = solver.move_values(board.moves)
        wins = {value for value in values.values() if value > 0}
        all_lose = all(value < 0 for value in values.values())
        losses = {value for value in values.values() if value < 0}
        if len(wins) >= 2 and seen_wins < 12:
            seen_wins += 1
        elif all_lose and len(losses) >= 2 and seen_losses < 12:
            seen_losses += 1
        else:
            continue
        result = check_against_solver(board)
        assert values[result.column] == max(values.values())  # type: ignore[index]
        assert plies_to_end(result) == BIG - abs(max(values.values()))
    assert seen_wins >= 10 and seen_losses >= 3


# ------------------------------------------------------------- tactics


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_takes_an_immediate_win(depth: int) -> None:
    # row, column, diagonal; two wins (the one nearer the centre is taken); X also blocked by O's threat
    for moves, win in [("112233", 4), ("121213", 1), ("23274776435221", 3), ("445566", 3), ("121314", 1)]:
        board = Board.from_moves(moves)
        assert board.is_winning_move(win - 1), moves
        result = Engine(areas, Limit(depth=depth)).search(board)
        assert result.column == win - 1
        assert value_of(result) == WIN_SCORE - 1
        assert outcome(result) == "win" and plies_to_end(result) == 1 and result.proven
        assert result.describe() == "win in 1 move"


def threats(board: Board) -> list[int]:
    """Columns where the opponent of the side to move would win at once (checked by the brute-force scan)."""
    solver = BruteForce(board.width, board.height, board.connect)
    columns = solver.grid(board.moves)
    opponent = (board.move_count + 1) % 2
    found = []
    for column in board.legal_moves():
        columns[column].append(opponent)
        if solver.has_won(columns, column):
            found.append(column)
        columns[column].pop()
    return found


BLOCKS = [
    ("51617", 4),  # row
    ("155714", 6),  # row
    ("12121", 1),  # column
    ("23513151", 1),  # column
    ("2327477643522", 3),  # diagonal
    ("223641152366654", 5),  # diagonal
]


@pytest.mark.parametrize("depth", [1, 2, 3])
@pytest.mark.parametrize("evaluate", list(EVALUATORS.values()))
def test_blocks_an_immediate_loss(depth: int, evaluate: Callable[[Board], float]) -> None:
    for moves, block in BLOCKS:
        board = Board.from_moves(moves)
        assert threats(board) == [block - 1], moves
        assert not any(board.is_winning_move(column) for column in board.legal_moves())
        result = Engine(evaluate, Limit(depth=depth)).search(board)
        assert result.column == block - 1, (moves, result)


def test_win_beats_block() -> None:
    board = Board.from_moves("121314")  # X to move: X wins in column 1, O threatens column 5
    assert threats(board) == [4]
    for depth in (1, 2, 4):
        result = Engine(limit=Limit(depth=depth)).search(board)
        assert result.column == 0 and outcome(result) == "win"


@pytest.mark.parametrize(("moves", "block"), [("14216754364714", 5), ("2642247511171", 3)])
def test_block_even_when_it_loses(moves: str, block: int) -> None:
    """The block is played even when the opponent then wins on top of it."""
    board = Board.from_moves(moves)
    assert threats(board) == [block - 1]
    for depth in (1, 2, 5):
        result = Engine(limit=Limit(depth=depth)).search(board)
        assert result.column == block - 1
        if depth >= 2:
            assert outcome(result) == "loss" and plies_to_end(result) == 2


def test_sees_a_double_threat_coming() -> None:
    board = Board.from_moves("4455")  # X to move: column 3 or 6 makes an open three
    result = Engine(windows, Limit(depth=3)).search(board)
    assert result.column in (2, 5)
    assert outcome(result) == "win" and plies_to_end(result) == 3
    assert result.describe() == "win in 2 moves"


# ------------------------------------------------------------ poll hook


def test_poll_hook_fires_on_schedule() -> None:
    """A 50 ms (CPU) interval during a 1 s (CPU) search fires 10-30 times, whatever the machine's load."""
    calls: list[Progress] = []

    stopped_at: list[float] = []

    def record_until_one_second(progress: Progress) -> bool:
        calls.append(progress)
        if progress.cpu_time >= 1.0:
            stopped_at.append(time.process_time())
        return progress.cpu_time >= 1.0

    engine = Engine(windows, Limit(time=60), poll=record_until_one_second, poll_interval=0.05)
    board = Board.from_moves("4")
    result = engine.search(board)
    after_the_stop = time.process_time() - stopped_at[-1]
    assert 10 <= len(calls) <= 30, len(calls)
    assert result.stopped
    assert result.column in board.legal_moves()
    assert result.depth >= 3
    assert after_the_stop <= 0.2  # CPU seconds: the search ended as soon as the hook said so
    cpu = [progress.cpu_time for progress in calls]
    assert all(later - earlier >= 0.0499 for earlier, later in itertools.pairwise(cpu))
    assert cpu[0] <= 0.1  # one interval in, give or take the first slice's one-time set-up
    assert [progress.nodes for progress in calls] == sorted(progress.nodes for progress in calls)
    assert all(progress.best_move in board.legal_moves() for progress in calls)


def test_poll_hook_fires_with_a_slow_evaluator() -> None:
    def slow(board: Board) -> float:
        start = time.process_time()
        while time.process_time() - start < 0.002:
            pass
        return windows(board)

    calls: list[Progress] = []
    engine = Engine(slow, Limit(depth=4), poll=calls.append, poll_interval=0.05)
    began = time.process_time()
    engine.search(Board.from_moves("44"))
    count = max(1, int((time.process_time() - began) / 0.05))
    assert count - 3 <= len(calls) <= count + 1


def test_poll_hook_stops_the_search() -> None:
    calls: list[Progress] = []

    def stop_soon(progress: Progress) -> bool:
        calls.append(progress)
        return len(calls) >= 3

    board = Board.from_moves("4453")
    Engine(windows, Limit(depth=2)).search(board)  # load the compiled search first: its loading is not timed
    engine = Engine(windows, Limit(depth=24), poll=stop_soon, poll_interval=0.02)  # far longer than 3 polls
    began = time.process_time()
    result = engine.search(board)
    spent = time.process_time() - began
    assert len(calls) == 3
    assert result.stopped
    assert result.column in board.legal_moves()
    # stopped after three 20 ms polls of CPU time, not at depth 24 (minutes of CPU);
    # CPU time, not wall time, so a loaded machine does not make this fail
    assert spent < 0.5
    assert result.line and result.line[0] == result.column and result.stopped == "stopped by poll"
    # the same with iterative deepening: the last completed depth's move
    calls.clear()
    engine = Engine(windows, Limit(time=30), poll=stop_soon, poll_interval=0.02)
    began = time.process_time()
    result = engine.search(board)
    spent = time.process_time() - began
    assert result.stopped and result.column in board.legal_moves()
    assert result.depth >= 1 and spent < 0.5
    assert result.score == Engine(windows, Limit(depth=result.depth)).search(board).score


def test_poll_hook_cannot_change_the_board() -> None:
    board = Board.from_moves("4453")
    before = snapshot(board)
    errors: list[Exception] = []

    def meddle(progress: Progress) -> bool:
        for action in (lambda: board.play(0), board.undo):
            try:
                action()
            except BoardBusyError as error:
                errors.append(error)
        return progress.cpu_time >= 0.3

    result = Engine(windows, Limit(depth=30), poll=meddle, poll_interval=0.05).search(board)
    assert len(errors) >= 6 and all(isinstance(error, BoardBusyError) for error in errors)
    assert snapshot(board) == before
    assert result.column in board.legal_moves()
    board.play(result.column)  # usable again after the search
    assert board.move_count == 5


@pytest.mark.parametrize("use_kernel", [True, False])
def test_poll_hook_exception_propagates_and_releases_the_board(use_kernel: bool) -> None:
    board = Board.from_moves("4453")
    calls: list[Progress] = []

    def fail(progress: Progress) -> None:
        calls.append(progress)
        raise KeyError("stop")

    # The hook runs only once a poll interval of CPU has passed: a search must last longer for
    # it to run at all.  Depth 30 takes minutes of CPU on either path (depth 12 took about the
    # 10 ms interval once the compiled search was loaded -- a coin toss); the hook ends it at once.
    engine = Engine(windows, Limit(depth=30), poll=fail, poll_interval=0.01, use_kernel=use_kernel)
    assert engine.uses_kernel(board) is use_kernel
    with pytest.raises(KeyError):
        engine.search(board)
    assert len(calls) == 1
    board.play(0)  # the board is released
    assert board.move_count == 5


def test_search_leaves_the_board_alone() -> None:
    for board in random_positions(20, seed=5):
        before = snapshot(board)
        Engine(windows, Limit(depth=3)).search(board)
        assert snapshot(board) == before


# ---------------------------------------------------- iterative deepening


def test_time_limit_returns_last_completed_depth() -> None:
    depths: list[int] = []
    board = Board.from_moves("4453")
    engine = Engine(windows, Limit(time=0.3), poll=lambda p: depths.append(p.depth), poll_interval=0.001)
    # the poll interval is CPU time: short, so a loaded machine still polls within 0.3 s of wall time
    result = engine.search(board)
    assert result.stopped == "time limit" and result.depth >= 2
    assert 0.3 <= result.time < 3  # wall clock: generous, the machine may be loaded
    # the score is that of a full search to the last completed depth
    assert result.score == Engine(windows, Limit(depth=result.depth)).search(board).score
    assert depths and max(depths) in (result.depth, result.depth + 1)


def test_time_limit_solves_small_games_and_stops_early() -> None:
    board = Board(4, 4, 3)
    result = Engine(windows, Limit(time=20), center_first_move=False).search(board)
    assert not result.stopped  # it ended because the game was solved (half a millisecond), not by the clock
    assert outcome(result) == "win" and plies_to_end(result) == 9
    # a forced win found: no need to go on deepening
    result = Engine(windows, Limit(time=20)).search(Board.from_moves("4455"))
    assert not result.stopped and outcome(result) == "win" and result.depth == 3


def test_a_search_can_be_given_its_own_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """``search(board, limit)`` replaces the engine's limit for that search only.

    The engine's wall clock jumps a quarter of a second at every reading: the one-second
    limit runs out after a few readings, the engine's own thousand seconds would not.
    """
    from c4engine.search import limit as limit_module

    ticks = itertools.count()
    monkeypatch.setattr(limit_module, "perf_counter", lambda: next(ticks) * 0.25)
    engine = Engine(windows, Limit(depth=20, time=1000), use_kernel=False)
    board = Board.from_moves("4453")
    result = engine.search(board, Limit(depth=20, time=1.0))
    assert result.stopped and result.depth < 20 and engine.limit == Limit(depth=20, time=1000)
    with pytest.raises(TypeError, match="limit must be a Limit"):
        engine.search(board, 1.0)  # type: ignore[arg-type]


def test_partial_first_iteration() -> None:
    """Stopped before depth 1 completes: a legal move anyway (the first iteration's best so far)."""
    calls = []

    def stop_now(progress: Progress) -> bool:
        calls.append(progress)
        return True

    def slow(board: Board) -> float:
        start = time.process_time()
        while time.process_time() - start < 0.01:
            pass
        return float(board.move_count)

    board = Board(12, 6, 4)
    board.play(0)
    result = Engine(slow, Limit(time=10), poll=stop_now, poll_interval=0.03).search(board)
    assert calls and result.stopped
    assert result.column in board.legal_moves()
    assert result.depth == 0
    assert value_of(result) == -2  # the evaluation after the move: 2 stones
    # stopped inside the very first root move: its static score, from the root position
    result = Engine(slow, Limit(depth=3), poll=stop_now, poll_interval=0.03).search(board)
    assert result.stopped and result.depth == 0 and result.line == (result.column,)
    assert result.column == board.geometry.center_order[0]
    assert value_of(result) == -2


# --------------------------------------------------------------- misc


def test_centre_first_move() -> None:
    result = Engine(windows, Limit(depth=6)).search(Board())
    assert result.column == 3 and result.depth == 0 and not result.stopped
    assert Engine(windows, Limit(depth=2)).best_move(Board(8, 7, 4)) == 3  # left of the two centre columns
    searched = Engine(windows, Limit(depth=2), center_first_move=False).search(Board())
    assert searched.depth == 2 and searched.nodes > 7


def test_game_over_raises() -> None:
    with pytest.raises(GameOverError, match="X has won"):
        Engine().search(Board.from_moves("1212121"))
    full = Board.from_moves("331212213", 3, 3, 3)
    assert full.is_over
    with pytest.raises(GameOverError, match="full"):
        Engine().best_move(full)


def test_single_legal_move_and_shallow_boards() -> None:
    board = Board.from_moves("2332132", 3, 3, 3)
    assert board.legal_moves() == [0]
    result = Engine(limit=Limit(depth=6)).search(board)
    assert result.column == 0 and result.depth == 2 and value_of(result) == 0
    assert result.describe() == "estimate +0.0 (not proven)" and not result.proven
    result = Engine(limit=Limit(depth=6, time=5)).search(board)
    assert result.column == 0 and result.depth == 1 and not result.stopped


def test_depth_is_capped_by_the_empty_cells() -> None:
    board = Board.from_moves("11132", 3, 3, 3)
    result = Engine(limit=Limit(depth=10)).search(board)
    assert result.depth == 4


@pytest.mark.parametrize("size", [(9, 7, 5), (12, 8, 4), (5, 5, 3), (10, 3, 2), (2, 8, 4)])
@pytest.mark.parametrize("name", sorted(EVALUATORS))
def test_other_board_sizes(size: tuple[int, int, int], name: str) -> None:
    for board in random_positions(3, seed=size[0], size=size, stones=(1, 12)):
        result = Engine(EVALUATORS[name], Limit(depth=3)).search(board)
        assert result.column in board.legal_moves()
        assert result.nodes > 0 and result.depth >= 1


def test_nodes_counted() -> None:
    board = Board.from_moves("44")
    deeper = [Engine(windows, Limit(depth=depth)).search(board).nodes for depth in (1, 2, 3, 4)]
    assert deeper[0] == 1 + 7
    assert deeper == sorted(deeper) and deeper[0] < deeper[-1]
    assert Engine(windows, Limit(depth=2), pruning=False).search(board).nodes == 1 + 7 + 49


def test_result_descriptions() -> None:
    """The engine's values in words, the winner's moves counted: its answers are Scores."""

    def words(value: float, stones: int = 0) -> str:
        score = Score.from_engine(value, cells=42, stones=stones)
        return PlayResult(column=3, score=score, source="engine", proven=score.proven).describe()

    assert words(WIN_SCORE - 1) == "win in 1 move"
    assert words(WIN_SCORE - 5) == "win in 3 moves"
    assert words(-(WIN_SCORE - 2), stones=1) == "loss in 1 move"
    assert words(-(WIN_SCORE - 8), stones=1) == "loss in 4 moves"
    assert words(12.5) == "estimate +12.5 (not proven)"
    assert words(-7.0) == "estimate -7.0 (not proven)"


@pytest.mark.parametrize(
    "kwargs",
    [
        {"limit": 6},
        {"limit": None},
        {"poll_interval": 0},
        {"poll_interval": float("nan")},
    ],
)
def test_bad_settings(kwargs: dict[str, object]) -> None:
    with pytest.raises((ValueError, TypeError)):
        Engine(**kwargs)  # type: ignore[arg-type]


def test_bad_callables() -> None:
    with pytest.raises(TypeError):
        Engine("windows")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Engine(poll=5)  # type: ignore[arg-type]


def test_hook_cannot_reenter_the_engine() -> None:
    board = Board.from_moves("44")
    engine: Engine
    errors: list[Exception] = []

    def reenter(progress: Progress) -> bool:
        try:
            engine.search(board)
        except RuntimeError as error:
            errors.append(error)
        return True

    # minutes: the hook surely runs
    engine = Engine(windows, Limit(depth=30), poll=reenter, poll_interval=0.01)
    assert engine.search(board).stopped
    assert errors and "already searching" in str(errors[0])
    # a different engine may search the frozen board from the hook (it only reads it)
    other = Engine(windows, Limit(depth=2))
    hints: list[int] = []

    def hint(progress: Progress) -> bool:
        hints.append(other.best_move(board))
        return True

    Engine(windows, Limit(depth=30), poll=hint, poll_interval=0.01).search(board)
    assert hints and hints[0] in board.legal_moves()


# ---------------------------------------------------------------- node limit


@pytest.mark.parametrize("use_kernel", [None, False])
def test_a_node_limit_stops_the_search_at_the_last_completed_depth(use_kernel: bool | None) -> None:
    """Bounded to 20 000 nodes, a search that deepens toward 12 plies (far more nodes) stops a few
    nodes past the bound, with the score of the last depth it completed."""
    board = Board.from_moves("4453")
    engine = Engine(windows, Limit(depth=12), use_kernel=use_kernel, center_first_move=False)
    result = engine.search(board, Limit(depth=12, nodes=20_000))
    assert result.stopped and 1 <= result.depth < 12
    assert 20_000 <= result.nodes <= 20_000 + board.width
    completed = Engine(windows, Limit(depth=result.depth), use_kernel=use_kernel).search(board)
    assert result.score == completed.score


def test_a_search_within_its_node_limit_ends_unstopped() -> None:
    result = Engine(windows).search(Board.from_moves("4455"), Limit(nodes=1_000_000))
    assert not result.stopped and outcome(result) == "win" and result.nodes < 1_000_000
