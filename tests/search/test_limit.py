"""One :class:`Limit` all the way down: every search takes it, no loose time or node keywords remain."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import pytest

from c4engine.search.engine import DEFAULT_DEPTH, Engine
from c4engine.search.limit import UNLIMITED, Limit
from c4engine.search.solver import Solver


@pytest.mark.parametrize("method", [Solver.solve, Solver.analyze, Solver.is_at_least])
def test_the_solver_takes_one_limit(method: Callable[..., Any]) -> None:
    parameters = inspect.signature(method).parameters
    assert parameters["limit"].default is UNLIMITED
    assert parameters["limit"].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    assert "time_limit" not in parameters and "node_limit" not in parameters


def test_share_keeps_the_depth_and_splits_time_and_nodes() -> None:
    assert Limit(time=2.0, nodes=10, depth=5).share(0.5) == Limit(time=1.0, nodes=5, depth=5)


def test_the_engine_takes_one_limit() -> None:
    search = inspect.signature(Engine.search).parameters
    assert search["limit"].default is None  # None: the engine's own limit
    made = inspect.signature(Engine.__init__).parameters
    assert made["limit"].default == Limit(depth=DEFAULT_DEPTH)
    for parameters in (search, made):
        assert not {"time_limit", "node_limit", "depth"} & set(parameters)


def test_a_share_of_the_smallest_time_is_still_a_time() -> None:
    assert Limit(time=5e-324).share(0.25).time == 5e-324
