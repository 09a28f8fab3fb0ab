"""One solve or analysis of the exact solver under way (:class:`SolverRun`): its budget, poll hook,
why it stopped and its measured speed; the :class:`Deadline` that cancels it when its time is spent."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Final

from c4engine.search.limit import DEFAULT_POLL_INTERVAL, Budget, Limit
from c4engine.search.progress import Hook

__all__ = ["DEADLINE_IDLE_SECONDS", "RATE_GUESS", "Deadline", "SolverRun"]

RATE_GUESS = 5_000_000.0  # nodes per CPU second, until measured

DEADLINE_IDLE_SECONDS: Final = 1.0
"""How long a :class:`Deadline`'s thread waits for its next use before it ends."""


@dataclass
class SolverRun:
    """One solve or analysis under way: its :class:`Budget` (shared by every kernel call), its poll
    hook, why it stopped, and the measured speed that sizes its slices."""

    budget: Budget
    poll: Hook | None
    poll_interval: float
    stopped: str | None = None
    rate: float = RATE_GUESS
    timed_out: bool = False  # its timer cancelled it: its time ran out between two looks at the clock

    def why_cancelled(self) -> str:
        """Why a cancelled search stopped: its own time running out (its timer), else a caller's cancel."""
        return "time limit" if self.timed_out else "cancelled"

    @classmethod
    def of(
        cls, limit: Limit, poll: Hook | None = None, poll_interval: float = DEFAULT_POLL_INTERVAL
    ) -> SolverRun:
        """The run of a search bounded by ``limit`` (its depth means nothing here), starting now."""
        return cls(limit.start(), poll, poll_interval)


class Deadline:
    """Calls a function once a block has spent its budget's time, from one thread kept between blocks.

    A timer thread started for each timed search costs 0.1 ms to start, and several on a loaded
    machine, where a search waits for it to be scheduled: the probes for the book's score, a dozen
    short searches in a few hundredths of a second, lost a fifth of their time that way.  The
    thread ends after :data:`DEADLINE_IDLE_SECONDS` unused; the next block starts another.
    """

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._budget: Budget | None = None  # the armed block's, whose time is watched
        self._action: Callable[[], None] | None = None
        self._waiting = False  # whether the thread runs

    @contextmanager
    def armed(self, budget: Budget, action: Callable[[], None]) -> Iterator[None]:
        """A block in which ``action`` is called (once) when ``budget``'s time is spent -- never after
        the block ends; without a time limit, never."""
        if budget.time_left() is None:
            yield
            return
        with self._changed:
            self._budget, self._action = budget, action
            if not self._waiting:
                self._waiting = True
                threading.Thread(target=self._wait, name="c4-deadline", daemon=True).start()
            self._changed.notify()
        try:
            yield
        finally:
            with self._changed:
                self._budget = self._action = None

    def _wait(self) -> None:
        """The thread: call each armed action when it is due, until unused for a while."""
        with self._changed:
            while True:
                budget, action = self._budget, self._action
                if budget is None or action is None:
                    if not self._changed.wait(DEADLINE_IDLE_SECONDS) and self._action is None:
                        self._waiting = False
                        return
                    continue
                left = budget.time_left()
                if left is not None and left > 0:
                    self._changed.wait(left)
                    continue
                self._budget = self._action = None
                action()  # under the lock: a block that has ended is never acted on
