"""The package's layers (README, Layout): every import points to the same layer or one below it."""

from __future__ import annotations

import ast

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


def test_imports_point_down_the_layers() -> None:
    upward = [
        f"{importer} imports {imported}"
        for importer, imported in _imports()
        if _rank(imported)[0] > _rank(importer)[0]
    ]
    assert upward == []


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
