"""How far into a game the exact solver answers soon: measured figures, and an estimate from them.

On a big board the exact solver proves nothing early in a game within
minutes, and everything late within a fraction of a second.  :data:`MEASURED`
holds, for the common boards, from how many stones on an exact answer came
within 1 s and within 10 s (``benchmarks/exact_reach.py``: engine games,
each position solved without the book by a fresh solver, from the game's end
back; rough figures -- one position's difficulty differs from another's by a
few stones -- measured on a loaded 2-core machine).  :func:`board_reach` gives
them, or for another board an estimate from the measured board of the same
connect nearest in size (the same number of empty cells left at the 10 s
figure).  A solve without a limit on a position short of its board's figure
is told, before it starts, that it may take very long
(:meth:`Reach.outlook`); the perfect player gives such a position a short
proof budget (:mod:`c4engine.play.perfect`).

>>> board_reach(8, 8, 4)
Reach(8x8: exact within 1 s from 38 stones, within 10 s from 22, measured)
>>> board_reach(8, 7, 4).within_10s, board_reach(8, 7, 4).measured     # estimated from 10x6's
(22, False)
>>> print(board_reach(8, 8, 4).outlook(4))
exact answers on 8x8 come within 10 s from about 22 stones (measured); this position has 4: \
an exact solve may take hours
>>> board_reach(8, 8, 4).outlook(24) is None, board_reach(4, 4, 4).outlook(0) is None
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = ["MEASURED", "SHORT_BY_MINUTES", "Reach", "board_reach"]

MEASURED: Final[dict[tuple[int, int, int], tuple[int, int]]] = {
    (7, 6, 4): (8, 6),
    (8, 8, 4): (38, 22),
    (9, 7, 4): (24, 22),
    (10, 6, 4): (34, 26),
    (7, 9, 4): (27, 25),
    (9, 7, 5): (41, 37),
}
"""(width, height, connect) -> (stones from which exact answers came within 1 s, within 10 s), without
the book: the most stones any of three games needed (one game on 7x6), ``benchmarks/exact_reach.py``
with seeds 1-3, 2026-12-01, on a loaded 2-core machine (load average 6-9); docs/levels.md gives
each game's figures."""


SHORT_BY_MINUTES: Final = 4
"""Stones short of the 10 s figure an exact solve is told it may take minutes; more: hours (on 7x6,
6 stones took 3.6 s and 4 more than 10; the empty board's children take 90-300 CPU s each)."""


@dataclass(frozen=True)
class Reach:
    """From how many stones on exact answers come within 1 s and within 10 s on one board."""

    width: int
    height: int
    connect: int
    within_1s: int
    within_10s: int
    measured: bool
    """Measured on this board (:data:`MEASURED`), or estimated from a measured one."""

    @property
    def name(self) -> str:
        connect = f" connect {self.connect}" if self.connect != 4 else ""
        return f"{self.width}x{self.height}{connect}"

    def outlook(self, stones: int) -> str | None:
        """Words for a position of ``stones`` stones short of the 10 s figure, where an exact solve may
        run for hours; None from the figure on."""
        if stones >= self.within_10s:
            return None
        how = "measured" if self.measured else "estimated from a measured board"
        # each stone fewer multiplies the work by several: a few short is minutes, more is hours
        long = "minutes" if self.within_10s - stones <= SHORT_BY_MINUTES else "hours"
        return (
            f"exact answers on {self.name} come within 10 s from about {self.within_10s} stones ({how}); "
            f"this position has {stones}: an exact solve may take {long}"
        )

    def __repr__(self) -> str:
        how = "measured" if self.measured else "estimated"
        return (
            f"Reach({self.name}: exact within 1 s from {self.within_1s} stones, "
            f"within 10 s from {self.within_10s}, {how})"
        )


def board_reach(width: int, height: int, connect: int) -> Reach | None:
    """The figures of the board ``width`` x ``height``, connect ``connect``: measured, else estimated
    from the measured board of that connect nearest in cells (as many empty cells left at each
    figure), else None (no board of that connect measured)."""
    known = MEASURED.get((width, height, connect))
    if known is not None:
        return Reach(width, height, connect, *known, measured=True)
    cells = width * height
    alike = [(w * h, figures) for (w, h, n), figures in MEASURED.items() if n == connect]
    if not alike:
        return None
    near_cells, (one, ten) = min(alike, key=lambda item: (abs(item[0] - cells), item[0]))
    return Reach(
        width,
        height,
        connect,
        max(0, cells - (near_cells - one)),
        max(0, cells - (near_cells - ten)),
        measured=False,
    )
