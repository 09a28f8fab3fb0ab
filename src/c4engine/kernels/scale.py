"""The score scale's compiled twin: :mod:`c4engine.search.scale` for the kernels.

The exact search scores as the published solver benchmarks do; see
:mod:`c4engine.search.scale` for what a score means (this layer cannot
import it, being below it).  The search's bounds are all :func:`win_score`
of a board some stones on: the lowest score is the opponent's win with
its next stone, ``-win_score(cells, stones + 1)``.
"""

from __future__ import annotations

from numba import njit


@njit(cache=True)
def win_score(cells: int, stones: int) -> int:
    """The score of the side to move when its next stone wins, on a board of ``cells`` holding ``stones``."""
    return (cells + 1 - stones) // 2
