"""``c4 review``: one game (moves, a record file, a match database's game), a batch, JSON and SVG."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_c4
from tests.positions import scored_positions

from c4engine.board import Board
from c4engine.errors import echo_path
from c4engine.experiments.match import ON_TIME, GameOutcome, MatchConfig, MatchStore
from c4engine.play.record import GameRecord


def _json(stdout: str) -> dict[str, object]:
    data = json.loads(stdout)
    assert isinstance(data, dict)
    return data


def test_the_table_marks_the_blunders_and_shows_the_better_lines() -> None:
    result = run_c4("review", "44556")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Result: unfinished, O to move (*)"  # the result first
    assert lines[2].split() == ["ply", "side", "col", "before", "after", "verdict"]
    assert "?? blunder" in lines[5] and "?? blunder" in lines[6]
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
    assert all(ply["proven"] for ply in plies)  # the book and the rules answer every ply
    assert {"first", "second", "turning_points"} <= set(data["summary"])  # type: ignore[arg-type]


def test_no_why_leaves_the_reasons_out_and_nothing_else() -> None:
    reasoned = _json(run_c4("review", "44556", "--json").stdout)["plies"]
    plain = _json(run_c4("review", "44556", "--json", "--no-why").stdout)["plies"]
    assert isinstance(reasoned, list) and isinstance(plain, list)
    assert any(ply["why"] for ply in reasoned) and all(ply["why"] is None for ply in plain)
    assert [{**ply, "why": None} for ply in reasoned] == plain


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
        and missing.stderr.startswith("c4 review: error: --game 0: ")
        and missing.stderr.endswith("has no such game (games held: 3..3)\n")
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
    result = run_c4("review", "44556", "--svg", str(picture), "--json")
    assert result.returncode == 0, result.stderr
    assert _json(result.stdout)["moves"] == "44556"  # standard output stays the JSON
    # the last line, after "c4: reviewing ..." where the review took more than a second (a loaded machine)
    assert result.stderr.endswith(f"\nwrote the evaluation graph (5 plies) to {echo_path(picture)}\n") or (
        result.stderr == f"wrote the evaluation graph (5 plies) to {echo_path(picture)}\n"
    )
    text = picture.read_text()
    assert text.startswith("<svg") and text.count('class="mark blunder"') == 2
    nowhere = tmp_path / "no" / "graph.svg"
    refused = run_c4("review", "44556", "--svg", str(nowhere))
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.startswith("c4 review: error: --svg ") and "there is no folder" in refused.stderr


def test_bad_input_is_one_line() -> None:
    for args, words in (
        (("review", "4x"), "move 2"),
        (("review", "--game", "1"), "--game needs --db"),
        (("review", "44", "--time", "0"), "argument --time: more than 0 seconds"),
        (("review", "44", "--size", "3x3"), "c4 review: error:"),
        (("review", "--db", "no-such.sqlite", "--game", "1"), "--db no-such.sqlite: no such file"),
    ):
        result = run_c4(*args)
        assert result.returncode == 2, args
        assert result.stderr.startswith("c4 review: error:") and words in result.stderr, result.stderr
        assert result.stderr.count("\n") == 1


def test_a_board_the_solver_cannot_hold_is_reviewed_without_claims() -> None:
    result = run_c4("review", "5566", "--size", "9x14", "--connect", "5", "--time", "0.05", "--json")
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


def test_a_match_game_s_random_opening_is_not_chosen_and_counts_no_mistake(tmp_path: Path) -> None:
    db = tmp_path / "match.sqlite"
    with MatchStore(db) as store:
        store.start(MatchConfig("1", "2", games=2, random_plies=3))
        # the opening's third ply, X's 5, throws the win away: nobody chose it
        store.add(GameOutcome(0, True, 3, (3, 3, 4, 4, 5), 0.5, ()))
        # the second game ends on time: the match's score says who won
        store.add(GameOutcome(1, False, 3, (3, 3, 4, 4), 0.0, (), ON_TIME))
    text = run_c4("review", "--db", str(db), "--game", "0")
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert lines[0] == "Result: unfinished, O to move (*)"
    assert lines[1].startswith("Plies 1-3: a random opening, chosen by nobody")
    assert all(line.endswith("not chosen (opening)") for line in lines[4:7]), lines
    assert "X: 1 move (and 2 of the opening, not chosen)" in text.stdout and "0 blunders" in text.stdout
    data = _json(run_c4("review", "--db", str(db), "--game", "0", "--json").stdout)
    plies = data["plies"]
    assert isinstance(plies, list)
    assert [ply["verdict"] for ply in plies] == ["not chosen"] * 3 + ["blunder", "best"]
    summary = data["summary"]
    assert isinstance(summary, dict)
    assert (summary["first"]["blunders"], summary["first"]["not_chosen"], summary["turning_points"]) == (
        0,
        2,
        [4],
    )
    # B played first in game 1 and A scored 0: the first player won on time
    on_time = run_c4("review", "--db", str(db), "--game", "1", "--json")
    assert on_time.returncode == 0, on_time.stderr
    got = _json(on_time.stdout)
    assert (got["result"], got["result_words"], got["result_reason"]) == ("1-0", "X won on time", "time")


def test_options_that_do_not_apply_are_refused(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    GameRecord.from_board(Board.from_moves("44556")).save(record)
    db = tmp_path / "match.sqlite"
    with MatchStore(db) as store:
        store.start(MatchConfig("1", "2", games=2, random_plies=0))
        store.add(GameOutcome(0, True, 0, (3, 3), 0.5, ()))
    for args, words in (
        ((str(record), "--size", "9x7"), f"--size: a game record ({echo_path(record)}) has its own board"),
        ((str(record), "--connect", "5"), "--connect: a game record"),
        (("--db", str(db), "--game", "0", "--size", "7x6"), "--size: a game of a match database has"),
        (("44556", "--nodes", "1000", "--threads", "2"), "--threads: a review bounded by --nodes alone"),
    ):
        result = run_c4("review", *args)
        assert result.returncode == 2 and result.stdout == "", args
        assert result.stderr.startswith("c4 review: error: ") and words in result.stderr, result.stderr
        assert result.stderr.count("\n") == 1


def test_advice_only_where_it_can_help() -> None:
    big = run_c4("review", "1212121232", "--size", "9x14", "--connect", "5", "--depth", "2")
    assert big.returncode == 0, big.stderr
    assert "the exact solver cannot hold a 9x14 board" in big.stdout and "may prove" not in big.stdout
    # each side: one proven move of five, too few for an accuracy
    assert big.stdout.count("accuracy: not enough proven moves (1 proven, 5 needed)") == 2
    small = run_c4("review", GAME_6X5, "--size", "6x5", "--nodes", "200")
    assert small.returncode == 0, small.stderr
    assert "not proven within 200 nodes a ply: more nodes may prove them." in small.stdout
    exact = run_c4("review", "4455667")
    assert exact.returncode == 0 and "not proven" not in exact.stdout and "may prove" not in exact.stdout


GAME_6X5 = "25523546515143622466442161"
"""A random game on 6x5 (O wins): a few hundred nodes a ply leave most of it unproven."""


def test_a_review_without_a_time_limit_gives_the_same_answer_every_run() -> None:
    for args in (
        (GAME_6X5, "--size", "6x5", "--nodes", "2000"),
        ("1212121232", "--size", "9x14", "--connect", "5", "--depth", "3"),
    ):
        first, second = (run_c4("review", *args, "--json") for _ in range(2))
        assert first.returncode == 0, first.stderr
        assert first.stdout == second.stdout
        data = _json(first.stdout)
        assert data["ply_time"] is None  # nothing timed
        plies = data["plies"]
        assert isinstance(plies, list) and any(ply["verdict"] == "not proven" for ply in plies)


REVIEWED_STONES = 20
"""Past this many stones a review on 10x6 proves every ply (issue 34)."""


def test_a_10x6_game_is_proven_at_every_ply_past_20_stones() -> None:
    """10 x 7 = 70 bits: the review proves every ply from the 21st stone on, as on 7x6, and the value
    it finds for the game's last position is the score an independent solver gave (tests/data).  A
    node budget a ply and no time limit: the same answer every run (the plies past 20 stones took
    under a million nodes each when this was written).  The earlier plies, which the solver leaves
    open, get the engine's estimates -- in pure Python past 64 bits: ``--depth 2`` keeps them quick
    (a quarter of the time; the same plies proven as at the default depth)."""
    moves, board, score = min(scored_positions("10x6"), key=lambda case: case[1].move_count)
    result = run_c4(
        "review", moves, "--size", "10x6", "--nodes", "2000000", "--depth", "2", "--json", timeout=1800
    )
    assert result.returncode == 0, result.stderr
    review = _json(result.stdout)
    plies = review["plies"]
    assert isinstance(plies, list) and len(plies) == board.move_count
    late = [ply for ply in plies if ply["ply"] > REVIEWED_STONES]
    assert late and all(ply["proven"] and ply["verdict"] != "not proven" for ply in late), [
        ply["ply"] for ply in late if not ply["proven"]
    ]
    assert plies[-1]["score_after"] == -score  # the mover's view of the position left to the opponent
