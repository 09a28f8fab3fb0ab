"""The score scale, in one place: what an exact score means, its range, and the engine's units.

Exact scores follow the published Connect-4 solver benchmarks.  For the side
to move, a position scores

* :func:`win_score` ``(cells, stones)`` = ``(cells + 1 - stones) // 2`` if
  it wins with its next stone on a board of ``cells`` cells that holds
  ``stones`` now -- so the sooner the win, the higher the score: winning
  with a later stone of its own scores the win score of the board as it is
  when that stone is dropped;
* the negation of the winner's score if it loses;
* 0 for a draw.

A weak score keeps only the sign: 1 (win), 0 (draw), -1 (loss).

The heuristic engine counts in its own units: a win at ply ``p`` (its
winning stone the ``p``-th from now) is ``WIN_SCORE - p``, a loss
``-(WIN_SCORE - p)``, anything nearer zero than :data:`WIN_THRESHOLD` an
estimate; :func:`from_engine` and :func:`to_engine` convert.

The compiled search has this scale's twin in :mod:`c4engine.kernels.scale`;
the web page draws the moves the server computed (``moves``,
``moves_at_most``) and keeps no copy.  Nothing here imports anything.

>>> win_score(42, 0), score_range(42, 0)   # the empty board: the first player's 21st stone
(21, (-21, 21))
>>> moves_to_end(1, 42, 0)
21
>>> from_engine(WIN_SCORE - 3, 42, 6), to_engine(17, 42, 6) == WIN_SCORE - 3
(17, True)
"""

from __future__ import annotations

from typing import Final

WIN_SCORE: Final = 10**9
"""The heuristic engine's scale: a win at ply ``p`` from the root scores ``WIN_SCORE - p``."""

MAX_PLIES: Final = 32 * 32
"""The most plies any board can last (the largest board's cells)."""

WIN_THRESHOLD: Final = WIN_SCORE - MAX_PLIES
"""Engine values this far from zero or farther are wins or losses the search saw to the end."""


def sign(score: int) -> int:
    """A score's sign, its weak score: 1 a win, 0 a draw, -1 a loss.

    >>> sign(18), sign(0), sign(-3)
    (1, 0, -1)
    """
    return (score > 0) - (score < 0)


def win_score(cells: int, stones: int) -> int:
    """The score of the side to move when its next stone wins, on a board of ``cells`` holding ``stones``.

    >>> win_score(42, 6), win_score(42, 41)
    (18, 1)
    """
    return (cells + 1 - stones) // 2


def score_range(cells: int, stones: int) -> tuple[int, int]:
    """``(lowest, highest)`` strong scores of a position of ``stones`` stones: the opponent's next
    stone wins, or the side to move's own next stone does.

    >>> score_range(42, 6)
    (-18, 18)
    >>> score_range(42, 7)
    (-17, 18)
    """
    return -win_score(cells, stones + 1), win_score(cells, stones)


def open_range(cells: int, stones: int) -> tuple[int, int]:
    """``(lowest, highest)`` strong scores of a position of ``stones`` stones with no win on the spot
    (the side to move's best is then to win with its stone after next): the bounds known before any
    search, which prove nothing.

    >>> open_range(42, 6), open_range(64, 4)
    ((-18, 17), (-30, 29))
    """
    return -win_score(cells, stones + 1), win_score(cells, stones + 2)


def proves_nothing(lower: int, upper: int, cells: int, stones: int, weak: bool = False) -> bool:
    """Whether the bounds ``[lower, upper]`` of a position of ``stones`` stones (or of one of its
    moves, seen from it) hold every score it could have without a win on the spot: no search
    narrowed them (:func:`open_range`; ``weak``: -1..1).

    >>> proves_nothing(-30, 30, 64, 4), proves_nothing(-30, 29, 64, 4), proves_nothing(-30, 0, 64, 4)
    (True, True, False)
    >>> proves_nothing(-1, 1, 64, 4, weak=True)
    True
    """
    low, high = (-1, 1) if weak else open_range(cells, stones)
    return lower <= low and upper >= high


def moves_to_end(score: int, cells: int, stones: int) -> int:
    """How many moves the winner makes, from a position scoring ``score``, up to its winning stone.

    The winner is the side to move for a positive score, the opponent for a
    negative one; 0 for a draw.

    >>> moves_to_end(1, 42, 0)   # empty board: the first player's 21st stone wins
    21
    >>> moves_to_end(-1, 42, 1)
    20
    """
    if score > 0:
        return win_score(cells, stones) - score + 1
    if score < 0:
        return win_score(cells, stones + 1) + score + 1
    return 0


def from_engine(value: float, cells: int, stones: int) -> int | None:
    """The exact score of an engine value that is a win or loss seen to the end, else None.

    >>> from_engine(-(WIN_SCORE - 2), 42, 0), from_engine(12.5, 42, 0)
    (-21, None)
    """
    if abs(value) < WIN_THRESHOLD:
        return None
    plies = int(WIN_SCORE - abs(value))  # from now, the winning stone included
    magnitude = win_score(cells, stones + plies - 1)  # as the winning stone is dropped
    return magnitude if value > 0 else -magnitude


def to_engine(score: int, cells: int, stones: int) -> float:
    """A strong exact score in the engine's units (a win in ``n`` moves is ``WIN_SCORE`` less its plies).

    >>> to_engine(-2, 42, 1) == -(WIN_SCORE - 38), to_engine(0, 42, 1)
    (True, 0.0)
    """
    if score == 0:
        return 0.0
    moves = moves_to_end(score, cells, stones)
    plies = 2 * moves - 1 if score > 0 else 2 * moves  # the winner's stones and the replies
    return float(WIN_SCORE - plies) if score > 0 else float(plies - WIN_SCORE)
