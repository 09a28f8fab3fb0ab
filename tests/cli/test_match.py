"""``c4 match``: the summary, resuming from the database (also after SIGKILL), one-line errors."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from tests.conftest import kill_mid_run, run_c4

from c4engine.cli import main
from c4engine.cli.match import default_db
from c4engine.experiments.match import MatchConfig, MatchStore, play_match


def test_match_prints_a_summary_and_stores_the_games(tmp_path: Path) -> None:
    db = tmp_path / "m.sqlite"
    result = run_c4("match", "random", "2", "--games", "4", "--workers", "0", "--seed", "3", "--db", str(db))
    assert result.returncode == 0, result.stderr
    expected = play_match(MatchConfig("random", "2", games=4, seed=3), workers=0)
    assert f"A wins {expected.wins}, draws {expected.draws}, B wins {expected.losses}" in result.stdout
    assert "Elo A - B" in result.stdout and f"games stored in {db}" in result.stdout
    rows = sqlite3.connect(db).execute("SELECT game, moves, score FROM games ORDER BY game").fetchall()
    assert [(row[0], row[2]) for row in rows] == [(game.index, game.score) for game in expected.games]
    assert rows[0][1].isdigit()  # moves in the usual 1-based notation
    again = run_c4("match", "random", "2", "--games", "4", "--workers", "0", "--seed", "3", "--db", str(db))
    assert "(4 from an earlier run)" in again.stdout


def test_default_database_is_named_after_the_match(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["match", "random", "1", "--games", "2", "--workers", "0", "--size", "5x4"]) == 0
    name = default_db(MatchConfig("random", "1", games=2, width=5, height=4))
    assert (tmp_path / name).exists() and name.name == "match-random-vs-1-seed0-5x4c4.sqlite"
    assert main(["match", "random", "1", "--games", "2", "--workers", "0", "--no-db", "--width", "6"]) == 0
    assert sorted(path.name for path in tmp_path.iterdir()) == [name.name]


def test_a_killed_match_resumes_to_the_same_result(tmp_path: Path) -> None:
    games = 300  # enough that the kill, a poll after the third game, lands in the middle
    db = tmp_path / "killed.sqlite"
    args = ["match", "random", "2", "--games", str(games), "--workers", "0", "--seed", "9", "--db", str(db)]
    kept = kill_mid_run(args, db, at_least=3, total=games)
    assert 3 <= kept < games, "the match was not interrupted in the middle"
    resumed = run_c4(*args)
    assert resumed.returncode == 0, resumed.stderr
    assert f"({kept} from an earlier run)" in resumed.stdout
    uninterrupted = play_match(MatchConfig("random", "2", games=games, seed=9), workers=0)
    with MatchStore(db) as store:
        stored = store.games()
    assert [(stored[i].moves, stored[i].score) for i in range(games)] == [
        (game.moves, game.score) for game in uninterrupted.games
    ]


def _run_in_process(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    try:
        code = main(list(args))
    except SystemExit as stop:  # argparse's usage errors
        code = int(stop.code or 0)
    return code, capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("match", "randomm", "2"), ("unknown player 'randomm'",)),
        (("match", "9", "2"), ("level 9 does not exist",)),
        (("match", "human", "2"), ("computer players",)),
        (("match", "depth=0", "2"), ("depth must be",)),
        (("match", "nowhere.module:f", "2"), ("cannot import module 'nowhere.module'",)),
        (("match", "1", "2", "--games", "0"), ("at least 1",)),
        (("match", "1", "2", "--workers", "-1"), ("--workers", "0 (work in this process) or more")),
        (("match", "1", "2", "--size", "7x"), ("board size",)),
        (("match", "1", "2", "--size", "7x6", "--height", "5"), ("not both",)),
        (("match", "1", "2", "--random-plies", "-2"), ("random plies",)),
        (("match", "1"), ("required",)),
        (("match", "1", "2", "--games", "x"), ("invalid int",)),
    ],
)
def test_bad_input_is_a_one_line_error(
    args: tuple[str, ...], words: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = _run_in_process(capsys, *args, "--db", str(tmp_path / "x.sqlite"))
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert all(word in lines[0] for word in words), lines[0]
    assert not (tmp_path / "x.sqlite").exists()  # nothing stored for a match that cannot start


def test_another_match_in_the_same_database_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "m.sqlite")
    assert (
        _run_in_process(capsys, "match", "random", "1", "--games", "2", "--workers", "0", "--db", db)[0] == 0
    )
    code, err = _run_in_process(capsys, "match", "random", "2", "--games", "2", "--workers", "0", "--db", db)
    assert code == 2 and "holds another match" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("def choose(board):\n    return (\n", "SyntaxError in badmod.py line 2: '(' was never closed"),
        (
            "import numpy_that_is_missing\n",
            "ModuleNotFoundError in badmod.py line 1: No module named 'numpy_that_is_missing'",
        ),
        ("x = 1\nraise RuntimeError('not today')\n", "RuntimeError in badmod.py line 2: not today"),
    ],
)
def test_a_module_that_fails_to_import_shows_its_own_error_in_one_line(
    tmp_path: Path, source: str, message: str
) -> None:
    (tmp_path / "badmod.py").write_text(source)
    result = run_c4("match", "badmod:choose", "1", "--no-db", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == f"c4 match: error: player 'badmod:choose': {message}\n"


def test_the_unknown_player_message_is_short_and_suggests_only_players_a_match_takes() -> None:
    result = run_c4("match", "randomm", "2", "--no-db")
    assert result.returncode == 2
    assert len(result.stderr.strip()) <= 200 and "human" not in result.stderr


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "soon"])
def test_a_bad_move_timeout_is_refused(value: str) -> None:
    result = run_c4("match", "1", "2", "--no-db", "--move-timeout", value)
    assert result.returncode == 2 and "--move-timeout" in result.stderr and "seconds above 0" in result.stderr


def test_a_long_match_without_a_terminal_tells_what_it_plays_at_once() -> None:
    """The perfect player on 8x8 takes seconds a move (nothing there is proven early): the match says
    what it plays and how to bound it within a second or so, before its first game ends."""
    import subprocess
    import sys

    args = ["match", "perfect", "random", "--size", "8x8", "--games", "2", "--no-db"]
    child = subprocess.Popen(
        [sys.executable, "-m", "c4engine", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stderr is not None
        line = child.stderr.readline()
        running = child.poll() is None
    finally:
        child.kill()
        child.wait(timeout=60)
    assert running and line == "c4: match (perfect against random, 2 games; --games N plays fewer)\n", line
