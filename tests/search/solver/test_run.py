"""The run of a solve under way and the deadline that cancels it: one thread, kept between searches."""

from __future__ import annotations

import threading

import pytest

from c4engine.search.limit import Limit
from c4engine.search.solver import run as solver_run
from c4engine.search.solver.run import Deadline


def _deadline_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == "c4-deadline"]


def test_an_armed_deadline_acts_once_its_seconds_have_passed() -> None:
    deadline = Deadline()
    acted = threading.Event()
    with deadline.armed(Limit(time=1e-9).start(), acted.set):
        assert acted.wait(60)


def test_a_block_that_ended_is_never_acted_on() -> None:
    deadline = Deadline()
    late = threading.Event()
    with deadline.armed(Limit(time=0.05).start(), late.set):
        pass  # ends long before its 0.05 s
    on_time = threading.Event()
    # the same thread, due after the first block's time
    with deadline.armed(Limit(time=0.1).start(), on_time.set):
        assert on_time.wait(60)
    assert not late.is_set()


def test_no_time_limit_no_thread() -> None:
    before = len(_deadline_threads())
    with Deadline().armed(Limit(nodes=1).start(), lambda: None):
        assert len(_deadline_threads()) == before


def test_many_blocks_share_one_thread_that_ends_when_unused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solver_run, "DEADLINE_IDLE_SECONDS", 0.05)
    deadline = Deadline()
    started = len(_deadline_threads())
    for _ in range(20):
        with deadline.armed(Limit(time=60).start(), lambda: None):
            pass
    assert len(_deadline_threads()) <= started + 1
    threads = _deadline_threads()
    for thread in threads:
        thread.join(60)
    assert not any(thread.is_alive() for thread in threads)
    acted = threading.Event()
    with deadline.armed(Limit(time=1e-9).start(), acted.set):  # used again: a new thread
        assert acted.wait(60)
