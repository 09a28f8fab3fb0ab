"""Skill levels: from an opponent a beginner can beat up to the strongest search.

Each level is a fixed recipe -- search depth, evaluation function, *noise*,
the chance that the computer plays a random legal move instead of its
choice (a random move is never chosen when there is a win to take or a
loss to block: even a beginner's opponent sees those) -- and a *time
budget*: the engine deepens up to the level's depth until the budget's
wall-clock seconds run out, so every level answers within a few seconds on
any board (on boards too big for 64-bit bitboards the pure-Python search
would otherwise take minutes at these depths).  Level 7 is also ``exact``:
where the opening book or the exact solver proves a best move within part
of its budget, it plays that move (:class:`c4engine.play.players.EnginePlayer`).

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
    time_limit: float
    """Seconds of wall-clock time a move may take: the search deepens up to ``depth`` until then."""
    exact: bool = False
    """Whether the opening book and the exact solver choose the move where they answer in time."""

    def __str__(self) -> str:
        return f"level {self.number} ({self.name})"


LEVELS: tuple[Level, ...] = (
    Level(1, "beginner", 1, "areas", 0.50, 0.25),
    Level(2, "novice", 2, "areas", 0.30, 0.25),
    Level(3, "casual", 4, "areas", 0.25, 0.5),
    Level(4, "club", 6, "areas", 0.16, 0.5),
    Level(5, "strong", 8, "areas", 0.10, 1.0),
    Level(6, "expert", 12, "areas", 0.06, 1.5),
    Level(7, "master", 13, "areas", 0.0, 2.0, exact=True),
)

DEFAULT_LEVEL = 3


def level(number: int) -> Level:
    """The level numbered ``number`` (1-based)."""
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(LEVELS):
        raise LevelError(f"level {number} does not exist; choose 1..{len(LEVELS)}")
    return LEVELS[number - 1]
