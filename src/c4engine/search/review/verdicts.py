"""Judging a move: its verdict from what is proven of its score and the best one, and a side's accuracy.

The verdicts (:data:`VERDICTS`), from the mover's view on the solver's scale:

* **best** -- the move kept the mover's score;
* **inaccuracy** -- same result, but a slower win or a quicker loss;
* **mistake** -- a win thrown to a draw, or a draw to a loss;
* **blunder** -- a win thrown to a loss;
* **not proven** -- what is proven does not decide the comparison;
* **not chosen** -- nobody chose the move (a match's random opening).

A side's accuracy is its share of best moves among its proven ones, given
only from :data:`MIN_PROVEN_MOVES` proven moves on (fewer say too little).
"""

from __future__ import annotations

from typing import Final, Literal, get_args

from c4engine.search.scale import sign

__all__ = ["MARKS", "MIN_PROVEN_MOVES", "VERDICTS", "PlyVerdict", "judge", "verdict_of"]

PlyVerdict = Literal["best", "inaccuracy", "mistake", "blunder", "not proven", "not chosen"]

VERDICTS: Final[tuple[PlyVerdict, ...]] = get_args(PlyVerdict)
"""Every verdict a ply can get, from the best to none (a ply nobody chose is judged for no one)."""

MIN_PROVEN_MOVES: Final = 5
"""The fewest proven moves of a side that give it an accuracy: a share of fewer says too little."""

MARKS: Final[dict[str, str]] = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""The annotation marks of the verdicts that cost something."""


def verdict_of(
    before_lower: int, before_upper: int, lower: int, upper: int, chosen: bool
) -> tuple[PlyVerdict, bool]:
    """:func:`judge`'s verdict for a move someone chose, ``"not chosen"`` for one nobody did."""
    return judge(before_lower, before_upper, lower, upper) if chosen else ("not chosen", False)


def judge(before_lower: int, before_upper: int, lower: int, upper: int) -> tuple[PlyVerdict, bool]:
    """A ply's verdict from what is proven, and whether the move may be worse than it says.

    ``before_*`` bound the best score the mover could get, ``lower``/``upper``
    the score of the move played (solver scale).  Only what the bounds prove
    is claimed; the rest is ``"not proven"``.

    >>> judge(3, 3, 3, 3), judge(3, 3, 1, 1), judge(3, 3, 0, 0), judge(0, 0, -2, -2), judge(3, 3, -2, -2)
    (('best', False), ('inaccuracy', False), ('mistake', False), ('mistake', False), ('blunder', False))
    >>> judge(2, 9, -20, 0)      # a proven win answered by a move proven no better than a draw
    ('mistake', True)
    >>> judge(2, 9, -20, 5)      # the move may still win: nothing proven
    ('not proven', False)
    """
    if lower >= before_upper:
        return "best", False
    least_drop = sign(before_lower) - sign(upper)
    most_drop = sign(before_upper) - sign(lower)
    if least_drop >= 2:
        return "blunder", False
    if least_drop == 1:
        return "mistake", most_drop > 1
    if most_drop == 0 and sign(before_lower) == sign(before_upper) and upper < before_lower:
        return "inaccuracy", False
    return "not proven", False
