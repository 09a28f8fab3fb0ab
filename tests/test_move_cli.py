"""``c4 move``: the engine's column, one position or a batch."""

from __future__ import annotations

import pytest
from tests.conftest import run_c4

from c4engine.board import Board
from c4engine.engine import Engine
from c4engine.errors import PlayerSpecError
from c4engine.evaluation import windows
from c4engine.move_cli import choose_player


def test_a_fixed_depth_move_is_the_engines_move() -> None:
    for position in ("4453", "4444", "1234567"):
        expected = Engine(windows, depth=5).best_move(Board.from_moves(position)) + 1
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
        (["44", "--depth", "0"], "--depth must be at least 1"),
        (["44", "--time", "0"], "--time must be more than 0"),
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


def test_choose_player_refuses_people() -> None:
    with pytest.raises(PlayerSpecError):
        choose_player("human")
