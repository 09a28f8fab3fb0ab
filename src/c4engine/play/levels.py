"""Skill levels: from an opponent a beginner can beat up to the strongest search.

Each level is a fixed recipe -- search depth, evaluation function and
*noise*, the chance that the computer plays a random legal move instead of
its choice (a random move is never chosen when there is a win to take or a
loss to block: even a beginner's opponent sees those).

The levels were tuned and are measured by matches (``benchmarks/ladder.py``,
``docs/levels.md``): each level against the one below, 300 games, paired
random openings; *Elo* chains the differences with level 1 = 0 (95 %
interval of each step in brackets).  Every adjacent pair is separated: no
interval of a step contains 0.  All levels use the ``areas`` evaluator
(stronger than ``windows`` at equal depth, and faster compiled); the deep
ones run on the compiled kernel (:mod:`c4engine.kernels.heuristic`), so on
the standard board level 7's slowest move takes well under a second (CPU
times in ``docs/benchmarks.md``).  Boards too big for 64-bit bitboards fall
back to the pure-Python search, tens to hundreds of times slower at these
depths.

=====  ========  =====  =========  =====  ====  =====================
level  name      depth  evaluator  noise  Elo   step vs level below
=====  ========  =====  =========  =====  ====  =====================
1      beginner  1      areas      0.50   0     +798 [+610, +986] (*)
2      novice    2      areas      0.30   154   +154 [+112, +196]
3      casual    4      areas      0.25   239   +85 [+47, +123]
4      club      6      areas      0.16   310   +70 [+33, +108]
5      strong    8      areas      0.10   378   +68 [+32, +103]
6      expert    12     areas      0.06   458   +80 [+44, +116]
7      master    13     areas      0      574   +117 [+79, +153]
=====  ========  =====  =========  =====  ====  =====================

(*) level 1 against ``random`` (297 wins, 3 losses): a random player is about -800.

>>> level(1).depth, level(1).noise
(1, 0.5)
>>> level(9)
Traceback (most recent call last):
...
c4engine.errors.LevelError: level 9 does not exist; choose 1..7
"""

from __future__ import annotations

from dataclasses import dataclass

from c4engine.errors import LevelError

__all__ = ["DEFAULT_LEVEL", "LEVELS", "Level", "level"]


@dataclass(frozen=True)
class Level:
    """One rung of the ladder."""

    number: int
    name: str
    depth: int
    evaluator: str
    noise: float

    def __str__(self) -> str:
        return f"level {self.number} ({self.name})"


LEVELS: tuple[Level, ...] = (
    Level(1, "beginner", 1, "areas", 0.50),
    Level(2, "novice", 2, "areas", 0.30),
    Level(3, "casual", 4, "areas", 0.25),
    Level(4, "club", 6, "areas", 0.16),
    Level(5, "strong", 8, "areas", 0.10),
    Level(6, "expert", 12, "areas", 0.06),
    Level(7, "master", 13, "areas", 0.0),
)

DEFAULT_LEVEL = 3


def level(number: int) -> Level:
    """The level numbered ``number`` (1-based)."""
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(LEVELS):
        raise LevelError(f"level {number} does not exist; choose 1..{len(LEVELS)}")
    return LEVELS[number - 1]
