"""The API reference's docstring conversion (docs/rest_docstrings.py); scripts/test.sh builds the site."""

from __future__ import annotations

import importlib.util
from types import ModuleType

import griffe
import pytest
from tests.conftest import REPO


@pytest.fixture(scope="module")
def rest() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rest_docstrings", REPO / "docs" / "rest_docstrings.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def package() -> griffe.Module:
    loaded = griffe.load("c4engine", search_paths=[str(REPO / "src")])
    assert isinstance(loaded, griffe.Module)
    return loaded


def test_doctests_become_code_blocks(rest: ModuleType, package: griffe.Module) -> None:
    text = "Runs jobs.\n\n>>> run_jobs(abs, [-1], workers=0)\n[(0, 1)]\n\nMore text."
    converted = rest.to_markdown(text, package, package["jobs"])
    assert converted == (
        "Runs jobs.\n\n```pycon\n>>> run_jobs(abs, [-1], workers=0)\n[(0, 1)]\n```\n\nMore text."
    )


def test_doctests_in_a_literal_block_stay_as_they_are(rest: ModuleType, package: griffe.Module) -> None:
    text = "Written so::\n\n    >>> parse_moves('44')\n    [3, 3]"
    assert (
        rest.to_markdown(text, package, package["notation"])
        == "Written so:\n\n    >>> parse_moves('44')\n    [3, 3]"
    )


def test_roles_become_links_to_c4engine_objects_and_code_otherwise(
    rest: ModuleType, package: griffe.Module
) -> None:
    board = package["board.Board"]
    text = ":meth:`play`, :func:`~c4engine.jobs.run_jobs`, :class:`Board <c4engine.board.Board>`, :func:`len`"
    assert rest.to_markdown(text, package, board) == (
        "[`play`][c4engine.board.Board.play], [`run_jobs`][c4engine.jobs.run_jobs], "
        "[`Board`][c4engine.board.Board], `len`"
    )


def test_literal_block_markers_go_as_in_rest(rest: ModuleType, package: griffe.Module) -> None:
    text = "The layout::\n\n    a b\n\nAs below ::\n\n    c\n\n::\n\n    d"
    assert (
        rest.to_markdown(text, package, package) == "The layout:\n\n    a b\n\nAs below\n\n    c\n\n\n\n    d"
    )


def test_every_module_has_its_place_in_the_api_reference() -> None:
    package = REPO / "src" / "c4engine"
    modules = {
        ".".join(path.relative_to(package.parent).with_suffix("").parts).removesuffix(".__init__")
        for path in package.rglob("*.py")
        if path.name != "__main__.py"
    }
    pages = "\n".join(page.read_text() for page in (REPO / "docs" / "api").glob("*.md"))
    documented = {line.removeprefix("::: ").strip() for line in pages.splitlines() if line.startswith("::: ")}
    assert sorted(modules - documented) == []
