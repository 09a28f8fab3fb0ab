"""Small modules and functions (issue 35): outside ``kernels/`` (numba code, kept flat for the compiler) no
module is longer than :data:`MAX_MODULE_LINES` and no function than :data:`MAX_FUNCTION_LINES`.

The modules and functions still over them are listed by name; the lists may only shrink: a listed one
that is split below its limit must leave its list, so the lists stay exact and nothing new joins them.
"""

from __future__ import annotations

import ast

from tests.conftest import REPO

PACKAGE = REPO / "src" / "c4engine"

MAX_MODULE_LINES = 700
MAX_FUNCTION_LINES = 100

LONG_MODULES: set[str] = set()
"""The modules still longer than :data:`MAX_MODULE_LINES`, to be split."""

LONG_FUNCTIONS: set[str] = set()
"""The functions still longer than :data:`MAX_FUNCTION_LINES` (``module:qualified.name``), to be split."""


def function_lengths(source: str) -> dict[str, int]:
    """Every function's qualified name (``Class.method``, ``outer.inner``) -> its lines, from ``def`` to
    its last line (a nested function counts in its own length and in its outer function's)."""
    lengths: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    assert child.end_lineno is not None
                    lengths[name] = child.end_lineno - child.lineno + 1
                visit(child, f"{name}.")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return lengths


def _sources() -> dict[str, str]:
    """Every module outside ``kernels/``: its path from the package -> its text."""
    return {
        path.relative_to(PACKAGE).as_posix(): path.read_text()
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.relative_to(PACKAGE).parts[0] != "kernels"
    }


def test_no_module_outside_the_kernels_is_longer_than_700_lines_but_the_listed() -> None:
    long = {path for path, text in _sources().items() if len(text.splitlines()) > MAX_MODULE_LINES}
    assert sorted(long - LONG_MODULES) == [], "too long: split it along its ideas"
    assert sorted(LONG_MODULES - long) == [], "no longer too long (or gone): take it off LONG_MODULES"


def test_no_function_outside_the_kernels_is_longer_than_100_lines_but_the_listed() -> None:
    long = {
        f"{path}:{name}"
        for path, text in _sources().items()
        for name, lines in function_lengths(text).items()
        if lines > MAX_FUNCTION_LINES
    }
    assert sorted(long - LONG_FUNCTIONS) == [], "too long: split it into functions named after what they do"
    assert sorted(LONG_FUNCTIONS - long) == [], "no longer too long (or gone): take it off LONG_FUNCTIONS"


def test_the_web_has_no_long_module_or_function() -> None:
    web = {path: text for path, text in _sources().items() if path.startswith("web/")}
    assert "web/app.py" in web and "web/routes/position.py" in web
    assert max(len(text.splitlines()) for text in web.values()) <= MAX_MODULE_LINES
    longest = max(lines for text in web.values() for lines in function_lengths(text).values())
    assert longest <= MAX_FUNCTION_LINES  # issue 35: create_app assembles routers from small factories


def test_function_lengths_count_methods_and_nested_functions_from_def_to_their_last_line() -> None:
    source = (
        "class A:\n"
        "    def f(self):\n"
        "        def g():\n"
        "            return 1\n"
        "\n"
        "        return g()\n"
        "async def h():\n"
        "    pass\n"
    )
    assert function_lengths(source) == {"A.f": 5, "A.f.g": 2, "h": 2}
