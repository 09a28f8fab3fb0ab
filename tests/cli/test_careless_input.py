"""Careless input to ``c4``: one line naming what is wrong and what is allowed, exit status 2, no traceback.

Each test drives the command in a fresh interpreter, as a user would.
"""

from __future__ import annotations

import importlib.metadata
import json
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from tests.conftest import run_c4

from c4engine.cli.solve import BENCH_SETS

EXIT_USAGE = 2


def c4_script(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run the installed ``c4`` script (not ``python -m``, which puts the current folder on sys.path)."""
    script = Path(sys.executable).with_name("c4")
    return subprocess.run([script, *args], capture_output=True, text=True, timeout=300, cwd=cwd)


def assert_usage_error(result: subprocess.CompletedProcess[str], command: str, *words: str) -> str:
    """The one error line of ``c4 COMMAND``, checked for the exit status, the prefix and ``words``."""
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == EXIT_USAGE, (result.returncode, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"c4 {command}: error: "), lines[0]
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


# ------------------------------------------------------------------ bench


def test_bench_finds_the_shipped_sets() -> None:
    result = run_c4("bench", "--limit", "2", "--table-mb", "8")
    assert result.returncode == 0, result.stderr
    rows = [line.split() for line in result.stdout.splitlines()[1:]]
    assert [row[0] for row in rows] == list(BENCH_SETS)
    assert all(row[1:3] == ["2", "2"] for row in rows), result.stdout


@pytest.mark.parametrize("limit", ["0", "-1"])
def test_bench_limit_must_be_positive(limit: str) -> None:
    assert_usage_error(run_c4("bench", "--limit", limit), "bench", "--limit", "at least 1", limit)


def test_bench_names_the_source_of_missing_sets(tmp_path: Path) -> None:
    line = assert_usage_error(run_c4("bench", "--data", str(tmp_path)), "bench", "cannot read")
    assert "gamesolver.org" in line


# ------------------------------------------------------------- --table-mb

ENDGAME = "2252576253462244111563365343671351441"


@pytest.mark.parametrize(
    ("command", "words"),
    [
        (("solve", ENDGAME, "--table-mb", "1e9"), ("--table-mb", "more than this machine's memory", "8..")),
        (("solve", ENDGAME, "--table-mb", "nan"), ("--table-mb", "not nan")),
        (("analyze", ENDGAME, "--table-mb", "4"), ("--table-mb", "too small", "8..")),
        (("dataset", "-o", "x.csv", "--count", "3", "--table-mb", "1e9"), ("--table-mb", "memory")),
        (("book", "build", "--depth", "1", "--table-mb", "inf"), ("--table-mb", "not inf")),
    ],
)
def test_table_size_is_checked_before_allocating(command: tuple[str, ...], words: tuple[str, ...]) -> None:
    name = " ".join(command[:2]) if command[0] == "book" else command[0]
    assert_usage_error(run_c4(*command), name, *words)


# ------------------------------------------------------------ solve, batch


@pytest.mark.parametrize("command", ["solve", "analyze"])
@pytest.mark.parametrize("seconds", ["0", "-1", "nan"])
def test_solve_time_must_be_positive_like_move(command: str, seconds: str) -> None:
    assert_usage_error(
        run_c4(command, "4453", "--no-book", "--time", seconds), command, "--time", "more than 0"
    )
    assert_usage_error(run_c4("move", "4453", "--time", seconds), "move", "--time", "more than 0")


def test_a_batch_line_is_read_as_its_position() -> None:
    # the output of a batch, or a line of a benchmark file, is input too
    result = run_c4("solve", "--table-mb", "8", stdin=f"{ENDGAME} -1\n4453 -2\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == f"{ENDGAME} -1"
    assert result.stdout.splitlines()[1].split()[0] == "4453"
    result = run_c4("move", "--level", "1", "--seed", "1", stdin="4453 7\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[0] == "4453"


def test_junk_is_echoed_short() -> None:
    junk = "\x17\x81" + ",\x00" * 900 + "\n"
    result = run_c4("solve", "--table-mb", "8", stdin=junk)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    line = result.stderr.strip()
    assert "\n" not in line and line.startswith("line 1: move 1 (") and len(line) < 140, line
    result = run_c4("match", "x" * 2000, "5")
    assert len(assert_usage_error(result, "match", "unknown player")) < 1000


# ------------------------------------------------------------------ match


def test_a_crashing_player_ends_the_match_in_one_line_and_finished_games_stay(tmp_path: Path) -> None:
    # it plays the leftmost open column as first player (game 0, which it loses), and fails as second (game 1)
    (tmp_path / "crashbot.py").write_text(
        "def choose(board):\n"
        "    if board.moves and board.moves[0] != 0:\n"
        "        raise RuntimeError('boom\\nand a second line')\n"
        "    return board.legal_moves()[0]\n"
    )
    database = tmp_path / "m.sqlite"
    result = c4_script(
        "match", "crashbot:choose", "7", "--games", "4", "--workers", "0", "--random-plies", "0",
        "--db", str(database), cwd=tmp_path,
    )  # fmt: skip
    assert_usage_error(result, "match", "crashbot:choose", "game 1", "RuntimeError: boom")
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT game FROM games").fetchall() == [(0,)]


def test_a_player_that_is_not_a_move_function_is_named() -> None:
    result = run_c4("match", "os:system", "5", "--games", "2", "--no-db", "--workers", "0")
    assert_usage_error(result, "match", "os:system", "game 0", "TypeError")


def test_a_player_module_in_the_current_folder_is_found(tmp_path: Path) -> None:
    (tmp_path / "mybot.py").write_text("def choose(board):\n    return board.legal_moves()[0]\n")
    result = c4_script(
        "match", "mybot:choose", "1", "--games", "2", "--no-db", "--workers", "2", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert "A = mybot:choose" in result.stdout


def test_match_help_lists_every_player_form() -> None:
    result = run_c4("match", "--help")
    text = " ".join(result.stdout.split())
    assert "95%%" not in text and "95% interval" in text
    for form in (
        "random",
        "a level 1..7",
        "perfect",
        "key=value",
        "weights:FILE.json",
        "module:NAME",
        "NAME()",
    ):
        assert form in text, form


# ------------------------------------------------------------------- play


def test_perfect_play_on_a_board_the_solver_cannot_hold_is_refused_before_the_game() -> None:
    result = run_c4("play", "--level", "perfect", "--size", "9x7", "--connect", "5", stdin="5\nq\n")
    assert_usage_error(result, "play", "--level perfect", "9x7", "level 1..7")
    assert result.stdout == ""


def test_a_perfect_move_on_a_board_the_solver_cannot_hold_is_refused_before_any_search() -> None:
    result = run_c4("move", "", "--level", "perfect", "--size", "9x7", "--connect", "5")
    assert_usage_error(result, "move", "--level perfect", "9x7 needs 72", "up to", "8x7", "level 1..7")
    assert result.stdout == ""


def test_a_match_of_the_perfect_player_on_a_board_the_solver_cannot_hold_is_refused() -> None:
    result = run_c4("match", "perfect", "1", "--size", "9x7", "--connect", "5", "--games", "2", "--no-db")
    assert_usage_error(result, "match", "perfect needs a board the exact solver holds", "9x7 needs 72")
    assert result.stdout == ""


def test_play_with_weights_names_the_weights(tmp_path: Path) -> None:
    weights = tmp_path / "tuned.json"
    weights.write_text(json.dumps({"own": [1, 10, 100], "opponent": [-1, -10, -100], "center": 1}))
    result = run_c4("play", "--weights", str(weights), stdin="q\n")
    assert result.returncode == 0, result.stderr
    assert "O (computer, tuned.json weights, depth 4, noise 25%)" in result.stdout
    assert "level 3" not in result.stdout


# ----------------------------------------------------------- tune, dataset


def test_tune_names_an_impossible_connect() -> None:
    assert_usage_error(run_c4("tune", "--connect", "99"), "tune", "connect 99", "2..7")


def test_dataset_refuses_plies_random_play_cannot_reach(tmp_path: Path) -> None:
    output = tmp_path / "x.csv"
    result = run_c4("dataset", "-o", str(output), "--plies", "41", "--per-ply", "2")
    assert_usage_error(result, "dataset", "--plies", "41")
    assert not output.exists()


# ------------------------------------------------------------------ serve


def test_serve_on_a_busy_port_fails_before_telling_the_address() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = str(busy.getsockname()[1])
        result = run_c4("serve", "--port", port, timeout=60)
    line = assert_usage_error(result, "serve", port, "in use")
    assert "http://" not in line


# --------------------------------------------------------------- metadata


def test_package_metadata_is_complete() -> None:
    metadata = importlib.metadata.metadata("c4engine")
    assert metadata["Author"] or metadata["Author-email"]
    assert metadata["License-Expression"] == "MIT" or metadata["License"] == "MIT"
    assert metadata.get_all("Project-URL")
    assert any(line.startswith("Topic :: Games") for line in metadata.get_all("Classifier") or [])
