"""What a terminal shows: whether to colour, the board, a game's review.

The text of ``c4 play`` (:mod:`c4engine.cli.terminal`) and ``c4 review``
(:mod:`c4engine.cli.review`), both of which show boards and reviews.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, TextIO

from c4engine.board import Board
from c4engine.player import Player

if TYPE_CHECKING:  # types only: c4 play --show draws a board without the search layer
    from c4engine.search.review.answers import PlyReview, Review

__all__ = ["player_symbol", "render_board", "render_review", "wants_color"]

_RESET = "\x1b[0m"
_STYLE = {Player.FIRST: "\x1b[1;31m", Player.SECOND: "\x1b[1;33m"}
_WIN_STYLE = "\x1b[42m"
_LAST_STYLE = "\x1b[4m"
_DIM = "\x1b[2m"
_MARK_STYLE = {"?!": "\x1b[33m", "?": "\x1b[38;5;208m", "??": "\x1b[1;31m"}


def wants_color(stream: TextIO) -> bool:
    """Colour only on a terminal, and never when ``NO_COLOR`` is set (no-color.org)."""
    return stream.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


def player_symbol(player: Player, *, color: bool = False) -> str:
    """The side's symbol, ``X`` or ``O``, in its colour if ``color``."""
    return f"{_STYLE[player]}{player.symbol}{_RESET}" if color else player.symbol


def render_board(board: Board, *, color: bool = False) -> str:
    """The board for a terminal: three characters a cell, column numbers below.

    The winning line is shown in brackets (and on green with colour), so it
    stands out without colour too; with colour the last stone is underlined.

    >>> print(render_board(Board.from_moves("1212121")))
     .  .  .  .  .  .  .
     .  .  .  .  .  .  .
    [X] .  .  .  .  .  .
    [X] O  .  .  .  .  .
    [X] O  .  .  .  .  .
    [X] O  .  .  .  .  .
     1  2  3  4  5  6  7
    """
    winning = set(board.winning_cells())
    last = None
    if board.moves:
        column = board.moves[-1]
        last = (column, board.column_height(column) - 1)
    lines = []
    for row in reversed(range(board.height)):
        cells = []
        for column in range(board.width):
            owner = board.cell(column, row)
            symbol = owner.symbol if owner else "."
            text = f"[{symbol}]" if (column, row) in winning else f" {symbol} "
            if color and owner:
                style = _STYLE[owner]
                if (column, row) in winning:
                    style += _WIN_STYLE
                elif (column, row) == last:
                    style += _LAST_STYLE
                text = f"{style}{text}{_RESET}"
            elif color:
                text = f"{_DIM}{text}{_RESET}"
            cells.append(text)
        lines.append("".join(cells).rstrip() if not color else "".join(cells))
    lines.append("".join(str(column + 1).center(3) for column in range(board.width)).rstrip())
    return "\n".join(lines)


def render_review(review: Review, *, color: bool = False) -> str:
    """The review for a terminal: the table, the marks coloured, then each costly move's better line,
    then why each mistake and blunder cost what it did (the coach's reasons).

    >>> from c4engine.search.review.game import PlyReview
    >>> from c4engine.player import Player
    >>> ply = PlyReview(4, Player.FIRST, 4, 42, 2, 2, -1, -1, None, None, (3,), True, True, "blunder",
    ...                 False, (3, 3, 3), True, why="It lets O win at once in column 5.")
    >>> print(_better_line(ply))
    ply 5, X played 5 (loss in 19): better 4 (win in 18), line 4 4 4
    >>> print(_why_line(ply))
    ply 5, X played 5 (?? blunder): It lets O win at once in column 5.
    """
    lines = [review.table(style=_styled if color else None)]
    costly = [ply for ply in review.plies if ply.mark and ply.pv]
    if costly:
        lines += ["", "Better moves:"] + ["  " + _better_line(ply) for ply in costly]
    reasoned = [ply for ply in review.plies if ply.why]
    if reasoned:
        lines += ["", "Why:"] + ["  " + _why_line(ply) for ply in reasoned]
    if review.advice is not None:
        lines += ["", review.advice]
    return "\n".join(lines)


def _why_line(ply: PlyReview) -> str:
    verdict = ply.verdict + (" or worse" if ply.or_worse else "")
    return f"ply {ply.ply}, {ply.player.symbol} played {ply.column + 1} ({ply.mark} {verdict}): {ply.why}"


def _styled(mark: str, text: str) -> str:
    style = _MARK_STYLE.get(mark)
    if style is not None:
        return f"{style}{text}{_RESET}"
    return f"{_DIM}{text}{_RESET}" if text.startswith("not proven") else text


def _better_line(ply: PlyReview) -> str:
    line = " ".join(str(column + 1) for column in ply.pv)
    ending = "" if ply.pv_complete else " ..."
    return (
        f"ply {ply.ply}, {ply.player.symbol} played {ply.column + 1} ({ply.words_after()}): "
        f"better {ply.pv[0] + 1} ({ply.words_before()}), line {line}{ending}"
    )
