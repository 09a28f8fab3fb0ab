"""Building the kernels' shared libraries (:mod:`c4engine.kernels.library` names and loads them).

:func:`build` wraps the compiled kernel of a geometry in a C entry point (a
numba ``cfunc`` on raw pointers), has LLVM emit it as position-independent
machine code for this CPU -- every numba function it calls inlined into it
by LLVM (:func:`_all_inlined`) -- and links it with the system's C compiler
into a shared library.  numba's own C wrapper, which would need
numba's runtime, is rewritten away in the LLVM IR (:func:`_without_function`,
:func:`_c_entry`, :func:`_never_called`).  This module imports numba and
llvmlite, and runs only in a process of its own: ``setup.py`` at install,
``python -m c4engine.kernels.build NAME...`` otherwise
(:func:`c4engine.kernels.library.build_apart`,
:func:`~c4engine.kernels.library.build_in_background`); a process that only
loads a library never imports it.

A build compiles with numba from scratch (about 20 CPU seconds for a
solver's library, a third of a gigabyte).  numba compiles each kernel
function on its own and unoptimised (:func:`main` sets ``NUMBA_OPT=0``);
LLVM's O3 pipeline then runs once over the entry with everything inlined.
Inlined at numba's IR level instead (``inline="always"``), the search was one
very large function for numba's own passes, and each function optimised
twice: 57 CPU seconds and 600 MB a library (docs/benchmarks.md, "The install").
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from c4engine.geometry import fits_64_bits
from c4engine.kernels import SPECIALISED, cache_dir
from c4engine.kernels.library import (
    ANY_SIZE,
    ENGINE,
    ENGINE_ENTRY,
    ENTRY,
    WIDE,
    can_build_named,
    compiler,
    geometry_name,
    named_path,
)


def build(width: int, height: int, connect: int, folder: Path | None = None) -> Path | None:
    """Compile and link the geometry's library (imports numba); its path, or None where it cannot be made.

    Takes a few CPU seconds on top of the numba kernel's own compile (which
    is cached).  The file appears at once, complete or not at all, so
    processes building it side by side do no harm.  A build that fails
    (a compiler that cannot link, say) leaves a ``.failed`` file beside
    where the library would be, and is not tried again for these sources.
    """
    return _build(geometry_name(width, height, connect), lambda: _object_code(width, height, connect), folder)


def build_named(name: str, folder: Path | None = None) -> Path | None:
    """:func:`build` for library ``name``: a geometry's (``"7x6x4"``), :data:`ANY_SIZE` or :data:`ENGINE`."""
    if name in (ANY_SIZE, WIDE):
        return _build(name, lambda: _any_size_object_code(name == WIDE), folder)
    if name == ENGINE:
        return _build(name, _engine_object_code, folder)
    width, height, connect = (int(size) for size in name.split("x"))
    return build(width, height, connect, folder)


def _build(name: str, object_code: Callable[[], bytes], folder: Path | None) -> Path | None:
    import subprocess
    import tempfile

    cc = compiler()
    if cc is None or not can_build_named(name, folder):
        return None
    path = named_path(name, folder)
    failed = path.with_suffix(".failed")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        obj = object_code()
        with tempfile.TemporaryDirectory(dir=path.parent) as scratch:
            source = Path(scratch) / "kernel.o"
            source.write_bytes(obj)
            linked = Path(scratch) / path.name
            # every symbol resolved now: a library that would need numba's runtime is refused here
            link = [cc, "-shared", "-Wl,--no-undefined", "-o", str(linked), str(source)]
            subprocess.run(link, check=True, capture_output=True, timeout=300)
            os.replace(linked, path)
    except (OSError, subprocess.SubprocessError):
        with contextlib.suppress(OSError):
            failed.touch()
        return None
    finally:
        with contextlib.suppress(OSError):
            path.with_suffix(".building").unlink(missing_ok=True)
    return path


SHIPPED_NAMES = (ENGINE, ANY_SIZE, WIDE)
"""The libraries an install builds (``setup.py``): the engine's and the solver's for every size, up to
64 bits and past them -- every board answers at once.  A geometry of
:data:`c4engine.kernels.SPECIALISED` gets its own library on its first use, built in the background
while the one for every size answers (:func:`c4engine.kernels.library.solver_kernel`): it would add
as much again to the install."""

ALL_NAMES = (*SHIPPED_NAMES, *(geometry_name(*geometry) for geometry in sorted(SPECIALISED)))
"""Every library there is to build: :data:`SHIPPED_NAMES` and one for each geometry of
:data:`c4engine.kernels.SPECIALISED`."""


def build_shipped(
    folder: Path, say: Callable[[str], None] = print, names: tuple[str, ...] = SHIPPED_NAMES
) -> list[Path]:
    """Build libraries ``names`` (:func:`build_named`), those an install ships by default, into
    ``folder``; what was built.

    ``say`` is told of each -- its wall and CPU seconds and this process's
    peak memory so far -- and of each that could not be built (the package
    then builds it on first use, as without this step).
    """
    import resource

    made = []
    for name in names:
        began, cpu = time.perf_counter(), time.process_time()
        path = build_named(name, folder)
        if path is None:
            say(f"could not build the {name} kernel library (it is built on first use instead)")
        else:
            seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024  # KiB on Linux
            say(
                f"built the {name} kernel library in {seconds:.0f} s ({cpu:.0f} CPU s, {peak} MB): "
                f"{path.name}"
            )
            made.append(path)
    return made


def _numba_tools() -> tuple[Any, Any, Any, Any]:
    """numba's ``carray``, ``cfunc`` and ``types``, and an intrinsic ``pointer(address, dtype)``:
    the int64 ``address`` as a pointer to values of numpy type ``dtype``."""
    from numba import carray, cfunc, types  # type: ignore[attr-defined]
    from numba.core.errors import NumbaWarning
    from numba.extending import intrinsic

    # the functions an entry calls, compiled for it, hold the entry's function values and are not
    # cached: the library is the build's product, not numba's cache
    warnings.filterwarnings("ignore", "Cannot cache compiled function", NumbaWarning)
    c_pointer: Any = types.CPointer

    @intrinsic
    def as_pointer(typingctx, address, kind):  # type: ignore[no-untyped-def]
        made = c_pointer(kind.instance_type)

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            return builder.inttoptr(args[0], context.get_value_type(made))

        return made(address, kind), codegen

    return carray, cfunc, types, as_pointer


def _solver_entry(width: int, height: int, connect: int, wide: bool = False) -> Any:
    """The solver's C entry point (a numba ``cfunc``): with the
    geometry's sizes compiled in, or, for width 0, the sizes in three more words (``wide``: for
    the boards past 64 bits, whose words take two uint64)."""
    import numpy as np

    from c4engine.kernels.layout import BUSY_BITS, I_SIZE, R_SIZE, S_SIZE, USTACK_SIZE, KernelArgs
    from c4engine.kernels.solve import _generic_kernel, kernel_for
    from c4engine.kernels.transposition import TABLE_HEADER

    carray, cfunc, types, pointer = _numba_tools()
    from numba import njit

    u64, i64, u8 = np.uint64, np.int64, np.uint8
    fields = len(KernelArgs._fields)
    signature = types.int64(types.CPointer(types.int64), types.int64)

    def unpacker(word: tuple[int, ...]) -> Any:
        """A compiled ``unpack(w, count, width, height)``: the kernel's arguments from their words,
        each array with its shape, on boards whose words have shape ``word`` -- ``()`` up to 64
        bits, ``(2,)`` past them, where a word and a table entry take two uint64."""
        entry_words = 2 if word else 1

        @njit(inline="always")
        def unpack(w, count, width, height):  # type: ignore[no-untyped-def]
            depth = width * height + 2  # layout.stack_depth, spelled out for numba
            # transposition.table_entries(bits, near_bits), likewise
            entries = (entry_words << w[4]) + ((entry_words << w[5]) if w[5] else 0) + TABLE_HEADER
            return KernelArgs(  # in KernelArgs' order
                carray(pointer(w[0], u64), (count, 2, *word)),
                carray(pointer(w[1], i64), (count, R_SIZE)),
                carray(pointer(w[2], i64), (S_SIZE,)),
                carray(pointer(w[3], u64), (entries,)),
                w[4],
                w[5],
                w[6],
                w[7],
                w[8],
                carray(pointer(w[9], u8), (1,)),
                carray(pointer(w[10], u64), (depth, USTACK_SIZE, *word)),
                carray(pointer(w[11], i64), (depth, I_SIZE)),
                carray(pointer(w[12], u64), (depth, width, *word)),
                carray(pointer(w[13], i64), (depth, width)),
                carray(pointer(w[14], u64), (depth, width, *word)),
                carray(pointer(w[15], i64), (width,)),
                carray(pointer(w[16], u64), (width, *word)),
                carray(pointer(w[17], u64), (1 << BUSY_BITS, *word)),
                w[18],
            )

        return unpack

    if width == 0:
        unpack_any = unpacker((2,) if wide else ())

        @cfunc(signature)
        def any_size(words, count):  # type: ignore[no-untyped-def]
            w = carray(words, (fields + 3,))
            width, height, connect = w[fields], w[fields + 1], w[fields + 2]
            return _generic_kernel(unpack_any(w, count, width, height), width, height, connect)

        return any_size

    unpack = unpacker(() if fits_64_bits(width, height) else (2,))

    kernel = kernel_for(width, height, connect)

    @cfunc(signature)
    def entry(words, count):  # type: ignore[no-untyped-def]
        return kernel(unpack(carray(words, (fields,)), count, width, height))  # the sizes: constants

    return entry


def _object_code(width: int, height: int, connect: int) -> bytes:
    """The geometry's kernel's entry point as a position-independent object file for this CPU."""
    return _emitted(_solver_entry(width, height, connect), ENTRY)


def _any_size_object_code(wide: bool) -> bytes:
    """The entry point of the solver for every size (:data:`ANY_SIZE`; :data:`WIDE` past 64 bits) as an
    object file."""
    return _emitted(_solver_entry(0, 0, 0, wide), ENTRY)


def _engine_object_code() -> bytes:
    """The engine's entry point (:data:`ENGINE`, :func:`load_engine` packs its words) as an object file."""
    import numpy as np

    from c4engine.kernels.engine_layout import Weights
    from c4engine.kernels.heuristic import run
    from c4engine.kernels.layout import S_SIZE

    carray, cfunc, types, pointer = _numba_tools()
    u64, i64, f64 = np.uint64, np.int64, np.float64
    signature = types.int64(types.CPointer(types.int64), types.CPointer(types.float64))

    @cfunc(signature)
    def entry(words, numbers):  # type: ignore[no-untyped-def]
        w = carray(words, (29,))
        f = carray(numbers, (2,))
        width, height, connect = w[2], w[3], w[4]
        rows = width * height + 2  # engine_layout.plies, spelled out for numba
        size = 1 << w[18]
        weights = Weights(
            carray(pointer(w[8], u64), (w[9],)),
            carray(pointer(w[10], f64), (connect + 1,)),
            carray(pointer(w[11], f64), (connect + 1,)),
            f[0],
            u64(w[12]),
            f[1],
        )
        return run(
            u64(w[0]), u64(w[1]), width, height, connect, w[5], carray(pointer(w[6], i64), (w[7],)),
            weights, carray(pointer(w[13], u64), (size,)), carray(pointer(w[14], f64), (size,)),
            carray(pointer(w[15], f64), (size,)), carray(pointer(w[16], i64), (size,)),
            carray(pointer(w[17], i64), (size,)), w[18], w[19],
            carray(pointer(w[20], u64), (rows, 2)), carray(pointer(w[21], f64), (rows, 4)),
            carray(pointer(w[22], i64), (rows, 3)), carray(pointer(w[23], i64), (rows, width)),
            carray(pointer(w[24], i64), (rows, rows)), carray(pointer(w[25], i64), (rows,)),
            carray(pointer(w[26], i64), (S_SIZE,)), carray(pointer(w[27], f64), (1,)), w[28],
        )  # fmt: skip

    return _emitted(entry, ENGINE_ENTRY)


def _emitted(entry: Any, name: str) -> bytes:
    """numba's ``cfunc`` ``entry`` as C function ``name`` in an object file for this CPU, every numba
    function it calls inlined into it."""
    import llvmlite.binding as llvm  # type: ignore[import-untyped]

    inner = entry.native_name.removeprefix("cfunc.")
    kinds = ["i64" if kind is ctypes.c_int64 else "ptr" for kind in entry.ctypes.argtypes]
    code = _without_function(entry.inspect_llvm(), entry.native_name) + _c_entry(name, inner, kinds)
    code = _never_called(code, "NRT_MemInfo_call_dtor")
    code = _inlinable(_inlinable(code, "NRT_incref"), "NRT_decref")
    module = llvm.parse_assembly(_all_inlined(code, name))
    module.verify()
    machine = llvm.Target.from_default_triple().create_target_machine(
        cpu=llvm.get_host_cpu_name(),
        features=llvm.get_host_cpu_features().flatten(),
        opt=3,
        reloc="pic",
        codemodel="default",
    )
    if hasattr(llvm, "create_pass_builder"):  # llvmlite 0.44 on: LLVM's O3 pipeline, for the inlining
        options = llvm.create_pipeline_tuning_options(speed_level=3)
        options.slp_vectorization = True  # the move ranking's threats, four columns at once (kernels.moves)
        builder = llvm.create_pass_builder(machine, options)
        builder.getModulePassManager().run(module, builder)
    return bytes(machine.emit_object(module))


def _all_inlined(code: str, entry: str) -> str:
    """LLVM IR ``code`` with every function it defines but C function ``entry`` marked to be inlined.

    numba compiles each kernel function on its own; inlined, the arrays'
    shapes are constants inside the entry, so the search's index arithmetic
    folds and its values stay in registers instead of crossing calls
    (5-11 % less time for the search alone, docs/benchmarks-log.md).  A
    function that must stay out of line (``noinline``, on its line or in its
    attribute group) is left as it is.
    """
    kept_apart = {
        group
        for group, attributes in re.findall(r"^attributes (#\d+) = \{([^}]*)\}", code, re.MULTILINE)
        if "noinline" in attributes.split()
    }
    lines = code.split("\n")
    for at, line in enumerate(lines):
        if not line.startswith("define ") or not line.endswith(" {") or f"@{entry}(" in line:
            continue
        if "noinline" in line or "alwaysinline" in line or kept_apart & set(re.findall(r"#\d+", line)):
            continue
        lines[at] = line[:-1] + "alwaysinline {"
    return "\n".join(lines)


def _without_function(code: str, name: str) -> str:
    """LLVM IR ``code`` without the definition of function ``name``.

    It drops numba's own C wrapper, which turns an exception of the kernel
    into a Python one through numba's runtime (not loaded without numba);
    the kernel raises none.
    """
    start = code.index(f"@{name}(")
    start = code.rindex("\ndefine ", 0, start) + 1
    end = code.index("\n}\n", start) + 3
    return code[:start] + code[end:]


def _c_entry(name: str, inner: str, kinds: list[str]) -> str:
    """LLVM IR of C function ``name``: numba's function ``inner`` called the C way (-1 if it ever failed)."""
    arguments = ", ".join(f"{kind} %a{i}" for i, kind in enumerate(kinds))  # passed on as they came
    return f"""
define i64 @{name}({arguments}) {{
  %result = alloca i64
  %error = alloca ptr
  store i64 0, ptr %result
  %status = call i32 @{inner}(ptr %result, ptr %error, {arguments})
  %ok = icmp eq i32 %status, 0
  %value = load i64, ptr %result
  %answer = select i1 %ok, i64 %value, i64 -1
  ret i64 %answer
}}
"""


def _inlinable(code: str, name: str) -> str:
    """``code`` with function ``name``'s attributes (numba's ``noinline`` among them) dropped, so
    that LLVM may inline it.

    numba keeps its reference counting (``NRT_incref``, ``NRT_decref``)
    out of line so that its own pass can pair and remove the calls; the
    calls left each cost a call, and registers spilt around it, in the
    search's loop (125 of them in the 7x6 library).  Inlined into the
    entry, whose arrays are views with no count (a null ``meminfo``), each
    is a test of a null constant, and goes.  ``code`` is returned as it is
    when the definition does not look as expected.
    """
    definition = re.search(rf"^define [^\n]*@{name}\([^\n]*\) [^\n]*?(#\d+ )?\{{$", code, re.MULTILINE)
    if definition is None or definition[1] is None:
        return code
    line = definition[0]
    return code[: definition.start()] + line.replace(definition[1], "") + code[definition.end() :]


def _never_called(code: str, name: str) -> str:
    """``code`` with the external function ``name`` defined as a trap.

    numba's reference counting calls ``NRT_MemInfo_call_dtor`` when an
    array's count drops to zero; the kernel's arrays are views of the
    caller's memory with no count at all, so it never runs.
    """
    declaration = re.search(rf"^declare [^@\n]*@{name}\(([^)]*)\)[^\n]*$", code, re.MULTILINE)
    if declaration is None:
        return code
    parameters = ", ".join(f"{kind.split()[0]} %p{i}" for i, kind in enumerate(declaration[1].split(",")))
    trap = f"define void @{name}({parameters}) {{\n  call void @llvm.trap()\n  unreachable\n}}\n"
    trap += "declare void @llvm.trap()\n"
    return code[: declaration.start()] + trap + code[declaration.end() :]


def main(arguments: list[str]) -> int:
    """``python -m c4engine.kernels.build [NAME...] [--into FOLDER]``: build libraries ``NAME``
    (see :func:`build_named`; all of :data:`ALL_NAMES` if none) into ``FOLDER`` (the cache
    folder if not given), a line for each; 1 if one could not be built."""
    # numba's optimisation of each function on its own is wasted on code LLVM then inlines and
    # optimises whole (_emitted): read when numba is imported, which no build has done yet
    os.environ["NUMBA_OPT"] = "0"
    folder = None
    if "--into" in arguments:
        at = arguments.index("--into")
        folder = Path(arguments[at + 1])
        arguments = arguments[:at] + arguments[at + 2 :]
    names = tuple(arguments) or ALL_NAMES
    return 0 if len(build_shipped(folder or cache_dir(), names=names)) == len(names) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
