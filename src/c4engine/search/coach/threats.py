"""Threats: the empty cells that would complete a line of ``connect`` for a player.

A threat of a player is an empty cell that completes one of that player's
groups (:mod:`c4engine.search.coach.groups`) were it theirs.  Its parity is
its row's, counted 1-based from the bottom (Allis: the first player wants
odd threats, the second even ones).  It is *playable* when it is the lowest
empty cell of its column, and *useless* when it lies directly above a threat
of the opponent (who takes the cell below it, or must let it be taken) or
above another threat of the same player in the same column (the lower one
decides first) -- Allis, sections 3.1 and 3.2.

>>> from c4engine.board import Board
>>> board = Board.from_moves("112233")      # X has a1-c1, O a2-c2
>>> [(t.player.symbol, t.name(7), t.parity, t.playable, t.useless) for t in find_threats(board)]
[('X', 'd1', 'odd', True, False), ('O', 'd2', 'even', False, True)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from c4engine.board import Board
from c4engine.player import Player
from c4engine.search.coach.groups import Cell, Group, groups_through, square_name

__all__ = ["Parity", "Threat", "find_threats", "parity_of"]

Parity = Literal["odd", "even"]


def parity_of(row: int) -> Parity:
    """The parity of a 0-based ``row`` as people count it (row 0 is row 1: odd)."""
    return "odd" if row % 2 == 0 else "even"


@dataclass(frozen=True)
class Threat:
    """An empty cell completing ``groups`` of ``player`` (0-based ``column`` and ``row``)."""

    player: Player
    column: int
    row: int
    playable: bool
    useless: bool
    groups: tuple[Group, ...]

    @property
    def cell(self) -> Cell:
        return (self.column, self.row)

    @property
    def parity(self) -> Parity:
        return parity_of(self.row)

    def name(self, width: int) -> str:
        return square_name(self.cell, width)

    def to_json(self) -> dict[str, Any]:
        """``player`` 1 or 2 (1 moves first), 1-based ``column`` and ``row``, ``parity``, ``playable``,
        ``useless`` and the ``groups`` it completes (each a list of 1-based cells)."""
        return {
            "player": int(self.player),
            "column": self.column + 1,
            "row": self.row + 1,
            "parity": self.parity,
            "playable": self.playable,
            "useless": self.useless,
            "groups": [group.to_json() for group in self.groups],
        }


def find_threats(board: Board) -> tuple[Threat, ...]:
    """Every threat of both players, the first player's first, each column by column, bottom up."""
    geometry = board.geometry
    found: dict[Player, list[tuple[int, int, tuple[Group, ...]]]] = {Player.FIRST: [], Player.SECOND: []}
    through = groups_through(geometry)
    for player in (Player.FIRST, Player.SECOND):
        stones = board.bits_of(player)
        for column in range(board.width):
            for row in range(board.column_height(column), board.height):
                bit = geometry.bit(column, row)
                completed = tuple(g for g in through.get((column, row), ()) if not (g.bits & ~bit) & ~stones)
                if completed:
                    found[player].append((column, row, completed))
    cells = {player: {(c, r) for c, r, _ in found[player]} for player in found}
    threats = []
    for player in (Player.FIRST, Player.SECOND):
        for column, row, completed in found[player]:
            below_theirs = (column, row - 1) in cells[player.other]
            below_mine = any((column, lower) in cells[player] for lower in range(row))
            threats.append(
                Threat(
                    player=player,
                    column=column,
                    row=row,
                    playable=row == board.column_height(column),
                    useless=below_theirs or below_mine,
                    groups=completed,
                )
            )
    return tuple(threats)
