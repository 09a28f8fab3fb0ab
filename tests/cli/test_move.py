"""``c4 move``: the engine's column, one position or a batch."""

from __future__ import annotations

import json

import pytest
from tests.conftest import run_c4
from tests.positions import scored_positions, spread

from c4engine.board import Board
from c4engine.cli.move import choose_player
from c4engine.errors import PlayerSpecError
from c4engine.play.levels import LEVELS, level
from c4engine.play.players import LEVEL_CHOICES, EnginePlayer
from c4engine.search.engine.evaluators import windows
from c4engine.search.engine.negamax import Engine
from c4engine.search.limit import Limit
from c4engine.search.solver.exact import Solver


def test_a_fixed_depth_move_is_the_engines_move() -> None:
    for position in ("4453", "4444", "1234567"):
        expected = Engine(windows, Limit(depth=5)).best_move(Board.from_moves(position)) + 1
        result = run_c4("move", position, "--depth", "5")
        assert result.returncode == 0, result.stderr
        assert result.stdout == f"{expected}\n"


@pytest.mark.parametrize("level", ["1", "4", "7", "random"])
def test_every_player_takes_a_win_in_one(level: str) -> None:
    # X has 4, 5, 6 on the bottom row; 3 or 7 wins (random may miss it, but must play legally)
    result = run_c4("move", "445566", "--level", level, "--seed", "1")
    assert result.returncode == 0, result.stderr
    column = int(result.stdout)
    assert column in {3, 7} or (level == "random" and 1 <= column <= 7)


def test_batch_writes_position_and_column_and_goes_on_after_errors() -> None:
    result = run_c4("move", "--depth", "3", stdin="445566\n\n4444444\n4x\n1\n")
    assert result.returncode == 1
    lines = result.stdout.split("\n")
    assert lines[0] in {"445566 3", "445566 7"}
    assert lines[1].startswith(" ") and 1 <= int(lines[1]) <= 7  # the empty board
    assert lines[2] == "" and lines[3] == ""
    assert lines[4].startswith("1 ")
    assert "line 3:" in result.stderr and "full" in result.stderr
    assert "line 4:" in result.stderr


def test_other_board_sizes() -> None:
    result = run_c4("move", "5555", "--size", "9x7", "--connect", "5", "--depth", "3")
    assert result.returncode == 0, result.stderr
    assert 1 <= int(result.stdout) <= 9


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["44", "--level", "human"], "not a computer player"),
        (["44", "--level", "9"], "level 9 does not exist"),
        (["44", "--depth", "0"], "--depth must be 1..42"),
        (["44", "--time", "0"], "--time: more than 0 seconds"),
        (["4444444"], "column 4 is full"),
        (["4455667"], "the game is over"),
        (["4", "--size", "3x3", "--connect", "5"], "cannot fit"),
        (["4", "--depth", "2", "--time", "1"], "not allowed with"),
    ],
)
def test_bad_input_is_a_one_line_error(args: list[str], message: str) -> None:
    result = run_c4("move", *args)
    assert result.returncode == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stdout == ""


def test_a_level_that_does_not_exist_is_refused_with_every_level_that_does() -> None:
    result = run_c4("move", "44", "--level", "99")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"c4 move: error: --level: level 99 does not exist; choose {LEVEL_CHOICES}\n"
    numbers, _, others = LEVEL_CHOICES.partition(", ")
    assert numbers == f"{LEVELS[0].number}..{LEVELS[-1].number}"
    named = others.split(" or ")
    assert named == ["random", "perfect"]
    for spec in [str(known.number) for known in LEVELS] + named:  # each one listed is a computer player
        assert not choose_player(spec).is_human


def test_choose_player_refuses_people() -> None:
    with pytest.raises(PlayerSpecError):
        choose_player("human")


def _edge_loving_weights(tmp_path, depth: int | None = 1):  # type: ignore[no-untyped-def]
    from c4engine.search.engine.weights import WindowWeights

    weights = WindowWeights(own=(1, 10, 100), opponent=(-1, -10, -120), center=-50)
    path = tmp_path / "edges.json"
    weights.save(path, None if depth is None else {"depth": depth})
    return weights, path


def test_move_with_a_weights_file_uses_those_weights(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from c4engine.play.players import EnginePlayer
    from c4engine.search.engine.evaluators import WindowsEvaluator

    weights, path = _edge_loving_weights(tmp_path)
    for position in ("11", "2"):
        board = Board.from_moves(position)
        tuned = EnginePlayer(limit=Limit(depth=1), evaluator=WindowsEvaluator(weights))
        expected = tuned.choose_move(board) + 1
        default = EnginePlayer(limit=Limit(depth=1)).choose_move(board) + 1
        assert expected != default  # the file must make a difference for this test to mean something
        result = run_c4("move", position, "--weights", str(path))  # depth 1 from the file
        assert result.returncode == 0, result.stderr
        assert result.stdout == f"{expected}\n"
    tuned = EnginePlayer(limit=Limit(depth=3), evaluator=WindowsEvaluator(weights))
    deeper = tuned.choose_move(Board.from_moves("4453")) + 1
    assert deeper != EnginePlayer(limit=Limit(depth=3)).choose_move(Board.from_moves("4453")) + 1
    result = run_c4("move", "4453", "--weights", str(path), "--depth", "3")
    assert result.stdout == f"{deeper}\n"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read weights file"),
        ("{", "not valid JSON"),
        ('{"own": [1, 2], "opponent": [-1, -2]}', "for connect 3, not connect 4"),
    ],
)
def test_bad_weights_files_are_one_line_errors(tmp_path, content: str | None, message: str) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "w.json"
    if content is not None:
        path.write_text(content)
    result = run_c4("move", "44", "--weights", str(path))
    assert result.returncode == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_weights_need_a_level_number(tmp_path) -> None:  # type: ignore[no-untyped-def]
    _weights, path = _edge_loving_weights(tmp_path)
    with pytest.raises(PlayerSpecError, match="needs a level number"):
        choose_player("random", weights=str(path))
    # level 5's search with the file's weights, named after the file (as c4 play names it)
    player = choose_player("5", weights=str(path))
    assert isinstance(player, EnginePlayer) and player.level == level(5)
    five = level(5)
    assert player.name == f"computer, edges.json weights, depth {five.limit.depth}, noise {five.noise:.0%}"


def test_perfect_is_refused_on_a_board_the_solver_cannot_hold_before_any_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from c4engine.cli.main import main
    from c4engine.play.perfect import PerfectPlayer

    def search(*args: object) -> int:
        raise AssertionError("a search started")

    monkeypatch.setattr(PerfectPlayer, "choose_move", search)
    assert main(["move", "", "--level", "perfect", "--size", "9x14", "--connect", "5"]) == 2


def test_a_perfect_move_on_10x6_keeps_the_independent_score() -> None:
    """``c4 move POS --size 10x6 --level perfect`` on mid-game positions (16-20 stones): the column
    leaves the opponent exactly the independent score (tests/data) negated."""
    judge = Solver(table_size_mb=16)
    for moves, board, score in spread(scored_positions("10x6", "mid"), 3):
        result = run_c4("move", moves, "--size", "10x6", "--level", "perfect", timeout=600)
        assert result.returncode == 0, result.stderr
        child = board.copy()
        child.play(int(result.stdout.strip()) - 1)
        assert not child.is_over and judge.solve(child, best_move=False).score == -score, moves


EARLY_BIG = [("4453", "8x8", "4"), ("5,6", "10x6", "4"), ("4453", "7x9", "4"), ("55", "9x7", "5")]
"""Early positions of big boards where no proof comes within minutes (docs/levels.md)."""


@pytest.mark.parametrize(("position", "size", "connect"), EARLY_BIG)
def test_perfect_early_on_a_big_board_answers_soon_and_says_its_move_is_not_proven(
    position: str, size: str, connect: str
) -> None:
    from c4engine.play.perfect import ESTIMATE_LIMIT, PROOF_SECONDS

    args = ("move", position, "--size", size, "--connect", connect, "--level", "perfect")
    found = run_c4(*args, "--json")
    assert found.returncode == 0, found.stderr
    answer = json.loads(found.stdout)
    assert answer["proven"] is False and answer["source"] == "engine" and answer["stopped"] == "time limit"
    assert 1 <= answer["column"] <= Board.from_moves("", *map(int, size.split("x"))).width
    assert answer["score"] is None and answer["estimate"] is not None and "not proven" in answer["label"]
    # the search's own clock: the proof's budget and the engine's, and a little past them to stop
    assert answer["time"] < PROOF_SECONDS + (ESTIMATE_LIMIT.time or 0) + 3, answer
    plain = run_c4(*args)
    assert plain.returncode == 0 and plain.stdout.strip().isdigit(), plain.stderr  # the bare column
    note = [line for line in plain.stderr.splitlines() if "not proven" in line]
    assert len(note) == 1, plain.stderr
    assert f"column {plain.stdout.strip()} not proven: best estimate" in note[0]
    assert f"the perfect level's {PROOF_SECONDS:g} s proof budget ran out" in note[0]


def test_perfect_where_a_proof_comes_plays_a_move_keeping_the_exact_score() -> None:
    """Late 8x8 positions scored by an independent solver (tests/data): the move is proven, its
    score that one, and the move keeps it (the position after it scores exactly its negation)."""
    judge = Solver(table_size_mb=16)
    for position, board, score in spread(scored_positions("8x8"), 2):
        found = run_c4("move", position, "--size", "8x8", "--level", "perfect", "--json")
        assert found.returncode == 0 and "not proven" not in found.stderr, found.stderr
        answer = json.loads(found.stdout)
        assert answer["proven"] is True and answer["score"] == score, answer
        after = board.copy()
        after.play(answer["column"] - 1)
        assert after.is_over or judge.solve(after).score == -score
