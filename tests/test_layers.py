"""The package's layers (README, Layout): every import points to the same layer or one below it, and no
module imports itself back through others."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import REPO

PACKAGE = REPO / "src" / "c4engine"

LAYERS = {
    "kernels": 1,
    "search": 2,
    "play": 3,
    "experiments": 4,
    "cli": 5,
    "web": 5,
    "integrations": 5,
}
"""Sub-package -> rank; the modules at the package root (the rules, jobs, store) are rank 0."""

FRONT_ENDS = {"cli", "web", "integrations"}


def _rank(module: str) -> tuple[int, str]:
    """The rank of a module (dotted, from c4engine) and the sub-package it belongs to."""
    parts = module.split(".")
    sub = parts[1] if len(parts) > 1 else ""
    if sub == "__main__":  # python -m c4engine: the command line
        return LAYERS["cli"], "cli"
    return LAYERS.get(sub, 0), sub


def _imports() -> list[tuple[str, str]]:
    """(importer, imported) for every import of a c4engine module in the package, lazy ones too."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("c4engine"):
                found.append((module, node.module))
            elif isinstance(node, ast.Import):
                found.extend(
                    (module, alias.name) for alias in node.names if alias.name.startswith("c4engine")
                )
    return found


FRONT_DOOR = "c4engine"
"""The package's ``__init__``: it exports ``Analyst``, ``Limit``, ``Game`` and ``Engine`` from the
layers above lazily (PEP 562 ``__getattr__``; the types for type checkers only), so that
``from c4engine import Analyst`` works and ``import c4engine`` loads none of them.  The one module
allowed to import upward."""


def test_imports_point_down_the_layers() -> None:
    upward = [
        f"{importer} imports {imported}"
        for importer, imported in _imports()
        if _rank(imported)[0] > _rank(importer)[0] and importer != FRONT_DOOR
    ]
    assert upward == []


def test_the_front_door_imports_upward_only_lazily() -> None:
    import subprocess
    import sys

    upward = {
        imported for importer, imported in _imports() if importer == FRONT_DOOR and _rank(imported)[0] > 0
    }
    assert upward == {
        "c4engine.search.analysis.analyst",
        "c4engine.search.limit",
        "c4engine.play.game",
        "c4engine.search.engine.negamax",
    }
    above = "('c4engine.search', 'c4engine.play.')"
    code = f"import sys, c4engine; print(sorted(m for m in sys.modules if m.startswith({above})))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]", loaded
    code = "from c4engine import Analyst, Limit, Game, Engine; print(Analyst.__module__, Game.__module__)"
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert found.split() == ["c4engine.search.analysis.analyst", "c4engine.play.game"]


def test_front_ends_use_each_other_only_to_start_the_web_server() -> None:
    pairs = {(_rank(importer)[1], _rank(imported)[1]) for importer, imported in _imports()}
    crossing = {(user, used) for user, used in pairs if user != used and {user, used} <= FRONT_ENDS}
    assert crossing <= {("cli", "web")}  # c4 serve


TUNING_ORDER = ("parameters", "optimizers", "config", "store", "run")
"""The tuning sub-package's modules, each using only those before it (README, Layout)."""


def test_tuning_modules_import_down_their_order() -> None:
    prefix = "c4engine.experiments.tuning."
    upward = [
        f"{importer} imports {imported}"
        for importer, imported in _imports()
        if importer.startswith(prefix)
        and imported.startswith(prefix)
        and TUNING_ORDER.index(imported.removeprefix(prefix))
        >= TUNING_ORDER.index(importer.removeprefix(prefix))
    ]
    assert upward == []


def test_front_ends_never_reach_into_the_kernels() -> None:
    reaching = [
        f"{importer} imports {imported}"
        for importer, imported in _imports()
        if _rank(importer)[1] in FRONT_ENDS and _rank(imported)[1] == "kernels"
    ]
    assert reaching == []  # they ask the search layer, whose answers say what is proven


OFFLINE = {"c4engine.jobs", "c4engine.store"}
"""Parallel jobs and SQLite checkpoints: the machinery of offline work (experiments/), not of a search."""


def test_the_online_layers_run_no_parallel_jobs_and_keep_no_checkpoints() -> None:
    offline = [
        f"{importer} imports {imported}"
        for importer, imported in _imports()
        if _rank(importer)[1] in {"kernels", "search", "play"} and imported in OFFLINE
    ]
    assert offline == []  # e.g. the book builder lives in experiments/, beside matches and tuning


def _module_name(path: Path) -> str:
    """The dotted name of the module at ``path`` (a package's ``__init__`` is the package)."""
    return ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")


def _import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports, every import anywhere in it counted.

    Lazy imports in functions count, and so do those under ``if TYPE_CHECKING:``: a circle of types
    alone still ties two modules to each other (neither can be read, moved or tested without the
    other).  ``from c4engine.x import y`` imports the module ``c4engine.x.y`` where ``y`` is one, else
    ``c4engine.x`` (a package's ``__init__`` and what it re-exports is a module like any other).  The
    parent packages Python runs before a module are not counted: that order is Python's, not a choice.
    """
    paths = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
    graph: dict[str, set[str]] = {module: set() for module in paths}
    for module, path in paths.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                assert node.level == 0, f"{module}: relative import"  # the package imports by full name
                if node.module and node.module.startswith("c4engine"):
                    named = (f"{node.module}.{alias.name}" for alias in node.names)
                    graph[module] |= {name if name in paths else node.module for name in named}
            elif isinstance(node, ast.Import):
                graph[module] |= {alias.name for alias in node.names if alias.name.startswith("c4engine")}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of ``graph`` that hold a circle (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for imported in sorted(graph.get(module, ())):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = [stack.pop()]
            while component[-1] != module:
                component.append(stack.pop())
            if len(component) > 1 or module in graph.get(module, ()):
                circles.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(circles)


def test_no_module_imports_itself_back_through_others() -> None:
    graph = _import_graph()
    circles = [
        "; ".join(f"{module} imports {sorted(graph[module] & set(circle))}" for module in circle)
        for circle in _circles(graph)
    ]
    assert circles == []  # each idea below the ones using it: what two modules share goes lower


def test_the_circle_finder_finds_circles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e"}, "f": {"d"}}
    assert _circles(graph) == [["a", "b", "c"], ["e"]]


def test_an_imported_submodule_counts_as_imported() -> None:
    graph = _import_graph()
    assert "c4engine.search.analysis.analyst" in graph["c4engine.cli.review"]
    assert "c4engine.errors" in graph["c4engine"]  # from c4engine import errors


SEARCH_INTERNAL_RESULTS = {
    "c4engine.search.solver.answers": {"Analysis", "BatchResult", "SolveResult"},
    "c4engine.search.engine.answers": {"RootAnswer"},
}
"""The searches' own results: the search layer turns them into the public answers of
``c4engine.search.results`` (a move, a position's columns) and ``search.review.answers`` (a game)."""


def test_only_the_search_layer_reads_the_searches_own_results() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path)
        if module.startswith("c4engine.search"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module == "c4engine.search.solver.answers":
                found.append(f"{module} imports {node.module}")
            elif isinstance(node, ast.ImportFrom) and node.module in SEARCH_INTERNAL_RESULTS:
                private = SEARCH_INTERNAL_RESULTS[node.module] & {alias.name for alias in node.names}
                found.extend(f"{module} imports {node.module}.{name}" for name in sorted(private))
    assert found == []


def test_the_public_results_module_exports_only_the_public_answers() -> None:
    from c4engine.search import results

    internal = set().union(*SEARCH_INTERNAL_RESULTS.values())
    assert {"PlayResult", "PositionAnalysis", "ColumnAnalysis", "Score"} <= set(results.__all__)
    assert internal.isdisjoint(results.__all__)


SOLVER_PACKAGE = "c4engine.search.solver"
"""The exact solver, its threads and its own results: the search layer's parts, behind the analysis
service."""


def _is_solver(name: str) -> bool:
    return name == SOLVER_PACKAGE or name.startswith(SOLVER_PACKAGE + ".")


SOLVER_EXCEPTIONS = {
    "c4engine.cli.solve": "c4 bench measures the solver itself -- its nodes and speed on Pons' sets, each "
    "from an empty table (docs/benchmarks.md) -- which an Analyst's answer (rules, book, quick search "
    "first) would hide",
    "c4engine.experiments.book_builder": "the book builder fills the book the Analyst reads: each worker "
    "keeps one solver, weak or strong, and times every leaf's solve; its policy moves are the perfect "
    "player's own question, asked of an Analyst on that solver (Analyst.keeping_move)",
}
"""The modules above the search layer that may use the exact solver itself, and why."""


def _solver_uses(module: str, tree: ast.AST) -> list[str]:
    """Where ``module`` imports the solver or its results, or reads a ``solver`` attribute (an
    ``Analyst.solver``) or passes one (``Analyst(solver=...)``)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            named = {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
            found.extend(f"{module} imports {name}" for name in sorted(filter(_is_solver, named))[:1])
        elif isinstance(node, ast.Import):
            found.extend(f"{module} imports {a.name}" for a in node.names if _is_solver(a.name))
        elif isinstance(node, ast.Attribute) and node.attr == "solver":
            found.append(f"{module}:{node.lineno} reads .solver")
        elif isinstance(node, ast.keyword) and node.arg == "solver":
            found.append(f"{module}:{node.value.lineno} passes solver=")
    return found


def test_above_the_search_layer_only_the_analyst_is_asked() -> None:
    """Players, experiments and front-ends ask the analysis service's questions: none imports the
    exact solver or its results or reaches the Analyst's solver, but the listed exceptions."""
    found: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path)
        if _rank(module)[0] > LAYERS["search"] and (
            uses := _solver_uses(module, ast.parse(path.read_text()))
        ):
            found[module] = uses
    assert sorted(set(found) - set(SOLVER_EXCEPTIONS)) == [], found
    assert sorted(set(SOLVER_EXCEPTIONS) - set(found)) == [], "no longer an exception: take it off"


def test_the_solver_check_sees_every_way_to_the_solver() -> None:
    source = (
        "from c4engine.search import solver\n"
        "import c4engine.search.solver.answers\n"
        "from c4engine.search.solver.exact import Solver\n"
        "analyst.solver.solve(board)\n"
        "Analyst(solver=made)\n"
    )
    assert len(_solver_uses("m", ast.parse(source))) == 5


SEARCH_VOCABULARY = {"__init__", "limit", "progress", "results", "scale", "choice"}
"""The modules directly in ``search/``: the front door and the vocabulary every search shares."""

SEARCH_PACKAGES = {"analysis", "book", "coach", "engine", "puzzles", "review", "solver"}
"""One package an idea (docs/architecture.md); a new idea adds its package here."""


def test_the_search_layer_is_a_front_door_a_vocabulary_and_a_package_an_idea() -> None:
    search = PACKAGE / "search"
    modules = {path.stem for path in search.glob("*.py")}
    packages = {path.parent.name for path in search.glob("*/__init__.py")}
    assert modules == SEARCH_VOCABULARY and len(modules) <= 8
    assert packages >= SEARCH_PACKAGES, "each idea's package"
    assert not {path.parent.name for path in search.glob("*/*.py")} - packages, "a folder without __init__"


def test_each_package_init_is_its_docstring_alone() -> None:
    """Importing one part of an idea loads no other: a package's ``__init__`` imports nothing."""
    heavy = []
    for init in sorted((PACKAGE / "search").glob("*/__init__.py")):
        body = ast.parse(init.read_text()).body
        if len(body) != 1 or not isinstance(body[0], ast.Expr):
            heavy.append(str(init.relative_to(PACKAGE)))
    assert heavy == []


def test_no_module_is_named_after_a_sibling() -> None:
    """``review_ply.py`` beside ``review.py`` is a package waiting to be made: one folder an idea."""
    prefixed = []
    for folder in sorted({path.parent for path in PACKAGE.rglob("*.py")}):
        names = {path.stem for path in folder.glob("*.py")} | {
            path.parent.name for path in folder.glob("*/__init__.py")
        }
        prefixed += [
            f"{folder.relative_to(PACKAGE)}/{name}"
            for name in sorted(names)
            if any(name.startswith(f"{other}_") for other in names - {name})
        ]
    assert prefixed == []
