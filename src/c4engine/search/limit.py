"""How much work a question about a position may cost: :class:`Limit`.

One type for every search -- the analysis service, the exact solver
(``Solver.solve(board, limit)``), the heuristic engine (``Engine.search(board,
limit)``), the players and levels (a level is a limit plus an evaluator and
noise) -- so a front-end says once what it can afford, where the request
comes in (``--time``/``--nodes``/``--depth``, the web API's query), and
hands it down unchanged.  The analysis service is the one place that splits
one between its parts (:meth:`Limit.share`).

>>> Limit(time=0.5)
Limit(time=0.5)
>>> Limit(depth=0)
Traceback (most recent call last):
...
c4engine.errors.LimitError: depth must be a whole number of at least 1, not 0
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from c4engine.errors import LimitError

__all__ = ["MAX_NODES", "UNLIMITED", "Limit"]

MAX_NODES = 10**12
"""The most nodes a front-end lets one question ask for (``--nodes``, the web's ``nodes``): more
than any search finishes in a day."""


DEFAULT_POLL_INTERVAL: Final = 0.25
"""CPU seconds between a solve's looks at the clock and at its poll hook, unless told otherwise."""


@dataclass(frozen=True)
class Limit:
    """Bounds on a search; ``None`` leaves that dimension unbounded.

    ``time`` is wall-clock seconds for the whole question, ``nodes`` the
    positions the search may visit, ``depth`` the plies the heuristic
    engine may look ahead (the exact solver always searches to the end and
    ignores it; an engine bounded by neither time nor nodes searches to its
    depth, :data:`~c4engine.search.engine.DEFAULT_DEPTH` without one).
    """

    time: float | None = None
    nodes: int | None = None
    depth: int | None = None

    def __post_init__(self) -> None:
        time = self.time
        if time is not None and (
            isinstance(time, bool)
            or not isinstance(time, int | float)
            or not math.isfinite(time)
            or time <= 0
        ):
            raise LimitError(f"time must be a positive number of seconds, not {time!r}")
        for name in ("nodes", "depth"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise LimitError(f"{name} must be a whole number of at least 1, not {value!r}")

    def __repr__(self) -> str:
        fields = [f"{name}={value!r}" for name, value in vars(self).items() if value is not None]
        return f"Limit({', '.join(fields)})"

    @property
    def unbounded(self) -> bool:
        """Whether nothing bounds the search (the exact solver then always answers exactly)."""
        return self.time is None and self.nodes is None and self.depth is None

    def share(self, fraction: float) -> Limit:
        """This limit with ``fraction`` of its time (and nodes), for one part of a larger question.

        >>> Limit(time=2.0, nodes=1000).share(0.25)
        Limit(time=0.5, nodes=250)
        """
        return Limit(
            # a share too small for a float (of a time such as 5e-324) is the time itself: still positive
            time=None if self.time is None else (self.time * fraction or self.time),
            nodes=None if self.nodes is None else max(1, int(self.nodes * fraction)),
            depth=self.depth,
        )


UNLIMITED = Limit()
"""No bound at all: the exact solver always answers exactly."""
