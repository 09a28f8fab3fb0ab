"""One progress type and one hook type for every search (:mod:`c4engine.search.progress`)."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import c4engine.search
from c4engine.search.progress import Hook, Progress


def _search_modules() -> list[tuple[str, ast.Module]]:
    package = Path(c4engine.search.__file__).parent
    return [
        (str(path.relative_to(package)), ast.parse(path.read_text(), path.name))
        for path in sorted(package.rglob("*.py"))
    ]


def test_one_progress_class_in_the_search_layer() -> None:
    """No class but :class:`Progress` names itself a progress, and no alias but :data:`Hook` is a
    callable taking one: the solver, the engine, the analysis service and review share both."""
    progress_classes = [
        (name, node.name)
        for name, tree in _search_modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef) and "Progress" in node.name
    ]
    assert progress_classes == [("progress.py", "Progress")]
    hook_aliases = [
        (name, target.id)
        for name, tree in _search_modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name) and ("Hook" in target.id or "Poll" in target.id)
    ]
    assert hook_aliases == [("progress.py", "Hook")]


def test_progress_is_frozen_and_says_a_duration_as_time() -> None:
    progress = Progress(nodes=5, time=0.25, depth=3)
    assert dataclasses.is_dataclass(progress) and progress.time == 0.25
    assert "elapsed" not in {field.name for field in dataclasses.fields(Progress)}
    try:
        progress.nodes = 6  # type: ignore[misc]
    except dataclasses.FrozenInstanceError:
        pass
    else:
        raise AssertionError("Progress must be frozen")


def test_a_hook_stops_by_returning_true() -> None:
    seen: list[Progress] = []

    def stop_at_two(progress: Progress) -> bool:
        seen.append(progress)
        return len(seen) == 2

    hook: Hook = stop_at_two
    assert [hook(Progress(nodes=n)) for n in (1, 2)] == [False, True]
