"""Careless input to ``c4``: one line naming what is wrong and what is allowed, exit status 2, no traceback.

Each test drives the command in a fresh interpreter, as a user would.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from tests.conftest import c4_commands, run_c4

from c4engine.cli.main import main
from c4engine.cli.solve import BENCH_SETS

EXIT_USAGE = 2


def c4_script(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run the installed ``c4`` script (not ``python -m``, which puts the current folder on sys.path)."""
    script = Path(sys.executable).with_name("c4")
    return subprocess.run([script, *args], capture_output=True, text=True, timeout=300, cwd=cwd)


def assert_usage_error(result: subprocess.CompletedProcess[str], command: str, *words: str) -> str:
    """The one error line of ``c4 COMMAND``, checked for the exit status, the prefix and ``words``
    (beside the plain progress lines, ``c4: ...``, of work that ran over a second before it failed)."""
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == EXIT_USAGE, (result.returncode, result.stderr)
    lines = [line for line in result.stderr.strip().splitlines() if not line.startswith("c4: ")]
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
    # the mean time in a unit people read (format_duration), e.g. 2.18 s rather than 2179493.1us
    assert all(re.fullmatch(r"\d+(\.\d+)?", row[3]) and row[4] in {"ns", "us", "ms", "s"} for row in rows)


@pytest.mark.parametrize("limit", ["0", "-1"])
def test_bench_limit_must_be_positive(limit: str) -> None:
    assert_usage_error(run_c4("bench", "--limit", limit), "bench", "--limit", "at least 1", limit)


def test_bench_names_the_source_of_missing_sets(tmp_path: Path) -> None:
    line = assert_usage_error(run_c4("bench", "--data", str(tmp_path)), "bench", "no such file")
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
    assert_usage_error(
        result, "match", "crashbot:choose", "game 1", "RuntimeError in crashbot.py line 3: boom"
    )
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
    result = run_c4("play", "--level", "perfect", "--size", "9x14", "--connect", "5", stdin="5\nq\n")
    assert_usage_error(result, "play", "--level perfect", "9x14", "level 1..7")
    assert result.stdout == ""


def test_a_perfect_move_on_a_board_the_solver_cannot_hold_is_refused_before_any_search() -> None:
    result = run_c4("move", "", "--level", "perfect", "--size", "9x14", "--connect", "5")
    assert_usage_error(result, "move", "--level perfect", "9x14 needs 135", "up to", "10x11", "level 1..7")
    assert result.stdout == ""


def test_a_match_of_the_perfect_player_on_a_board_the_solver_cannot_hold_is_refused() -> None:
    result = run_c4("match", "perfect", "1", "--size", "9x14", "--connect", "5", "--games", "2", "--no-db")
    assert_usage_error(result, "match", "perfect needs a board the exact solver holds", "9x14 needs 135")
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


# ------------------------------------------------ issue 26: each careless input, in this process


def run_in_process(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``c4 ARGS`` in this process: (exit status, stdout, stderr); a traceback fails the test."""
    try:
        code = main(list(args))
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 1
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_refused(capsys: pytest.CaptureFixture[str], command: str, args: Sequence[str], *words: str) -> str:
    """``c4 ARGS`` (in this process) exits 2 with one short line ``c4 COMMAND: error: ...`` with ``words``."""
    code, _out, err = run_in_process(capsys, *args)
    result = subprocess.CompletedProcess(list(args), code, "", err)
    line = assert_usage_error(result, command, *words)
    assert len(line) <= 200, line
    return line


def test_a_binary_bench_file_is_named_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a short name: a long path is shown by its end only
    Path("junk.bin").write_bytes(b"4453 -2\n\x80\x81\xfe\n")
    assert_refused(capsys, "bench", ["bench", "junk.bin"], "junk.bin:2", "not text", "MOVES SCORE")


def test_a_bad_move_in_a_bench_file_is_named_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("4453 -2\n\n44x5 3\n")
    assert_refused(capsys, "bench", ["bench", str(bad)], f"{bad}:3", "move 3", "'x'")
    bad.write_text("4444444 1\n")
    assert_refused(capsys, "bench", ["bench", str(bad)], f"{bad}:1", "column 4 is full")
    bad.write_text("\n")
    assert_refused(capsys, "bench", ["bench", str(bad)], str(bad), "no positions")


def unwritable(tmp_path: Path) -> str:
    """A path in a folder no one may write: in /sys for root (who may write a read-only folder)."""
    if os.geteuid() == 0:
        return "/sys/c4-unwritable"
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o500)
    return str(folder / "x")


@pytest.mark.parametrize("where", ["folder", "empty", "unwritable", "no folder"])
def test_dataset_output_is_checked_before_the_work(
    where: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def no_work(*args: object, **kwargs: object) -> None:
        raise AssertionError("the work started before the output was checked")

    monkeypatch.setattr("c4engine.cli.dataset.sample_positions", no_work)
    output = {
        "folder": str(tmp_path),
        "empty": "",
        "unwritable": unwritable(tmp_path) + ".csv",
        "no folder": str(tmp_path / "no" / "x.csv"),
    }[where]
    assert_refused(capsys, "dataset", ["dataset", "-o", output, "--count", "2"], "-o")


def test_every_output_option_is_checked_before_the_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def no_work(*args: object, **kwargs: object) -> None:
        raise AssertionError("the work started before the outputs were checked")

    for target in ("tune.tune", "match.play_match", "book.build_book"):
        monkeypatch.setattr(f"c4engine.cli.{target}", no_work)
    monkeypatch.chdir(tmp_path)
    bad = unwritable(tmp_path)
    assert_refused(capsys, "tune", ["tune", "--out", bad + ".json", "--db", "t.sqlite"], "--out")
    assert_refused(capsys, "tune", ["tune", "--db", bad + ".sqlite"], "--db")
    assert_refused(capsys, "match", ["match", "1", "2", "--db", str(tmp_path)], "--db", "folder")
    assert_refused(capsys, "book build", ["book", "build", "--depth", "2", "-o", bad + ".c4b"], "-o")
    assert_refused(
        capsys,
        "book build",
        ["book", "build", "--depth", "2", "--checkpoint", bad + ".sqlite"],
        "--checkpoint",
    )
    # no database, no weights: nothing was started (the read-only folder is the test's own)
    assert [path.name for path in tmp_path.iterdir()] in ([], ["read-only"])


@pytest.mark.parametrize("bias", ["nan", "1e308", "-1", "inf"])
def test_dataset_bias_must_be_in_range(bias: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert_refused(capsys, "dataset", ["dataset", "-o", "x.csv", "--bias", bias], "--bias", "0..1000")


def test_dataset_suffix_must_name_a_format(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert_refused(capsys, "dataset", ["dataset", "-o", "d9.txt"], "'.txt'", "--format", ".csv")
    assert not (tmp_path / "d9.txt").exists()
    monkeypatch.setattr("c4engine.cli.dataset.build_dataset", lambda boards, **kwargs: [])
    code, out, err = run_in_process(
        capsys,
        "dataset",
        "-o",
        "d9.txt",
        "--format",
        "csv",
        "--size",
        "4x4",
        "--connect",
        "3",
        "--count",
        "2",
    )
    assert code == 0, err
    assert "(csv)" in out and (tmp_path / "d9.txt").read_text().startswith("moves,ply,score")


def test_dataset_says_why_it_found_fewer_positions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("c4engine.cli.dataset.build_dataset", lambda boards, **kwargs: [])
    # ply 1 of a 3-wide board: 2 positions up to mirror image, so the other games repeat one
    few = ["dataset", "-o", "x.csv", "--size", "3x3", "--connect", "3", "--plies", "1", "--per-ply", "5"]
    code, _out, err = run_in_process(capsys, *few)
    assert code == 0 and "note: 2 distinct positions of the 5 asked" in err, err
    assert "0 ended before their ply" in err and "repeated a position" in err
    # ply 8 of a 3x3 connect-2 board: nearly every game is won first
    early = ["dataset", "-o", "x.csv", "--size", "3x3", "--connect", "2", "--plies", "3", "--count", "20"]
    code, _out, err = run_in_process(capsys, *early)
    note = err.strip()
    assert code == 0 and "ended before their ply" in note and not note.startswith("c4 dataset: note: 0 "), (
        note
    )
    ended = int(note.split(" ended before")[0].rsplit(" ", 1)[1])
    assert ended > 0, note


def test_a_board_without_a_line_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    line = assert_refused(capsys, "solve", ["solve", "--size", "1x1", ""], "1x1", "2 or more")
    assert "2..1" not in line


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "4453", "extra"],
        ["move", "4453", "--nope"],
        ["book", "info", "extra", "more"],
    ],
)
def test_an_unknown_argument_is_named_by_its_command(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    command = " ".join(args[:2]) if args[0] == "book" else args[0]
    assert_refused(capsys, command, args, "unrecognized arguments", args[-1])


@pytest.mark.parametrize(
    ("args", "command"),
    [
        (["move", "4453", "--depth", "1000"], "move"),
        (["perft", "--depth", "43"], "perft"),
        (["book", "build", "--depth", "1000"], "book build"),
        (["tune", "--depth", "1000"], "tune"),
        (["tune", "--validation-depth", "43"], "tune"),
        (["move", "4", "--depth", "21", "--size", "5x4"], "move"),
    ],
)
def test_a_depth_beyond_the_cells_is_refused(
    args: list[str],
    command: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    cells = "20" if "5x4" in args else "42"
    assert_refused(capsys, command, args, "depth", f"..{cells}", "cells")


def worker_commands() -> list[list[str]]:
    """Every (sub-)command of c4 with a --workers option, read from the parser."""
    return [
        list(command)
        for command, parser in c4_commands().items()
        if any("--workers" in action.option_strings for action in parser._actions)
    ]


@pytest.mark.parametrize("command", worker_commands(), ids=" ".join)
def test_workers_beyond_the_cores_are_capped_with_a_note(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    from c4engine.cli.main import build_parser
    from c4engine.cli.options import usable_cores

    cores = usable_cores()
    positionals = {"match": ["1", "2"], "puzzles": ["games.txt"]}.get(command[0], [])
    required = (
        ["--depth", "2"]
        if command == ["book", "build"]
        else ["-o", "x.csv"]
        if command == ["dataset"]
        else ["-o", "x.jsonl"]
        if command == ["puzzles"]
        else []
    )
    args = build_parser(command[0]).parse_args(
        [*command, *positionals, *required, "--workers", str(cores + 998)]
    )
    assert args.workers == cores
    note = capsys.readouterr().err.strip()
    asked = cores + 998
    name = " ".join(command)
    assert note == f"c4 {name}: note: --workers {asked} is more than the {cores} usable cores: using {cores}"
    args = build_parser(command[0]).parse_args([*command, *positionals, *required, "--workers", str(cores)])
    assert args.workers == cores and capsys.readouterr().err == ""


def test_level2_needs_watch(capsys: pytest.CaptureFixture[str]) -> None:
    assert_refused(capsys, "play", ["play", "--level2", "3"], "--level2", "--watch")
    assert_refused(capsys, "play", ["play", "--level2", "3", "--two-players"], "--level2", "--watch")


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("depth=x", "player 'depth=x': depth is a whole number of plies, at least 1, not 'x'"),
        ("level=x", "player 'level=x': level is a level number 1..7, not 'x'"),
        ("time=soon", "player 'time=soon': time is a number of seconds above 0, not 'soon'"),
    ],
)
def test_a_player_setting_that_is_no_number_names_itself_and_what_is_allowed(spec: str, words: str) -> None:
    result = run_c4("match", spec, "7", "--no-db")
    assert result.returncode == 2 and words in result.stderr, result.stderr
    assert "invalid literal" not in result.stderr and "could not convert" not in result.stderr


def test_a_folder_to_review_is_refused_as_a_folder(tmp_path: Path) -> None:
    for folder in (str(tmp_path), "/", "."):
        result = run_c4("review", folder)
        assert result.returncode == 2 and result.stdout == ""
        assert "is a folder: give a move string or a game record's JSON file" in result.stderr, result.stderr
        assert "not a column number" not in result.stderr


def test_a_board_column_out_of_range_names_the_column_given_and_the_0_based_range() -> None:
    from c4engine import Board, ColumnOutOfRangeError

    for column in (-1, 7):
        with pytest.raises(ColumnOutOfRangeError) as caught:
            Board().play(column)
        assert str(caught.value).startswith(f"column {column} is out of range 0..6"), caught.value
