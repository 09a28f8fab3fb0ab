"""Zugzwang: who gets which squares when one side always answers in the column just played.

Allis (chapter 4): if one player always plays *follow-up* -- answers in the
column the opponent has just played -- then in every column the opponent
takes the lowest empty cell and the follower the one above it, and so on up.
On a board of even height with the first player to move and an even number
of empty cells in every column, the second player gets every even square
that way: the second player *controls the zugzwang*, and in the end the
first player must play under the second's even threats.  The first player
takes the control with an odd threat (a square of row 1, 3, 5... that would
complete a group) -- unless the second player has an even threat of its own
(then neither rule of thumb decides).  Useless threats
(:mod:`c4engine.search.coach.threats`) do not count.

This module states the follow-up squares and the rule of thumb; whether the
controller actually wins or holds the draw is what a proof by rules
(:mod:`c4engine.search.coach.proof`) or the solver shows.

>>> from c4engine.board import Board
>>> from c4engine.search.coach.threats import find_threats
>>> board = Board()
>>> zugzwang = find_zugzwang(board, find_threats(board))
>>> zugzwang.controller, zugzwang.reason
(<Player.SECOND: 2>, 'follow_up')
>>> zugzwang.sentence(board)
'O controls the zugzwang by follow-up: answering X in the same column, O gets every even square.'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from c4engine.board import Board
from c4engine.player import Player
from c4engine.search.coach.groups import Cell, cell_json, square_name
from c4engine.search.coach.threats import Threat

__all__ = ["ControlReason", "Zugzwang", "find_zugzwang", "follow_up_squares"]

ControlReason = Literal["follow_up", "odd_threat", "contested", "odd_height"]


@dataclass(frozen=True)
class Zugzwang:
    """Who controls the zugzwang by Allis' rule of thumb (None: it does not decide), and why.

    ``follower`` is the side not to move, whose follow-up gets ``follower_squares`` and leaves
    ``mover_squares`` to the side to move; ``odd_columns`` have an odd number of empty cells, where
    follow-up ends with the side to move taking the top cell.  ``odd_threats`` are the first player's
    useful odd threats, ``even_threats`` the second player's useful even threats.
    """

    controller: Player | None
    reason: ControlReason
    follower: Player
    follower_squares: tuple[Cell, ...]
    mover_squares: tuple[Cell, ...]
    odd_columns: tuple[int, ...]
    odd_threats: tuple[Cell, ...]
    even_threats: tuple[Cell, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "controller": None if self.controller is None else int(self.controller),
            "reason": self.reason,
            "follow_up": {
                "player": int(self.follower),
                "squares": [cell_json(cell) for cell in self.follower_squares],
                "opponent_squares": [cell_json(cell) for cell in self.mover_squares],
                "odd_columns": [column + 1 for column in self.odd_columns],
            },
            "odd_threats": [cell_json(cell) for cell in self.odd_threats],
            "even_threats": [cell_json(cell) for cell in self.even_threats],
        }

    def sentence(self, board: Board) -> str:
        """The control in words."""
        names = _names(board.width)
        first, second = Player.FIRST.symbol, Player.SECOND.symbol
        if self.reason == "odd_height":
            return "Allis' parity rules are for boards of even height: no zugzwang control is read here."
        if self.reason == "odd_threat":
            return (
                f"{first} controls the zugzwang with the odd threat at {names(self.odd_threats)}, "
                f"and {second} has no even threat."
            )
        if self.reason == "contested":
            return (
                f"Zugzwang is contested: {first} has the odd threat at {names(self.odd_threats)}, "
                f"{second} the even threat at {names(self.even_threats)}."
            )
        even = " and has the even threat at " + names(self.even_threats) if self.even_threats else ""
        return (
            f"{second} controls the zugzwang by follow-up: answering {first} in the same column, "
            f"{second} gets every even square{even}."
            if not self.odd_columns and self.follower is Player.SECOND
            else f"{second} controls the zugzwang by follow-up{even}; {first} has no odd threat."
        )


def _names(width: int) -> Any:
    return lambda cells: ", ".join(square_name(cell, width) for cell in cells)


def follow_up_squares(board: Board) -> tuple[tuple[Cell, ...], tuple[Cell, ...], tuple[int, ...]]:
    """The cells the side not to move gets by follow-up, the cells left to the side to move, and the
    columns with an odd number of empty cells."""
    follower: list[Cell] = []
    mover: list[Cell] = []
    odd: list[int] = []
    for column in range(board.width):
        bottom = board.column_height(column)
        if (board.height - bottom) % 2:
            odd.append(column)
        for row in range(bottom, board.height):
            (mover if (row - bottom) % 2 == 0 else follower).append((column, row))
    return tuple(follower), tuple(mover), tuple(odd)


def find_zugzwang(board: Board, threats: tuple[Threat, ...]) -> Zugzwang:
    """The zugzwang facts of ``board`` from its ``threats``."""
    follower, mover, odd = follow_up_squares(board)
    odd_threats = tuple(
        t.cell for t in threats if t.player is Player.FIRST and t.parity == "odd" and not t.useless
    )
    even_threats = tuple(
        t.cell for t in threats if t.player is Player.SECOND and t.parity == "even" and not t.useless
    )
    controller: Player | None
    reason: ControlReason
    if board.height % 2:
        controller, reason = None, "odd_height"
    elif odd_threats and even_threats:
        controller, reason = None, "contested"
    elif odd_threats:
        controller, reason = Player.FIRST, "odd_threat"
    else:
        controller, reason = Player.SECOND, "follow_up"
    return Zugzwang(controller, reason, board.turn.other, follower, mover, odd, odd_threats, even_threats)
