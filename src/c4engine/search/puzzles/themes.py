"""What a puzzle's solution shows, from facts checked on the board: its themes.

:func:`board_themes` names, the main one first:

* ``"immediate win"`` -- the only move wins the game on the spot;
* ``"double threat"`` -- after the last move the solver threatens to win in
  two playable places: the opponent can block one;
* ``"threat above threat"`` -- one playable threat, and the cell above it
  wins too: the block gives the win;
* ``"zugzwang"`` -- no playable threat, yet every move of the opponent lets
  the solver win at once (each plays under a threat);
* ``"defence"`` -- a draw held by only moves;

and, besides, ``"block"`` when the first move takes the cell where the
opponent threatened to win at once.

The themes come through a :data:`ThemeSource`: a function of the position,
the solution, the goal and the ending.  :func:`board_themes` is the one built
on this module's own checks; a source built on the coach's facts
(:mod:`c4engine.search.coach`: odd threats, claimeven, ...) can be handed to
:func:`~c4engine.search.puzzles.generation.puzzles_from_game` in its place.

>>> from c4engine import Board
>>> board_themes(Board.from_moves("4455"), (2,), "win", "forced win")      # X: 3 then 2 or 6
('double threat',)
>>> board_themes(Board.from_moves("445566"), (2,), "win", "win")
('immediate win',)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeAlias

from c4engine.board import Board

__all__ = ["ThemeSource", "board_themes", "last_threats"]

ThemeSource: TypeAlias = Callable[[Board, Sequence[int], str, str], tuple[str, ...]]
"""``(position, solution (0-based), goal, ends) -> themes``, the main one first."""


def board_themes(position: Board, solution: Sequence[int], goal: str, ends: str) -> tuple[str, ...]:
    """The themes this module checks (see the module's notes) of a puzzle."""
    walk = position.copy()
    first = solution[0]
    blocks = first in walk.winning_columns(walk.turn.other)
    for column in solution:
        walk.play(column)
    themes: list[str] = []
    if ends == "win":
        themes.append("immediate win")
    elif ends == "forced win":
        themes.append(last_threats(walk))
    else:
        themes.append("defence")
    if blocks:
        themes.append("block")
    return tuple(themes)


def last_threats(board: Board) -> str:
    """How the side that just moved wins whatever ``board``'s side to move does: ``"double threat"``,
    ``"threat above threat"`` or ``"zugzwang"`` (see the module's notes)."""
    mover = board.turn.other
    threats = board.winning_columns(mover)
    if len(threats) >= 2:
        return "double threat"
    return "threat above threat" if threats else "zugzwang"
