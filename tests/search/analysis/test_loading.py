"""search.analysis.loading: a nested question's loading time is left out of the asker's clock."""

from __future__ import annotations

import time

import pytest
from tests.conftest import FakeClock

from c4engine.search.analysis.loading import LoadClock
from c4engine.search.limit import Limit


def test_loads_inside_a_left_out_block_are_not_spent_the_others_are() -> None:
    clock, fake = LoadClock(), FakeClock()
    budget = Limit(time=10).start(fake)
    with clock.counted():  # a load outside the block: still the asker's time
        time.sleep(0.01)
    outside = clock.seconds
    assert outside >= 0.01
    with clock.left_out(budget):
        with clock.counted():
            time.sleep(0.01)
        fake.now += 1.0
    nested = clock.seconds - outside
    assert nested >= 0.01
    assert budget.time_spent == pytest.approx(1.0 - nested)
    assert repr(clock).startswith("LoadClock(seconds=")


def test_a_failed_load_is_counted_too() -> None:
    clock = LoadClock()
    with pytest.raises(RuntimeError), clock.counted():
        time.sleep(0.01)
        raise RuntimeError("compile failed")
    assert clock.seconds >= 0.01
