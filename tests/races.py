"""Counting the exact solver's races (a hook on :meth:`c4engine.search.solver.threads.Race.run`)."""

from __future__ import annotations

import pytest

from c4engine.kernels.memory import CArray
from c4engine.search.solver import threads as parallel


def count_races(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the races started from here on: one a list entry."""
    started: list[int] = []
    run = parallel.Race.run

    def counted(race: parallel.Race, state: CArray) -> int:
        started.append(1)
        return run(race, state)

    monkeypatch.setattr(parallel.Race, "run", counted)
    return started
