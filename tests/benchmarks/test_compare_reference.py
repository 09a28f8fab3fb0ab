"""The pure pieces of benchmarks/compare_reference.py: reading references' answers, checking them, ratios.

The benchmark is a script, not a package: it is loaded from its file.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from tests.benchmark_scripts import load_benchmark

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "compare_reference.py"


compare = load_benchmark("compare_reference")


def test_program_names_and_arguments() -> None:
    assert compare.parse_program("pons=/opt/c4solver -w") == ("pons", ["/opt/c4solver", "-w"])
    assert compare.parse_program("'/opt/my solver/st_strong'") == ("st_strong", ["/opt/my solver/st_strong"])
    # an "=" inside the command is not a name
    assert compare.parse_program("/opt/run --table=1") == ("run", ["/opt/run", "--table=1"])
    with pytest.raises(ValueError, match="no command"):
        compare.parse_program("pons=")


def test_both_reference_formats_and_the_empty_board() -> None:
    positions = ["4453", "12", "", "77"]
    # Pons' current and older output, c4engine's empty-board line, then a line for another position
    output = "4453 -2\n12 3 1043 120\n 1\n76 0\n"
    assert compare.batch_scores(output, positions) == [-2, 3, 1, None]


def test_missing_lines_have_no_score() -> None:
    assert compare.batch_scores("4453 -2\n", ["4453", "12"]) == [-2, None]
    assert compare.batch_scores("4453 draw\n", ["4453"]) == [None]


def test_a_solver_s_own_report_of_the_empty_board() -> None:
    report = (
        "Searching in range [-1, 0] . . .\n"
        "  Solved 2 positions with 6 moves after 2.24 s.\n"
        "Search completed!\nFinal weak score is -1 (second player will win).\n"
    )
    assert compare.text_score(report) == -1
    assert compare.text_score("position: (empty)\nscore: 1 (win)\n") == 1
    assert compare.text_score(" 0\n") == 0
    assert compare.text_score("Search completed!\n") is None


def test_wrong_scores_strong_and_weak() -> None:
    positions = ["44", "45", "46"]
    assert compare.wrong_scores(positions, [2, -1, 0], [2, -1, 0], weak=False) == []
    assert compare.wrong_scores(positions, [1, -1, None], [2, -1, 0], weak=False) == [
        "44: 1 (want 2)",
        "46: no score (want 0)",
    ]
    # a weak solve only gives the sign
    assert compare.wrong_scores(positions, [1, -1, 0], [2, -5, 0], weak=True) == []
    assert compare.wrong_scores(positions, [1, 0, 0], [2, -5, 0], weak=True) == ["45: 0 (want -5)"]


def test_ratio_is_the_median_of_the_rounds() -> None:
    # each round's ratio, not the ratio of medians: 3/6, 1/1, 8/4
    assert compare.ratio_summary([3.0, 1.0, 8.0], [6.0, 1.0, 4.0]) == "1.00 (0.50-2.00)"
    assert compare.ratio_summary([1.0], []) == "-"
    assert compare.ratio_summary([1.0, 1.0], [1.0, 0.0]) == "-"


def test_the_empty_board_uses_its_own_command() -> None:
    reference = compare.Program("steininger", ["st_strong"], ["c4"])
    assert reference.command_for([""]) == ["c4"]
    assert reference.command_for(["4", ""]) == ["st_strong"]
    assert compare.Program("pons", ["c4solver"]).command_for([""]) == ["c4solver"]


def test_references_need_distinct_names_and_matching_empty_commands() -> None:
    references = compare.references_from(["a=/x/solver", "b=/y/solver"], ["b=/y/c4"])
    assert [(r.name, r.empty_command) for r in references] == [("a", None), ("b", ["/y/c4"])]
    with pytest.raises(SystemExit, match="same name"):
        compare.references_from(["/x/solver", "/y/solver"], [])
    with pytest.raises(SystemExit, match="no --reference"):
        compare.references_from(["a=/x/solver"], ["c=/z/c4"])


@pytest.mark.slow
def test_a_wrong_reference_is_reported_and_fails_the_run() -> None:
    """End to end on two positions: c4engine itself as a right reference, a program that says "draw"
    to everything as a wrong one."""
    right = shlex.join([sys.executable, "-m", "c4engine", "solve", "--no-book", "--threads", "1"])
    draws = shlex.join([sys.executable, "-c", "import sys\nfor line in sys.stdin: print(line.split()[0], 0)"])
    references = ["--reference", f"itself={right}", "--reference", f"draws={draws}"]
    done = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            *references,
            "--pairs",
            "1",
            "--threads",
            "1",
            "--sets",
            "Test_L3_R1:2",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 1, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| Test_L3_R1")]
    assert len(rows) == 2
    assert "| itself |" in rows[0] and "WRONG" not in rows[0]
    assert "| draws |" in rows[1] and "WRONG" in rows[1]
    assert "draws 2252576253462244111563365343671351441: 0 (want -1)" in done.stderr


def test_one_process_is_measured_and_read(tmp_path: Path) -> None:
    # the empty board: one empty line in (a solver's own program waits for it), its report read
    report = "input(); print('Search completed!'); print('Final strong score is 1 (first player will win).')"
    run = compare.run_process([sys.executable, "-c", report], [""], tmp_path)
    assert (run.scores, run.exit_code) == ([1], 0)
    assert run.wall > 0 and run.cpu > 0
    assert run.peak_mib is None or run.peak_mib > 0
    # a batch, and a program that fails: its exit code is kept
    echo = (
        "import sys\nfor line in sys.stdin: print(line.strip(), len(line.strip()))\nsys.exit('out of memory')"
    )
    run = compare.run_process([sys.executable, "-c", echo], ["44", "4453"], tmp_path)
    assert (run.scores, run.exit_code, run.last_error) == ([2, 4], 1, "out of memory")


def test_other_boards_name_their_set_files() -> None:
    assert compare.parse_set("tests/data/wide_10x6_mid.txt:3") == ("tests/data/wide_10x6_mid.txt", 3)
    pons = Path("/pons")
    assert compare.set_path("Test_L2_R2", pons) == pons / "Test_L2_R2"
    assert compare.set_path("tests/data/wide_8x8_end.txt", pons) == Path("tests/data/wide_8x8_end.txt")
    assert compare.set_label("tests/data/wide_8x8_end.txt", None) == "wide_8x8_end.txt"
    assert "--size" not in compare.c4engine_command(None, False, None)  # 7x6: the command as before
    assert compare.c4engine_command(None, True, 64, "9x7")[3:] == [
        "solve",
        "--no-book",
        "--size",
        "9x7",
        "--table-mb",
        "64",
        "--weak",
    ]
    with pytest.raises(SystemExit, match="name the sets' files"):
        compare.main(["--size", "10x6"])
    with pytest.raises(SystemExit, match="name the sets' files"):
        compare.main(["--size", "10x6", "--sets", "empty"])


def test_a_c4engine_that_cannot_solve_stops_the_benchmark_with_one_line(tmp_path: Path) -> None:
    refusing = [sys.executable, "-c", "import sys; sys.exit('line 1: the board is too big')"]
    with pytest.raises(SystemExit) as stopped:
        compare.warm_up(compare.Program("c4engine", refusing), [], "1,10", "10x6", tmp_path)
    assert str(stopped.value) == "c4engine cannot solve the 10x6 positions: line 1: the board is too big"
    silent = [sys.executable, "-c", "print()"]
    with pytest.raises(SystemExit, match="no score for 1,10"):
        compare.warm_up(compare.Program("c4engine", silent), [], "1,10", "10x6", tmp_path)
    answering = [sys.executable, "-c", "print('1,10 3')"]
    compare.warm_up(compare.Program("c4engine", answering), [], "1,10", "10x6", tmp_path)
