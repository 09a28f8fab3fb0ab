"""The heuristic engine's own answer at the root, internal to the search layer.

Both of the engine's searches -- negamax in Python and its compiled twin -- answer a depth's search
with a :class:`RootAnswer`; :meth:`Engine.search <c4engine.search.engine.negamax.Engine.search>`
turns the last one into the public :class:`~c4engine.search.results.PlayResult`.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["RootAnswer"]


class RootAnswer(NamedTuple):
    """The best move of one depth's root search, its value and its line.

    >>> RootAnswer(column=3, value=1.5, line=(3, 2))
    RootAnswer(column=3, value=1.5, line=(3, 2))
    """

    column: int
    """0-based."""
    value: float
    """The engine's value of the position for the side to move, in its own units."""
    line: tuple[int, ...]
    """The principal variation, starting with ``column`` (0-based)."""
