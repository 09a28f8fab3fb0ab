"""Elo differences from match results: the estimate and its 95 % interval.

:func:`elo_difference` turns a player's wins, draws and losses into the
Elo difference against its opponent, with an interval that stays sensible
at a 100 % or 0 % score (see its docstring for the method);
:func:`score_to_elo` is the plain logistic conversion.

>>> str(elo_difference(60, 20, 20))
'+147 [+81, +210] (95%)'
>>> elo_difference(30, 40, 30).elo
0.0
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

__all__ = ["Z_95", "EloEstimate", "elo_difference", "score_to_elo"]

Z_95 = 1.959963984540054
"""The two-sided 95 % quantile of the standard normal distribution."""


def score_to_elo(score: float) -> float:
    """The Elo difference that makes ``score`` (0..1) the expected score; ±inf at 0 and 1.

    >>> round(score_to_elo(0.75), 1), score_to_elo(0.5), score_to_elo(1.0)
    (190.8, 0.0, inf)
    """
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"a score is between 0 and 1, not {score}")
    if score == 1.0:
        return math.inf
    if score == 0.0:
        return -math.inf
    return 400.0 * math.log10(score / (1.0 - score)) + 0.0


@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference (``elo``) with its interval ``low .. high`` and the score it comes from.

    ``elo`` is ±inf for a 100 % or 0 % score; the interval then still has one
    finite end (e.g. "at least +350").
    """

    elo: float
    low: float
    high: float
    score: float
    games: int
    confidence: float = 0.95

    def __str__(self) -> str:
        """``+147 [+81, +210] (95%)``, or ``>= +166 (95%)`` (``<= ...``) for a 100 % (0 %) score.

        >>> str(elo_difference(10, 0, 0))
        '>= +166 (95%)'
        >>> str(elo_difference(0, 0, 0))
        'no games'
        """
        if self.games == 0:
            return "no games"
        level = f"{self.confidence:.0%}"
        if math.isinf(self.elo):
            return (
                f">= {_signed(self.low)} ({level})" if self.elo > 0 else f"<= {_signed(self.high)} ({level})"
            )
        return f"{_signed(self.elo)} [{_signed(self.low)}, {_signed(self.high)}] ({level})"


def _signed(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.0f}"


def _normal_quantile(confidence: float) -> float:
    if confidence == 0.95:
        return Z_95
    return statistics.NormalDist().inv_cdf(0.5 + confidence / 2.0)


def elo_difference(wins: int, draws: int, losses: int, confidence: float = 0.95) -> EloEstimate:
    """The Elo difference of a player who scored ``wins``/``draws``/``losses``, with an interval.

    The score ``s = (W + D/2) / n`` estimates the expected score ``p``; the
    Elo difference is ``-400 log10(1/s - 1)``.  The interval is the Wilson
    score interval carried over to three outcomes: the ``p`` with
    ``(s - p)^2 <= z^2 v(p) / n``, where ``v(p) = p (1 - p) - d/4`` is the
    variance of one game's score (0, 1/2 or 1) whose mean is ``p`` at the
    observed draw rate ``d`` (taken as ``D / (n + z^2)``, a little below
    ``D / n``, the way Wilson's interval pulls towards the middle: with
    ``D / n`` a match of only draws would claim an interval of width 0);
    its ends are mapped to Elo.  Unlike the plain
    normal interval ``s ± z sqrt(v(s)/n)`` it stays sensible at the extremes:
    a 100 % score gives a finite lower end and an infinite upper one, and it
    narrows like ``1/sqrt(n)`` as games accumulate.  (Without draws it is
    exactly Wilson's interval.)

    >>> estimate = elo_difference(60, 20, 20)     # 70 %
    >>> round(estimate.elo), round(estimate.low), round(estimate.high)
    (147, 81, 210)
    >>> swept = elo_difference(0, 0, 10)          # 0 %: no finite estimate, a finite upper end
    >>> swept.elo, round(swept.high)
    (-inf, -166)
    """
    for name, count in (("wins", wins), ("draws", draws), ("losses", losses)):
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f"{name} must be a whole number of at least 0, not {count!r}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence}")
    games = wins + draws + losses
    if games == 0:
        return EloEstimate(0.0, -math.inf, math.inf, 0.5, 0, confidence)
    score = (wins + draws / 2.0) / games
    z2 = _normal_quantile(confidence) ** 2
    draw_rate = draws / (games + z2)  # shrunk a little, so that all draws still leave an interval
    k = z2 / games
    # (1 + k) p^2 - (2 s + k) p + (s^2 + k d / 4) = 0
    root = math.sqrt(max(0.0, k * (4.0 * score * (1.0 - score) - draw_rate + k * (1.0 - draw_rate))))
    low = max(0.0, (2.0 * score + k - root) / (2.0 * (1.0 + k)))
    high = min(1.0, (2.0 * score + k + root) / (2.0 * (1.0 + k)))
    low, high = min(low, score), max(high, score)
    return EloEstimate(score_to_elo(score), score_to_elo(low), score_to_elo(high), score, games, confidence)
