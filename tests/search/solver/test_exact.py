"""The solver on the published benchmark sets, its API, limits and command-line pieces."""

from __future__ import annotations

import argparse
import io
import threading
from pathlib import Path

import pytest
from tests.conftest import PONS

from c4engine import Board, C4Error
from c4engine.cli import main
from c4engine.cli.solve import COMMANDS
from c4engine.errors import GameOverError, TableSizeError, UnsupportedBoardError
from c4engine.kernels.transposition import TABLE_HEADER
from c4engine.search.limit import Limit
from c4engine.search.progress import Progress
from c4engine.search.results import score_words
from c4engine.search.scale import moves_to_end
from c4engine.search.solver.exact import Solver

# (set, every k-th line, how many); chosen to keep the whole file near a minute on one core.
SAMPLES = [
    ("Test_L3_R1", 10, 100),
    ("Test_L2_R1", 10, 100),
    ("Test_L1_R1", 10, 100),
    ("Test_L2_R2", 20, 50),
    ("Test_L1_R2", 50, 20),
]
# Lines of Test_L1_R3 measured to solve in a few million nodes.
L1_R3_LINES = [2, 5, 9, 10, 13]


def _cases(name: str) -> list[tuple[str, int]]:
    path = PONS / name
    cases = []
    for line in path.read_text().splitlines():
        if line.strip():
            moves, score = line.split()
            cases.append((moves, int(score)))
    return cases


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(table_size_mb=24)  # the smallest with both parts (main and near-end)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "step", "count"), SAMPLES)
def test_benchmark_sample_exact(solver: Solver, name: str, step: int, count: int) -> None:
    cases = _cases(name)[::step][:count]
    for moves, score in cases:
        result = solver.solve(Board.from_moves(moves))
        assert result.proven and result.score == score, moves
        assert result.lower == result.upper == score


@pytest.mark.slow
def test_benchmark_hardest_set_sample(solver: Solver) -> None:
    cases = _cases("Test_L1_R3")
    for index in L1_R3_LINES:
        moves, score = cases[index]
        assert solver.solve(Board.from_moves(moves)).score == score, moves


@pytest.mark.slow
def test_weak_agrees_with_sign_of_strong(solver: Solver) -> None:
    cases = _cases("Test_L2_R1")[5::10][:60] + _cases("Test_L1_R1")[5::25][:40]
    for moves, score in cases:
        weak = solver.solve(Board.from_moves(moves), weak=True)
        assert weak.proven and weak.score == (score > 0) - (score < 0), moves
        assert weak.describe() in ("win", "draw", "loss")


@pytest.mark.slow
def test_analyze_agrees_with_solve(solver: Solver) -> None:
    cases = (
        _cases("Test_L3_R1")[1::5][:150]
        + _cases("Test_L2_R1")[3::10][:80]
        + [case for case in _cases("Test_L1_R1")[7::10] if len(case[0]) >= 16][:30]
    )
    other = Solver(table_size_mb=8)  # its own table: the children are solved independently
    for moves, score in cases:
        board = Board.from_moves(moves)
        analysis = solver.analyze(board, pv=False)
        assert analysis.proven
        assert analysis.score == score, moves
        for column in range(board.width):
            if not board.can_play(column):
                assert analysis.scores[column] is None
                continue
            if board.is_winning_move(column):
                assert analysis.scores[column] == (43 - board.move_count) // 2
                continue
            child = board.copy()
            child.play(column)
            if child.is_full:
                assert analysis.scores[column] == 0
            else:
                assert analysis.scores[column] == -other.solve(child).score  # type: ignore[operator]
        assert set(analysis.best_columns) == {c for c in range(board.width) if analysis.scores[c] == score}


def test_pv_plays_out_the_score(solver: Solver) -> None:
    for moves, score in _cases("Test_L3_R1")[:40]:
        board = Board.from_moves(moves)
        analysis = solver.analyze(board)
        assert analysis.pv and analysis.pv[0] in analysis.best_columns
        end = board.copy()
        for column in analysis.pv:
            end.play(column)
        assert end.is_over
        if score == 0:
            assert end.winner is None
        else:
            winner = board.turn if score > 0 else board.turn.other
            assert end.winner is winner
            # the winning stone comes exactly when the score says
            assert (43 - (end.move_count - 1)) // 2 == abs(score)


def test_best_move_reaches_score(solver: Solver) -> None:
    for moves, score in _cases("Test_L2_R1")[:50]:
        board = Board.from_moves(moves)
        result = solver.solve(board)
        assert result.best_move is not None and result.best_proven
        if board.is_winning_move(result.best_move):
            assert score == (43 - board.move_count) // 2
            continue
        child = board.copy()
        child.play(result.best_move)
        assert -solver.solve(child).score == score  # type: ignore[operator]


def test_mirror_images_share_the_table() -> None:
    # few stones: a position and its mirror image are one table entry, with the move mirrored
    solver = Solver(table_size_mb=8)
    for moves in ("1", "12", "213", "3112"):
        board = Board.from_moves(moves, 5, 4)
        mirrored = Board.from_moves("".join(str(6 - int(c)) for c in moves), 5, 4)
        first = solver.solve(board)
        again = solver.solve(mirrored)
        fresh = Solver(table_size_mb=8).solve(mirrored)
        assert first.score == again.score == fresh.score
        for result, position in ((first, board), (again, mirrored)):
            assert result.best_move is not None and result.best_proven
            if position.is_winning_move(result.best_move):
                continue
            child = position.copy()
            child.play(result.best_move)
            assert -Solver(table_size_mb=8).solve(child).score == result.score  # type: ignore[operator]


def test_words() -> None:
    assert score_words(0) == "draw"
    assert score_words(1, 42, 0) == "win in 21 moves"
    assert score_words(21, 42, 0) == "win in 1 move"
    assert score_words(-20, 42, 1) == "loss in 1 move"
    assert moves_to_end(0, 42, 5) == 0
    solver = Solver(table_size_mb=8)
    result = solver.solve(Board.from_moves("445566"))
    # X to move with three in the bottom row: column 3 or 7 wins at once
    assert result.score == (43 - 6) // 2 and result.describe() == "win in 1 move"
    assert result.best_move in (2, 6)
    result = solver.solve(Board.from_moves("444455"))
    assert result.score == 17 and result.describe() == "win in 2 moves"


def test_solve_many_agrees_with_solve() -> None:
    cases = _cases("Test_L3_R1")[::50] + _cases("Test_L2_R1")[::50] + _cases("Test_L1_R1")[::100]
    published = [Board.from_moves(moves) for moves, _ in cases]
    # a win at once and another geometry in the middle: each run of one geometry is one batch
    extra = [Board.from_moves("112233"), Board.from_moves("12", 4, 4, 3), Board.from_moves("1", 4, 4, 3)]
    boards = published[:3] + extra[:1] + published[3:7] + extra[1:] + published[7:]
    batch = Solver(table_size_mb=8).solve_many(boards)
    assert batch.complete and len(batch.scores) == len(boards)
    single = Solver(table_size_mb=8)
    for board, score, nodes, best in zip(boards, batch.scores, batch.nodes, batch.best_moves, strict=True):
        result = single.solve(board, best_move=False)
        assert (score, nodes, best) == (result.score, result.nodes, result.best_move), board.moves
    scores = dict(zip(map(id, boards), batch.scores, strict=True))
    assert [scores[id(board)] for board in published] == [score for _, score in cases]
    assert scores[id(extra[0])] == 18
    weak = Solver(table_size_mb=8).solve_many(boards, weak=True)
    assert weak.weak and list(weak.scores) == [(s > 0) - (s < 0) for s in batch.scores]
    assert Solver(table_size_mb=8).solve_many([]).scores == ()


def test_solve_many_checks_every_board_first() -> None:
    solver = Solver(table_size_mb=8)
    with pytest.raises(GameOverError):
        solver.solve_many([Board.from_moves("4"), Board.from_moves("1212121")])
    with pytest.raises(UnsupportedBoardError):
        solver.solve_many([Board.from_moves("4"), Board(12, 10)])  # 132 bits: past the 128 the solver holds


def test_unsupported_and_finished_boards() -> None:
    solver = Solver(table_size_mb=8)
    with pytest.raises(UnsupportedBoardError, match="12x10 needs 132"):
        solver.solve(Board(12, 10))
    assert issubclass(UnsupportedBoardError, C4Error)
    with pytest.raises(GameOverError):
        solver.solve(Board.from_moves("1212121"))
    with pytest.raises(TableSizeError, match="too small: use 8"):
        Solver(table_size_mb=1)
    with pytest.raises(TableSizeError, match="not nan"):
        Solver(table_size_mb=float("nan"))
    with pytest.raises(TableSizeError, match="more than this machine's memory"):
        Solver(table_size_mb=1e12)  # refused before numpy is asked for 8 EiB


def test_table_size_and_reuse() -> None:
    solver = Solver(table_size_mb=72)
    header = TABLE_HEADER  # two words after the parts: how much of each is in use
    assert solver.table_entries == (1 << 23) + (1 << 20) + header
    assert solver.table_bytes == 72 * 1024 * 1024 + 8 * header
    assert Solver(table_size_mb=64).table_entries == (1 << 22) + (1 << 20) + header  # powers of two
    assert Solver(table_size_mb=23).table_entries == (1 << 21) + header  # under 24 MiB: one part
    assert Solver(table_size_mb=10).table_entries == (1 << 20) + header
    board = Board.from_moves("32164625")
    first = solver.solve(board)
    again = solver.solve(board)
    assert first.score == again.score == 11
    assert again.nodes < first.nodes
    # another geometry clears the table and still solves right
    assert solver.solve(Board.from_moves("12", 4, 4, 3)).proven


def test_is_at_least_agrees_with_the_published_scores(solver: Solver) -> None:
    """The one-window test answers "score >= v" right on both sides of the score and at the extremes."""
    cases = _cases("Test_L2_R1")[::50] + _cases("Test_L1_R1")[::100]
    for moves, score in cases:
        board = Board.from_moves(moves)
        for threshold in (score - 1, score, score + 1, -100, 100):
            assert solver.is_at_least(board, threshold) == (score >= threshold), (moves, threshold)


def test_a_proved_lower_bound_gives_the_same_score_and_best_move() -> None:
    """``at_least`` starts the search from a known bound (tables fresh on both sides, so no reuse)."""
    for moves, score in _cases("Test_L2_R1")[::100]:
        board = Board.from_moves(moves)
        plain = Solver(table_size_mb=8).solve(board)
        for bound in (score, score - 3, -100):
            hinted = Solver(table_size_mb=8).solve(board, at_least=bound)
            assert hinted.score == plain.score == score, (moves, bound)
            assert hinted.best_move is not None and hinted.best_proven
            weak = Solver(table_size_mb=8).solve(board, at_least=bound, weak=True)
            assert weak.score == (score > 0) - (score < 0), (moves, bound)
    # with one stone played no score can exceed (42 + 1 - 1) // 2 = 21
    with pytest.raises(ValueError, match="above the best score possible"):
        Solver(table_size_mb=8).solve(Board.from_moves("4"), at_least=22)


HARD = "4453"  # millions of nodes: long enough to be stopped


def test_node_limit() -> None:
    solver = Solver(table_size_mb=8)
    result = solver.solve(Board.from_moves(HARD), Limit(nodes=20_000))
    assert not result.proven and result.score is None and result.stopped == "node limit"
    assert result.nodes <= 20_000
    assert result.lower <= -2 <= result.upper
    assert result.best_move is not None
    assert "unknown" in result.describe()


def test_is_at_least_stopped_by_a_limit_says_none() -> None:
    solver = Solver(table_size_mb=8)
    assert solver.is_at_least(Board.from_moves(HARD), -2, Limit(nodes=20_000)) is None


def test_time_limit() -> None:
    solver = Solver(table_size_mb=8)
    result = solver.solve(Board.from_moves(HARD), Limit(time=0.3))
    # HARD takes ~8 s of CPU to solve: unsolved, stopped by the limit, and within seconds of it
    # (the clock is read between slices of CPU time, which a loaded machine stretches: generous)
    assert not result.proven and result.stopped == "time limit"
    assert 0.3 <= result.time < 10


def test_poll_hook_stops_and_sees_progress() -> None:
    solver = Solver(table_size_mb=8)
    seen: list[Progress] = []

    def poll(progress: Progress) -> bool:
        seen.append(progress)
        return len(seen) >= 3

    result = solver.solve(Board.from_moves(HARD), poll=poll, poll_interval=0.02)
    assert len(seen) == 3 and not result.proven and result.stopped == "stopped by poll"
    assert seen[0].nodes < seen[1].nodes < seen[2].nodes
    assert all(p.lower <= -2 <= p.upper for p in seen)


def test_poll_hook_returning_none_continues() -> None:
    solver = Solver(table_size_mb=8)
    calls = []
    result = solver.solve(Board.from_moves("52753311433677442422121"), poll=calls.append, poll_interval=0.001)
    assert result.proven


def test_cancel_from_another_thread() -> None:
    """A cancel stops the compiled search inside its slice (10 CPU s, longer than HARD's ~8 s
    solve: only a cancel inside it leaves HARD unsolved)."""
    solver = Solver(table_size_mb=8)
    returned = threading.Event()

    def cancel_until_it_returns() -> None:
        # again and again: a cancel before the solve starts is forgotten when it starts
        while not returned.wait(0.05):
            solver.cancel()

    canceller = threading.Thread(target=cancel_until_it_returns)
    canceller.start()
    try:
        result = solver.solve(Board.from_moves(HARD), poll_interval=10.0)
    finally:
        returned.set()
        canceller.join()
    assert not result.proven and result.stopped == "cancelled"


def test_board_frozen_during_solve() -> None:
    solver = Solver(table_size_mb=8)
    board = Board.from_moves(HARD)
    errors: list[Exception] = []

    def poll(progress: Progress) -> bool:
        try:
            board.play(0)
        except Exception as error:
            errors.append(error)
        return True

    solver.solve(board, poll=poll, poll_interval=0.01)
    assert errors and type(errors[0]).__name__ == "BoardBusyError"
    assert board.move_string == HARD


# ------------------------------------------------------------------ CLI


def _run(argv: list[str], stdin: str = "", capsys: pytest.CaptureFixture[str] | None = None) -> int:
    import sys

    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        return main(argv)
    finally:
        sys.stdin = old


def test_cli_solve_and_analyze(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["solve", "32164625", "--table-mb", "8"]) == 0
    out = capsys.readouterr().out
    assert "score: 11" in out and "win in" in out and "best move:" in out and "nodes:" in out
    assert _run(["analyze", "32164625", "--table-mb", "8"]) == 0
    out = capsys.readouterr().out
    assert "scores:" in out and "pv:" in out and "best moves:" in out
    assert _run(["solve", "12", "--size", "4x4", "--connect", "3", "--weak", "--table-mb", "8"]) == 0
    assert "score: 1 (win)" in capsys.readouterr().out


def test_cli_errors_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["solve", "48"]) != 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "column 8" in err
    assert _run(["solve", "1", "--size", "9x14"]) != 0
    assert "128" in capsys.readouterr().err
    assert _run(["solve", "1212121", "--table-mb", "8"]) != 0
    assert "over" in capsys.readouterr().err


def test_cli_batch(capsys: pytest.CaptureFixture[str]) -> None:
    lines = "32164625\n8\n44444444\n7422341735647741166133573473242566\n"
    assert _run(["solve", "--table-mb", "8"], lines) == 1
    captured = capsys.readouterr()
    out = captured.out.split("\n")
    assert out[0] == "32164625 11"
    assert out[1] == "" and out[2] == ""
    assert out[3] == "7422341735647741166133573473242566 1"
    assert "line 2:" in captured.err and "line 3:" in captured.err


def test_cli_batch_empty_line_is_empty_board(capsys: pytest.CaptureFixture[str]) -> None:
    exact = Solver(table_size_mb=8).solve(Board(4, 4, 3)).score
    assert _run(["solve", "--size", "4x4", "--connect", "3", "--table-mb", "8"], "\n12\n") == 0
    assert capsys.readouterr().out.split("\n")[:2] == [f" {exact}", "12 4"]


def test_cli_batch_analyze(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["solve", "-a", "--table-mb", "8"], "7422341735647741166133573473242566\n") == 0
    assert capsys.readouterr().out == "7422341735647741166133573473242566 -3 1 -1000 -1000 -4 1 -1000\n"
    assert _run(["solve", "-a", "-w", "--table-mb", "8"], "7422341735647741166133573473242566\n") == 0
    assert capsys.readouterr().out == "7422341735647741166133573473242566 -1 1 -1000 -1000 -1 1 -1000\n"


def test_cli_bench(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "set"
    data.write_text("2252576253462244111563365343671351441 -1\n7422341735647741166133573473242566 1\n")
    assert _run(["bench", f"{data}:1", "--table-mb", "8"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:3] == ["set", "positions", "correct"]
    assert out[1].split()[:3] == ["set", "1", "1"]
    data.write_text("2252576253462244111563365343671351441 5\n")
    assert _run(["bench", str(data), "--table-mb", "8"]) == 1
    assert _run(["bench", str(tmp_path / "missing")]) == 2
    assert "missing: no such file" in capsys.readouterr().err


def test_parsers_register_handlers() -> None:
    parser = argparse.ArgumentParser(prog="c4")
    subparsers = parser.add_subparsers(dest="command")
    for command in COMMANDS:
        command.add_to(subparsers)
    argv = ["solve", "4453", "--size", "7x6", "--connect", "4", "--weak", "--table-mb", "8"]
    args = parser.parse_args(argv)
    assert args.position == "4453" and args.weak and args.table_mb == 8 and callable(args.func)
    args = parser.parse_args(["bench", "--limit", "3"])
    assert args.limit == 3 and args.files == []


def test_a_limit_depth_means_nothing_to_the_exact_solver() -> None:
    solver = Solver(table_size_mb=8)
    board = Board.from_moves("2252576253462244111563365343671351441")
    assert solver.solve(board, Limit(depth=1)).score == -1
    assert solver.analyze(board, Limit(depth=1), pv=False).proven
    assert solver.is_at_least(board, -1, Limit(depth=1)) is True
