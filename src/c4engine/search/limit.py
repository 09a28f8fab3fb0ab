"""How much work a question about a position may cost: :class:`Limit`.

One type for every search -- the analysis service, the exact solver and the
heuristic engine -- so a front-end says once what it can afford.

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

__all__ = ["UNLIMITED", "Limit"]


DEFAULT_POLL_INTERVAL: Final = 0.25
"""CPU seconds between a solve's looks at the clock and at its poll hook, unless told otherwise."""


@dataclass(frozen=True)
class Limit:
    """Bounds on a search; ``None`` leaves that dimension unbounded.

    ``time`` is wall-clock seconds for the whole question, ``nodes`` the
    positions the exact solver may visit, ``depth`` the plies the heuristic
    engine may look ahead (the exact solver always searches to the end).
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
            time=None if self.time is None else self.time * fraction,
            nodes=None if self.nodes is None else max(1, int(self.nodes * fraction)),
            depth=self.depth,
        )


UNLIMITED = Limit()
"""No bound at all: the exact solver always answers exactly."""
