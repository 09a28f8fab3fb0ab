"""What a terminal shows: the colour choice, a side's symbol, the board and a review's text."""

from __future__ import annotations

import io
import re

import pytest

from c4engine.board import Board
from c4engine.cli.render import player_symbol, render_board, render_review, wants_color
from c4engine.player import Player
from c4engine.search.analysis.analyst import Analyst
from c4engine.search.limit import UNLIMITED
from c4engine.search.review.game import review_game

ANSI = "\x1b["


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(
    ("stream", "environment", "expected"),
    [
        (_Terminal(), {"TERM": "xterm"}, True),
        (_Terminal(), {"TERM": "xterm", "NO_COLOR": ""}, False),  # set at all, even empty (no-color.org)
        (_Terminal(), {"TERM": "dumb"}, False),
        (io.StringIO(), {"TERM": "xterm"}, False),  # a file or a pipe
    ],
)
def test_colour_only_on_a_terminal_that_wants_it(
    stream: io.StringIO, environment: dict[str, str], expected: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert wants_color(stream) is expected


def test_a_side_s_symbol_is_coloured_only_when_asked() -> None:
    assert player_symbol(Player.SECOND) == "O"
    coloured = player_symbol(Player.FIRST, color=True)
    assert (
        coloured.startswith(ANSI) and "X" in coloured and coloured != player_symbol(Player.SECOND, color=True)
    )


def test_the_coloured_board_has_the_plain_board_s_text() -> None:
    board = Board.from_moves("1212121")
    plain = render_board(board)
    coloured = render_board(board, color=True)
    assert ANSI not in plain and ANSI in coloured
    stripped = "\n".join(line.rstrip() for line in _without_codes(coloured).splitlines())
    assert stripped == plain


def test_a_review_shows_its_table_and_the_better_line_of_each_costly_move() -> None:
    review = review_game(Analyst(), "44556", UNLIMITED)
    text = render_review(review)
    assert text.startswith(review.table())
    assert "Better moves:" in text and text.count("better ") == 2  # the two blunders, plies 3 and 4
    assert ANSI not in text and ANSI in render_review(review, color=True)


def _without_codes(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", text)
