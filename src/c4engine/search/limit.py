"""How much work a question about a position may cost: :class:`Limit`.

One type for every search -- the analysis service, the exact solver
(``Solver.solve(board, limit)``), the heuristic engine (``Engine.search(board,
limit)``), the players and levels (a level is a limit plus an evaluator and
noise) -- so a front-end says once what it can afford, where the request
comes in (``--time``/``--nodes``/``--depth``, the web API's query), and
hands it down unchanged.  The analysis service is the one place that splits
one between its parts (:meth:`Limit.share`).

A search under way holds its limit started, :meth:`Limit.start`: a
:class:`Budget`, the one home of every clock and node count below the
front-ends -- the time spent and left, the nodes spent and left, whether it
has expired, and a share of what is left for the next part of the work.

>>> Limit(time=0.5)
Limit(time=0.5)
>>> Limit(depth=0)
Traceback (most recent call last):
...
c4engine.errors.LimitError: depth must be a whole number of at least 1, not 0
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from time import perf_counter
from typing import Final

from c4engine.errors import LimitError

__all__ = ["MAX_NODES", "MIN_TIME", "UNLIMITED", "Budget", "Clock", "Limit", "poll_interval"]

MAX_NODES = 10**12
"""The most nodes a front-end lets one question ask for (``--nodes``, the web's ``nodes``): more
than any search finishes in a day."""


MIN_TIME: Final = 0.002
"""The sliver of time a search is still given once its budget's time is spent (a :class:`Limit`'s time
must be positive): it stops at its first look at the clock."""

Clock = Callable[[], float]
"""A clock of seconds that only goes forward (``time.perf_counter``; a test's fake)."""

DEFAULT_POLL_INTERVAL: Final = 0.25
"""CPU seconds between a solve's looks at the clock and at its poll hook, unless told otherwise."""


@dataclass(frozen=True)
class Limit:
    """Bounds on a search; ``None`` leaves that dimension unbounded.

    ``time`` is wall-clock seconds for the whole question, ``nodes`` the
    positions the search may visit, ``depth`` the plies the heuristic
    engine may look ahead (the exact solver always searches to the end and
    ignores it; an engine bounded by neither time nor nodes searches to its
    depth, :data:`~c4engine.search.engine.negamax.DEFAULT_DEPTH` without one).
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

    def start(self, clock: Clock | None = None) -> Budget:
        """This limit running from now on ``clock`` (by default ``time.perf_counter``): a :class:`Budget`.

        >>> budget = Limit(nodes=100).start()
        >>> budget.spend(30)
        >>> budget.remaining()
        Limit(nodes=70)
        """
        return Budget(self, clock)


class Budget:
    """A :class:`Limit` under way: the time and nodes spent on it so far and what is left.

    Every search below the front-ends keeps its clock and its node count
    here: the solver, the engine, the analysis service, game review.  The
    clock is ``time.perf_counter`` unless another is given (a test's fake).
    The nodes are what the search says it spent (:meth:`spend`).
    """

    __slots__ = ("_clock", "_start", "limit", "nodes_spent")

    def __init__(self, limit: Limit, clock: Clock | None = None) -> None:
        self.limit = limit
        """The limit being spent."""
        self.nodes_spent = 0
        """The nodes spent so far."""
        self._clock = perf_counter if clock is None else clock  # read at the start: a test may replace it
        self._start = self._clock()

    def __repr__(self) -> str:
        return f"Budget({self.limit!r}, time_spent={self.time_spent:.3f}, nodes_spent={self.nodes_spent})"

    @property
    def time_spent(self) -> float:
        """The seconds since the budget started (less the time it was :meth:`paused`)."""
        return self._clock() - self._start

    def time_left(self) -> float | None:
        """The seconds left of the limit's time (zero or less once spent); None without a time limit."""
        return None if self.limit.time is None else self.limit.time - self.time_spent

    def nodes_left(self) -> int | None:
        """The nodes left of the limit's nodes (never below 0); None without a node limit."""
        return None if self.limit.nodes is None else max(0, self.limit.nodes - self.nodes_spent)

    def spend(self, nodes: int) -> None:
        """Count ``nodes`` more as spent."""
        self.nodes_spent += nodes

    @property
    def expired(self) -> str | None:
        """Which bound is spent -- ``"time limit"`` or ``"node limit"`` -- or None while neither is."""
        left = self.nodes_left()
        if left is not None and left <= 0:
            return "node limit"
        seconds = self.time_left()
        if seconds is not None and seconds <= 0:
            return "time limit"
        return None

    def remaining(self, part: Limit | None = None, *, at_least: float = MIN_TIME) -> Limit:
        """What is left, as a limit for the next search (at the limit's depth): at least ``at_least``
        seconds and one node, so a spent budget still makes a valid limit that stops at once.

        ``part`` is a part of the budget's limit started with it (say a share of it for a first
        step): what is left of that part.

        >>> clock = iter([0.0, 0.5]).__next__
        >>> Limit(time=2.0).start(clock).remaining(Limit(time=1.0))
        Limit(time=0.5)
        """
        part = self.limit if part is None else part
        seconds = None if part.time is None else part.time - self.time_spent
        nodes = None if part.nodes is None else part.nodes - self.nodes_spent
        return Limit(
            time=None if seconds is None else max(seconds, at_least),
            nodes=None if nodes is None else max(1, nodes),
            depth=part.depth,
        )

    def share(self, fraction: float) -> Limit:
        """``fraction`` of what is left (:meth:`remaining`, :meth:`Limit.share`), for one part of the
        work still to do."""
        return self.remaining().share(fraction)

    @contextmanager
    def paused(self) -> Iterator[None]:
        """A block whose time is not spent (loading a compiled search is no search time)."""
        began = self._clock()
        try:
            yield
        finally:
            self.exclude(self._clock() - began)

    def exclude(self, seconds: float) -> None:
        """Count ``seconds`` already past as not spent (a load done inside a nested question's own
        budget, say)."""
        self._start += seconds


UNLIMITED = Limit()
"""No bound at all: the exact solver always answers exactly."""


def poll_interval(limit: Limit) -> float:
    """CPU seconds between the solver's looks at the clock: short under a short time limit.

    On a busy machine a slice of CPU takes several times as long on the wall clock.
    """
    if limit.time is None:
        return DEFAULT_POLL_INTERVAL
    return max(0.005, min(DEFAULT_POLL_INTERVAL, limit.time / 20))
