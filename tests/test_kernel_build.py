"""Building the kernels' shared libraries (kernels/build.py): what a build does when it cannot link,
and how it rewrites numba's LLVM IR."""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

import pytest

from c4engine.kernels import build, library


def test_without_a_compiler_there_is_no_library_and_nothing_to_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CC", str(tmp_path / "no-such-compiler"))
    assert library.compiler() is None
    assert build.build(7, 6, 4, tmp_path) is None
    assert library.load(7, 6, 4, tmp_path) is None
    assert list(tmp_path.iterdir()) == []


def test_a_failed_build_is_not_tried_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    compiler = tmp_path / "cc"
    compiler.write_text("#!/bin/sh\nexit 1\n")  # found, but links nothing
    compiler.chmod(0o755)
    monkeypatch.setenv("CC", str(compiler))
    folder = tmp_path / "cache"
    assert build.build(7, 6, 4, folder) is None
    assert library.library_path(7, 6, 4, folder).with_suffix(".failed").exists()
    monkeypatch.setattr(build, "_object_code", lambda *geometry: pytest.fail("built again"))
    assert build.build(7, 6, 4, folder) is None


def test_every_function_but_the_entry_is_marked_for_inlining() -> None:
    code = (
        "define i64 @c4_solve(ptr %a) {\n  %r = call i64 @search(ptr %a)\n  ret i64 %r\n}\n"
        "define linkonce_odr i64 @search(ptr %a) local_unnamed_addr #0 {\n  ret i64 0\n}\n"
        "define void @apart(ptr %a) noinline {\n  ret void\n}\n"
        "define void @grouped(ptr %a) #1 {\n  ret void\n}\n"
        "declare void @elsewhere(ptr)\n"
        "attributes #0 = { nounwind }\nattributes #1 = { nounwind noinline }\n"
    )
    marked = build._all_inlined(code, "c4_solve")
    assert "@search(ptr %a) local_unnamed_addr #0 alwaysinline {" in marked
    assert marked.count("alwaysinline") == 1  # not the entry, nor what must stay out of line
    assert "call i64 @search(ptr %a)" in marked and "declare void @elsewhere(ptr)" in marked
    assert build._all_inlined(marked, "c4_solve") == marked


@pytest.mark.parametrize("name", build.SHIPPED_NAMES)
def test_a_shipped_library_is_its_entry_alone(name: str) -> None:
    """Every numba function the entry calls is inlined into it (``_all_inlined``): the library
    defines no function of numba's but the entry's own (numba's cfunc, which the C entry calls)."""
    import shutil

    path = library.find(name)
    if path is None or shutil.which("nm") is None:
        pytest.skip(f"no {name} library was built here, or no nm to read it")
    listed = subprocess.run(["nm", "--defined-only", str(path)], capture_output=True, text=True, check=True)
    functions = [line.split()[2] for line in listed.stdout.splitlines() if line.split()[1] in "TtWw"]
    numbas = [function for function in functions if function.startswith("_ZN")]
    assert len(numbas) == 1, numbas


def test_the_install_builds_each_shipped_library_once() -> None:
    """The install's build processes (build_backend.py's ``BATCHES``) make
    :data:`build.SHIPPED_NAMES`, each once; a working copy's (``pip install -e .``) every specialised
    geometry's too: every library there is."""
    source = ast.parse((Path(__file__).resolve().parent.parent / "build_backend.py").read_text())
    values = {
        target.id: ast.literal_eval(node.value)
        for node in source.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name) and target.id in ("BATCHES", "EDITABLE_ALSO")
    }
    shipped = [name for batch in values["BATCHES"] for name in batch]
    assert sorted(shipped) == sorted(build.SHIPPED_NAMES)
    also = [name for batch in values["EDITABLE_ALSO"] for name in batch]
    assert sorted(shipped + also) == sorted(build.ALL_NAMES)


def test_reference_counting_is_made_inlinable_at_its_definition_only() -> None:
    code = (
        "define i32 @entry(ptr %a) {\n  call void @NRT_incref(ptr %a)\n  ret i32 0\n}\n"
        "define linkonce_odr void @NRT_incref(ptr %.1) local_unnamed_addr #1 {\n  ret void\n}\n"
        "attributes #1 = { noinline }\n"
    )
    made = build._inlinable(code, "NRT_incref")
    assert "define linkonce_odr void @NRT_incref(ptr %.1) local_unnamed_addr {" in made
    assert "call void @NRT_incref(ptr %a)" in made and made.count("#1") == 1  # the group stays, unused
    assert build._inlinable(code, "NRT_decref") == code  # no such definition: left as it is


@pytest.mark.parametrize("name", build.SHIPPED_NAMES)
def test_a_shipped_library_keeps_no_reference_counting(name: str) -> None:
    """Its arrays are views with no count: numba's ``NRT_incref``/``NRT_decref`` are inlined and
    fold away (kernels/build.py, ``_inlinable``), leaving no function of theirs to call."""
    import ctypes

    path = library.find(name)
    if path is None:
        pytest.skip(f"no {name} library was built here")
    loaded = ctypes.CDLL(str(path))
    assert not hasattr(loaded, "NRT_incref") and not hasattr(loaded, "NRT_decref")
