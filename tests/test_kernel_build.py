"""Building the kernels' shared libraries (kernels/build.py): what a build does when it cannot link,
how it rewrites numba's LLVM IR, and numba's inlining made quicker without changing what it makes."""

from __future__ import annotations

import ast
import subprocess
import sys
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


def test_the_search_is_marked_for_inlining_at_its_definition_only() -> None:
    code = (
        "define i32 @entry(ptr %a) {\n  %r = call i32 @search(ptr %a)\n  ret i32 %r\n}\n"
        "define linkonce_odr i32 @search(ptr %a) local_unnamed_addr {\n  ret i32 0\n}\n"
    )
    marked = build._inlined(code, "search")
    assert "@search(ptr %a) local_unnamed_addr alwaysinline {" in marked
    assert marked.count("alwaysinline") == 1 and "call i32 @search(ptr %a)" in marked
    assert build._inlined(code, "elsewhere") == code  # no such definition: left as it is
    never = code.replace("local_unnamed_addr {", "noinline {")
    assert build._inlined(never, "search") == never


# Three functions inlined by numba into one another, with branches and a loop: blocks enough that
# each block's copy of the callee's scope would be a copy of its own.
_INLINED = """
import sys
from numba import njit
from numba.core import ir

if sys.argv[1] == "shared":
    from c4engine.kernels.build import _share_scope_copies
    _share_scope_copies()
    copy_scope, copies = ir.Scope.__deepcopy__, []
    ir.Scope.__deepcopy__ = lambda scope, memo: copies.append(scope) or copy_scope(scope, memo)

@njit(inline="always")
def step(x, y):
    if x > y:
        x -= y
    elif x == y:
        x = x * 3 + 1
    else:
        y -= x
    return x, y

@njit(inline="always")
def walk(x, y, n):
    total = 0
    for _ in range(n):
        x, y = step(x, y)
        if x & 1:
            total += x
        else:
            total ^= y
    return total

@njit
def outer(x, y, n):
    return walk(x, y, n) + walk(y, x, n)

print(outer(27, 5, 40))
print(sys.argv[1] != "shared" or len(copies) > 0)  # the shared copy did the copying
print(outer.inspect_llvm(outer.signatures[0]))
"""


def test_numba_inlines_the_same_code_with_one_scope_copy_a_call(tmp_path: Path) -> None:
    """:func:`build._share_scope_copies` changes how numba copies, not what it compiles: the
    same answer and the same LLVM IR, byte for byte, as numba's own copies give."""
    made = {}
    for how in ("numba's own", "shared"):
        done = subprocess.run(
            [sys.executable, "-c", _INLINED, how],
            capture_output=True,
            text=True,
            check=True,
            env={"NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"},
        )
        answer, copied, code = done.stdout.split("\n", 2)
        assert copied == "True"
        made[how] = (answer, code)
    assert made["shared"] == made["numba's own"]
    assert "define" in made["shared"][1]


def test_the_install_builds_each_shipped_library_once() -> None:
    """setup.py's build processes (its ``BATCHES``) make :data:`build.SHIPPED_NAMES`, each once; a
    working copy's (``pip install -e .``) every specialised geometry's too: every library there is."""
    source = ast.parse((Path(__file__).resolve().parent.parent / "setup.py").read_text())
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
