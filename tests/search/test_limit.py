"""One :class:`Limit` all the way down: every search takes it, no loose time or node keywords remain."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import FakeClock

from c4engine.search.engine.negamax import DEFAULT_DEPTH, Engine
from c4engine.search.limit import MIN_TIME, UNLIMITED, Limit
from c4engine.search.solver.exact import Solver


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


def test_a_started_budget_counts_time_and_nodes_from_its_start() -> None:
    clock = FakeClock()
    budget = Limit(time=2.0, nodes=1000).start(clock)
    assert budget.time_spent == 0 and budget.nodes_spent == 0
    clock.now += 0.5
    budget.spend(300)
    assert budget.time_spent == 0.5 and budget.time_left() == 1.5
    assert budget.nodes_spent == 300 and budget.nodes_left() == 700
    assert budget.expired is None
    assert budget.remaining() == Limit(time=1.5, nodes=700)


def test_a_budget_expires_by_time_or_by_nodes() -> None:
    clock = FakeClock()
    timed = Limit(time=1.0).start(clock)
    clock.now += 1.0
    assert timed.expired == "time limit" and timed.time_left() == 0
    counted = Limit(nodes=10).start(clock)
    counted.spend(9)
    assert counted.expired is None
    counted.spend(5)
    assert counted.expired == "node limit" and counted.nodes_left() == 0


def test_a_spent_budget_still_gives_a_valid_limit_that_stops_at_once() -> None:
    clock = FakeClock()
    budget = Limit(time=1.0, nodes=10, depth=3).start(clock)
    clock.now += 5
    budget.spend(50)
    assert budget.remaining() == Limit(time=MIN_TIME, nodes=1, depth=3)
    assert budget.remaining(at_least=0.25).time == 0.25


def test_share_splits_what_is_left() -> None:
    clock = FakeClock()
    budget = Limit(time=4.0, nodes=1000, depth=6).start(clock)
    clock.now += 2.0
    budget.spend(600)
    assert budget.share(0.5) == Limit(time=1.0, nodes=200, depth=6)


def test_an_unbounded_budget_never_expires() -> None:
    clock = FakeClock()
    budget = UNLIMITED.start(clock)
    clock.now += 1e6
    budget.spend(10**15)
    assert budget.expired is None and budget.time_left() is None and budget.nodes_left() is None
    assert budget.remaining() == UNLIMITED


def test_a_paused_block_spends_no_time() -> None:
    clock = FakeClock()
    budget = Limit(time=1.0).start(clock)
    clock.now += 0.25
    with budget.paused():
        clock.now += 10  # loading a compiled search, say
    clock.now += 0.25
    assert budget.time_spent == 0.5


_CLOCKS = {"perf_counter", "monotonic", "time"}
"""The wall clocks a deadline is read from (``time.process_time`` measures CPU, not a budget)."""

_DISPLAY_TIMERS = {"cli/live.py"}
"""Modules whose clock arithmetic is a terminal's, not a search's: when a live line first shows and
its countdown to an estimated finish."""


def _is_clock_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    function = node.func
    name = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", None)
    return name in _CLOCKS and not node.args


def _reads_clock(node: ast.AST) -> bool:
    return any(_is_clock_call(inner) for inner in ast.walk(node))


def _is_deadline_arithmetic(node: ast.AST) -> bool:
    """Whether ``node`` computes a deadline or time left from a wall clock: ``bound - (clock() - start)``
    (what is left of a bound), ``clock() + seconds`` (a deadline), ``clock() >= deadline`` (one reached)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub):
        return isinstance(node.right, ast.BinOp) and _reads_clock(node.right)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _is_clock_call(node.left) or _is_clock_call(node.right)
    if isinstance(node, ast.Compare):
        return any(_is_clock_call(side) for side in (node.left, *node.comparators))
    return False


def _deadline_arithmetic(tree: ast.AST) -> list[int]:
    """The lines of ``tree`` with deadline arithmetic (:func:`_is_deadline_arithmetic`)."""
    return sorted(
        {
            node.lineno
            for node in ast.walk(tree)
            if isinstance(node, ast.expr) and _is_deadline_arithmetic(node)
        }
    )


def test_no_module_but_the_limit_computes_a_deadline_or_time_left() -> None:
    """Every clock and node count of a search lives in :class:`Budget` (``Limit.start()``)."""
    import c4engine

    package = Path(c4engine.__file__).parent
    found = {}
    for path in sorted(package.rglob("*.py")):
        name = path.relative_to(package).as_posix()
        if name == "search/limit.py" or name.startswith("kernels/") or name in _DISPLAY_TIMERS:
            continue
        lines = _deadline_arithmetic(ast.parse(path.read_text(), name))
        if lines:
            found[name] = lines
    assert found == {}


def test_the_deadline_check_finds_the_patterns_it_forbids() -> None:
    source = """
left = limit.time - (time.perf_counter() - start)
deadline = monotonic() + seconds
if time.monotonic() >= deadline: pass
took = time.perf_counter() - start
"""
    assert _deadline_arithmetic(ast.parse(source)) == [2, 3, 4]


def test_time_excluded_after_the_fact_is_not_spent() -> None:
    """A nested question's loading, measured apart, leaves the outer budget's clock."""
    clock = FakeClock()
    budget = Limit(time=1.0).start(clock)
    clock.now += 3.0
    budget.exclude(2.75)
    assert budget.time_spent == 0.25 and budget.time_left() == 0.75


def test_a_share_of_the_smallest_time_is_still_a_time() -> None:
    assert Limit(time=5e-324).share(0.25).time == 5e-324
