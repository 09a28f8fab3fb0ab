"""What a search under way knows: :class:`Progress`, handed to a :data:`Hook` that may stop it.

One type for every search -- the exact solver, the heuristic engine, the
analysis service that runs them, game review -- as python-chess's ``InfoDict``
is for an engine's info, but typed: each search fills the fields it knows and
leaves the others ``None``.  A hook returns True to stop the search.

>>> progress = Progress(nodes=1_000, time=0.5, lower=-2, upper=3)
>>> progress.depth is None, progress.lower
(True, -2)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

__all__ = ["Hook", "Progress", "ReviewedPly"]


class ReviewedPly(Protocol):
    """A ply a review has judged (:class:`c4engine.search.review.game.PlyReview` is one)."""

    @property
    def ply(self) -> int:
        """The ply's number, from 1."""
        ...

    @property
    def verdict(self) -> str:
        """The judgement of the move played: ``"best"``, ``"mistake"``, ..."""
        ...


@dataclass(frozen=True)
class Progress:
    """What a search under way knows; ``None`` where that search does not tell.

    ``nodes`` and ``time`` (wall-clock seconds since the search began) every
    search tells.  The exact solver tells the bounds proven so far
    (``lower``/``upper``) and the best move it has; the heuristic engine the
    ``depth`` being searched, the best move and its ``score`` (the engine's
    scale) it would answer if it stopped now, and the CPU seconds it has used
    (``cpu_time``, its poll interval's clock); a game review the plies done
    (``plies_done`` of ``plies``), with the last one reviewed (``ply``).
    """

    nodes: int = 0
    time: float = 0.0
    best_move: int | None = None
    lower: int | None = None
    upper: int | None = None
    depth: int | None = None
    score: float | None = None
    cpu_time: float | None = None
    plies_done: int | None = None
    plies: int | None = None
    ply: ReviewedPly | None = None


Hook = Callable[[Progress], bool | None]
"""Called now and then during a search with its :class:`Progress`; returning True stops the search."""
