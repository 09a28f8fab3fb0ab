"""One solve or analysis of the exact solver under way (:class:`SolverRun`): its budget, poll hook,
why it stopped and its measured speed."""

from __future__ import annotations

from dataclasses import dataclass

from c4engine.search.limit import DEFAULT_POLL_INTERVAL, Budget, Limit
from c4engine.search.progress import Hook

__all__ = ["RATE_GUESS", "SolverRun"]

RATE_GUESS = 5_000_000.0  # nodes per CPU second, until measured


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
