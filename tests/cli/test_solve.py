"""``c4 solve`` / ``c4 analyze`` start-up: answers from the opening book load no compiled kernels
(nor numpy), and searches with the kernel's shared library load neither numba nor numpy."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from typing import Any

import pytest
from tests.conftest import PONS, run_c4
from tests.positions import WIDE_DATA, assert_ends_as_scored, scored_positions, spread

from c4engine import Board
from c4engine.errors import UnsupportedBoardError
from c4engine.kernels import build, library
from c4engine.search.book.file import OpeningBook, default_book_path
from c4engine.search.solver.exact import Solver

# Runs ``c4`` in a fresh interpreter through ``main`` and reports its output,
# which of the heavy modules it imported and which of the spare ones.
_PROBE = """
import contextlib, io, json, sys
from c4engine.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    status = main(sys.argv[1:])
heavy = (
    "numpy",
    "numba",
    "c4engine.kernels.layout",
    "c4engine.kernels.solve",
    "c4engine.search.solver.exact",
    "c4engine.search.engine.negamax",
    "c4engine.experiments.book_builder",
)
# what only some answers need: a library's build (hashlib loads OpenSSL), a book
spare = (
    "hashlib", "platform", "subprocess", "tempfile", "c4engine.kernels.build", "c4engine.search.book.file"
)
loaded = [m for m in heavy if m in sys.modules]
unneeded = [m for m in spare if m in sys.modules]
print(json.dumps({"status": status, "out": out.getvalue(), "loaded": loaded, "spare": unneeded}))
"""

# 37 stones played, the side to move loses in 2 moves (a line of the published Test_L3_R1 set).
ENDGAME = "2252576253462244111563365343671351441"


def _c4_report(*args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, timeout=300, check=True
    )
    report: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return report


def _c4(*args: str) -> tuple[int, str, list[str]]:
    report = _c4_report(*args)
    return report["status"], report["out"], report["loaded"]


def _ends_the_game(moves: str, line: str, result: str) -> bool:
    """Whether ``line`` played after ``moves`` ends the game, on its last stone, with ``result`` for
    the side to move at ``moves`` ("win", "loss" or "draw")."""
    board = Board.from_moves(moves)
    mover = board.turn
    for column in line:
        if board.is_over:
            return False
        board.play(int(column) - 1)
    if not board.is_over:
        return False
    if result == "draw":
        return board.winner is None
    return board.winner == (mover if result == "win" else mover.other)


def _keeps_the_books_score(moves: str, line: str) -> bool:
    """Whether every move of ``line`` after ``moves`` keeps the position's score, as the book says."""
    path = default_book_path()
    assert path is not None
    with OpeningBook.open(path) as book:
        board = Board.from_moves(moves)
        for column in line:
            score = book.score(board)
            if score is None or book.move_scores(board)[int(column) - 1] != score:
                return False
            board.play(int(column) - 1)
    return True


def test_solve_from_the_book_answers_at_once_with_the_books_own_line() -> None:
    """The score is the book's (no node searched), and so is the line: no solver, no numpy."""
    status, out, loaded = _c4("solve", "")
    assert status == 0
    assert "score: 1 (win in 21 moves)" in out and "best move: 4" in out and "nodes: 0 " in out
    assert "pv: " in out and "(not proven to the end)" in out
    line = out.split("pv: ")[1].split()[0]
    assert line[0] == "4" and len(line) > 1 and _keeps_the_books_score("", line)
    assert loaded == []


def test_analyze_from_the_book_answers_at_once_with_the_books_own_lines() -> None:
    status, out, loaded = _c4("analyze", "")
    assert status == 0
    assert "scores: -2 -1 0 1 0 -1 -2" in out and "best moves: 4 (win in 21 moves)" in out
    line = out.split("pv: ")[1].split()[0]
    assert "(not proven to the end)" in out and _keeps_the_books_score("", line) and "nodes: 0 " in out
    assert loaded == []


def test_solve_and_analyze_show_a_line_that_ends_in_the_win() -> None:
    """Searched (no book), the line goes on to the winning stone."""
    for command in ("solve", "analyze"):
        status, out, _loaded = _c4(command, "133524", "--no-book")
        assert status == 0 and "win in 17" in out.replace("moves", "").replace("  ", " ")
        line = out.split("pv: ")[1].split()[0]
        assert _ends_the_game("133524", line, "win") and len(line) == 2 * 17 - 1


def _published_line(plies: int) -> tuple[str, int]:
    """The first line of the published opening sets with ``plies`` moves: (moves, score)."""
    for name in ("Test_L1_R1", "Test_L1_R2", "Test_L1_R3"):
        for line in (PONS / name).read_text().splitlines():
            moves, score = line.split()
            if len(moves) == plies:
                return moves, int(score)
    raise AssertionError(f"no published line of {plies} moves")


def _shipped_depth() -> int:
    path = default_book_path()
    assert path is not None
    with OpeningBook.open(path) as book:
        return book.depth


def test_a_position_on_the_books_last_ply_has_its_score_and_a_move_keeping_it() -> None:
    """On the shipped book's last ply the position's score is there, its children's are not: the
    best move is found by null-window searches against that score."""
    moves, score = _published_line(_shipped_depth())
    status, out, _loaded = _c4("solve", moves)
    assert status == 0
    assert f"score: {score} (" in out and "source: book" in out
    move = int(out.split("best move: ")[1].split()[0])
    child = Board.from_moves(moves + str(move))
    # the move keeps the score: the opponent cannot then score more than -score
    assert Solver(table_size_mb=16).is_at_least(child, 1 - score) is False


def test_analyze_one_ply_above_the_books_last_scores_every_move_from_the_book() -> None:
    moves, score = _published_line(_shipped_depth() - 1)
    status, out, _loaded = _c4("analyze", moves)
    assert status == 0
    scores = [int(word) for word in out.split("scores:")[1].splitlines()[0].split() if word != "-"]
    assert max(scores) == score and "nodes: 0 " in out


def test_a_small_search_the_book_lacks_needs_no_compiled_solver() -> None:
    """A few nodes are searched in pure Python: loading numba would take far longer."""
    status, out, loaded = _c4("solve", ENDGAME)
    assert status == 0
    assert "score: -1 (loss in 2 moves)" in out and "source: solver" in out and "nodes: 0 " not in out
    assert "best move: 6" in out
    assert loaded == []
    status, out, loaded = _c4("analyze", ENDGAME[:-2])
    assert status == 0
    assert "scores: -3 - - -3 - -2 -3" in out and "pv: 6747" in out and "source: solver" in out
    assert loaded == []


def test_a_bigger_search_loads_the_compiled_solver_from_its_library_without_numba_or_numpy() -> None:
    if library.load(7, 6, 4) is None:
        assert build.build(7, 6, 4) is not None, "no shared library: is there a C compiler?"
    # The first line of the published Test_L1_R1 set: some 16,000 nodes compiled, far more in Python.
    status, out, loaded = _c4("solve", "--no-book", "32164625")
    assert status == 0
    assert "score: 11 (" in out and "source: solver" in out and "table: up to 72 MB" in out
    assert "c4engine.search.solver.exact" in loaded and "c4engine.kernels.layout" in loaded
    assert "numba" not in loaded and "c4engine.kernels.solve" not in loaded
    assert "numpy" not in loaded  # the solver's arrays are kernels.memory's: numpy cost half its start


def test_a_search_without_the_book_loads_neither_the_book_nor_what_builds_a_library() -> None:
    """What only a library's build needs (its module, platform, subprocess, tempfile; hashlib, which loads
    OpenSSL) and the book's module were a tenth of the start of ``c4 solve --no-book``."""
    if library.load(7, 6, 4) is None:
        assert build.build(7, 6, 4) is not None, "no shared library: is there a C compiler?"
    report = _c4_report("solve", "--no-book", "32164625")
    assert report["status"] == 0 and "source: solver" in report["out"]
    assert report["spare"] == []
    assert _c4_report("solve", "32164625")["spare"] == ["c4engine.search.book.file"]  # the book asked first


def test_the_nodes_line_states_the_tables_size() -> None:
    status, out, _ = _c4("analyze", "--no-book", "--table-mb", "16", "32164625")
    assert status == 0 and "table: up to 16 MB" in out


def test_no_book_searches_even_what_the_book_knows() -> None:
    status, out, loaded = _c4("analyze", "", "--no-book", "--time", "0.2")
    assert status == 0
    assert "source: engine" in out and "not proven best" in out and "unknown" in out
    assert "c4engine.search.engine.negamax" in loaded  # the engine estimated (compiled: numba or its library)


def _book_scores(moves: str) -> list[int | None]:
    """Every move's score, read straight from the shipped book file."""
    path = default_book_path(7, 6, 4)
    assert path is not None
    return OpeningBook.open(path).move_scores(Board.from_moves(moves))


def _refuse_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: object, **kwargs: object) -> None:
        raise AssertionError("the solver was asked")

    for name in ("solve", "analyze", "is_at_least"):
        monkeypatch.setattr(Solver, name, fail)


@pytest.mark.parametrize(
    ("arguments", "stdin", "expected"),
    [
        (["solve"], "\n44\n", " 1\n44 1\n"),
        (["solve", "-a"], "\n", " -2 -1 0 1 0 -1 -2\n"),
        (["analyze"], "4\n", "4 " + " ".join(str(s) for s in _book_scores("4")) + "\n"),
        (["solve", "--weak"], "4\n44\n", "4 -1\n44 1\n"),
    ],
)
def test_batches_and_weak_answer_from_the_book(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    arguments: list[str],
    stdin: str,
    expected: str,
) -> None:
    from c4engine.cli import main

    _refuse_searches(monkeypatch)
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    assert main(arguments) == 0
    assert capsys.readouterr().out == expected


def test_a_single_weak_solve_answers_from_the_book(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from c4engine.cli import main

    _refuse_searches(monkeypatch)
    assert main(["solve", "4", "--weak"]) == 0
    out = capsys.readouterr().out
    assert "score: -1 (loss)" in out and "source: book" in out


def _json(*args: str) -> dict[str, Any]:
    result = run_c4(*args, timeout=300)
    assert result.returncode == 0, result.stderr
    found: dict[str, Any] = json.loads(result.stdout)
    return found


def test_a_capped_analysis_never_recommends_a_draw_over_a_column_that_may_win() -> None:
    """Column 3 wins in 17, column 4 draws: at 1 s column 3 may stay unproven, but it is never out,
    and column 4 is never called proven best."""
    found = _json("analyze", "3775312", "--time", "1", "--json")
    columns = found["columns"]
    three = columns[2]
    assert three["lower"] <= 2 <= three["upper"]  # its true score
    assert all(three["upper"] >= column["lower"] for column in columns if column is not None)
    if 4 in found["best"]:
        assert not found["best_proven"]
    assert found["position"] == "3775312" and found["size"] == "7x6" and found["connect"] == 4


def test_a_capped_analysis_of_a_wide_board_recommends_only_the_blocks() -> None:
    """On 10x8 after 5,5,6 every column but the two blocks (4 and 7) loses in 2, which the solver
    proves (10 x 9 = 90 bits, which it holds); the blocks stay estimates in 3 s, and only they may be
    recommended."""
    found = _json("analyze", "5,5,6", "--size", "10x8", "--time", "3", "--json")
    assert set(found["best"]) <= {4, 7} and not found["best_proven"]
    for column in found["columns"]:
        if column["column"] in (4, 7):
            assert not column["proven"] and column["score"] is None and column["estimate"] is not None
        else:
            assert column["proven"] and column["label"] == "loss in 2" and column["estimate"] is None


def test_json_for_machines_one_object_a_line_in_batch() -> None:
    result = run_c4("solve", "--json", stdin="133524\n4x\n\n", timeout=300)
    assert result.returncode == 1 and "line 2:" in result.stderr
    first, bad, empty = (json.loads(line) for line in result.stdout.splitlines())
    assert first["position"] == "133524" and first["best"] == [6] and first["best_proven"]
    assert first["position_score"] == {
        "lower": 2, "upper": 2, "score": 2, "proven": True, "label": "win in 17", "source": "book"
    }  # fmt: skip
    six = first["columns"][5]
    assert (six["lower"], six["upper"], six["score"], six["proven"], six["estimate"]) == (2, 2, 2, True, None)
    assert six["pv"] == first["pv"] and six["label"] == "win in 17"
    line = "".join(map(str, six["pv"]))  # the book's own line: each move keeps the score
    assert _keeps_the_books_score("133524", line)
    assert six["pv_complete"] == _ends_the_game("133524", line, "win")
    assert bad["position"] == "4x" and "error" in bad
    assert empty["position"] == "" and empty["best"] == [4] and empty["source"] == "book"


def test_analyze_takes_one_limit_of_time_nodes_and_depth() -> None:
    """--nodes bounds the question as --time does: a thousand nodes cannot prove the block of this
    position (its proof takes about 1.7 million), which stays an estimate; --depth sets the
    estimates' depth.  (The book holds the block's score: without it, the search must prove it.)"""
    done = run_c4(
        "analyze", "4435541", "--no-book", "--nodes", "1000", "--depth", "2", "--time", "60", "--json"
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert not answer["proven"] and answer["columns"][1]["estimate"] is not None


@pytest.mark.parametrize(
    ("option", "words"),
    [
        (["--nodes", "0"], "argument --nodes: a whole number 1..1000000000000, not '0'"),
        (["--nodes", "2.5"], "argument --nodes: a whole number"),
        (["--depth", "43"], "--depth must be 1..42 (a 7x6 board has 42 cells), not 43"),
    ],
)
def test_a_bad_limit_is_one_error_line(option: list[str], words: str) -> None:
    done = run_c4("analyze", "44", *option)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("c4 analyze: error: ") and words in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_json_keeps_the_books_score_of_a_position_whose_children_it_lacks() -> None:
    """3775312 is on the book's last ply: its score (2, a win in 17) is the book's, its columns' are
    not.  Under a cap the JSON still says the position scores 2, no column more, and never recommends
    a column shown to score less; column 3, the one keeping the 2, is proven best once shown to."""
    for command in ("solve", "analyze"):
        found = _json(command, "3775312", "--time", "0.2" if command == "solve" else "0.05", "--json")
        assert found["position_score"] == {
            "lower": 2, "upper": 2, "score": 2, "proven": True, "label": "win in 17", "source": "book"
        }  # fmt: skip
        columns = [column for column in found["columns"] if column is not None]
        assert all(column["upper"] <= 2 for column in columns)
        assert all(columns[best - 1]["upper"] == 2 for best in found["best"])
        three = columns[2]
        if three["proven"]:
            assert three["score"] == 2 and found["best"] == [3] and found["best_proven"]
        assert not found["best_proven"] or found["best"] == [3]


def _book_positions(count: int, seed: int) -> list[tuple[str, int, list[int | None]]]:
    """``count`` positions of the shipped book drawn at random: (moves, the book's score, the book's
    score of each column, None where it lacks it)."""
    path = default_book_path()
    assert path is not None
    with OpeningBook.open(path) as book:
        keys = [key for key, _score in book.items()]
        drawn = []
        for key in random.Random(seed).sample(keys, count):
            board = book.board(key)
            score = book.score(board)
            assert score is not None
            drawn.append((board.move_string, score, book.move_scores(board)))
    return drawn


@pytest.mark.parametrize("cap", ["0.01", "0.2"])
def test_no_book_position_answers_in_json_less_than_the_book_proves_or_its_text_says(
    cap: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """200 book positions (every ply up to the book's policy), each under the cap: ``c4 solve`` in
    text and in JSON.  The JSON's position score is the book's, as the text's score line is; every
    column the book knows is exact at the book's score; the recommendation never scores less than
    the book's score where that is shown, and is proven best only at it."""
    from c4engine.cli import main

    for moves, score, book_columns in _book_positions(200, seed=36):
        assert main(["solve", moves, "--time", cap, "--table-mb", "8"]) == 0
        text = capsys.readouterr().out
        assert f"score: {score} (" in text, (moves, text)
        assert "source: book" in text or "source: rules" in text, (moves, text)  # rules: a win at once
        assert main(["solve", moves, "--time", cap, "--table-mb", "8", "--json"]) == 0
        found = json.loads(capsys.readouterr().out)
        position = found["position_score"]
        assert (position["score"], position["proven"], position["source"]) == (score, True, "book"), moves
        for column, known in zip(found["columns"], book_columns, strict=True):
            if column is None:
                continue
            assert column["upper"] <= score, (moves, column)
            if known is not None:
                assert column["proven"] and column["score"] == known, (moves, column)
                assert column["source"] in ("book", "rules"), (moves, column)
        best = [found["columns"][column - 1] for column in found["best"]]
        assert all(column["upper"] == score for column in best), (moves, found["best"])
        if found["best_proven"]:
            assert all(column["lower"] == score for column in best), (moves, found["best"])
        if score in book_columns:  # the book shows a column keeping the score: it is proven best
            assert found["best_proven"], moves


@pytest.mark.parametrize(
    ("size", "kind", "count"),
    [
        ("10x6", "end", 6),
        ("10x6", "mid", 8),
        ("8x8", "end", 6),
        ("8x8", "mid", 4),
        ("9x7", "end", 6),
        ("9x7", "mid", 4),
    ],
)
def test_solve_batch_past_64_bits_gives_the_scores_of_an_independent_solver(
    size: str, kind: str, count: int
) -> None:
    """``c4 solve --size WxH --no-book``, one position a line, on boards of 70 and 72 bits, end-game
    and mid-game (16-20 stones): the scores Steininger's solver gave (tests/data/README.md), in the
    published solver's output format."""
    cases = spread(scored_positions(size, kind), count)
    lines = "".join(f"{moves}\n" for moves, _, _ in cases)
    result = run_c4("solve", "--size", size, "--no-book", stdin=lines, timeout=900)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [f"{moves} {score}" for moves, _, score in cases]


def test_analyze_json_past_64_bits_proves_the_best_column_with_its_line_to_the_end() -> None:
    """``c4 analyze POS --size 10x6 --json`` of a mid-game position (16-20 stones): the best column
    proven at the independent score, its line to the end of the game."""
    moves, board, score = scored_positions("10x6", "mid")[3]
    found = _json("analyze", moves, "--size", "10x6", "--json")
    assert found["proven"] and found["best_proven"] and found["position_score"]["score"] == score
    best = found["columns"][found["best"][0] - 1]
    assert best["proven"] and best["score"] == score and best["pv_complete"]
    assert_ends_as_scored(board, [column - 1 for column in best["pv"]], score)


def test_bench_reads_positions_of_another_board() -> None:
    """``c4 bench --size 9x7 FILE:N``: the independent 9x7 scores, each one correct."""
    result = run_c4("bench", "--size", "9x7", f"{WIDE_DATA / 'wide_9x7_end.txt'}:6", timeout=900)
    assert result.returncode == 0, result.stderr
    row = result.stdout.splitlines()[1].split()
    assert row[:3] == ["wide_9x7_end.txt", "6", "6"]
    refused = run_c4("bench", "--size", "9x14", f"{WIDE_DATA / 'wide_9x7_end.txt'}:6")
    assert refused.returncode != 0 and "c4 bench needs a board the exact solver holds" in refused.stderr


def _first_stderr_line(*args: str) -> tuple[str, bool]:
    """The first line ``c4 ARGS`` writes on standard error, without a terminal (stdin /dev/null, pipes),
    and whether the command was still running when it came (then it is stopped)."""
    child = subprocess.Popen(
        [sys.executable, "-m", "c4engine", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stderr is not None
        line = child.stderr.readline()  # the command runs for hours: no line would mean a silent wait
        running = child.poll() is None
    finally:
        child.kill()
        child.wait(timeout=60)
    return line, running


@pytest.mark.parametrize(
    "args",
    [
        ("solve", "", "--size", "9x7", "--connect", "5"),
        ("analyze", "", "--size", "8x8"),
        ("solve", "4453", "--size", "8x7"),
    ],
)
def test_a_long_solve_without_a_terminal_says_at_once_what_it_does_and_how_to_bound_it(
    args: tuple[str, ...],
) -> None:
    # the line is written before the search starts (an estimate from the position's stones), so on a
    # loaded machine too it comes long before the search could end: the command is still running
    line, running = _first_stderr_line(*args)
    assert running, line
    assert line.startswith("c4: exact answers on ") and "this position has" in line, line
    assert "may take hours" in line and "bound it with --time SECONDS" in line, line  # far short


def test_a_bounded_search_without_a_terminal_tells_of_itself_in_plain_lines() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "c4engine", "solve", "4453", "--size", "8x8", "--time", "3"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert lines and lines[0] == "c4: solving 4453 on 8x8 (within 3 s; --time SECONDS sets it)", lines
    assert "\x1b" not in done.stderr and "\r" not in done.stderr  # plain lines, never redrawn


def test_solve_and_analyze_give_one_position_the_same_bounds_and_no_false_words() -> None:
    solved = run_c4("solve", "4453", "--size", "8x8", "--time", "1")
    analysed = run_c4("analyze", "4453", "--size", "8x8", "--time", "1", "--json")
    assert solved.returncode == 0 and analysed.returncode == 0, solved.stderr + analysed.stderr
    position = json.loads(analysed.stdout)["position_score"]
    score_line = next(line for line in solved.stdout.splitlines() if line.startswith("score: "))
    assert score_line.startswith(f"score: [{position['lower']}, {position['upper']}] "), score_line
    assert (position["lower"], position["upper"]) == (-30, 29) and position["label"] == "unknown"
    for said in (solved.stdout, analysed.stdout):
        assert "in 1 move" not in said and "win in 1" not in said and "loss in 1" not in said, said
    assert "nothing proven" in score_line
    weak = run_c4("solve", "4453", "--size", "8x8", "--time", "1", "--weak")
    assert weak.returncode == 0 and "in 30 moves" not in weak.stdout and "nothing proven" in weak.stdout


def test_past_the_solver_solve_analyze_and_the_analyst_agree() -> None:
    """12x10 (132 bits): with a limit, labelled estimates from all three; without one, one refusal."""
    from c4engine import Analyst, Limit

    estimated = Analyst().solve(Board(12, 10), Limit(time=1))
    assert not estimated.proven and estimated.source == "engine"
    for command in ("solve", "analyze"):
        bounded = run_c4(command, "", "--size", "12x10", "--time", "1")
        assert bounded.returncode == 0 and "not proven" in bounded.stdout, bounded.stderr
        unbounded = run_c4(command, "", "--size", "12x10")
        assert unbounded.returncode == 2, unbounded.stdout
        assert "12x10 is past the exact solver" in unbounded.stderr and "need a time" in unbounded.stderr
    with pytest.raises(UnsupportedBoardError, match="need a time, node or depth limit"):
        Analyst().solve(Board(12, 10))
    with pytest.raises(UnsupportedBoardError, match="need a time, node or depth limit"):
        Analyst().analyze(Board(12, 10))


def test_a_negative_size_names_the_width() -> None:
    result = run_c4("solve", "4453", "--size", "-7x6")
    assert result.returncode == 2
    assert (
        "board width must be 1..32, not -7" in result.stderr and "expected one argument" not in result.stderr
    )
