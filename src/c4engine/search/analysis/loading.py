"""Loading time kept out of the questions' clocks.

Loading a compiled search -- compiling it, the first time on a machine -- is no search time: neither
a question's time limit nor the time it reports counts it.  A question that loads a search pauses
its own budget; one waiting on a nested question (a line found after a solve, say) leaves out what
that nested question spent loading.  :class:`LoadClock` counts those seconds.

>>> from c4engine.search.limit import Limit
>>> clock, budget = LoadClock(), Limit(time=5).start()
>>> with clock.left_out(budget):
...     with clock.counted():
...         pass                                       # a nested question's load
>>> clock.seconds >= 0
True
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from c4engine.search.limit import UNLIMITED, Budget

__all__ = ["LoadClock"]


class LoadClock:
    """The seconds an analyst spent loading compiled searches."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def __repr__(self) -> str:
        return f"LoadClock(seconds={self.seconds:.3f})"

    @contextmanager
    def counted(self) -> Iterator[None]:
        """A load of a compiled search, its seconds counted in :attr:`seconds`."""
        loading = UNLIMITED.start()
        try:
            yield
        finally:
            self.seconds += loading.time_spent

    @contextmanager
    def left_out(self, budget: Budget) -> Iterator[None]:
        """A block in which a nested question may load a compiled search: ``budget`` leaves that out."""
        loaded = self.seconds
        try:
            yield
        finally:
            budget.exclude(self.seconds - loaded)
