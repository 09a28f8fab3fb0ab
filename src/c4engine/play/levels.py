"""Skill levels: from an opponent a beginner can beat up to the strongest search.

Each level is a fixed recipe: a :class:`~c4engine.search.limit.Limit` --
the search depth and a *time budget*: the engine deepens up to the level's
depth until the budget's wall-clock seconds run out, so every level answers
within a few seconds on any board (on boards too big for 64-bit bitboards
the pure-Python search would otherwise take minutes at these depths) --
plus an evaluation function and *noise*, the chance that the computer plays
a random legal move instead of its choice (a random move is never chosen
when there is a win to take or a loss to block: even a beginner's opponent
sees those).  Level 7 is also ``exact``: it asks the analysis service
(:class:`c4engine.search.analysis.analyst.Analyst`) with its limit, which plays the
book's or the exact solver's move where one is proven within part of it
and the engine's in the rest (:class:`c4engine.play.players.EnginePlayer`).

The levels were tuned and are measured by matches (``benchmarks/ladder.py``,
``docs/levels.md``): each level against the one below, 300 games, paired
random openings; *Elo* chains the differences with level 1 = 0 (95 %
interval of each step in brackets).  Every adjacent pair is separated: no
interval of a step contains 0.  All levels use the ``areas`` evaluator
(stronger than ``windows`` at equal depth, and faster compiled).  Seconds a
move on 7x6, 8x7 and 9x7 connect 5: ``benchmarks/level_times.py``, table
in ``docs/levels.md``.

=====  ========  =====  =========  =====  ======  =====  ====  =====================
level  name      depth  evaluator  noise  budget  exact  Elo   step vs level below
=====  ========  =====  =========  =====  ======  =====  ====  =====================
1      beginner  1      areas      0.50   0.25 s  no     0     +798 [+610, +986] (*)
2      novice    2      areas      0.30   0.25 s  no     164   +164 [+121, +207]
3      casual    4      areas      0.25   0.5 s   no     249   +85 [+47, +123]
4      club      6      areas      0.16   0.5 s   no     321   +72 [+34, +109]
5      strong    8      areas      0.10   1 s     no     408   +88 [+51, +124]
6      expert    12     areas      0.06   1.5 s   no     512   +104 [+67, +140]
7      master    13     areas      0      2 s     yes    737   +225 [+182, +267]
=====  ========  =====  =========  =====  ======  =====  ====  =====================

(*) level 1 against ``random`` (297 wins, 3 losses): a random player is about -800.

>>> level(1).limit, level(1).noise
(Limit(time=0.25, depth=1), 0.5)
>>> level(9)
Traceback (most recent call last):
...
c4engine.errors.LevelError: level 9 does not exist; choose 1..7
"""

from __future__ import annotations

from dataclasses import dataclass

from c4engine.errors import LevelError
from c4engine.search.limit import Limit

__all__ = ["DEFAULT_LEVEL", "LEVELS", "Level", "level"]


@dataclass(frozen=True)
class Level:
    """One rung of the ladder."""

    number: int
    name: str
    limit: Limit
    """Its depth and the seconds of wall-clock time a move may take: the search deepens up to the
    depth until then."""
    evaluator: str
    noise: float
    exact: bool = False
    """Whether the analysis service chooses the move (the opening book and the exact solver where
    they prove one within the limit), not the engine alone."""

    def __str__(self) -> str:
        return f"level {self.number} ({self.name})"


LEVELS: tuple[Level, ...] = (
    Level(1, "beginner", Limit(depth=1, time=0.25), "areas", 0.50),
    Level(2, "novice", Limit(depth=2, time=0.25), "areas", 0.30),
    Level(3, "casual", Limit(depth=4, time=0.5), "areas", 0.25),
    Level(4, "club", Limit(depth=6, time=0.5), "areas", 0.16),
    Level(5, "strong", Limit(depth=8, time=1.0), "areas", 0.10),
    Level(6, "expert", Limit(depth=12, time=1.5), "areas", 0.06),
    Level(7, "master", Limit(depth=13, time=2.0), "areas", 0.0, exact=True),
)

DEFAULT_LEVEL = 3


def level(number: int) -> Level:
    """The level numbered ``number`` (1-based)."""
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(LEVELS):
        raise LevelError(f"level {number} does not exist; choose 1..{len(LEVELS)}")
    return LEVELS[number - 1]
