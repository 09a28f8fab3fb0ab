"""Immediate facts: what the next move or two must deal with, read off the threats.

* ``win_now`` -- the side to move wins by playing one of ``columns``;
* ``forced_block`` -- the opponent threatens to win in ``columns`` next move, and the side to move
  (who cannot win now) must block there;
* ``double_threat`` -- ``player`` threatens to win in two places at once: two playable threats,
  or two of its threats directly above each other with the lower one playable; one move cannot stop both;
* ``gives_win_above`` -- playing one of ``columns`` lets the opponent of the side to move win on the
  cell directly above it.

>>> from c4engine.board import Board
>>> from c4engine.search.coach.threats import find_threats
>>> board = Board.from_moves("112233")       # X has a1-c1, O a2-c2; X to move
>>> [fact.sentence(board) for fact in immediate_facts(board, find_threats(board))]
['X wins now by playing column 4.']
>>> board = Board.from_moves("1122337")      # X played elsewhere: O to move must block d1
>>> [fact.kind for fact in immediate_facts(board, find_threats(board))]
['forced_block']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from c4engine.board import Board
from c4engine.player import Player
from c4engine.search.coach.threats import Threat

__all__ = ["Immediate", "ImmediateKind", "immediate_facts"]

ImmediateKind = Literal["win_now", "forced_block", "double_threat", "gives_win_above"]


@dataclass(frozen=True)
class Immediate:
    """One immediate fact: its ``kind``, the ``player`` it is about, the 0-based ``columns`` it names."""

    kind: ImmediateKind
    player: Player
    columns: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "player": int(self.player), "columns": [c + 1 for c in self.columns]}

    def sentence(self, board: Board) -> str:
        """The fact in words (``board`` names the cells)."""
        who, other = self.player.symbol, self.player.other.symbol
        columns = _columns(self.columns)
        if self.kind == "win_now":
            return f"{who} wins now by playing {columns}."
        if self.kind == "forced_block":
            return f"{who} must block {columns}: {other} threatens to win there next move."
        if self.kind == "double_threat":
            return f"{who} has a double threat ({columns}): one move cannot stop both."
        return f"Playing {columns} lets {other} win on the cell directly above."


def _columns(columns: tuple[int, ...]) -> str:
    names = [str(column + 1) for column in columns]
    if len(names) == 1:
        return f"column {names[0]}"
    return f"columns {', '.join(names[:-1])} and {names[-1]}"


def immediate_facts(board: Board, threats: tuple[Threat, ...]) -> tuple[Immediate, ...]:
    """The immediate facts of ``board`` from its ``threats``
    (:func:`~c4engine.search.coach.threats.find_threats`)."""
    if board.is_over:
        return ()
    mover = board.turn
    facts: list[Immediate] = []
    wins = tuple(board.winning_columns())
    if wins:
        return (Immediate("win_now", mover, wins),)
    blocks = tuple(board.winning_columns(mover.other))
    if blocks:
        facts.append(Immediate("forced_block", mover, blocks))
    cells = {(t.player, t.column, t.row) for t in threats}
    for player in (mover.other, mover):
        playable = [t.column for t in threats if t.player is player and t.playable]
        stacked = [
            t.column
            for t in threats
            if t.player is player and t.playable and (player, t.column, t.row + 1) in cells
        ]
        if len(playable) >= 2 or stacked:
            facts.append(Immediate("double_threat", player, tuple(sorted(set(playable) | set(stacked)))))
    poisoned = tuple(
        column
        for column in board.legal_moves()
        if (mover.other, column, board.column_height(column) + 1) in cells
    )
    if poisoned:
        facts.append(Immediate("gives_win_above", mover, poisoned))
    return tuple(facts)
