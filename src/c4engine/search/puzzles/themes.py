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
on this module's own checks; :func:`coach_themes` (the one puzzles are made
with) adds to them the rules of Allis (:data:`~c4engine.search.coach.rules.RULES`:
``"claimeven"``, ``"oddthreat"``, ``"aftereven"``, ...) by which the coach
proves the position the solution reaches (:func:`proved_rules`): only a
proof the coach's independent checker accepts, whose claim is the puzzle's
goal.

>>> from c4engine import Board
>>> board_themes(Board.from_moves("4455"), (2,), "win", "forced win")      # X: 3 then 2 or 6
('double threat',)
>>> board_themes(Board.from_moves("445566"), (2,), "win", "win")
('immediate win',)
>>> coach_themes(Board.from_moves("3444444"), (4,), "draw", "draw held")  # Allis' diagram 6.1
('defence', 'claimeven')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, TypeAlias

from c4engine.board import Board
from c4engine.player import Player
from c4engine.search.coach.checker import check_proof
from c4engine.search.coach.claims import Claim
from c4engine.search.coach.proof import find_proof

__all__ = ["AGREEING_CLAIMS", "ThemeSource", "board_themes", "coach_themes", "last_threats", "proved_rules"]

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


def coach_themes(position: Board, solution: Sequence[int], goal: str, ends: str) -> tuple[str, ...]:
    """:func:`board_themes`' themes, then the rules of Allis that prove the position the solution
    reaches (:func:`proved_rules`), each once.

    The main theme stays :func:`board_themes`' first: it says what the solution's moves do (win,
    force, defend), which the solver must see to find them; the rules say why the position they
    reach holds, a deeper reason, and a proof exists for only some puzzles -- so a theme filter
    (``c4 puzzle --theme defence``) finds the same puzzles whether or not the coach proved one.

    >>> from c4engine import Board
    >>> coach_themes(Board.from_moves("12131"), (0,), "draw", "draw held")
    ('defence', 'block')
    """
    themes = board_themes(position, solution, goal, ends)
    reached = position.copy()
    for column in solution:
        reached.play(column)
    rules = proved_rules(reached, position.turn, goal)
    return themes + tuple(rule for rule in rules if rule not in themes)


AGREEING_CLAIMS: Final[dict[tuple[Player, str], tuple[Claim, ...]]] = {
    (Player.FIRST, "win"): ("first player wins",),
    (Player.FIRST, "draw"): ("first player at least draws", "draw"),
    (Player.SECOND, "win"): ("second player wins",),
    (Player.SECOND, "draw"): ("second player at least draws", "draw"),
}
"""(the solver's side, the goal) -> the claims that say what such a puzzle says of the solver: a win,
or at least a draw (a draw puzzle's position is a draw: a win claimed there would contradict it)."""


def proved_rules(reached: Board, solver: Player, goal: str) -> tuple[str, ...]:
    """The rules (Allis' names, in his order) of the coach's proof of ``reached`` -- a puzzle's
    position after its solution, the opponent of ``solver`` to move -- or none: when the coach finds
    no proof, its checker finds a problem with the proof, the proof is not the solver's own plan in
    ``reached`` itself, or its claim is not the puzzle's ``goal`` for the solver.

    >>> from c4engine import Board
    >>> from c4engine.player import Player
    >>> board = Board.from_moves("34444445")                   # Allis' diagram 6.1: O to claim evens
    >>> proved_rules(board, Player.SECOND, "draw"), proved_rules(board, Player.SECOND, "win")
    (('claimeven',), ())
    """
    proof = find_proof(reached)
    if proof is None or proof.controller is not solver:
        return ()  # no proof, or the opponent's, after a move of its own: it says nothing of the solver's
    if proof.claim not in AGREEING_CLAIMS[solver, goal] or check_proof(reached, proof):
        return ()
    return proof.rule_names
