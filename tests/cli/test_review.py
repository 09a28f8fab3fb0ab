"""``c4 review``: one game (moves, a record file, a match database's game), a batch, JSON and SVG."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_c4

from c4engine.board import Board
from c4engine.experiments.match import GameOutcome, MatchConfig, MatchStore
from c4engine.play.record import GameRecord


def _json(stdout: str) -> dict[str, object]:
    data = json.loads(stdout)
    assert isinstance(data, dict)
    return data


def test_the_table_marks_the_blunders_and_shows_the_better_lines() -> None:
    result = run_c4("review", "44556")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["ply", "side", "col", "before", "after", "verdict"]
    assert "?? blunder" in lines[3] and "?? blunder" in lines[4]
    assert "Better moves:" in result.stdout
    assert "ply 3, X played 5 (loss in 19): better 4 (win in 20), line 4 " in result.stdout
    assert "\x1b[" not in result.stdout  # NO_COLOR (set by run_c4), and not a terminal
    coloured = run_c4("review", "44556", "--color")
    assert "\x1b[1;31m?? blunder" in coloured.stdout


def test_json_is_the_documented_schema() -> None:
    result = run_c4("review", "4455667", "--json")
    assert result.returncode == 0, result.stderr
    data = _json(result.stdout)
    assert (data["moves"], data["size"], data["connect"], data["result"]) == ("4455667", "7x6", 4, "1-0")
    plies = data["plies"]
    assert isinstance(plies, list) and len(plies) == 7
    assert [ply["verdict"] for ply in plies][-1] == "best"
    assert all(ply["exact"] for ply in plies)  # the book and the rules answer every ply
    assert {"first", "second", "turning_points"} <= set(data["summary"])  # type: ignore[arg-type]


def test_a_game_record_file_and_a_match_database_game(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    GameRecord.from_board(Board.from_moves("44556")).save(record)
    from_file = run_c4("review", str(record), "--json")
    assert from_file.returncode == 0, from_file.stderr
    assert _json(from_file.stdout)["moves"] == "44556"

    db = tmp_path / "match.sqlite"
    with MatchStore(db) as store:
        store.start(MatchConfig("1", "2", games=4, random_plies=0))
        store.add(GameOutcome(3, True, 0, (3, 3, 4, 4, 5), 0.5, ()))
    from_db = run_c4("review", "--db", str(db), "--game", "3", "--json")
    assert from_db.returncode == 0, from_db.stderr
    assert _json(from_db.stdout)["moves"] == "44556"
    missing = run_c4("review", "--db", str(db), "--game", "0")
    assert (
        missing.returncode == 2
        and missing.stderr == f"c4 review: error: {db} has no game 0 (games held: 3..3)\n"
    )


def test_a_batch_gives_one_json_line_a_game_and_goes_on_after_errors() -> None:
    result = run_c4("review", stdin="44556\n4x\n4455667\n")
    assert result.returncode == 1
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["moves"] for line in lines] == ["44556", "4x", "4455667"]
    assert "plies" in lines[0] and "plies" in lines[2] and "error" in lines[1]
    assert "line 2:" in result.stderr


def test_svg_is_written_and_a_bad_path_is_refused_before_any_work(tmp_path: Path) -> None:
    picture = tmp_path / "graph.svg"
    result = run_c4("review", "44556", "--svg", str(picture))
    assert result.returncode == 0, result.stderr
    text = picture.read_text()
    assert text.startswith("<svg") and text.count('class="mark blunder"') == 2
    nowhere = tmp_path / "no" / "graph.svg"
    refused = run_c4("review", "44556", "--svg", str(nowhere))
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr == f"c4 review: error: cannot write {nowhere}: no directory {nowhere.parent}\n"


def test_bad_input_is_one_line() -> None:
    for args, words in (
        (("review", "4x"), "move 2"),
        (("review", "--game", "1"), "--game needs --db"),
        (("review", "44", "--time", "0"), "--time must be a positive number"),
        (("review", "44", "--size", "3x3"), "c4 review: error:"),
        (("review", "--db", "no-such.sqlite", "--game", "1"), "no match database"),
    ):
        result = run_c4(*args)
        assert result.returncode == 2, args
        assert result.stderr.startswith("c4 review: error:") and words in result.stderr, result.stderr
        assert result.stderr.count("\n") == 1


def test_a_board_the_solver_cannot_hold_is_reviewed_without_claims() -> None:
    result = run_c4("review", "5566", "--size", "9x7", "--connect", "5", "--time", "0.05", "--json")
    assert result.returncode == 0, result.stderr
    plies = _json(result.stdout)["plies"]
    assert isinstance(plies, list)
    assert [ply["verdict"] for ply in plies] == ["not proven"] * 4
    assert all(ply["score_before"] is None and ply["mark"] == "" for ply in plies)


def test_no_game_on_a_terminal_is_refused_rather_than_waiting_for_a_batch() -> None:
    import sys

    import pexpect

    child = pexpect.spawn(sys.executable, ["-m", "c4engine", "review"], encoding="utf-8", timeout=60)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert "c4 review: error: give GAME" in (child.before or "")
